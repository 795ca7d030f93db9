// write.go writes a report's three forms into a directory: report.json
// (REPORT.md documents it), report.md and report.html with a Graphviz file
// per picture under pictures/; fills the findings' replay commands from the
// graph source, and links each finding to its entry of the findings store
// when the store is beside the report.

package fuzz

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// WriteReports fills replay commands (the findings', the harness errors',
// the declined reasons' and the size examples'; src may be nil) and writes
// report.json, report.md and report.html into dir, all three or, when a
// write fails, none.
func WriteReports(dir string, rep *Report, src Source) error {
	if src != nil {
		for i := range rep.Findings {
			f := &rep.Findings[i]
			f.Replay = replayCommand(src, &rep.Settings, f.Subject(), f.Signature)
		}
		if d := rep.Divergences; d != nil && d.Size != nil {
			d.Size.fillReplays(src, &rep.Settings)
		}
		for i := range rep.HarnessErrors {
			e := &rep.HarnessErrors[i]
			e.Replay = replayCommand(src, harnessSide(&rep.Settings, e), e, harnessReplaySignature(&rep.Settings, e))
		}
		if d := rep.Declined; d != nil {
			for i := range d.Reasons {
				r := &d.Reasons[i]
				r.Replay = replayCommand(src, &rep.Settings, &r.First, "")
			}
		}
	}
	if rep.Provenance == nil {
		rep.Provenance = NewProvenance(&rep.Settings, ThisWriter(), time.Now())
	}
	noteMinimized(rep)
	findStored(dir, rep)
	rep.Sides = NameSides(&rep.Settings)
	for i := range rep.Findings {
		rep.Findings[i].Bisect = bisectCommand(dir, &rep.Settings, rep.Sides, &rep.Findings[i])
	}
	if err := writePictures(dir, rep); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	// The three forms replace the old ones together: a write that fails (a
	// full disk) leaves no mix of two reports.
	return corpus.ReplaceFiles(
		[]string{filepath.Join(dir, "report.json"), filepath.Join(dir, "report.md"), filepath.Join(dir, "report.html")},
		[][]byte{append(b, '\n'), []byte(Markdown(rep)), []byte(HTML(rep))})
}

// ReportsWritten says whether this process has put the reports into dir
// (WriteReports): all three, since they are renamed into place together
// (corpus.ReplaceFiles, package tidy).
func ReportsWritten(dir string) bool {
	return tidy.Replaced(filepath.Join(dir, "report.json"))
}

// replayCommand reproduces one graph: the source's command printing it,
// piped into `cfgfuzz check` on the campaign's structurizer (its spec) with
// the campaign's options and oracle settings.
// A guided campaign's mutant, labelled GraftStream, which no source
// regenerates, is printed from its own text.
func replayCommand(src Source, s *Settings, e *Example, signature string) string {
	var print string
	switch g, err := graphOf(e); {
	case e.Mutant == "":
		print = src.Replay(e.Stream, e.Seed)
	case err == nil:
		print = "printf '%s' " + ShellQuote(cfg.FormatLines(g))
	default: // a damaged report: its compact text as it stands
		print = "printf '%s\\n' " + ShellQuote(e.Graph)
	}
	return print + " | " + checkCommand(s, cmp.Or(e.Strategy, s.Strategy), signature)
}

// harnessSide is the settings a harness error's replay judges e with:
// the baseline side's (its spec and strategy, no faults, as a size
// example's baseline replay) when the error is the baseline's alone, s
// otherwise.
func harnessSide(s *Settings, e *Example) *Settings {
	cur, _, _ := strings.Cut(e.Current, ":")
	base, _, _ := strings.Cut(e.Baseline, ":")
	if cur == OutError || base != OutError || s.Baseline == "" {
		return s
	}
	b := *s
	b.Current, b.Inject, b.Strategy = s.Baseline, nil, cmp.Or(s.BaselineStrategy, s.Strategy)
	return &b
}

// harnessReplaySignature is the signature a harness error's replay
// judges as: a gpu check's ("gpu:", which puts the check into the
// replay) for a graph the campaign's gpu check sampled (Settings.GPUEvery),
// whose error may be that check's, as one past the check limit with the
// gpu check still running is; "" otherwise.
func harnessReplaySignature(s *Settings, e *Example) string {
	if s.gpuSampled(e.Index) {
		return "gpu:"
	}
	return ""
}

