// bisect_test.go: Bisect's search on a temporary repository whose commits
// are judged by a table (the judge reads the commit from the side's spec):
// the first differing commit found exactly around a commit whose build
// fails (skipped, with the tail of its build's output), every candidate
// named when a skipped commit hides the answer, and the probe order.
package fuzz

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tableRepo is a repository of n commits after a first one; the commits
// listed in broken hold a file BROKEN, which the build refuses.
func tableRepo(t *testing.T, n int, broken ...int) (string, []string) {
	t.Helper()
	repo := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	var commits []string
	for i := 0; i <= n; i++ {
		os.Remove(filepath.Join(repo, "BROKEN"))
		if slices.Contains(broken, i) {
			os.WriteFile(filepath.Join(repo, "BROKEN"), nil, 0o644)
		}
		os.WriteFile(filepath.Join(repo, "n"), []byte{byte('0' + i)}, 0o644)
		run("add", "-A")
		run("commit", "-q", "-m", fmt.Sprintf("commit %d", i))
		commits = append(commits, run("rev-parse", "HEAD"))
	}
	return repo, commits
}

// bisectTable bisects commits[0]..commits[last] where commits from bug on
// are judged invalid.
func bisectTable(t *testing.T, repo string, commits []string, bug int) *BisectResult {
	t.Helper()
	res, err := Bisect(BisectOptions{Good: commits[0], Bad: commits[len(commits)-1], Repo: repo,
		SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
		Resolve: ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "test ! -e BROKEN", Serve: "cat"}},
		Judge: func(side SideFactory) (SideResult, error) {
			at := slices.IndexFunc(commits, func(c string) bool { return strings.HasSuffix(side.Describe, "@"+c) })
			if at >= bug {
				return SideResult{Outcome: OutInvalid, Signature: "exec:trace-mismatch"}, nil
			}
			return SideResult{Outcome: OutOK}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestBisectSkipsBrokenBuilds(t *testing.T) {
	repo, commits := tableRepo(t, 5, 2)
	res := bisectTable(t, repo, commits, 4)
	if res.First != commits[4] || res.GoodVerdict != "ok" || res.FirstVerdict != "invalid: exec:trace-mismatch" || res.Candidates != nil {
		t.Errorf("bug at 4: %+v", res)
	}
	if sk := res.Skipped(); len(sk) != 1 || sk[0] != commits[2] {
		t.Errorf("skipped %v, want commit 2", sk)
	}
	res = bisectTable(t, repo, commits, 3)
	if res.First != commits[3] || !slices.Equal(res.Candidates, []string{commits[2]}) || res.LastGood != commits[1] {
		t.Errorf("bug at 3 behind the broken 2: first %s, candidates %v, last good %s; want the last good commit tested, 1 (%s)", res.First, res.Candidates, res.LastGood, commits[1])
	}
}

// bisectSkippingTwo bisects tableRepo's commits 0 (good) to 5 (bad),
// built by build with bo, commits 4 and 5 judged failing, logging to log
// (nil: none);
// it returns the result and its first skipped step (commit 2's, whose
// build the table breaks), failing the test when none is skipped.
func bisectSkippingTwo(t *testing.T, repo string, commits []string, bo BuildOptions, build string, log io.Writer) (*BisectResult, BisectStep) {
	t.Helper()
	res, err := Bisect(BisectOptions{Good: commits[0], Bad: commits[5], Repo: repo, Log: log,
		SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
		Resolve: ResolveOptions{Build: bo, Project: Project{Build: build, Serve: "cat"}},
		Judge: func(side SideFactory) (SideResult, error) {
			if strings.HasSuffix(side.Describe, "@"+commits[4]) || strings.HasSuffix(side.Describe, "@"+commits[5]) {
				return SideResult{Outcome: OutInvalid, Signature: "exec:trace-mismatch"}, nil
			}
			return SideResult{Outcome: OutOK}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Steps, func(s BisectStep) bool { return s.Skipped != "" })
	if i < 0 {
		t.Fatalf("no commit skipped: %+v", res.Steps)
	}
	return res, res.Steps[i]
}

// TestBisectSkipKeepsBuildOutput: a skipped commit says why in one line
// and keeps the tail of its build's output, with the paths of the removed
// checkout relative to it and none naming the build's directories; the
// commits tested are those after the good one.
func TestBisectSkipKeepsBuildOutput(t *testing.T) {
	repo, commits := tableRepo(t, 5, 2)
	cache := t.TempDir()
	var log strings.Builder
	build := "if test -e BROKEN; then seq 1 20; echo error: {worktree}/src/lib.rs:3: cannot find x >&2; echo; echo error: could not compile into {out}; exit 101; fi"
	res, s := bisectSkippingTwo(t, repo, commits, BuildOptions{CacheDir: cache}, build, &log)
	want := []string{"15", "16", "17", "18", "19", "20", "error: src/lib.rs:3: cannot find x", "error: could not compile into {out}"}
	if s.Commit != commits[2] || s.Skipped != "build failed: exit status 101" || !slices.Equal(s.Output, want) {
		t.Errorf("skipped %s: %q, output %q; want commit 2: %q, output %q", s.Commit, s.Skipped, s.Output, "build failed: exit status 101", want)
	}
	if strings.Contains(log.String(), cache) {
		t.Errorf("the log names the build's directories, removed:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "skipped (build failed: exit status 101)\n    15\n") {
		t.Errorf("the log lacks the skipped commit's output:\n%s", log.String())
	}
	if tested := res.Tested(); tested != len(res.Steps)-2 {
		t.Errorf("%d tested of steps %+v: want every step but the good commit's and the skipped one", tested, res.Steps)
	}
}

// TestBisectRefusesEndsWithTheSameVerdict: ends that give one verdict
// are refused; where that verdict fails the graph, the error says the
// good commit fails it already (a merge base taken as good may).
func TestBisectRefusesEndsWithTheSameVerdict(t *testing.T) {
	repo, commits := tableRepo(t, 2)
	for _, c := range []struct {
		verdict SideResult
		want    string
	}{
		{SideResult{Outcome: OutOK}, "the bad commit " + commits[2][:12] + " gives the good one's verdict (ok): nothing to bisect"},
		{SideResult{Outcome: OutInvalid, Signature: "rules:R3"}, "the good commit " + commits[0][:12] + " fails the graph already, as the bad one " + commits[2][:12] + " does (invalid: rules:R3): the failure is older than the good commit, nothing to bisect"},
	} {
		_, err := Bisect(BisectOptions{Good: commits[0], Bad: commits[2], Repo: repo,
			SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
			Resolve: ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Serve: "cat"}},
			Judge:   func(SideFactory) (SideResult, error) { return c.verdict, nil }})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s at both ends: %v, want %q", VerdictKey(c.verdict), err, c.want)
		}
	}
}

// TestBisectSaysEndsLookSwapped: a good commit that is no ancestor of the
// bad one is refused before anything is built, and where the bad one is
// an ancestor of the good one, the message asks whether they are swapped.
func TestBisectSaysEndsLookSwapped(t *testing.T) {
	repo, commits := tableRepo(t, 2)
	side := exec.Command("sh", "-c", "git checkout -q "+commits[0]+" && git -c user.name=t -c user.email=t@t.invalid -c commit.gpgsign=false commit -q --allow-empty -m side && git rev-parse HEAD")
	side.Dir = repo
	out, err := side.Output()
	if err != nil {
		t.Fatal(err)
	}
	sibling := strings.TrimSpace(string(out)) // of commits[1]: neither is the other's ancestor
	for _, c := range []struct {
		good, bad string
		swapped   bool
	}{{commits[2], commits[0], true}, {sibling, commits[1], false}} {
		_, err := Bisect(BisectOptions{Good: c.good, Bad: c.bad, Repo: repo,
			SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
			Resolve: ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Serve: "cat"}},
			Judge: func(SideFactory) (SideResult, error) {
				t.Fatal("judged a commit")
				return SideResult{}, nil
			}})
		if err == nil {
			t.Fatalf("good %s, bad %s: no error", c.good, c.bad)
		}
		if got := strings.Contains(err.Error(), "swapped?"); got != c.swapped || !strings.Contains(err.Error(), "is not an ancestor of the bad one") {
			t.Errorf("good %s, bad %s: %v; want the swap asked about: %v", c.good, c.bad, err, c.swapped)
		}
	}
}

