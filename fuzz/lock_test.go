package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestLockAppearsWhole: a reader racing the lock's creation and removal
// finds it absent or whole, never empty or torn (createLock links a file
// written beside it); a second LockDir names the live owner.
func TestLockAppearsWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, LockFile)
	var stop, torn, seen atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for stop.Load() == 0 {
			b, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			seen.Add(1)
			if f := strings.Fields(string(b)); len(f) != 2 || f[0] != strconv.Itoa(os.Getpid()) {
				torn.Add(1)
			}
		}
	}()
	for range 2000 {
		unlock, err := LockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
	}
	stop.Store(1)
	<-done
	if torn.Load() > 0 {
		t.Errorf("the lock read torn or empty %d times of %d reads", torn.Load(), seen.Load())
	}
	t.Logf("%d reads of the lock while it came and went", seen.Load())
	unlock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := LockDir(dir); err == nil {
		t.Error("a second LockDir took a live process's lock")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestCheckDirFreeNamesTheRunningCampaign: a directory holding a
// campaign that another live process is running is refused naming that
// process, not with a resume to offer; held by this process (Run checks
// under its own lock) or by none, the campaign and its resume are named.
func TestCheckDirFreeNamesTheRunningCampaign(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, CampaignFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckDirFree(dir, false); err == nil || !strings.Contains(err.Error(), "continue it with --resume") {
		t.Errorf("no lock: %v", err)
	}
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	host, _ := os.Hostname()
	lock := filepath.Join(dir, LockFile)
	os.WriteFile(lock, []byte(fmt.Sprintf("%d %s\n", other.Process.Pid, host)), 0o644)
	if err := CheckDirFree(dir, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("in use by process %d", other.Process.Pid)) {
		t.Errorf("another live process's lock: %v", err)
	}
	os.WriteFile(lock, []byte(fmt.Sprintf("%d %s\n", os.Getpid(), host)), 0o644)
	if err := CheckDirFree(dir, false); err == nil || !strings.Contains(err.Error(), "continue it with --resume") {
		t.Errorf("this process's lock: %v", err)
	}
}
