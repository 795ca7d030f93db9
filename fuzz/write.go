// write.go writes a report's three forms into a directory: report.json
// (REPORT.md documents it), report.md and report.html; and fills the
// findings' replay commands from the graph source.
package fuzz

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// WriteReports fills replay commands (src may be nil) and writes
// report.json, report.md and report.html into dir.
func WriteReports(dir string, rep *Report, src Source) error {
	if src != nil {
		for i := range rep.Findings {
			rep.Findings[i].Replay = replayCommand(src, &rep.Settings, &rep.Findings[i].First)
		}
	}
	if rep.Provenance == nil {
		rep.Provenance = NewProvenance(&rep.Settings, time.Now())
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "report.json"), append(b, '\n')); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "report.md"), []byte(Markdown(rep))); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), []byte(HTML(rep)))
}

// replayCommand reproduces one graph: the source's command printing it,
// piped into `cfgfuzz check` on the campaign's structurizer (its spec) with
// the campaign's options and oracle settings.
// A guided campaign's mutant is printed from its own text.
func replayCommand(src Source, s *Settings, e *Example) string {
	print := src.Replay(e.Stream, e.Seed)
	if e.Mutant != "" {
		if g, err := graphOf(e); err == nil {
			print = "printf '%s' " + ShellQuote(cfg.FormatLines(g))
		}
	}
	return print + " | " + checkCommand(s, cmp.Or(e.Strategy, s.Strategy))
}

// CheckCommand is the `cfgfuzz check` command line that judges a graph
// as the campaign s judged it on its current side: --structurizer with
// the side's spec (none for self), the strategy and faults, the register
// file, and the walks,
// seed, checks and per-graph limit where they differ from check's
// defaults (16 walks, seed 1, every default check, DefaultTimeout).
func CheckCommand(s *Settings) string {
	return checkCommand(s, s.Strategy)
}

// checkCommand is CheckCommand for a graph that ran strategy (the
// campaign's, or the dispatch share's).
func checkCommand(s *Settings, strategy string) string {
	var b strings.Builder
	b.WriteString("cfgfuzz check")
	if spec, err := ParseSpec(s.Current); err == nil && spec.Flag() != "" {
		b.WriteString(" " + spec.Flag())
	}
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
	if len(s.Checks) > 0 {
		b.WriteString(" --checks " + ShellQuote(strings.Join(s.Checks, ",")))
	}
	if t := time.Duration(s.Timeout); t > 0 && t != DefaultTimeout {
		b.WriteString(" --timeout " + t.String())
	}
	return b.String()
}

// writeFile writes through a temporary file so a reader never sees half;
// the temporary file is removed when writing or renaming it fails (a full
// disk leaves no debris).
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	err := os.WriteFile(tmp, data, 0o644)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