// CheckCommand is the `cfgfuzz check` command line that judges a graph
// as the campaign s judged it on its current side, for a finding of
// signature ("" when none is known): --structurizer with the side's spec
// (none for self) and, for a repo spec, the --build and --serve the
// campaign was given (Settings.Project), the strategy and faults, the register file, and the
// walks, seed, checks, per-graph limit, check limit, the growth check's
// time limit, target environment and rules reading where
// they differ from check's defaults (16 walks, seed 1, every default
// check, DefaultTimeout, DefaultCheckTimeout, DefaultGrowthTime,
// oracle.DefaultTargetEnv, the specification's reading). A
// finding of the gpu check adds it to the checks when they leave it out
// (a campaign that ran it on every GPUEvery-th graph, a minimize or
// regress that ran every check present), so the replay runs the driver.
func CheckCommand(s *Settings, signature string) string {
	return checkCommand(s, s.Strategy, signature)
}

// checkCommand is CheckCommand for a graph that ran strategy (the
// campaign's, or the dispatch share's).
func checkCommand(s *Settings, strategy, signature string) string {
	var b strings.Builder
	b.WriteString("cfgfuzz check")
	if spec, err := ParseSpec(s.Current); err == nil && spec.Flag() != "" {
		b.WriteString(" " + spec.Flag())
		if spec.Kind == SpecRepo && s.Project != nil {
			b.WriteString(s.Project.Flags())
		}
	}
	b.WriteString(JudgingFlags(s, strategy, signature))
	return b.String()
}

// JudgingFlags are the flags of CheckCommand after the structurizer, each
// with a leading space ("" when every setting is check's default): how s
// judges a graph that ran strategy, for a finding of signature. check and
// minimize take every one; bisect takes all but --inject, which its
// settings never hold.
func JudgingFlags(s *Settings, strategy, signature string) string {
	var b strings.Builder
	if strategy != "" {
		b.WriteString(" --strategy " + strategy)
	}
	if len(s.Inject) > 0 {
		b.WriteString(" --inject " + strings.Join(s.Inject, ","))
	}
	if s.Walks != 16 {
		fmt.Fprintf(&b, " --walks %d", s.Walks)
	}
	if s.Registers > 0 {
		fmt.Fprintf(&b, " --registers %d", s.Registers)
	}
	if s.Seed != 1 {
		fmt.Fprintf(&b, " --seed %d", s.Seed)
	}
	checks := replayChecks(pinnedChecks(s.Checks), signature)
	if checks != "" {
		b.WriteString(" --checks " + ShellQuote(checks))
	}
	if s.GPUDevice != "" && slices.Contains(oracle.ResolveChecks(checks), "gpu") {
		b.WriteString(" --gpu-device " + ShellQuote(s.GPUDevice))
	}
	if t := time.Duration(s.Timeout); t > 0 && t != DefaultTimeout {
		b.WriteString(" --timeout " + t.String())
	}
	if t := time.Duration(s.StartTimeout); t > 0 && t != DefaultStartTimeout {
		b.WriteString(" --start-timeout " + t.String())
	}
	if t := time.Duration(s.CheckTimeout); t > 0 && t != DefaultCheckTimeout {
		b.WriteString(" --check-timeout " + t.String())
	}
	if t := time.Duration(s.GrowthTime); t > 0 && t != DefaultGrowthTime {
		b.WriteString(" --growth-time " + t.String())
	}
	if s.TargetEnv != "" && s.TargetEnv != oracle.DefaultTargetEnv {
		b.WriteString(" --target-env " + ShellQuote(s.TargetEnv))
	}
	if s.RulesCompat != "" {
		b.WriteString(" --rules-compat " + ShellQuote(s.RulesCompat))
	}
	return b.String()
}

// replayChecks is the --checks value that replays a finding of
// signature: checks, with the gpu check added when the finding is the
// gpu check's and checks leave that check out (by name to a list of
// names, else as "+gpu").
func replayChecks(checks, signature string) string {
	if !strings.HasPrefix(signature, "gpu:") || slices.Contains(oracle.ResolveChecks(checks), "gpu") {
		return checks
	}
	if checks != "" && !holdsChanges(splitChecks(checks)) {
		return checks + ",gpu"
	}
	return strings.TrimPrefix(checks+",+gpu", ",")
}

// pinnedChecks is checks (Settings.Checks) as a --checks value of a
// replay command: the names of the checks, as a finding's own header
// records them (corpus.PinChecks), so the command judges as the finding
// was judged under a later cfgfuzz with other default checks; "" the
// defaults. Checks that hold a change ("-fallback", "+gpu": the value a
// regress case was judged under, against regress's own defaults) are
// kept as they are.
func pinnedChecks(checks []string) string {
	if holdsChanges(checks) {
		return strings.Join(checks, ",")
	}
	return corpus.PinChecks(strings.Join(checks, ","))
}

