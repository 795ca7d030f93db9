// sides_shallow_test.go: in a shallow clone git names no merge base of
// two sides that diverge, though they share commits: the comparison does
// not say they share none, and says its counts of their commits are of
// the history the clone holds.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestShallowCloneSidesAreNotUnrelated(t *testing.T) {
	repo, c := raceRepo(t, 3) // c[0] - c[1] - c[2]
	git := func(dir string, args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(repo, "branch", "main-line", c[2])
	git(repo, "checkout", "-q", "-b", "side", c[1])
	if err := os.WriteFile(filepath.Join(repo, "g"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "add", "g")
	git(repo, "commit", "-q", "-m", "side")
	side, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "--no-single-branch", "file://"+repo, shallow).CombinedOutput(); err != nil {
		t.Fatalf("git clone --depth 1: %v\n%s", err, out)
	}
	s := Settings{Checks: []string{"exec"}}
	sides := sidesOf(t, shallow, side, c[2], &s)
	if sides.Unrelated || strings.Contains(sides.Between(), "share no commit") {
		t.Errorf("a shallow clone's sides, which share %s: unrelated %v, between %q; want them not said to share no commit", c[1][:7], sides.Unrelated, sides.Between())
	}
	if between := sides.Between(); !sides.ShallowCounts || !strings.Contains(between, "this shallow clone holds") || strings.Contains(between, "since their merge base") {
		t.Errorf("a shallow clone's sides, which git counts in its cut history: shallow_counts %v, between %q; want the counts said to be of the history the clone holds", sides.ShallowCounts, between)
	}
	rep := &Report{Sides: sides, Findings: []Finding{*newFinding("exec:x")}}
	if none := NoBisectNote(rep); !strings.Contains(none, "shallow") || strings.Contains(none, "share no commit") {
		t.Errorf("no bisect %q, want why: git names no merge base (a shallow clone)", none)
	}
}