func TestNextProbe(t *testing.T) {
	for _, c := range []struct {
		lo, hi  int
		skipped []int
		want    int
		ok      bool
	}{
		{-1, 4, nil, 1, true},
		{-1, 4, []int{1}, 0, true},
		{0, 4, []int{1}, 2, true},
		{2, 4, nil, 3, true},
		{2, 3, nil, 0, false},
		{0, 3, []int{1, 2}, 0, false},
	} {
		sk := map[int]bool{}
		for _, i := range c.skipped {
			sk[i] = true
		}
		if got, ok := nextProbe(c.lo, c.hi, sk); got != c.want || ok != c.ok {
			t.Errorf("nextProbe(%d, %d, %v) = %d, %v; want %d, %v", c.lo, c.hi, c.skipped, got, ok, c.want, c.ok)
		}
	}
}

// TestBuildErrorNamesNoRemovedPath: a failed build's message names its
// command and output without the checkout and output directory, which
// are gone by the time anyone reads it.
func TestBuildErrorNamesNoRemovedPath(t *testing.T) {
	e := &BuildError{
		Rev: Revision{Commit: strings.Repeat("a", 40)}, Command: "cd /tmp/b1/worktree && cargo build --target-dir /tmp/b1/out",
		Err: errors.New("exit status 101"), Output: "error: /tmp/b1/worktree/src/lib.rs:3: cannot find x\n",
		Worktree: "/tmp/b1/worktree", Out: "/tmp/b1/out",
	}
	msg := e.Error()
	if strings.Contains(msg, "/tmp/b1") || !strings.Contains(msg, "cd {worktree} && cargo build --target-dir {out}") || !strings.Contains(msg, "error: src/lib.rs:3: cannot find x") {
		t.Errorf("build error names a removed path, or not its command and output:\n%s", msg)
	}
}

