// regress_budget_test.go: regress --duration bounds a suite on a
// structurizer slow on every graph: no file starts past it, and the files
// not replayed are named in the summary, are error cases ("not run") of
// the JUnit file, never passed ones, and make the exit status 2.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegressDurationLeavesTheRestNotRun(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	regs := filepath.Join(dir, "regs")
	if err := os.Mkdir(regs, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"anyps5-loop-exits-a.cfg", "anyps5-loop-exits-b.cfg", "anyps5-loop-exits-c.cfg"}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "corpus", "testdata", "regressions", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(regs, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each request takes 0.5 s: the first file's case (its judgement and
	// meta's re-runs) outlasts the budget, so the next two are not run.
	server := slowServer(t, dir, bin, "0.5", "")
	junit := filepath.Join(dir, "cfgfuzz.xml")
	code, stdout, stderr := runCmd([]string{"regress", regs, "--structurizer", server, "--duration", "1s", "--junit", junit}, "")
	want := "2 files not replayed (the time budget, --duration 1s, ran out): " + filepath.Join(regs, names[1]) + ", " + filepath.Join(regs, names[2])
	if code != exitUsage || !strings.Contains(stderr, "1 of 3 files") || !strings.Contains(stderr, want) || !strings.Contains(stderr, "1 passed") {
		t.Errorf("exit %d, want 2, one file replayed and %q\n%s%s", code, want, stdout, stderr)
	}
	r := readJUnit(t, junit)
	var notRun []string
	for _, c := range r.Suites[0].Cases {
		if c.Error != nil && c.Error.Type == "not-run" {
			notRun = append(notRun, c.File)
		}
	}
	if len(notRun) != 2 || r.Errors != 2 || r.Tests != 3 {
		t.Errorf("JUnit: %d tests, %d errors, not run %v; want 3 tests, the 2 files not run as errors", r.Tests, r.Errors, notRun)
	}
	code, _, stderr = runCmd([]string{"regress", regs, "--duration", "-1s"}, "")
	if code != exitUsage || !strings.Contains(stderr, "duration") {
		t.Errorf("--duration -1s: exit %d, %s; want 2 naming the flag", code, stderr)
	}
}
