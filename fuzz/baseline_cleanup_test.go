// baseline_cleanup_test.go: BuildRevision starts by removing what builds
// killed with SIGKILL left in the cache (their registered worktree, their
// temporary binary) and keeps a live build's.
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
	wt := func(pid int) string {
		return filepath.Join(cache, "worktrees", fmt.Sprintf("%s-%d", commit[:12], pid))
	}
	for _, pid := range []int{dead, live} {
		if out, err := exec.Command("git", "-C", repo, "worktree", "add", "-q", "--detach", wt(pid), commit).CombinedOutput(); err != nil {
			t.Fatalf("git worktree add: %v\n%s", err, out)
		}
	}
	binDir := filepath.Join(cache, "structurize", commit)
	os.MkdirAll(binDir, 0o755)
	deadTmp, liveTmp := filepath.Join(binDir, fmt.Sprintf("structurize.tmp%d", dead)), filepath.Join(binDir, fmt.Sprintf("structurize.tmp%d", live))
	for _, f := range []string{deadTmp, liveTmp, filepath.Join(binDir, "structurize")} { // the last: a cached build
		os.WriteFile(f, []byte("x"), 0o755)
	}
	if _, err := BuildRevision(commit, BuildOptions{Repo: repo, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	list, _ := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	if _, err := os.Stat(wt(dead)); err == nil || strings.Contains(string(list), wt(dead)) {
		t.Errorf("the dead build's worktree is still there:\n%s", list)
	}
	if _, err := os.Stat(wt(live)); err != nil || !strings.Contains(string(list), wt(live)) {
		t.Errorf("the live build's worktree was removed:\n%s", list)
	}
	if _, err := os.Stat(deadTmp); err == nil {
		t.Errorf("the dead build's temporary binary is still there")
	}
	if _, err := os.Stat(liveTmp); err != nil {
		t.Errorf("the live build's temporary binary was removed")
	}
}
