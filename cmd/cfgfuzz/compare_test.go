// compare_test.go: `cfgfuzz compare` between revisions of a temporary copy
// of this repository. A revision whose structurizer panics on graphs of 6
// blocks or more makes the same modules of the exhaustive graphs (at most
// 4 blocks) as its parent, but meta's re-runs on the modules' own CFGs meet
// the panic: as the current side every graph is newly invalid (exit 1), as
// the baseline every graph is a fix; a revision against itself diverges
// nowhere.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// readCampaignReport reads DIR/report.json.
func readCampaignReport(t *testing.T, dir string) *fuzz.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep fuzz.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func TestCompareJudgesEachRevisionByItsOwnStructurizer(t *testing.T) {
	ownBuildCache(t)
	repo := copyOfThisTree(t)
	good := gitIn(t, repo, "rev-parse", "HEAD")
	plantPanic(t, repo, 6)
	bad := commitAll(t, repo, "structurizer: panic on 6 blocks or more")
	out := t.TempDir()
	// 100 graphs, every one of them newly invalid, fixed or the same: the
	// test is about which revision's structurizer judges each side, which
	// more graphs would not tell any better.
	const graphs = 100
	// --dispatch-every 0: the planted panic is in the structured strategy,
	// which meta re-runs on each module's own CFG; the dispatch share's
	// graphs would not meet it.
	compare := func(name, base, cur string) (int, *fuzz.Report) {
		dir := filepath.Join(out, name)
		code, _, _ := cliIn(t, repo, "compare", "--baseline", base, "--current", cur, "--kinds", "exhaustive", "--graphs", strconv.Itoa(graphs), "--dispatch-every", "0", "--minimize=false", "--progress", "none", "--out", dir)
		return code, readCampaignReport(t, dir)
	}

	code, rep := compare("regression", good, bad)
	d := rep.Divergences
	if code != exitFail || d.Classes[fuzz.ClassNewlyInvalid] != graphs || rep.NewFindings != graphs {
		t.Errorf("good -> bad: exit %d, classes %v, %d new; want 1, %d newly invalid, %d new", code, d.Classes, rep.NewFindings, graphs, graphs)
	}
	for _, f := range rep.Findings {
		if want := "meta:rerun-failed:panic:structurizer.Structurize: planted: too many blocks"; f.Signature != want {
			t.Errorf("good -> bad: finding %s, want %s", f.Signature, want)
		}
	}

	code, rep = compare("fix", bad, good)
	d = rep.Divergences
	if code != exitOK || d.Classes[fuzz.ClassInvalidFixed] != graphs || d.BaselineFindings != graphs || rep.NewFindings != 0 {
		t.Errorf("bad -> good: exit %d, classes %v, baseline findings %d, %d new; want 0, %d fixed", code, d.Classes, d.BaselineFindings, rep.NewFindings, graphs)
	}

	code, rep = compare("same", good, good)
	if d = rep.Divergences; code != exitOK || d.Classes[fuzz.ClassSame] != graphs {
		t.Errorf("good -> good: exit %d, classes %v; want 0, %d same", code, d.Classes, graphs)
	}
}