// TestBuildOutputTailKeepsTheFirstError: a compiler error above pages of
// notes leads the tail.
func TestBuildOutputTailKeepsTheFirstError(t *testing.T) {
	out := "compiling\nss.cpp:4:12: error: no match for 'operator<<'\n" + strings.Repeat("note: candidate: template\n", 200) + "ninja: build stopped\n"
	got := (&BuildError{Output: out}).OutputTail(4)
	want := []string{"ss.cpp:4:12: error: no match for 'operator<<'", "...", "note: candidate: template", "ninja: build stopped"}
	if !slices.Equal(got, want) {
		t.Errorf("tail %q, want %q", got, want)
	}
	if got := (&BuildError{Output: "a\nb\n"}).OutputTail(4); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("short output: %q", got)
	}
}

// TestBisectSaysEachStep: before each commit is built and judged, the log
// says which step it is, of about how many (the two ends, then log2 of
// the commits left, rounded up), with the commit's subject line.
func TestBisectSaysEachStep(t *testing.T) {
	repo, commits := tableRepo(t, 9)
	var log strings.Builder
	res, err := Bisect(BisectOptions{Good: commits[0], Bad: commits[9], Repo: repo, Log: &log,
		SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
		Resolve: ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Serve: "cat"}},
		Judge: func(side SideFactory) (SideResult, error) {
			if at := slices.IndexFunc(commits, func(c string) bool { return strings.HasSuffix(side.Describe, "@"+c) }); at >= 7 {
				return SideResult{Outcome: OutInvalid, Signature: "exec:trace-mismatch"}, nil
			}
			return SideResult{Outcome: OutOK}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, ": step ") {
			steps = append(steps, strings.TrimSuffix(l, "\n"))
		}
	}
	// 9 commits after the good one: the ends, then 4 halvings at most.
	want := []string{
		"cfgfuzz bisect: step 1 of about 6 (the good commit): " + commits[0][:12] + " commit 0",
		"cfgfuzz bisect: step 2 of about 6 (the bad commit): " + commits[9][:12] + " commit 9",
	}
	if len(steps) != len(res.Steps) || len(steps) < 3 || !slices.Equal(steps[:2], want) {
		t.Fatalf("step lines:\n%s\nwant one per commit tested (%d), opening with\n%s", strings.Join(steps, "\n"), len(res.Steps), strings.Join(want, "\n"))
	}
	for i, l := range steps[2:] {
		c := res.Steps[i+2].Commit
		at := slices.Index(commits, c)
		var k, about, left int
		if _, err := fmt.Sscanf(l, "cfgfuzz bisect: step %d of about %d (%d commits left)", &k, &about, &left); err != nil || k != i+3 || about < k || about > 6 || left < 1 ||
			!strings.HasSuffix(l, fmt.Sprintf(": %s commit %d", c[:12], at)) {
			t.Errorf("step line %q: want step %d of about %d to 6, the commits left, and %s's subject (commit %d)", l, i+3, i+3, c[:12], at)
		}
	}
	if res.First != commits[7] {
		t.Errorf("first %s, want commit 7", res.First)
	}
}

