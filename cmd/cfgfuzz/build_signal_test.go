// build_signal_test.go sends SIGINT, SIGTERM and SIGHUP to every command
// that builds revisions of a repository (repo: specs, --repo) while it
// builds one, in a real git repository with a build command that starts
// a sleep: each command exits 128 + the signal, says it is stopping and
// that the build stopped with nothing kept, and leaves no build process,
// no build directory (REVISION.tmpPID) in any project folder of the cache
// and no worktree registered in the repository. merge, which builds the
// shards' structurizer only for its minimizer, has a test of its own
// (SIGINT only), its shards run first on a fast build of the revision.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildingCommands are the commands that build a revision, each as the
// arguments that make it build a revision of repo (whose .cfgfuzz.json
// holds build, its build command, and a serve command) first: good and
// bad are its two commits, graph a graph file, tmp a directory of the
// test's.
var buildingCommands = []struct {
	name string
	args func(repo, good, bad, build, graph, tmp string) []string
}{
	{"check", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"check", "--structurizer", "repo:" + repo + "@" + good, graph}
	}},
	{"bisect", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"bisect", "--repo", repo, "--build", build, "--serve", "true", "--good", good, "--bad", bad, graph}
	}},
	{"selftest", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"selftest", "--structurizer", "repo:" + repo + "@" + good}
	}},
	{"bench", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"bench", "--driver", "--structurizer", "repo:" + repo + "@" + good}
	}},
	{"minimize", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"minimize", "--inject", "swap-arms", "--baseline", "repo:" + repo + "@" + good, graph}
	}},
	{"regress", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"regress", "--structurizer", "repo:" + repo + "@" + good, filepath.Dir(graph)}
	}},
	{"run", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"run", "--structurizer", "repo:" + repo + "@" + good, "--graphs", "5", "--progress", "none", "--out", filepath.Join(tmp, "out")}
	}},
	{"compare", func(repo, good, bad, build, graph, tmp string) []string {
		return []string{"compare", "--repo", repo, "--baseline", good, "--current", bad, "--graphs", "5", "--progress", "none", "--out", filepath.Join(tmp, "out")}
	}},
}

// The cases run side by side (parallelTests): each stops a process of its
// own, building in a repository and a cache of its own, and mostly waits.
func TestStoppedWhileBuildingLeavesNothing(t *testing.T) {
	bin := cfgfuzzBinary(t)
	for _, c := range buildingCommands {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
				skipIfStartedIgnoring(t, sig)
				t.Parallel()
				stoppedWhileBuilding(t, bin, sig, c.args)
			})
		}
	}
}

