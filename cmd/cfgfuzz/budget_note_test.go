// budget_note_test.go: a campaign given a graph budget and a time budget
// whose time budget runs out first is complete (fuzz/README.md), but its
// summary says it stopped short of the graph budget, and at how many.
package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestTimeBudgetBeforeGraphBudgetSaid(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "1000000", "--duration", "1s", "--workers", "1", "--kinds", "reducible", "--checks", "rules", "--progress", "none", "--out", out}, "")
	re := regexp.MustCompile(`(?m)^note: the time budget \(1s\) ran out at [0-9,]+ of 1,000,000 graphs, before the graph budget\n`)
	if code != exitOK || !re.MatchString(stdout) {
		t.Errorf("exit %d, want 0 and the note:\n%s%s", code, stdout, stderr)
	}
	if rep := readReportJSON(t, out); rep.Incomplete != nil {
		t.Errorf("a time budget that runs out is a complete campaign: incomplete %+v", rep.Incomplete)
	}
}

// TestResumedTimeBudgetSaid: a time-budgeted campaign resumed has its
// whole budget again (elapsed time is not checkpointed); its summary says
// so, with the graph indices its log held.
func TestResumedTimeBudgetSaid(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	args := []string{"run", "--duration", "1s", "--workers", "1", "--kinds", "reducible", "--checks", "rules", "--progress", "none", "--out", out}
	if code, stdout, stderr := runCmd(args, ""); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCmd([]string{"run", "--resume", out, "--progress", "none"}, "")
	re := regexp.MustCompile(`(?m)^note: resumed: this run had the whole time budget \(1s\) again beside the [0-9,]+ graph indices its log held, so the campaign ran longer than the budget\n`)
	if code != exitOK || !re.MatchString(stdout) {
		t.Errorf("the resume: exit %d, want 0 and the note:\n%s%s", code, stdout, stderr)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "Note: resumed: this run had the whole time budget (1s) again") {
		t.Errorf("report.md does not say the budget restarted:\n%s", md)
	}
}
