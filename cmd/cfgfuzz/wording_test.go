// wording_test.go: what a new user's mistakes are told: a run of one side
// names its structurizer without "current side" (a compare keeps it), a
// misspelled flag gets the flag it most likely meant, and check's closing
// line counts the graphs without a verdict apart from those that failed.
package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestWrongAdapterPathNamesNoSideWithoutBaseline(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-adapter.sh")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", missing, "--graphs", "2", "--progress", "none", "--out", filepath.Join(dir, "run")}, "")
	if want := "cfgfuzz run: structurizer cmd:" + missing + ": the command was not found"; code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "current side") {
		t.Errorf("run: exit %d, want 2 and %q without \"current side\":\n%s%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = runCmd([]string{"compare", "--baseline-structurizer", "self", "--structurizer", missing, "--graphs", "2", "--progress", "none", "--out", filepath.Join(dir, "compare")}, "")
	if want := "cfgfuzz compare: current side: structurizer cmd:" + missing; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("compare: exit %d, want 2 and %q:\n%s%s", code, want, stdout, stderr)
	}
}

func TestUnknownFlagSuggestsTheNearest(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--structurize", "x"}, "flag provided but not defined: --structurize: did you mean --structurizer? (cfgfuzz run -h lists the flags)"},
		{[]string{"run", "--graph=5"}, "--graph: did you mean --graphs?"},
		{[]string{"check", "--timout", "1s"}, "--timout: did you mean --timeout?"},
		{[]string{"run", "--struct", "x"}, "--struct: did you mean --structurizer?"}, // the one flag it begins
		{[]string{"check", "--nope"}, "flag provided but not defined: --nope (cfgfuzz check -h lists the flags)"},
	} {
		code, _, stderr := runCmd(c.args, "")
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, stderr)
		}
	}
}

func TestCheckCountsGraphsWithoutVerdict(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	server := silentServer(t, t.TempDir())
	code, stdout, stderr := runCmd([]string{"check", "--structurizer", server, "--timeout", "200ms", "--start-timeout", "300ms", "--checks", "exec"}, "{{1}, {}}\n{{1, 2}, {2}, {}}\n")
	if want := "cfgfuzz check: 0 of 2 graphs passed: 0 failed, 2 graphs have no verdict (ERROR"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want 2 and %q:\n%s%s", code, want, stdout, stderr)
	}
}
