// write.go writes a report's three forms into a directory: report.json
// (REPORT.md documents it), report.md and report.html; and fills the
// findings' replay commands from the graph source.
package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// WriteReports fills replay commands (src may be nil) and writes
// report.json, report.md and report.html into dir.
func WriteReports(dir string, rep *Report, src Source) error {
	if src != nil {
		for i := range rep.Findings {
			rep.Findings[i].Replay = replayCommand(src, &rep.Settings, &rep.Findings[i].First)
		}
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

// replayCommand reproduces one graph on the in-tree structurizer.
func replayCommand(src Source, s *Settings, e *Example) string {
	var b strings.Builder
	b.WriteString(src.Replay(e.Stream, e.Seed))
	b.WriteString(" | cfgfuzz check")
	if s.Strategy != "" {
		b.WriteString(" --strategy " + s.Strategy)
	}
	if len(s.Inject) > 0 {
		b.WriteString(" --inject " + strings.Join(s.Inject, ","))
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
