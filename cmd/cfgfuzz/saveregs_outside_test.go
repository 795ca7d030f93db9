// saveregs_outside_test.go: regression files saved into a git work tree
// whose structurizer is a command named by absolute paths outside it
// (an adapter served from /tmp) say so where they are saved, since they
// replay only where those paths hold the adapter; an adapter inside the
// work tree ({repo}/...) and a regression directory in no work tree get no
// note.
package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRegressionsOfAnAdapterOutsideTheRepoNoteIt(t *testing.T) {
	repo, _ := toyRepo(t, "")
	outside := filepath.Join(t.TempDir(), "work", "toy.py")
	writeFile(t, outside, toyServer(2))
	inside := filepath.Join(repo, "toy.py")
	const note = "the git work tree the regression files lie in"
	wantNote := func(path string) string {
		return "note: the recorded structurizer names " + path + " by an absolute path, outside " + repo + ", the git work tree the regression files lie in"
	}

	// A campaign's --save-regressions.
	save := func(spec, regs string) string {
		t.Helper()
		finding := fuzz.Finding{Signature: "structurize:error:toy: planted bug", Minimized: "{{1}, {}}", New: 1}
		rep := &fuzz.Report{Settings: fuzz.Settings{Current: spec, Seed: 1}, Findings: []fuzz.Finding{finding, {Signature: "structurize:error:toy: other", Minimized: "{{}}", New: 1}}}
		var out bytes.Buffer
		if err := saveRegressions(regs, rep, "run", &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if out := save("cmd:python3 "+outside, filepath.Join(repo, "tests", "cfgfuzz")); strings.Count(out, wantNote(outside)) != 1 {
		t.Errorf("an adapter outside the work tree: want the note once, %q:\n%s", wantNote(outside), out)
	}
	if out := save("cmd:/usr/bin/python3 "+inside, filepath.Join(repo, "tests", "inside")); strings.Contains(out, note) {
		t.Errorf("an adapter inside the work tree: want no note:\n%s", out)
	}
	if out := save("cmd:python3 "+outside, filepath.Join(t.TempDir(), "regs")); strings.Contains(out, note) {
		t.Errorf("regression files in no git work tree: want no note:\n%s", out)
	}

	// minimize --save-regression.
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1}, {2}, {}}\n")
	minimize := func(adapter, name string) string {
		t.Helper()
		code, _, stderr := cliIn(t, t.TempDir(), "minimize", "--structurizer", "python3 "+adapter, "--regressions", filepath.Join(repo, "tests", "cfgfuzz"),
			"--save-regression", name, graph)
		if code != exitOK {
			t.Fatalf("minimize on %s: exit %d, want 0:\n%s", adapter, code, stderr)
		}
		return stderr
	}
	if errs := minimize(outside, "outside"); !strings.Contains(errs, "minimize: "+wantNote(outside)) {
		t.Errorf("minimize on an adapter outside the work tree: want %q:\n%s", wantNote(outside), errs)
	}
	writeFile(t, inside, toyServer(2))
	if errs := minimize(inside, "inside"); strings.Contains(errs, note) {
		t.Errorf("minimize on an adapter inside the work tree: want no note:\n%s", errs)
	}
}
