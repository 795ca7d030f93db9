// saveregs_dirty_test.go: a regression saved from a build of uncommitted
// changes (REV+dirty:TREE) says in its header and on the save's output
// that no commit holds its structurizer, and regress on it, once the
// changes are gone and no build is cached, names why and what to do: a
// commit at HEAD that holds them, when there is one.
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestSavedRegressionOfUncommittedChanges(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(2)) // the bug, uncommitted
	snap, err := fuzz.SnapshotWorkTree(repo)
	if err != nil || snap.Clean {
		t.Fatalf("snapshot: %+v, %v", snap, err)
	}
	dirty := "repo:" + repo + "@" + good + "+dirty:" + snap.Tree
	finding := fuzz.Finding{Signature: "structurize:error:toy: planted bug", Minimized: "{{1}, {}}", New: 1}
	save := func(spec string) (string, string) {
		rep := &fuzz.Report{Settings: fuzz.Settings{Current: spec, Seed: 1}, Findings: []fuzz.Finding{finding}}
		regs := filepath.Join(t.TempDir(), "regs")
		var out bytes.Buffer
		if err := saveRegressions(regs, rep, "compare", &out); err != nil {
			t.Fatal(err)
		}
		return regs, out.String()
	}

	regs, out := save(dirty)
	want := "built from commit " + good[:12] + " plus uncommitted changes (tree " + snap.Tree[:12] + "), which no commit holds"
	if !strings.Contains(out, "regressions: note: the structurizer was "+want) {
		t.Errorf("the save's output does not note the uncommitted changes:\n%s", out)
	}
	files, _ := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if len(files) != 1 {
		t.Fatalf("saved %v", files)
	}
	reg, err := corpus.ReadRegression(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if reg.Header.Structurizer != dirty || !strings.Contains(strings.Join(reg.Header.Notes, "\n"), "uncommitted: the structurizer was "+want) {
		t.Errorf("header: structurizer %q, notes %q; want %q and a note on the uncommitted changes", reg.Header.Structurizer, reg.Header.Notes, dirty)
	}

	// While the working tree has that content, regress builds it and
	// replays the finding.
	if code, _, stderr := cliIn(t, t.TempDir(), "regress", regs); code != exitFail || !strings.Contains(stderr, "1 failed, 0 errors") {
		t.Errorf("regress on the same tree: exit %d, want 1 (the planted bug):\n%s", code, stderr)
	}
	// Changed, and no build cached: the changes are gone.
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(3))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, _, stderr := cliIn(t, t.TempDir(), "regress", regs)
	if code != exitUsage || !strings.Contains(stderr, "the uncommitted changes it names (tree "+snap.Tree[:12]+" on commit "+good[:12]+") are gone: the working tree has changed since") ||
		!strings.Contains(stderr, "replay it on a commit that holds the changes instead") {
		t.Errorf("regress after the tree changed: exit %d, want 2 saying the changes are gone:\n%s", code, stderr)
	}
	// Committed: HEAD moved on.
	head := commitAll(t, repo, "toy: the bug on 3 blocks")
	code, _, stderr = cliIn(t, t.TempDir(), "regress", regs)
	if code != exitUsage || !strings.Contains(stderr, "are gone: HEAD is "+head[:12]+" now") {
		t.Errorf("regress after a commit: exit %d, want 2 saying the changes are gone:\n%s", code, stderr)
	}
	// Committed as they were: HEAD holds the tree, and regress names it.
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(2))
	head = commitAll(t, repo, "toy: the bug on 2 blocks")
	code, _, stderr = cliIn(t, t.TempDir(), "regress", regs)
	if code != exitUsage || !strings.Contains(stderr, "commit "+head[:12]+" (HEAD) holds them") ||
		!strings.Contains(stderr, "record repo:"+repo+"@"+head[:12]) || strings.Contains(stderr, "are gone") {
		t.Errorf("regress after committing the changes as they were: exit %d, want 2 naming HEAD as the commit that holds them:\n%s", code, stderr)
	}

	// A commit's spec gets no note.
	regs, out = save("repo:" + repo + "@" + good)
	files, _ = filepath.Glob(filepath.Join(regs, "*.cfg"))
	b, _ := os.ReadFile(files[0])
	if strings.Contains(out, "uncommitted") || strings.Contains(string(b), "uncommitted") {
		t.Errorf("a commit's regression notes uncommitted changes:\n%s\n%s", out, b)
	}
}
