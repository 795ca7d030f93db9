//go:build linux

// alive_test.go: a process that has exited but was not reaped (a zombie:
// a campaign killed with SIGKILL in a container whose init does not reap)
// holds no lock.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZombieIsNotAlive(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	stat := filepath.Join("/proc", strconv.Itoa(pid), "stat")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err == nil && strings.Contains(string(b), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not become a zombie: %s (%v)", pid, b, err)
		}
	}
	if processAlive(pid) {
		t.Errorf("the zombie %d is taken to be alive: a lock it left would never be taken over", pid)
	}
	if !processAlive(os.Getpid()) {
		t.Errorf("this process is taken to be dead")
	}
}
