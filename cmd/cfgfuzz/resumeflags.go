// resumeflags.go checks the flags given with --resume against the
// campaign's recorded settings: a flag --resume takes (resumeAllows) is
// the run's own; a flag that records a setting is accepted when the
// setting it gives is the one recorded (the original command repeated
// with --resume) and refused, naming the flag and both settings, when it
// would change it; any other flag is refused by name.

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// recordedFlags gives, for the flags whose value a campaign records in
// its settings, that setting as a string: the recorded settings' and the
// given flags' (flagSettings) are compared through it. Flags that give
// one setting together (--checks and --allow-fallbacks) read it alike;
// --kinds, --weights and --blocks each read their part of the streams.
var recordedFlags = map[string]func(s *fuzz.Settings) string{
	"seed":              func(s *fuzz.Settings) string { return strconv.FormatUint(s.Seed, 10) },
	"graphs":            func(s *fuzz.Settings) string { return strconv.Itoa(s.Graphs) },
	"duration":          func(s *fuzz.Settings) string { return time.Duration(s.Duration).String() },
	"timeout":           func(s *fuzz.Settings) string { return time.Duration(s.Timeout).String() },
	"check-timeout":     func(s *fuzz.Settings) string { return time.Duration(s.CheckTimeout).String() },
	"start-timeout":     func(s *fuzz.Settings) string { return time.Duration(s.StartTimeout).String() },
	"growth-time":       growthTimeSetting,
	"max-answer":        func(s *fuzz.Settings) string { return strconv.Itoa(s.MaxAnswer) },
	"walks":             func(s *fuzz.Settings) string { return strconv.Itoa(s.Walks) },
	"strategy":          func(s *fuzz.Settings) string { return s.Strategy },
	"baseline-strategy": func(s *fuzz.Settings) string { return s.BaselineStrategy },
	"inject":            func(s *fuzz.Settings) string { return strings.Join(s.Inject, ",") },
	"shard":             func(s *fuzz.Settings) string { return s.Shard.String() },
	"checks":            checksSetting,
	"allow-fallbacks":   checksSetting,
	"kinds":             streamsPart(func(st fuzz.Stream) string { return st.Kind }),
	"weights":           streamsPart(func(st fuzz.Stream) string { return st.Weights }),
	"blocks":            streamsPart(func(st fuzz.Stream) string { return st.Blocks }),
	"target-env":        func(s *fuzz.Settings) string { return s.TargetEnv },
	"rules-compat":      func(s *fuzz.Settings) string { return s.RulesCompat },
	"dispatch-every":    func(s *fuzz.Settings) string { return strconv.Itoa(s.DispatchEvery) },
	"max-growth":        maxGrowthSetting,
	"guided":            func(s *fuzz.Settings) string { return strconv.FormatBool(s.Guided) },
	"mutate":            func(s *fuzz.Settings) string { return strconv.FormatFloat(s.Mutate, 'g', -1, 64) },
	"corpus-batch":      func(s *fuzz.Settings) string { return strconv.Itoa(s.CorpusBatch) },
	"registers":         func(s *fuzz.Settings) string { return strconv.Itoa(s.Registers) },
	"gpu-every":         func(s *fuzz.Settings) string { return strconv.Itoa(s.GPUEvery) },
	"gpu-device":        func(s *fuzz.Settings) string { return s.GPUDevice },
}

// checksSetting is the checks a campaign runs; nil the oracle's defaults.
func checksSetting(s *fuzz.Settings) string {
	if s.Checks == nil {
		return "the default checks"
	}
	return strings.Join(s.Checks, ",")
}

