package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
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

// TestSaveRegressionsWithAStateSavesTheNightsNew: with a state, a
// finding new to the campaign but known to the state is not saved and the
// line counts it; the state's new signature is saved, dated with the night.
func TestSaveRegressionsWithAStateSavesTheNightsNew(t *testing.T) {
	known := fuzz.Finding{Signature: "exec:trace-mismatch", Minimized: "{{1, 2}, {}, {}}", New: 1}
	fresh := fuzz.Finding{Signature: "rules:R12", Minimized: "{{1, 2}, {2}, {}}", New: 1}
	rep := &fuzz.Report{Settings: fuzz.Settings{Current: "self", Seed: 1}, Findings: []fuzz.Finding{known, fresh},
		State: &fuzz.StateReport{Night: "2026-01-02", Signatures: []fuzz.SignatureState{
			{Signature: known.Signature, Class: fuzz.ClassKnown}, {Signature: fresh.Signature, Class: fuzz.ClassNew}}}}
	dir := filepath.Join(t.TempDir(), "regs")
	var out bytes.Buffer
	if err := saveRegressions(dir, rep, "run", &out); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cfg"))
	if len(files) != 1 || !strings.HasPrefix(filepath.Base(files[0]), "rules-r12-") ||
		!strings.Contains(out.String(), "1 new finding saved") || !strings.Contains(out.String(), "; 1 finding of this campaign the state classes known or ignored, not saved") {
		t.Fatalf("saved %v, the line says %q; want the state's new signature alone and the known one counted", files, out.String())
	}
	if r, err := corpus.ReadRegression(files[0]); err != nil || r.Header.Date != "2026-01-02" {
		t.Errorf("the file records the date %q (%v), want the night's", r.Header.Date, err)
	}
}

// TestSavedRegressionRecordsWalks: a campaign's regression file records
// the campaign's walks and seed ('# walks:'), which regress judges it
// under unless --walks or --seed is given, and check names them when it
// judges the file under others.
func TestSavedRegressionRecordsWalks(t *testing.T) {
	dir, regs := t.TempDir(), filepath.Join(t.TempDir(), "regs")
	code, out, errs := runCmd([]string{"run", "--graphs", "20", "--seed", "7", "--kinds", "reducible", "--inject", "swap-arms", "--workers", "1",
		"--progress", "none", "--out", dir, "--save-regressions", regs}, "")
	if code != exitFail {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if len(files) == 0 {
		t.Fatalf("no regression saved\n%s", out)
	}
	r, err := corpus.ReadRegression(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Header.JudgedWalks(); w != (corpus.Walks{Random: 16, Seed: 7}) {
		t.Errorf("%s records walks %v, want 16 seed 7", files[0], w)
	}
	rp := newReplayer(context.Background(), regressFlags{walks: 16, seed: 1}, io.Discard)
	if w := rp.walksOf(r); w != (corpus.Walks{Random: 16, Seed: 7}) {
		t.Errorf("regress judges it under %v, want the file's 16 seed 7", w)
	}
	rp = newReplayer(context.Background(), regressFlags{walks: 16, seed: 3, seedGiven: true}, io.Discard)
	if w := rp.walksOf(r); w != (corpus.Walks{Random: 16, Seed: 3}) {
		t.Errorf("regress --seed 3 judges it under %v, want 16 seed 3", w)
	}
	_, _, errs = runCmd([]string{"check", files[0]}, "")
	if !strings.Contains(errs, "--walks 16 --seed 7") {
		t.Errorf("check under the defaults does not name the file's walks:\n%s", errs)
	}
}

// TestSavedRegressionOfARelativeCdNoted: minimize --save-regression of a
// structurizer that changes into a directory relative to where it runs,
// itself or in a shell's command string (sh -c "cd testdata && ..."),
// notes that a replay from elsewhere will not find it.
func TestSavedRegressionOfARelativeCdNoted(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1, 2}, {}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	adapter, err := filepath.Abs(filepath.Join("..", "..", "fuzz", "examples", "python-adapter", "cfgfuzz_adapter.py"))
	if err != nil {
		t.Fatal(err)
	}
	for k, spec := range []string{
		"cmd:cd testdata && python3 " + adapter + " --bug exit-restarts",
		`cmd:sh -c "cd testdata && exec python3 '` + adapter + `' --bug exit-restarts"`,
	} {
		code, _, errs := runCmd([]string{"minimize", in, "--structurizer", spec, "--save-regression", fmt.Sprintf("cd%d", k), "--regressions", filepath.Join(dir, "regs")}, "")
		if want := "the recorded structurizer changes into testdata, relative to where it runs"; code != exitOK || !strings.Contains(errs, want) {
			t.Errorf("minimize --structurizer %q: exit %d, want 0 and %q:\n%s", spec, code, want, errs)
		}
	}
}
