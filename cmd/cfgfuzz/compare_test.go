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
	compare := func(name, base, cur string) (int, *fuzz.Report) {
		dir := filepath.Join(out, name)
		code, _, _ := cliIn(t, repo, "compare", "--baseline", base, "--current", cur, "--kinds", "exhaustive", "--graphs", "300", "--minimize=false", "--progress", "none", "--out", dir)
		return code, readCampaignReport(t, dir)
	}

	code, rep := compare("regression", good, bad)
	d := rep.Divergences
	if code != exitFail || d.Classes[fuzz.ClassNewlyInvalid] != 300 || rep.NewFindings != 300 {
		t.Errorf("good -> bad: exit %d, classes %v, %d new; want 1, 300 newly invalid, 300 new", code, d.Classes, rep.NewFindings)
	}
	for _, f := range rep.Findings {
		if f.Signature != "meta:rerun-failed" {
			t.Errorf("good -> bad: finding %s, want meta:rerun-failed", f.Signature)
		}
	}

	code, rep = compare("fix", bad, good)
	d = rep.Divergences
	if code != exitOK || d.Classes[fuzz.ClassInvalidFixed] != 300 || d.BaselineFindings != 300 || rep.NewFindings != 0 {
		t.Errorf("bad -> good: exit %d, classes %v, baseline findings %d, %d new; want 0, 300 fixed", code, d.Classes, d.BaselineFindings, rep.NewFindings)
	}

	code, rep = compare("same", good, good)
	if d = rep.Divergences; code != exitOK || d.Classes[fuzz.ClassSame] != 300 {
		t.Errorf("good -> good: exit %d, classes %v; want 0, 300 same", code, d.Classes)
	}
}
