// build_timeout_test.go runs every command that builds revisions with
// --build-timeout 1s on a build that does not end: each kills the build
// with its process group, says the build timed out with its output, and
// exits 2 (a build failure; bisect's ends must build), leaving no build
// directory, no worktree and no failure record.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The commands run side by side (parallelTests): each builds in a
// repository and a cache of its own, and mostly waits for --build-timeout.
func TestBuildTimeoutIsABuildFailure(t *testing.T) {
	bin := cfgfuzzBinary(t)
	for _, c := range buildingCommands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			pidFile := filepath.Join(tmp, "pid")
			sb := slowBuildRepo(t, tmp, "echo compiling the slow part; sleep 1000 & echo $! > "+pidFile+"; wait")
			repo, good, bad, build, graph, cache := sb.repo, sb.good, sb.bad, sb.build, sb.graph, sb.cache
			cmd := exec.Command(bin, append(c.args(repo, good, bad, build, graph, tmp), "--build-timeout", "1s")...)
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
			var out lockedBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			code := exitWithin(t, cmd, time.Minute, func() string { return out.String() })
			if code != exitUsage {
				t.Errorf("exit %d, want %d\n%s", code, exitUsage, out.String())
			}
			for _, want := range []string{"timed out after ", "(--build-timeout 1s; nothing kept)", "killed with its process group after 1s (--build-timeout)", "compiling the slow part"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the output does not say %q:\n%s", want, out.String())
				}
			}
			if b, err := os.ReadFile(pidFile); err == nil {
				if stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(b)) + "/stat"); err == nil && !strings.Contains(string(stat), ") Z ") {
					pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
					if pid > 0 {
						defer exec.Command("kill", strconv.Itoa(pid)).Run()
					}
					t.Errorf("the build's sleep (pid %s) runs on", strings.TrimSpace(string(b)))
				}
			}
			left, _ := filepath.Glob(filepath.Join(cache, "cfgfuzz", "builds", "*", good+"*"))
			more, _ := filepath.Glob(filepath.Join(cache, "cfgfuzz", "builds", "*", bad+"*"))
			if left = append(left, more...); len(left) > 0 {
				t.Errorf("the timed-out build left %v (a build directory or a failure record)", left)
			}
			if wts := gitIn(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
				t.Errorf("worktrees registered:\n%s", wts)
			}
		})
	}
}