// TestBuildTimeoutSkipsTheCommit: a build past BuildOptions.Timeout is
// killed with its process group (a sleep it started is gone, and on Linux
// not left a zombie child of this process, its subreaper once a server
// ran), fails as a build that timed out, with the tail of its output, and
// is skipped by bisect; nothing of it is kept and no failure is recorded
// for it.
func TestBuildTimeoutSkipsTheCommit(t *testing.T) {
	becomeSubreaper() // as after a campaign's first server: the sleep's orphan comes here
	repo, commits := tableRepo(t, 5, 2)
	cache := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	build := "if test -e BROKEN; then echo compiling the slow part; sleep 1000 & echo $! > " + pidFile + "; wait; fi"
	res, s := bisectSkippingTwo(t, repo, commits, BuildOptions{CacheDir: cache, Timeout: time.Second}, build, nil)
	if s.Commit != commits[2] || s.Skipped != "build timed out: killed with its process group after 1s (--build-timeout)" || !slices.Equal(s.Output, []string{"compiling the slow part"}) {
		t.Errorf("skipped %s: %q, output %q; want commit 2 timed out, with its output", s.Commit, s.Skipped, s.Output)
	}
	if res.First != commits[4] {
		t.Errorf("first %s, want commit 4", res.First)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
		t.Errorf("the build's sleep's pid file holds %q", b)
	} else if st, ok := readProcStat(pid); ok && st.state != 'Z' {
		t.Errorf("the build's sleep (pid %d) runs on", pid)
	} else if ok && st.ppid == os.Getpid() {
		t.Errorf("the build's sleep (pid %d) is left a zombie child of this process", pid)
	}
	left, _ := filepath.Glob(filepath.Join(cache, "builds", "*", commits[2]+"*"))
	if len(left) > 0 {
		t.Errorf("the timed-out build left %v (a failure record or a build directory)", left)
	}
}

// TestBisectNamesTheCommitOfAHarnessErrorOnce: a harness error ends the
// bisection with an error that names the commit once: "the good commit
// HASH: ..." at an end, "commit HASH: ..." in between.
func TestBisectNamesTheCommitOfAHarnessErrorOnce(t *testing.T) {
	repo, commits := tableRepo(t, 4)
	for _, c := range []struct {
		at   int
		want string
	}{
		{0, "the good commit " + commits[0][:12] + ": harness error: no answer"},
		{4, "the bad commit " + commits[4][:12] + ": harness error: no answer"},
		{2, "commit " + commits[2][:12] + ": harness error: no answer"},
	} {
		_, err := Bisect(BisectOptions{Good: commits[0], Bad: commits[4], Repo: repo,
			SpecOf:  func(c string) Spec { return Spec{Kind: SpecRepo, Repo: repo, Rev: c} },
			Resolve: ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Serve: "cat"}},
			Judge: func(side SideFactory) (SideResult, error) {
				switch at := slices.IndexFunc(commits, func(h string) bool { return strings.HasSuffix(side.Describe, "@"+h) }); {
				case at == c.at:
					return SideResult{Outcome: OutError, Detail: "no answer"}, nil
				case at >= 3:
					return SideResult{Outcome: OutInvalid, Signature: "rules:R3"}, nil
				}
				return SideResult{Outcome: OutOK}, nil
			}})
		if err == nil || err.Error() != c.want {
			t.Errorf("a harness error at commit %d: %v, want %q", c.at, err, c.want)
		}
	}
}
