// minimize_total_test.go: --minimize-budget bounds the time all of a
// campaign's minimization takes (run and merge alike) on a slow
// structurizer process: past it, by at most the judgements of the finding
// being minimized when it ran out, the remaining new signatures are kept
// unminimized and the reports say how many and why.
package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// budgetFaults plants faults that give 3 signatures on the first 6 graphs
// of budgetKinds (the meta check, whose judgements ask the structurizer
// several times, off for short tests).
const (
	budgetFaults = "merge-at-continue,swap-arms"
	budgetKinds  = "reducible,program"
)

// checkBudgetReport checks that a signature was minimized and some others
// were left unminimized, marked, and counted in the summary and
// report.md; with unjudged, that the minimized one is marked as not judged
// again.
func checkBudgetReport(t *testing.T, what, out, stdout string, unjudged bool) {
	t.Helper()
	rep := readReportJSON(t, out)
	skipped := 0
	for i, f := range rep.Findings {
		switch {
		case f.Minimized != "":
			if said := strings.Contains(f.MinimizeSkipped, "judged again"); unjudged && !said || f.MinimizeSkipped != "" && !said {
				t.Errorf("%s: %s: minimized, minimize_skipped %q, want it marked not judged again: %v", what, f.Signature, f.MinimizeSkipped, unjudged)
			}
		case f.MinimizeSkipped != "":
			skipped++
			if f.Minimized != "" || f.NotReproduced != "" || f.Flaky != "" || !strings.Contains(f.MinimizeSkipped, "--minimize-budget") {
				t.Errorf("%s: %s: minimize_skipped %q beside minimized %q, not_reproduced %q, flaky %q", what, f.Signature, f.MinimizeSkipped, f.Minimized, f.NotReproduced, f.Flaky)
			}
		case f.Minimized == "":
			t.Errorf("%s: findings[%d] %s neither minimized nor marked skipped", what, i, f.Signature)
		}
	}
	if skipped == 0 || skipped == len(rep.Findings) {
		t.Fatalf("%s: %d of %d signatures skipped, want some but not all", what, skipped, len(rep.Findings))
	}
	note := fuzz.BudgetNote(rep)
	want := fuzz.Plural(skipped, "new signature") + " left unminimized"
	if unjudged {
		want = "1 new signature minimized but not judged again"
	}
	if !strings.Contains(note, want) || !strings.Contains(stdout, note) || !strings.Contains(readFile(t, filepath.Join(out, "report.md")), upperFirstWord(note)) {
		t.Errorf("%s: the summary and report.md do not say %q (note %q):\n%s", what, want, note, stdout)
	}
}

// upperFirstWord is s with its first letter upper case, as report.md
// writes a note.
func upperFirstWord(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// minimizingTime runs args with --minimize-budget budget into out and
// returns about how long its minimization took: the run's wall time less
// its campaign's (report.json's throughput).
func minimizingTime(t *testing.T, args []string, budget time.Duration, out string) (time.Duration, string) {
	t.Helper()
	start := time.Now()
	code, stdout, stderr := runCmd(append(args, "--minimize-budget", budget.String(), "--out", out), "")
	took := time.Since(start)
	if code != exitFail {
		t.Fatalf("--minimize-budget %v: exit %d, want 1\n%s%s", budget, code, stdout, stderr)
	}
	campaign := time.Duration(readReportJSON(t, out).Throughput.Seconds * float64(time.Second))
	return took - campaign, stdout
}

// TestMinimizeBudgetBoundsRun: a budget of 1ns minimizes the first new
// signature with its search cut at once and its result not judged again,
// which takes the judgements the budget does not cut (its graph's before
// the search, the candidate in flight): one finding's overrun. A budget
// of 500ms takes at most the budget and that overrun (with a second of
// slack), and both leave the other signatures unminimized, saying so.
func TestMinimizeBudgetBoundsRun(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.05", "--inject "+budgetFaults)
	args := []string{"run", "--structurizer", server, "--graphs", "6", "--kinds", budgetKinds, "--checks", "-meta", "--dispatch-every", "0", "--workers", "2", "--progress", "none"}

	overrun, stdout := minimizingTime(t, args, time.Nanosecond, filepath.Join(dir, "1ns"))
	checkBudgetReport(t, "1ns", filepath.Join(dir, "1ns"), stdout, true)
	const budget = 500 * time.Millisecond
	took, stdout := minimizingTime(t, args, budget, filepath.Join(dir, "budget"))
	if bound := budget + overrun + time.Second; took > bound {
		t.Errorf("minimization took about %v under --minimize-budget %v, want at most %v (one finding's judgements outside its search took %v)",
			took.Round(time.Millisecond), budget, bound, overrun.Round(time.Millisecond))
	}
	checkBudgetReport(t, "500ms", filepath.Join(dir, "budget"), stdout, false)

	code, _, stderr := runCmd([]string{"run", "--minimize-budget", "-1s", "--out", filepath.Join(dir, "neg")}, "")
	if code != exitUsage || !strings.Contains(stderr, "minimize-budget") {
		t.Errorf("--minimize-budget -1s: exit %d, %s; want 2 naming the flag", code, stderr)
	}
}

// TestMinimizeBudgetBoundsMerge: merge, which minimizes the shards' new
// signatures, leaves those past its --minimize-budget unminimized and
// says so, as run does.
func TestMinimizeBudgetBoundsMerge(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.05", "--inject "+budgetFaults)
	var shards []string
	for _, i := range []string{"0", "1"} {
		shard := filepath.Join(dir, "shard"+i)
		code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "6", "--kinds", budgetKinds, "--checks", "-meta", "--dispatch-every", "0",
			"--shard", i + "/2", "--progress", "none", "--out", shard}, "")
		if code != exitFail {
			t.Fatalf("shard %s: exit %d, want 1\n%s%s", i, code, stdout, stderr)
		}
		shards = append(shards, shard)
	}
	out := filepath.Join(dir, "merged")
	code, stdout, stderr := runCmd(append([]string{"merge", "--minimize-budget", "1ns", "--out", out}, shards...), "")
	if code != exitFail {
		t.Fatalf("merge: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	checkBudgetReport(t, "merge", out, stdout, true)
}
