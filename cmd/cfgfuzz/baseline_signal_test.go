// baseline_signal_test.go interrupts `cfgfuzz compare --baseline` while
// it builds the baseline (a real go build, slowed by a -toolexec wrapper
// that sleeps) with SIGINT and SIGTERM: the command exits 128 + the
// signal, says that no graph has run yet, and leaves no git worktree (on disk or registered), no
// temporary binary and no process of the build.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cloneRepo clones this repository into a temporary directory.
func cloneRepo(t *testing.T) string {
	t.Helper()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git repository: %v", err)
	}
	repo := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("git", "clone", "-q", "--shared", strings.TrimSpace(string(top)), repo).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	return repo
}

// processesWith lists the pids whose command line contains s.
func processesWith(s string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func TestBaselineBuildInterrupted(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	bin := cfgfuzzBinary(t)
	repo := cloneRepo(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		tmp := t.TempDir()
		slow := filepath.Join(tmp, "slow-tool.sh")
		os.WriteFile(slow, []byte("#!/bin/sh\nsleep 300\nexec \"$@\"\n"), 0o755)
		cache := filepath.Join(tmp, "cache")
		cmd := exec.Command(bin, "compare", "--baseline", "HEAD", "--graphs", "5", "--progress", "none", "--out", filepath.Join(tmp, "out"))
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "GOFLAGS=-toolexec="+slow)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the test can kill all of it
		var stderr lockedBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		deadline := time.Now().Add(2 * time.Minute)
		for len(processesWith(slow)) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if len(processesWith(slow)) == 0 {
			cmd.Process.Kill()
			t.Fatalf("the baseline build never started")
		}
		cmd.Process.Signal(sig)
		code := exitWithin(t, cmd, time.Minute, func() string { return sig.String() + " (the build was not cancelled)" })
		if code != 128+int(sig) {
			t.Errorf("%v during the build: exit %d, want %d", sig, code, 128+int(sig))
		}
		if want := "stopping (no graph has run yet"; !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "graphs in flight") {
			t.Errorf("%v during the build: the stop line does not say %q (nor only that):\n%s", sig, want, stderr.String())
		}
		for time.Now().Before(deadline) && len(processesWith(slow)) > 0 {
			time.Sleep(20 * time.Millisecond)
		}
		if left := processesWith(slow); len(left) > 0 {
			t.Errorf("%v: build processes left: %v", sig, left)
		}
		if left, _ := filepath.Glob(filepath.Join(cache, "cfgfuzz", "builds", "*", "*.tmp*")); len(left) > 0 {
			t.Errorf("%v: build directories (worktree, temporary binary) left: %v", sig, left)
		}
		if out, _ := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output(); strings.Count(string(out), "worktree ") != 1 {
			t.Errorf("%v: worktrees registered:\n%s", sig, out)
		}
	}
}
