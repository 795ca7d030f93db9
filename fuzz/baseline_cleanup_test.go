// baseline_cleanup_test.go: BuildRevision starts by removing what builds
// killed with SIGKILL left in the cache (their registered worktree, their
// build directory, with its half-made binary) and keeps a live build's.
package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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

// oneCommitRepo is a git repository named name in a temporary directory,
// with one empty commit, and that commit.
func oneCommitRepo(t *testing.T, name string) (repo, commit string) {
	t.Helper()
	repo = filepath.Join(t.TempDir(), name)
	for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "c"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	return repo, commit
}

func TestBuildRevisionRemovesStaleBuilds(t *testing.T) {
	repo, commit := oneCommitRepo(t, "repo")
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

// TestBuildSweepsEveryProjectFolder: a build removes the dead builds of
// every project folder of the cache, whichever repository their
// worktrees belong to (a one-off --build's folder of another repository
// here), unregistering those worktrees, and keeps a live build's there.
func TestBuildSweepsEveryProjectFolder(t *testing.T) {
	repo, commit := oneCommitRepo(t, "repo")
	other, otherCommit := oneCommitRepo(t, "other")
	cache := t.TempDir()
	oneOff := Project{Build: "make adapter", Serve: "{out}/adapter"}
	otherBuilds := filepath.Join(cache, "builds", oneOff.key())
	dead, live := deadPid(t), os.Getppid()
	tmp := func(pid int) string { return filepath.Join(otherBuilds, fmt.Sprintf("%s.tmp%d", otherCommit, pid)) }
	for _, pid := range []int{dead, live} {
		wt := filepath.Join(tmp(pid), "worktree")
		if out, err := exec.Command("git", "-C", other, "worktree", "add", "-q", "--detach", wt, otherCommit).CombinedOutput(); err != nil {
			t.Fatalf("git worktree add: %v\n%s", err, out)
		}
	}
	bare := filepath.Join(otherBuilds, fmt.Sprintf("%s.tmp%d", strings.Repeat("0", 40), dead)) // no worktree yet
	os.MkdirAll(filepath.Join(bare, "out"), 0o755)
	p := Project{Build: "true", Serve: "true"}
	if _, err := BuildProject(p, Revision{Commit: commit}, BuildOptions{Repo: repo, CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	list, _ := exec.Command("git", "-C", other, "worktree", "list", "--porcelain").Output()
	if _, err := os.Stat(tmp(dead)); err == nil || strings.Contains(string(list), tmp(dead)) {
		t.Errorf("the dead build of the other project folder is still there:\n%s", list)
	}
	if _, err := os.Stat(bare); err == nil {
		t.Errorf("the dead build without a worktree is still there: %s", bare)
	}
	if _, err := os.Stat(tmp(live)); err != nil || !strings.Contains(string(list), tmp(live)) {
		t.Errorf("the live build of the other project folder was removed:\n%s", list)
	}
}

// TestProjectFolderSaysWhatItIs: a build writes project.json into its
// project folder, naming the build and serve commands, when it was made
// and each repository built there.
func TestProjectFolderSaysWhatItIs(t *testing.T) {
	var repos []string
	var commits []string
	for _, name := range []string{"one", "two"} {
		repo := filepath.Join(t.TempDir(), name)
		for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", name}} {
			if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		c, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		top, _ := repoTop(repo)
		repos, commits = append(repos, top), append(commits, c)
	}
	cache := t.TempDir()
	p := Project{Build: "mkdir -p {out} && echo built > {out}/adapter", Serve: "{out}/adapter"}
	before := time.Now().Add(-time.Second)
	for i := range repos {
		for range 2 { // the second build finds the first: the file is unchanged
			if _, err := BuildProject(p, Revision{Commit: commits[i]}, BuildOptions{Repo: repos[i], CacheDir: cache}); err != nil {
				t.Fatal(err)
			}
		}
	}
	info, err := ReadProjectInfo(filepath.Join(cache, "builds", p.key()))
	if err != nil {
		t.Fatal(err)
	}
	made, err := time.Parse(time.RFC3339, info.Made)
	if info.Build != p.Build || info.Serve != p.Serve || !slices.Equal(info.Repositories, repos) || err != nil || made.Before(before) || made.After(time.Now()) {
		t.Errorf("project.json: %+v (made: %v), want the commands, repositories %v and a time of this test", info, err, repos)
	}
}