// holdsChanges says whether checks hold a change of the defaults: a
// name prefixed + or -.
func holdsChanges(checks []string) bool {
	return slices.ContainsFunc(checks, func(c string) bool {
		c = strings.TrimSpace(c)
		return strings.HasPrefix(c, "+") || strings.HasPrefix(c, "-")
	})
}

// splitChecks is a --checks value's entries.
func splitChecks(v string) []string { return strings.Split(v, ",") }

// ChecksValue is checks (Settings.Checks) as a regression file's
// '# checks:' records them, so that regress judges the file under its own
// defaults less those: a campaign's checks, resolved to names, are
// written as changes of the default checks ("-fallback" for
// --allow-fallbacks) where those are fewer than the names and resolve to
// the same checks in the same order, else as the names; "" the defaults.
// A finding's own header and its replay command name the checks instead
// (corpus.PinChecks, pinnedChecks): a later cfgfuzz resolves changes
// against its own defaults. Checks that hold a change already
// ("-fallback", "+gpu": the value minimize and regress judged under) are
// kept as they are.
func ChecksValue(checks []string) string {
	names := strings.Join(checks, ",")
	if len(checks) == 0 || holdsChanges(checks) {
		return names
	}
	var changes []string
	for _, c := range oracle.DefaultChecks {
		if !slices.Contains(checks, c) {
			changes = append(changes, "-"+c)
		}
	}
	for _, c := range checks {
		if !slices.Contains(oracle.DefaultChecks, c) {
			changes = append(changes, "+"+c)
		}
	}
	short := strings.Join(changes, ",")
	if len(changes) < len(checks) && slices.Equal(oracle.ResolveChecks(short), checks) {
		return short
	}
	return names
}

// writeFile writes through a temporary file, flushed and renamed, so a
// reader never sees half and a crash leaves the old file or the new one
// (corpus.ReplaceFile).
func writeFile(path string, data []byte) error { return corpus.ReplaceFile(path, data) }

// writePictures writes DIR/pictures/NAME.dot for every picture of
// report.html, each through a temporary file (writeFile). A process that
// ends at once before the reports are in place (a second stop signal)
// removes a pictures directory it made, written part way or not at all
// (tidy.MkdirFor): no pictures without the report that shows them. One
// that was there (a resumed campaign's) stays, each picture in it whole,
// the old one or the new one.
func writePictures(dir string, rep *Report) error {
	pics := reportPictures(rep)
	if len(pics) == 0 {
		return nil
	}
	pdir := filepath.Join(dir, PicturesDir)
	if err := tidy.MkdirFor(pdir, filepath.Join(dir, "report.json")); err != nil {
		return err
	}
	for _, p := range pics {
		if p.Pic == nil {
			continue
		}
		if err := writeFile(filepath.Join(pdir, p.Name+".dot"), []byte(p.Pic.DOT(p.Name))); err != nil {
			return err
		}
	}
	return nil
}

// findStored links each finding to the findings store's entry of the
// graph it was minimized on (Finding.Subject) under DIR/findings
// (corpus.EntryDir), when there is one.
func findStored(dir string, rep *Report) {
	for i := range rep.Findings {
		f := &rep.Findings[i]
		e := f.Subject()
		g, err := graphOf(e)
		if err != nil {
			continue
		}
		rel := corpus.EntryDir(f.Signature, g, cmp.Or(e.Strategy, rep.Settings.Strategy), rep.Settings.Inject)
		des, err := os.ReadDir(filepath.Join(dir, rel))
		if err != nil {
			continue
		}
		f.stored, f.storedFiles = filepath.ToSlash(rel), nil
		for _, de := range des {
			if storeLinked[de.Name()] {
				f.storedFiles = append(f.storedFiles, de.Name())
			}
		}
	}
}

// storeLinked are the files of a store entry report.html links.
var storeLinked = map[string]bool{
	"graph.cfg": true, "min.cfg": true, "module.spv": true, "module.spvasm": true,
	"min.spv": true, "min.spvasm": true, "verdict.json": true, "answer.json": true,
	"before.svg": true, "after.svg": true, "min.svg": true,
	"before.dot": true, "after.dot": true, "min.dot": true,
}

// storeFiles are the linked files of f's store entry, in name order.
func storeFiles(f *Finding) []string { return f.storedFiles }
