// baseline_race_test.go: builds of one repository's revisions at once, in
// goroutines of one process and in processes of their own, each into its
// own cache or a shared one, all succeed: no build's git worktree prune
// or removal takes another's half-made worktree.
package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// raceRepo is a git repository of n commits, each changing the file f.
func raceRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q")
	var commits []string
	for i := range n {
		if err := os.WriteFile(filepath.Join(repo, "f"), []byte(strconv.Itoa(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "f")
		run("commit", "-q", "-m", strconv.Itoa(i))
		c, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		commits = append(commits, c)
	}
	return repo, commits
}

// raceProjects build a revision by copying its f into {out}; the second
// keeps its worktree (its serve command names it), moved into the cache
// and repaired there.
var raceProjects = []Project{
	{Build: "cp f {out}/f", Serve: "cat {out}/f"},
	{Build: "cp f {out}/f", Serve: "cat {worktree}/f"},
}

// checkRaceBuild says what is wrong with b, the build of the i-th commit.
func checkRaceBuild(b Built, i int) error {
	got, err := os.ReadFile(filepath.Join(b.Out, "f"))
	if err != nil || string(got) != strconv.Itoa(i) {
		return fmt.Errorf("build of commit %d: {out}/f holds %q, %v", i, got, err)
	}
	if b.Worktree != "" {
		if out, err := git(b.Worktree, "rev-parse", "HEAD"); err != nil || !strings.HasPrefix(out, b.Rev.Commit) {
			return fmt.Errorf("build of commit %d: its kept worktree is no checkout of it: %v: %s", i, err, out)
		}
	}
	return nil
}

func TestParallelBuildsOfOneRepository(t *testing.T) {
	repo, commits := raceRepo(t, 4)
	shared := t.TempDir()
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for k := range 16 {
			i, p := k%len(commits), raceProjects[k/2%2]
			cache := shared // each revision of each project twice in one cache at once
			if k >= 8 {
				cache = t.TempDir() // each its own
			}
			wg.Go(func() {
				b, err := BuildProject(p, Revision{Commit: commits[i]}, BuildOptions{Repo: repo, CacheDir: filepath.Join(cache, strconv.Itoa(round))})
				if err == nil {
					err = checkRaceBuild(b, i)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("round %d: %v", round, err)
		}
	}
	if out, err := git(repo, "worktree", "list", "--porcelain"); err != nil || strings.Contains(out, "prunable") {
		t.Errorf("the repository's worktrees after the builds: %v\n%s", err, out)
	}
}

// TestParallelBuildProcessesOfOneRepository: processes of their own (this
// test binary, TestRaceBuildHelper) build the commits at once.
func TestParallelBuildProcessesOfOneRepository(t *testing.T) {
	repo, commits := raceRepo(t, 4)
	for round := range 2 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		shared := t.TempDir()
		for k := range 12 {
			cache := shared
			if k%2 == 1 {
				cache = t.TempDir()
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestRaceBuildHelper$")
			cmd.Env = append(os.Environ(), "CFGFUZZ_RACE_BUILD="+strings.Join([]string{repo, commits[k%len(commits)], strconv.Itoa(k % len(commits)), strconv.Itoa(k / len(commits) % 2), cache}, "\n"))
			wg.Go(func() {
				out, err := cmd.CombinedOutput()
				if err != nil {
					mu.Lock()
					t.Errorf("round %d: build process %d: %v\n%s", round, k, err, out)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
}

// TestRaceBuildHelper is a build process of
// TestParallelBuildProcessesOfOneRepository.
func TestRaceBuildHelper(t *testing.T) {
	arg := os.Getenv("CFGFUZZ_RACE_BUILD")
	if arg == "" {
		t.Skip("a helper process")
	}
	f := strings.Split(arg, "\n")
	i, _ := strconv.Atoi(f[2])
	p, _ := strconv.Atoi(f[3])
	b, err := BuildProject(raceProjects[p], Revision{Commit: f[1]}, BuildOptions{Repo: f[0], CacheDir: f[4]})
	if err == nil {
		err = checkRaceBuild(b, i)
	}
	if err != nil {
		t.Fatal(err)
	}
}
