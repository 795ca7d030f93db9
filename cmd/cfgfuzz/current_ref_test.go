// current_ref_test.go: compare's current side, the working tree
// (HEAD+dirty), is named in report.json as what was built: HEAD when the
// tree has no uncommitted changes, HEAD+dirty when it has.
package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCurrentRefSaysWhatWasBuilt(t *testing.T) {
	ownBuildCache(t)
	repo, first := toyRepo(t, toyConfig)
	writeFile(t, filepath.Join(repo, "notes.txt"), "a second commit\n")
	commitAll(t, repo, "notes")
	out := t.TempDir()
	compare := func(name string) (string, string) {
		dir := filepath.Join(out, name)
		code, _, stderr := cliIn(t, t.TempDir(), "compare", "--repo", repo, "--baseline", first, "--kinds", "exhaustive", "--graphs", "3", "--minimize=false", "--progress", "none", "--out", dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", name, code, stderr)
		}
		rep := readCampaignReport(t, dir)
		return rep.Settings.CurrentRef, rep.Settings.Current
	}
	if ref, cur := compare("clean"); ref != "HEAD" || strings.Contains(cur, "+dirty") {
		t.Errorf("a clean working tree: current_ref %q (current %s), want HEAD", ref, cur)
	}
	writeFile(t, filepath.Join(repo, "notes.txt"), "changed, not committed\n")
	if ref, cur := compare("dirty"); ref != "HEAD+dirty" || !strings.Contains(cur, "+dirty:") {
		t.Errorf("a working tree with changes: current_ref %q (current %s), want HEAD+dirty", ref, cur)
	}
}