// streamsPart is one part of a campaign's graph streams (the generators,
// the weight settings or the block range), each value once, in order.
func streamsPart(part func(fuzz.Stream) string) func(*fuzz.Settings) string {
	return func(s *fuzz.Settings) string {
		var seen []string
		for _, st := range s.Streams {
			if v := part(st); !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
		return strings.Join(seen, ",")
	}
}

// growthTimeSetting is the growth check's time limit; a campaign that
// records none ran under the default.
func growthTimeSetting(s *fuzz.Settings) string {
	if s.GrowthTime == 0 {
		return fuzz.DefaultGrowthTime.String()
	}
	return time.Duration(s.GrowthTime).String()
}

// maxGrowthSetting is --max-growth's percent; "" none.
func maxGrowthSetting(s *fuzz.Settings) string {
	if s.MaxGrowth == nil {
		return ""
	}
	return strconv.FormatFloat(*s.MaxGrowth, 'g', -1, 64)
}

// repeatedFlag is a flag's recorded setting and the one it gives now, as
// strings; known is false for a flag whose setting is not recorded. --out
// reads as a cleaned path; --structurizer and --baseline-structurizer as
// the campaign records a spec (its relative paths absolute, a revision
// resolved to its commit), --isolate as the current side it names.
func (f *campaignFlags) repeatedFlag(name string, recorded, given *fuzz.Settings) (was, is string, known bool) {
	switch name {
	case "out":
		return filepath.Clean(f.resume), filepath.Clean(f.out), true
	case "structurizer":
		return recorded.Current, specAsRecorded(f.structurizerCmd), true
	case "baseline-structurizer":
		return recorded.Baseline, specAsRecorded(f.baselineStructurizer), true
	case "baseline":
		if f.baseline == lastGoodBaseline {
			return "", "", false // tonight's last good night may be another
		}
		spec, err := f.sideSpec("--baseline", f.baseline)
		if err != nil {
			return recorded.Baseline, f.baseline, true
		}
		return recorded.Baseline, specAsRecorded(spec), true
	case "current":
		spec, err := f.sideSpec("--current", f.current)
		if err != nil {
			return recorded.Current, f.current, true
		}
		return recorded.Current, specAsRecorded(spec), true
	case "repo":
		return recordedRepo(recorded), f.repo, true
	case "build", "serve":
		var was fuzz.Project
		if recorded.Project != nil {
			was = *recorded.Project
		}
		if name == "build" {
			return was.Build, f.project.build, true
		}
		return was.Serve, f.project.serve, true
	case "isolate":
		is = fuzz.SpecSelf
		if f.isolate {
			is = fuzz.SpecIsolated
		}
		return recorded.Current, is, true
	}
	setting, known := recordedFlags[name]
	if !known {
		return "", "", false
	}
	return setting(recorded), setting(given), true
}

// specAsRecorded is a structurizer spec as a campaign records it; where
// that fails, the spec as given.
func specAsRecorded(v string) string {
	if spec, err := fuzz.RecordedSpec(v); err == nil {
		return spec
	}
	return v
}

// recordedRepo is the repository a campaign's repo: specs name (the
// baseline's, else the current side's); "" none.
func recordedRepo(s *fuzz.Settings) string {
	for _, v := range []string{s.Baseline, s.Current} {
		if sp, err := fuzz.ParseSpec(v); err == nil && sp.Kind == fuzz.SpecRepo {
			return sp.Repo
		}
	}
	return ""
}

// repoOrAbs is the repository --repo p names (repoFlag), as a new
// campaign records it; where that fails, p made absolute.
func repoOrAbs(p string) string {
	if top, err := repoFlag(p); err == nil {
		return top
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// givenSettings is the settings the flags give (flagSettings), guided
// generation's included; an error names a flag's bad value.
func (f *campaignFlags) givenSettings() (fuzz.Settings, error) {
	s, err := f.flagSettings()
	g := f.guide
	s.Guided, s.Mutate, s.CorpusBatch = g.guided || g.mutate > 0 || g.corpus != "", g.mutate, g.batch
	return s, err
}

// resumeFlagsOnly refuses a flag --resume would ignore: a resumed
// campaign runs on its recorded settings. A flag whose setting equals the
// recorded one changes nothing and is accepted.
func (f *campaignFlags) resumeFlagsOnly() error {
	if f.resume == "" {
		return nil
	}
	recorded, _, loadErr := fuzz.LoadCampaign(f.resume) // an error is config's to report
	if errors.Is(loadErr, fs.ErrNotExist) && slices.ContainsFunc(slices.Collect(maps.Keys(f.set)), func(name string) bool { return !slices.Contains(resumeAllows, name) }) {
		// No campaign to hold the flags against: that is what to say, not
		// that a flag cannot change (without such flags, config says why
		// there is none: a campaign still starting, or none).
		return fmt.Errorf("--resume %s: no campaign to resume there (%v)", f.resume, loadErr)
	}
	if f.repo != "" {
		f.repo = repoOrAbs(f.repo) // the sides' specs name it as recorded
	}
	given, givenErr := f.givenSettings()
	var changed, other []string
	for name := range f.set {
		if slices.Contains(resumeAllows, name) {
			continue
		}
		was, is, known := f.repeatedFlag(name, &recorded, &given)
		switch {
		case !known || loadErr != nil:
			other = append(other, "--"+name)
		case givenErr != nil && name != "out" && name != "structurizer":
			return fmt.Errorf("--resume %s: %w", f.resume, givenErr)
		case was != is:
			changed = append(changed, fmt.Sprintf("--%s changed from %s to %s", name, shownValue(was), shownValue(is)))
		}
	}
	if len(changed) == 0 && len(other) == 0 {
		return nil
	}
	slices.Sort(changed)
	slices.Sort(other)
	var what []string
	if len(changed) > 0 {
		what = append(what, strings.Join(changed, ", "))
	}
	if len(other) > 0 {
		what = append(what, strings.Join(other, ", ")+" cannot change")
	}
	return fmt.Errorf("--resume %s continues that campaign with its recorded settings, so they cannot change: %s (only --workers, --progress, --minimize and its budget, --state, --night, --corpus, --save-regressions and the profiles may; the campaign's own flags may be repeated with their recorded values); for other settings start a new campaign: another --out, or --force",
		f.resume, strings.Join(what, "; "))
}

// shownValue is a flag's value in a message: "(none)" for an empty one.
func shownValue(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
