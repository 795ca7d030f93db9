// baseline_declines_test.go: the minimizer takes a baseline's refusal as
// the campaign classes it, a decline and not a failure. Through the
// built binary: compare against a baseline that refuses the findings'
// graphs minimizes them, none baseline flaky; minimize --baseline
// minimizes a graph the baseline refuses, and shrinks a graph the
// baseline passes only into one it passes too, saying how many candidates
// it did not take because the baseline refused them.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// refusingAbove is the Python example adapter refusing every graph of
// more than n blocks; refusingBelow, every graph of fewer than n.
func refusingAbove(t *testing.T, n string) string {
	return pythonAdapterAnswering(t, "    if len(succs) > "+n+":\n        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"more than "+n+" blocks\"}\n")
}

func refusingBelow(t *testing.T, n string) string {
	return pythonAdapterAnswering(t, "    if len(succs) < "+n+":\n        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"fewer than "+n+" blocks\"}\n")
}

// runBinary runs the built cfgfuzz with args and stdin.
func runBinary(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(cfgfuzzBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errw.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errw.String()
}

// TestCompareMinimizesFindingsTheBaselineRefuses: every random graph has
// more than 3 blocks, so the baseline refuses each graph the planted
// current side fails: each finding is new, and minimized, not baseline
// flaky.
func TestCompareMinimizesFindingsTheBaselineRefuses(t *testing.T) {
	base := refusingAbove(t, "3")
	rep, _, stdout, stderr := compareAgainstPlanted(t, base)
	for _, f := range rep.Findings {
		if f.Subject().Baseline != fuzz.OutRefused || f.New == 0 {
			t.Fatalf("%s: its graph's baseline verdict %q, %d new: want a new finding whose graph the baseline refused", f.Signature, f.Subject().Baseline, f.New)
		}
		if f.BaselineFlaky != "" || !f.IsMinimized || f.Minimized == "" {
			t.Errorf("%s: baseline_flaky %q, is_minimized %v (%s): a graph the baseline refuses is no failure there, and is minimized",
				f.Signature, f.BaselineFlaky, f.IsMinimized, f.NotMinimized)
		}
	}
	if strings.Contains(stdout, "baseline flaky") || strings.Contains(stdout, "the baseline failed") {
		t.Errorf("the summary calls the baseline's refusal a failure:\n%s", stdout)
	}
	if !strings.Contains(stderr, "the baseline refuses the graph (structurize:refused), which is no failure") {
		t.Errorf("the minimizer's line does not say the baseline refuses the graph:\n%s", stderr)
	}
}

// TestMinimizeBaselineRefusals: minimize --baseline on a graph the
// baseline refuses minimizes it (exit 0); on a graph the baseline passes,
// with a baseline that refuses the graphs of fewer than 4 blocks, the
// result has 4 blocks or more and the baseline passes it.
func TestMinimizeBaselineRefusals(t *testing.T) {
	dir := t.TempDir()
	found := filepath.Join(dir, "found.cfg")
	if err := os.WriteFile(found, []byte("{{1, 2}, {3}, {3}, {4, 5}, {6}, {6}, {7}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	current := plantedSpec(t)
	code, stdout, stderr := runBinary(t, "", "minimize", found, "--structurizer", current, "--baseline", refusingAbove(t, "3"))
	if code != exitOK || !strings.Contains(stderr, "minimize: the baseline refuses the graph (structurize:refused), which is no failure") {
		t.Errorf("a graph the baseline refuses: exit %d, want %d and a line saying the refusal is no failure\n%s%s", code, exitOK, stdout, stderr)
	}
	base := refusingBelow(t, "4")
	code, stdout, stderr = runBinary(t, "", "minimize", found, "--structurizer", current, "--baseline", base)
	if code != exitOK || !regexp.MustCompile(`minimize: \d+ candidates? that fails? with the signature (was|were) not taken: the baseline declines`).MatchString(stderr) {
		t.Fatalf("a graph the baseline passes: exit %d, want %d and a line on the candidates the baseline refused\n%s%s", code, exitOK, stdout, stderr)
	}
	m := regexp.MustCompile(`(?m)^# compact: (.*)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no result:\n%s", stdout)
	}
	g, err := cfg.ParseCompact(m[1], cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() < 4 {
		t.Errorf("minimized to %s, %d blocks: a graph the baseline refuses", m[1], g.Len())
	}
	if code, out, errs := runBinary(t, m[1]+"\n", "check", "--structurizer", base, "-"); code != exitOK {
		t.Errorf("the baseline does not pass the result %s: exit %d\n%s%s", m[1], code, out, errs)
	}
}

// compareAgainstPlanted runs a compare of eight graphs of the planted
// example (the current side) against the baseline structurizer base,
// which must end in new findings, and returns its report, its output
// directory, stdout and stderr.
func compareAgainstPlanted(t *testing.T, base string) (rep *fuzz.Report, out, stdout, stderr string) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runBinary(t, "", "compare", "--baseline-structurizer", base, "--current", plantedSpec(t),
		"--graphs", "8", "--seed", "1", "--workers", "1", "--progress", "plain", "--out", out)
	if code != exitFail {
		t.Fatalf("compare: exit %d, want %d (new findings)\n%s%s", code, exitFail, stdout, stderr)
	}
	rep = readReportJSON(t, out)
	if len(rep.Findings) == 0 {
		t.Fatalf("no findings:\n%s", stdout)
	}
	return rep, out, stdout, stderr
}
