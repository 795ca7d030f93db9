// baseline_cleanup_test.go: BuildRevision starts by removing what builds
// killed with SIGKILL left in the cache (their registered worktree, their
// build directory, with its half-made binary) and keeps a live build's.
package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// deadPid is the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestBuildRevisionRemovesStaleBuilds(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "repo")
	for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "c"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	dead, live := deadPid(t), os.Getppid() // the parent (go test) is alive
	builds := filepath.Join(cache, "builds", OwnProject().key())
	tmp := func(pid int) string { return filepath.Join(builds, fmt.Sprintf("%s.tmp%d", commit, pid)) }
	for _, pid := range []int{dead, live} {
		wt := filepath.Join(tmp(pid), "worktree")
		if out, err := exec.Command("git", "-C", repo, "worktree", "add", "-q", "--detach", wt, commit).CombinedOutput(); err != nil {
			t.Fatalf("git worktree add: %v\n%s", err, out)
		}
		os.MkdirAll(filepath.Join(tmp(pid), "out"), 0o755)
		os.WriteFile(filepath.Join(tmp(pid), "out", "structurize"), []byte("x"), 0o755) // a half-made binary
	}
	os.MkdirAll(filepath.Join(builds, commit, "out"), 0o755) // a cached build: nothing is built
	if _, err := BuildRevision(commit, BuildOptions{Repo: repo, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	list, _ := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	if _, err := os.Stat(tmp(dead)); err == nil || strings.Contains(string(list), tmp(dead)) {
		t.Errorf("the dead build's directory or worktree is still there:\n%s", list)
	}
	if _, err := os.Stat(tmp(live)); err != nil || !strings.Contains(string(list), tmp(live)) {
		t.Errorf("the live build's directory or worktree was removed:\n%s", list)
	}
}
