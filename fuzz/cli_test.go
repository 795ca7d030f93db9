// cli_test.go runs the done-when list of the campaign through the cfgfuzz
// binary on package gen's generators, behind -long (it builds the binary
// and a baseline worktree): identical reports for repeated runs, 1 and 2
// workers, and merged shards; compare --baseline HEAD clean, then with a
// planted fault (newly invalid, baseline clean, exit status 1). They pin the
// dispatch strategy: they test the engine, not a strategy in development.
//
//	go test ./fuzz -run CLI -long [-long-graphs 20000]
package fuzz

import (
	"errors"
	"flag"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

var (
	long       = flag.Bool("long", false, "run the long CLI tests (build cfgfuzz, campaigns over package gen)")
	longGraphs = flag.Int("long-graphs", 2000, "graph budget of the long CLI tests")
)

// cfgfuzzCmd runs the built binary and returns its exit status.
func cfgfuzzCmd(t *testing.T, bin string, args ...string) int {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Logf("cfgfuzz %v: exit %d\n%s", args, exit.ExitCode(), out)
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("cfgfuzz %v: %v", args, err)
	}
	t.Logf("cfgfuzz %v:\n%s", args, out)
	return 0
}

func TestCLICampaignDeterminism(t *testing.T) {
	if !*long {
		t.Skip("needs -long")
	}
	bin := buildCmd(t, "../cmd/cfgfuzz")
	dir := t.TempDir()
	n := strconv.Itoa(*longGraphs)
	run := func(out string, extra ...string) string {
		args := append([]string{"run", "--graphs", n, "--seed", "1", "--strategy", "dispatch", "--progress", "none", "--out", filepath.Join(dir, out)}, extra...)
		if code := cfgfuzzCmd(t, bin, args...); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return filepath.Join(dir, out)
	}
	a := reportJSON(t, run("a"))
	if b := reportJSON(t, run("b")); a != b {
		t.Errorf("two runs differ")
	}
	if w1 := reportJSON(t, run("w1", "--workers", "1")); a != w1 {
		t.Errorf("--workers 1 differs from the default")
	}
	if w2 := reportJSON(t, run("w2", "--workers", "2")); a != w2 {
		t.Errorf("--workers 2 differs from the default")
	}
	s0, s1 := run("s0", "--shard", "0/2"), run("s1", "--shard", "1/2")
	if code := cfgfuzzCmd(t, bin, "merge", "--out", filepath.Join(dir, "m"), s0, s1); code != 0 {
		t.Fatalf("merge: exit %d", code)
	}
	if m := reportJSON(t, filepath.Join(dir, "m")); a != m {
		t.Errorf("merged shards differ from the whole run")
	}
}

func TestCLICompareBaselineHEAD(t *testing.T) {
	if !*long {
		t.Skip("needs -long")
	}
	bin := buildCmd(t, "../cmd/cfgfuzz")
	dir := t.TempDir()
	n := strconv.Itoa(*longGraphs / 4)
	clean := filepath.Join(dir, "clean")
	// --current HEAD: the working tree may hold other uncommitted work.
	if code := cfgfuzzCmd(t, bin, "compare", "--baseline", "HEAD", "--current", "HEAD", "--strategy", "dispatch", "--graphs", n, "--progress", "none", "--out", clean); code != 0 {
		t.Fatalf("clean compare: exit %d", code)
	}
	rep := readReport(t, clean)
	if d := rep.Divergences; d.Classes[ClassSame] != rep.Graphs {
		t.Errorf("clean compare: classes %v", d.Classes)
	}
	fault := filepath.Join(dir, "fault")
	if code := cfgfuzzCmd(t, bin, "compare", "--baseline", "HEAD", "--inject", "swap-arms", "--strategy", "dispatch", "--graphs", n, "--progress", "none", "--out", fault); code != 1 {
		t.Fatalf("compare with a fault: exit %d, want 1", code)
	}
	rep = readReport(t, fault)
	d := rep.Divergences
	if d.NewlyInvalid == 0 || d.BaselineFindings != 0 {
		t.Errorf("fault: newly invalid %d, baseline findings %d", d.NewlyInvalid, d.BaselineFindings)
	}
	for _, f := range rep.Findings {
		if f.Signature != "exec:trace-mismatch" {
			t.Errorf("unexpected signature %s", f.Signature)
		}
	}
}
