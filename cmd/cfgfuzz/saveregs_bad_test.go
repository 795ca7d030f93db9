package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestSaveRegressionsSkipsABrokenGraph: a new finding whose minimized
// graph does not read back (a damaged report or state) is named in the
// error and written nowhere; the other new findings are saved, and the
// line says so.
func TestSaveRegressionsSkipsABrokenGraph(t *testing.T) {
	for _, bad := range []fuzz.Finding{
		{Signature: "exec:trace-mismatch", Minimized: "{{1}, {", New: 1},
		{Signature: "exec:trace-mismatch", Minimized: "{{1, 2}, {}, {}}", MinimizedWeights: []int{1, 2, 3, 4, 5}, New: 1},
	} {
		good := fuzz.Finding{Signature: "rules:R12", Minimized: "{{1, 2}, {2}, {}}", New: 1}
		rep := &fuzz.Report{Settings: fuzz.Settings{Current: "self", Seed: 1}, Findings: []fuzz.Finding{bad, good}}
		dir := filepath.Join(t.TempDir(), "regs")
		var out bytes.Buffer
		err := saveRegressions(dir, rep, "run", &out)
		if err == nil || !strings.Contains(err.Error(), "exec:trace-mismatch") {
			t.Errorf("%s: error %v, want one naming the broken finding", bad.Minimized, err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "rules-r12-") || !strings.Contains(out.String(), "1 new finding saved") {
			t.Errorf("%s: the directory holds %v, the line says %q; want the good finding's file alone, said", bad.Minimized, ents, out.String())
		}
	}
}

// TestSaveRegressionsSkipsUnjudged: a new finding whose minimized graph
// the minimizer could not judge again every time (minimize_error) is not
// saved, as minimize --save-regression refuses it, and the line counts it
// with the reason; a finding beside it that reproduced is saved.
func TestSaveRegressionsSkipsUnjudged(t *testing.T) {
	unjudged := fuzz.Finding{Signature: "exec:trace-mismatch", Minimized: "{{1, 2}, {}, {}}", New: 1,
		MinimizeError: "judging the minimized graph again: fresh side did not start"}
	good := fuzz.Finding{Signature: "rules:R12", Minimized: "{{1, 2}, {2}, {}}", New: 1}
	rep := &fuzz.Report{Settings: fuzz.Settings{Current: "self", Seed: 1}, Findings: []fuzz.Finding{unjudged, good}}
	dir := filepath.Join(t.TempDir(), "regs")
	var out bytes.Buffer
	if err := saveRegressions(dir, rep, "run", &out); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "rules-r12-") ||
		!strings.Contains(out.String(), "1 new finding whose minimized graph the minimizer could not judge again (minimize_error in the report), not saved") {
		t.Errorf("the directory holds %v, the line says %q; want the good finding's file alone and the other counted", ents, out.String())
	}
}