// startInSlowBuild starts cfgfuzz bin with args in dir, its build cache
// in cache, and waits for the build (slowBuildRepo's) to write the pid of
// its sleep to pidFile: the command, its combined output and that pid.
// Both are killed when the test ends.
func startInSlowBuild(t *testing.T, bin, dir, cache, pidFile string, args ...string) (*exec.Cmd, *lockedBuffer, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	waitForFile(t, pidFile)
	time.Sleep(100 * time.Millisecond) // the pid written whole
	pid, err := strconv.Atoi(strings.TrimSpace(readFile(t, pidFile)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return cmd, out, pid
}

// stoppedWhileBuilding runs the command args gives in a repository of two
// commits whose build command starts a sleep and writes its pid, sends
// it sig while the build runs, and wants exit 128 + sig, the stop said,
// the sleep gone, no build directory in the cache and only the main
// worktree registered.
func stoppedWhileBuilding(t *testing.T, bin string, sig syscall.Signal, args func(repo, good, bad, build, graph, tmp string) []string) {
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "pid")
	sb := slowBuildRepo(t, tmp, "sleep 1000 & echo $! > "+pidFile+"; wait")
	repo, good, bad, build, graph, cache := sb.repo, sb.good, sb.bad, sb.build, sb.graph, sb.cache
	cmd, out, pid := startInSlowBuild(t, bin, tmp, cache, pidFile, args(repo, good, bad, build, graph, tmp)...)
	stopBuildingCommand(t, cmd, out, pid, sig, repo, cache)
}

// stopBuildingCommand sends sig to cmd, whose build runs the sleep pid,
// and wants exit 128 + sig, the stop said, the sleep gone, no build
// directory in cache and only repo's main worktree registered.
func stopBuildingCommand(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, pid int, sig syscall.Signal, repo, cache string) {
	t.Helper()
	cmd.Process.Signal(sig)
	code := exitWithin(t, cmd, time.Minute, func() string { return sig.String() + ":\n" + out.String() })
	if want := 128 + int(sig); code != want {
		t.Errorf("exit %d, want %d\n%s", code, want, out.String())
	}
	if want := ": " + signalName(sig) + ": stopping ("; !strings.Contains(out.String(), want) {
		t.Errorf("the output does not say %q:\n%s", want, out.String())
	}
	if stopped := regexp.MustCompile(`cfgfuzz: building [0-9a-f]{12} stopped after [0-9.]+s \(nothing kept\)`); !stopped.MatchString(out.String()) {
		t.Errorf("the output does not say the build stopped with nothing kept:\n%s", out.String())
	}
	running := func() bool { // alive and not a zombie
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return err == nil && !strings.Contains(string(stat), ") Z ")
	}
	for deadline := time.Now().Add(5 * time.Second); running(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the build's sleep (pid %d) runs on after the command ended\n%s", pid, out.String())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "cfgfuzz", "builds", "*", "*.tmp*")); len(left) > 0 {
		t.Errorf("build directories (worktree, output) left: %v\n%s", left, out.String())
	}
	if wts := gitIn(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Errorf("worktrees registered:\n%s\n%s", wts, out.String())
	}
}

// TestMergeStoppedWhileBuildingLeavesNothing: merge builds the shards'
// structurizer, a revision of a repository, for its minimizer; SIGINT
// during that build ends it as every other building command's
// (stopBuildingCommand). The shards ran on a fast build of the same
// revision, in a cache of their own; the merge's build, in a fresh cache,
// starts the sleep (the flag file being there).
func TestMergeStoppedWhileBuildingLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	t.Parallel()
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	flag, pidFile := filepath.Join(tmp, "slow"), filepath.Join(tmp, "pid")
	repo, _, rev := plantedToyRepo(t, `{"build": "if [ -f `+flag+` ]; then sleep 1000 & echo $! > `+pidFile+`; wait; fi; cp toy.py {out}/toy.py", "serve": "python3 {out}/toy.py"}`)
	var shards []string
	for i := range 2 {
		d := filepath.Join(tmp, "s"+strconv.Itoa(i))
		c := exec.Command(bin, "run", "--structurizer", "repo:"+repo+"@"+rev, "--kinds", "exhaustive", "--graphs", "20",
			"--shard", strconv.Itoa(i)+"/2", "--progress", "none", "--out", d)
		c.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "shards-cache"))
		if out, err := c.CombinedOutput(); c.ProcessState.ExitCode() != exitFail {
			t.Fatalf("shard %d: %v, want exit 1 (the planted bug found)\n%s", i, err, out)
		}
		shards = append(shards, d)
	}
	writeFile(t, flag, "")
	cache := filepath.Join(tmp, "cache")
	cmd, out, pid := startInSlowBuild(t, bin, tmp, cache, pidFile, append([]string{"merge", "--progress", "none", "--out", filepath.Join(tmp, "m")}, shards...)...)
	stopBuildingCommand(t, cmd, out, pid, syscall.SIGINT, repo, cache)
}

// slowBuild is a repository in tmp/repo of two commits, good and bad,
// whose .cfgfuzz.json builds with build and serves with true; a
// regression file, graph, that passes; and the cache directory for
// XDG_CACHE_HOME.
type slowBuild struct {
	repo, good, bad, build, graph, cache string
}

// slowBuildRepo makes a slowBuild in tmp.
func slowBuildRepo(t *testing.T, tmp, build string) slowBuild {
	t.Helper()
	repo := filepath.Join(tmp, "repo")
	os.MkdirAll(repo, 0o755)
	b, _ := json.Marshal(map[string]string{"build": build, "serve": "true"})
	os.WriteFile(filepath.Join(repo, ".cfgfuzz.json"), b, 0o644)
	gitIn(t, repo, "init", "-q")
	good := commitAll(t, repo, "good")
	os.WriteFile(filepath.Join(repo, "change"), []byte("bad\n"), 0o644)
	bad := commitAll(t, repo, "bad")
	graphs := filepath.Join(tmp, "graphs")
	os.MkdirAll(graphs, 0o755)
	graph := filepath.Join(graphs, "g.cfg")
	os.WriteFile(graph, []byte("# expect: pass\n{{1, 2}, {3}, {3}, {4, 1}, {}}\n"), 0o644)
	return slowBuild{repo: repo, good: good, bad: bad, build: build, graph: graph, cache: filepath.Join(tmp, "cache")}
}