// TestCompareCurrentIsTheWorkingTree: inside a repository of cfgfuzz,
// compare's current side is the working tree, uncommitted changes
// included, built without touching the index or the stash; --current self
// is this binary's structurizer, and the report says which ran.
func TestCompareCurrentIsTheWorkingTree(t *testing.T) {
	ownBuildCache(t)
	repo := copyOfThisTree(t)
	head := gitIn(t, repo, "rev-parse", "HEAD")
	plantPanic(t, repo, 6)
	status := gitIn(t, repo, "status", "--porcelain")
	out := t.TempDir()
	args := func(dir string, extra ...string) []string {
		// --dispatch-every 0: the planted panic is in the structured
		// strategy, which meta re-runs on each module's own CFG.
		return append([]string{"compare", "--baseline", "HEAD", "--kinds", "exhaustive", "--graphs", "60", "--dispatch-every", "0", "--minimize=false", "--progress", "none", "--out", filepath.Join(out, dir)}, extra...)
	}

	code, stdout, _ := cliIn(t, repo, args("tree")...)
	rep := readCampaignReport(t, filepath.Join(out, "tree"))
	if code != exitFail || rep.NewFindings != 60 {
		t.Errorf("the uncommitted panic: exit %d, %d new findings; want 1, 60", code, rep.NewFindings)
	}
	cur := rep.Settings.Current
	if !strings.HasPrefix(cur, "rev:"+head+"+dirty:") || len(cur) != len("rev:")+40+len("+dirty:")+40 {
		t.Errorf("current side %q, want rev:%s+dirty:TREE", cur, head)
	}
	if rep.Settings.Baseline != "rev:"+head || !strings.Contains(stdout, "plus uncommitted changes (tree ") {
		t.Errorf("baseline %q; output:\n%s", rep.Settings.Baseline, stdout)
	}
	if st := gitIn(t, repo, "status", "--porcelain"); st != status {
		t.Errorf("git status after compare:\n%s\nwant:\n%s", st, status)
	}
	if stash, staged := gitIn(t, repo, "stash", "list"), gitIn(t, repo, "diff", "--cached", "--name-only"); stash != "" || staged != "" {
		t.Errorf("compare touched the stash (%q) or the index (%q)", stash, staged)
	}

	code, stdout, _ = cliIn(t, repo, args("self", "--current", "self")...)
	rep = readCampaignReport(t, filepath.Join(out, "self"))
	if code != exitOK || rep.Settings.Current != "self" || !strings.Contains(stdout, "current: self: the structurizer compiled into this cfgfuzz binary") {
		t.Errorf("--current self: exit %d, current %q; output:\n%s", code, rep.Settings.Current, stdout)
	}
}

// TestCompareOutsideARepositoryBuildsNothing: outside a git repository
// the current side is this binary's structurizer, and compare says so.
func TestCompareOutsideARepositoryBuildsNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := cliIn(t, t.TempDir(), "compare", "--baseline", "self", "--kinds", "exhaustive", "--graphs", "20", "--minimize=false", "--progress", "none", "--out", out)
	rep := readCampaignReport(t, out)
	if code != exitOK || rep.Settings.Current != "self" || !strings.Contains(stderr, "not inside a git repository of cfgfuzz") || !strings.Contains(stdout, "current: self: ") {
		t.Errorf("exit %d, current %q\nstdout:\n%s\nstderr:\n%s", code, rep.Settings.Current, stdout, stderr)
	}
}

// TestCompareTwoStrategies: --baseline-strategy asks the baseline for
// another strategy than the current side's, so cfgfuzz's own strategies
// compare on the same graphs: every module differs, the summary names
// both strategies, report.json records it, and no dispatch share runs;
// a strategy that does not exist is refused naming the flag.
func TestCompareTwoStrategies(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"compare", "--baseline-structurizer", "self", "--current", "self", "--baseline-strategy", "dispatch",
		"--graphs", "40", "--progress", "none", "--out", out}, "")
	if code != exitOK || !strings.Contains(stdout, "strategies: current its default, baseline dispatch\n") || !strings.Contains(stdout, "same 0 output-changed 40 ") {
		t.Fatalf("exit %d, want 0, the strategies named and every module changed\n%s%s", code, stdout, stderr)
	}
	rep := readReportJSON(t, out)
	if rep.Settings.BaselineStrategy != "dispatch" || rep.Settings.DispatchEvery != 0 {
		t.Errorf("report.json's config: baseline strategy %q, dispatch share %d; want dispatch and none", rep.Settings.BaselineStrategy, rep.Settings.DispatchEvery)
	}
	code, _, stderr = runCmd([]string{"compare", "--baseline-structurizer", "self", "--current", "self", "--baseline-strategy", "nosuch", "--graphs", "4", "--out", filepath.Join(t.TempDir(), "d")}, "")
	if code != exitUsage || !strings.Contains(stderr, `--baseline-strategy: unknown strategy "nosuch"`) {
		t.Errorf("an unknown baseline strategy: exit %d\n%s", code, stderr)
	}
}
