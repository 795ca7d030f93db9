// sides_forkpoint_test.go: a current side that merged the baseline's
// commits into its own history (a feature branch that merged main in)
// has no first-parent path from the sides' merge base, nor from the
// baseline, through its own commits: its bisect starts where its
// first-parent history leaves the baseline's, so the commits of its own
// are the ones searched.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBisectOfASideThatMergedTheBaselineIn(t *testing.T) {
	repo, c := raceRepo(t, 1) // A
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(file, msg string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, file), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", file)
		git("commit", "-q", "-m", msg)
		return git("rev-parse", "HEAD")
	}
	main := git("rev-parse", "--abbrev-ref", "HEAD")
	git("checkout", "-q", "-b", "feature")
	f1 := commit("feature", "F1: the change that fails") // the feature's own commit
	git("checkout", "-q", main)
	m1 := commit("main", "M1")
	git("checkout", "-q", "feature")
	git("merge", "-q", "--no-edit", main) // F2 merges M1 in
	f2 := git("rev-parse", "HEAD")
	git("checkout", "-q", main)
	m2 := commit("main", "M2")

	for _, tc := range []struct{ name, base string }{{"diverged", m2}, {"ahead", m1}} {
		s := Settings{Checks: []string{"exec"}}
		sides := sidesOf(t, repo, f2, tc.base, &s)
		cmd := bisectCommand(t.TempDir(), &s, sides, newFinding("exec:x"))
		if cmd == "" {
			t.Fatalf("%s: no bisect command (between %q)", tc.name, sides.Between())
		}
		args := bisectArgs(t, cmd)
		good, bad := flagValue(args, "good"), flagValue(args, "bad")
		path, err := firstParentPath(repo, good, bad)
		if err != nil || !slices.Contains(path, f1) || !isAncestor(repo, good, bad) {
			t.Errorf("%s: bisect --good %.7s --bad %.7s searches %v (%v); want a path through the current side's own commit %.7s", tc.name, good, bad, path, err, f1)
		}
		if good != c[0] {
			t.Errorf("%s: bisect --good %.7s, want %.7s, where the current side's first-parent history leaves the baseline's", tc.name, good, c[0])
		}
		if from := sides.FromMergeBase(); !strings.Contains(from, c[0][:7]) {
			t.Errorf("%s: the bisect line says it starts %q, want from %.7s", tc.name, from, c[0])
		}
	}
}
