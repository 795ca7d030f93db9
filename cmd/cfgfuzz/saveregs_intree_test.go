// saveregs_intree_test.go: regression files saved into the structurizer's
// own git work tree, not yet committed, are no uncommitted change of it:
// the next compare of the working tree builds the commit itself, records
// it without +dirty, and the saved files replay on a fresh machine.
package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSavedRegressionsInTheRepoLeaveItClean(t *testing.T) {
	ownBuildCache(t)
	repo, good, bad := plantedToyRepo(t, toyConfig)
	work := t.TempDir()
	compare := func(seed, out string) {
		t.Helper()
		code, _, stderr := cliIn(t, repo, "compare", "--repo", ".", "--baseline", good, "--kinds", "exhaustive", "--graphs", "40",
			"--seed", seed, "--progress", "none", "--save-regressions", "tests/cfgfuzz", "--out", filepath.Join(work, out))
		rep := readCampaignReport(t, filepath.Join(work, out))
		if code != exitFail || rep.NewFindings == 0 {
			t.Fatalf("compare --seed %s: exit %d, %d new findings; want 1 and some\n%s", seed, code, rep.NewFindings, stderr)
		}
		if strings.Contains(stderr, "differs from") || strings.Contains(rep.Settings.Current, "+dirty") {
			t.Errorf("compare --seed %s with the regression files of an earlier compare in the tree: current side %s, want the commit %s itself:\n%s",
				seed, rep.Settings.Current, bad[:12], stderr)
		}
	}
	compare("1", "one")
	files, _ := filepath.Glob(filepath.Join(repo, "tests", "cfgfuzz", "*.cfg"))
	if len(files) == 0 {
		t.Fatal("the first compare saved no regression file")
	}
	compare("2", "two")

	// A fresh build cache, as on another machine: every file names the
	// commit, which builds anywhere, and fails there (the bug is in it).
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, _, stderr := cliIn(t, work, "regress", filepath.Join(repo, "tests", "cfgfuzz"))
	if code != exitFail || strings.Contains(stderr, "are gone") || !strings.Contains(stderr, " failed, 0 errors") {
		t.Errorf("regress of the saved files on a fresh cache: exit %d, want 1 (the planted bug) and no error:\n%s", code, stderr)
	}
}
