// resumeflags.go checks the flags given with --resume against the
// campaign's recorded settings: a flag --resume takes (resumeAllows) is
// the run's own; a flag that records a setting is accepted when its value
// is the one recorded (the original command repeated with --resume) and
// refused, naming the flag and both values, when it would change it; any
// other flag is refused by name.

package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// recordedFlags gives, for the flags whose value a campaign records as one
// setting, that setting as the flag's value reads (after flagValue).
var recordedFlags = map[string]func(s *fuzz.Settings, dir string) string{
	"out":          func(_ *fuzz.Settings, dir string) string { return filepath.Clean(dir) },
	"seed":         func(s *fuzz.Settings, _ string) string { return strconv.FormatUint(s.Seed, 10) },
	"graphs":       func(s *fuzz.Settings, _ string) string { return strconv.Itoa(s.Graphs) },
	"duration":     func(s *fuzz.Settings, _ string) string { return time.Duration(s.Duration).String() },
	"timeout":      func(s *fuzz.Settings, _ string) string { return time.Duration(s.Timeout).String() },
	"walks":        func(s *fuzz.Settings, _ string) string { return strconv.Itoa(s.Walks) },
	"strategy":     func(s *fuzz.Settings, _ string) string { return s.Strategy },
	"inject":       func(s *fuzz.Settings, _ string) string { return strings.Join(s.Inject, ",") },
	"shard":        func(s *fuzz.Settings, _ string) string { return s.Shard.String() },
	"structurizer": func(s *fuzz.Settings, _ string) string { return s.Current },
	"mutate":       func(s *fuzz.Settings, _ string) string { return strconv.FormatFloat(s.Mutate, 'g', -1, 64) },
	"corpus-batch": func(s *fuzz.Settings, _ string) string { return strconv.Itoa(s.CorpusBatch) },
	"registers":    func(s *fuzz.Settings, _ string) string { return strconv.Itoa(s.Registers) },
	"gpu-every":    func(s *fuzz.Settings, _ string) string { return strconv.Itoa(s.GPUEvery) },
	"gpu-device":   func(s *fuzz.Settings, _ string) string { return s.GPUDevice },
}

// flagValue is a given flag's value as recordedFlags reads the setting:
// a path cleaned, a structurizer spec as the campaign records it (its
// relative paths absolute, a revision resolved to its commit: where that
// fails, the spec as given, which then differs from the recorded one).
func flagValue(fl *flag.Flag) string {
	v := fl.Value.String()
	switch fl.Name {
	case "out":
		return filepath.Clean(v)
	case "structurizer":
		if spec, err := fuzz.RecordedSpec(v); err == nil {
			return spec
		}
	case "inject":
		return strings.Join(splitList(v), ",")
	}
	return v
}

// resumeFlagsOnly refuses a flag --resume would ignore: a resumed
// campaign runs on its recorded settings. A flag equal to its recorded
// setting changes nothing and is accepted.
func (f *campaignFlags) resumeFlagsOnly(fs *flag.FlagSet) error {
	if f.resume == "" {
		return nil
	}
	recorded, _, loadErr := fuzz.LoadCampaign(f.resume) // an error is config's to report
	var changed, other []string
	for name := range f.set {
		if slices.Contains(resumeAllows, name) {
			continue
		}
		setting, known := recordedFlags[name]
		if !known || loadErr != nil {
			other = append(other, "--"+name)
			continue
		}
		was, is := setting(&recorded, f.resume), flagValue(fs.Lookup(name))
		if was != is {
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
	return fmt.Errorf("--resume %s continues that campaign with its recorded settings, so they cannot change: %s (only --workers, --progress, --minimize and its budget, --state, --night, --corpus and the profiles may; the campaign's own flags may be repeated with their recorded values); for other settings start a new campaign: another --out, or --force",
		f.resume, strings.Join(what, "; "))
}

// shownValue is a flag's value in a message: "(none)" for an empty one.
func shownValue(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
