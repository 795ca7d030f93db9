//go:build linux

package fuzz

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockOfAReusedPidTakenOver: a lock of this kernel's boot and pid
// namespace whose pid is now another live process (started after the
// lock's owner) is stale; one naming that process with its own start
// time is in use.
func TestLockOfAReusedPidTakenOver(t *testing.T) {
	me := thisOwner()
	if me.start == 0 || me.boot == "" || me.pidns == "" {
		t.Skipf("no start time, boot id or pid namespace in /proc: %+v", me)
	}
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	start, ok := processStart(other.Process.Pid)
	if !ok {
		t.Fatalf("no start time of process %d", other.Process.Pid)
	}
	owner := me
	owner.pid, owner.start = other.Process.Pid, start
	dir := t.TempDir()
	writeLock(t, dir, owner.line(), 0)
	if _, err := LockDir(dir, nil); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("in use by process %d", owner.pid)) {
		t.Errorf("a lock of a live process of this host: %v, want it in use", err)
	}
	owner.start = start - 1 // the lock's owner started before the process that has its pid now
	writeLock(t, dir, owner.line(), 0)
	if err := InUse(dir); err != nil {
		t.Errorf("InUse of a lock whose pid is another process now: %v", err)
	}
	var note strings.Builder
	unlock, err := LockDir(dir, &note)
	if err != nil {
		t.Fatalf("a lock whose pid is another process now: %v", err)
	}
	unlock()
	if want := fmt.Sprintf("pid %d is another process now", owner.pid); !strings.Contains(note.String(), want) {
		t.Errorf("the takeover says %q, want %q", note.String(), want)
	}
}

// TestLockOfAContainerStartedAgain: a process that took the lock in a pid
// namespace of its own (a container) and was killed with SIGKILL left its
// lock naming a pid that the next container's process gets again; that
// process, in a new pid namespace, takes the lock over once the
// heartbeat has stopped for the stale time, and not while the first
// still holds it.
func TestLockOfAContainerStartedAgain(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs unshare as root")
	}
	ns := []string{unshare, "-p", "-f", "--mount-proc", "--kill-child"}
	if err := exec.Command(ns[0], append(ns[1:], "true")...).Run(); err != nil {
		t.Skipf("no pid namespace: %v", err)
	}
	dir := t.TempDir()
	first := lockChildCmd(dir, time.Minute, ns...)
	out, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "locked by ") {
		t.Fatalf("the first container's process: %q", line)
	}
	b, _ := os.ReadFile(filepath.Join(dir, LockFile))
	t.Logf("the first container's lock: %q", b)

	second := func() string {
		t.Helper()
		out, _ := lockChildCmd(dir, 0, ns...).CombinedOutput()
		return string(out)
	}
	if got := second(); !strings.Contains(got, "in use by process") {
		t.Errorf("a second container while the first holds the lock: %q, want it refused", got)
	}
	first.Process.Signal(syscall.SIGKILL) // --kill-child: its child goes too
	first.Wait()
	got := second()
	if !strings.Contains(got, "took over") || !strings.Contains(got, "heartbeat stopped") || !strings.Contains(got, "locked by "+strings.Fields(strings.TrimPrefix(line, "locked by "))[0]) {
		t.Errorf("a container started again after a kill: %q, want the lock taken over by the same pid", got)
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !os.IsNotExist(err) {
		t.Errorf("the lock is left after the second container's process unlocked: %v", err)
	}
}
