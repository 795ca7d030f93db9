package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
			if o, ok := parseLock(b); !ok || o.pid != os.Getpid() || string(b) != thisOwner().line() {
				torn.Add(1)
			}
		}
	}()
	for range 2000 {
		unlock, err := LockDir(dir, nil)
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
	unlock, err := LockDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := LockDir(dir, nil); err == nil {
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

// lockTimings makes the heartbeat and the staleness fast for a test.
func lockTimings(t *testing.T, beat, stale time.Duration) {
	b, s := lockBeat, lockStale
	lockBeat, lockStale = beat, stale
	t.Cleanup(func() { lockBeat, lockStale = b, s })
}

// writeLock writes a lock file holding content, last refreshed age ago.
func writeLock(t *testing.T, dir, content string, age time.Duration) string {
	t.Helper()
	path := filepath.Join(dir, LockFile)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-age)
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
	return path
}

// foreignOwner is a lock's line of a process on another host (another
// boot, another pid namespace), which this process cannot check.
const foreignOwner = "17649 cfgfuzz-shards-20261129-3-aaaaa start=5 boot=00000000-0000-0000-0000-000000000000 pidns=1 heartbeat=5s\n"

// TestLockHeartbeat: the holder of a lock refreshes its modification time
// every beat while it holds it, and the lock names it with its heartbeat;
// unlocked, the lock is gone.
func TestLockHeartbeat(t *testing.T) {
	lockTimings(t, 50*time.Millisecond, time.Second)
	dir := t.TempDir()
	unlock, err := LockDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, LockFile)
	b, _ := os.ReadFile(path)
	if o, ok := parseLock(b); !ok || !o.beat || o.pid != os.Getpid() {
		t.Errorf("the lock %q does not name this process with its heartbeat", b)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(fi.ModTime()) < time.Minute {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lock was not refreshed within 5s (beat %s)", lockBeat)
		}
	}
	unlock()
	unlock() // a second unlock does nothing
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock is still there after unlock: %v", err)
	}
}

// TestLockOfAnotherHostTakenOverWhenItsHeartbeatStops: a lock of a process
// this one cannot check (a pod since rescheduled under another host name)
// is taken over once it has not been refreshed for the stale time, saying
// so and why; one that is refreshed while watched is in use, and so is a
// fresh one for InUse; a lock without a heartbeat field (a bare "PID HOST") of
// another host is honoured as before.
func TestLockOfAnotherHostTakenOverWhenItsHeartbeatStops(t *testing.T) {
	lockTimings(t, 50*time.Millisecond, 500*time.Millisecond)
	dir := t.TempDir()
	path := writeLock(t, dir, foreignOwner, time.Hour)
	if err := InUse(dir); err != nil {
		t.Errorf("InUse of a lock not refreshed for an hour: %v", err)
	}
	var note strings.Builder
	unlock, err := LockDir(dir, &note)
	if err != nil {
		t.Fatalf("a lock of another host not refreshed for an hour: %v", err)
	}
	unlock()
	if want := "took over " + path + ", the lock of process 17649 on cfgfuzz-shards-20261129-3-aaaaa: its heartbeat stopped"; !strings.Contains(note.String(), want) {
		t.Errorf("the note %q does not say %q", note.String(), want)
	}

	// Fresh when this process comes: watched until it is stale.
	writeLock(t, dir, foreignOwner, 0)
	if err := InUse(dir); err == nil || !strings.Contains(err.Error(), "in use by process 17649 on cfgfuzz-shards-20261129-3-aaaaa") {
		t.Errorf("InUse of a fresh lock of another host: %v, want it in use", err)
	}
	note.Reset()
	began := time.Now()
	unlock, err = LockDir(dir, &note)
	if err != nil {
		t.Fatalf("a fresh lock of another host that is never refreshed: %v", err)
	}
	unlock()
	if took := time.Since(began); took < lockStale {
		t.Errorf("a fresh lock was taken over after %s, before it had gone unrefreshed for %s", took, lockStale)
	}
	if !strings.Contains(note.String(), "watching its heartbeat") || !strings.Contains(note.String(), "took over") {
		t.Errorf("the note %q does not say that it watched, then took over", note.String())
	}

	// Refreshed while watched: in use.
	writeLock(t, dir, foreignOwner, 0)
	stop, done, beat := make(chan struct{}), make(chan struct{}), lockBeat
	defer func() { close(stop); <-done }() // before lockTimings' cleanup restores lockBeat
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(beat):
				now := time.Now()
				os.Chtimes(path, now, now)
			}
		}
	}()
	if _, err := LockDir(dir, nil); err == nil || !strings.Contains(err.Error(), "in use by process 17649 on cfgfuzz-shards-20261129-3-aaaaa") || !strings.Contains(err.Error(), "refreshed by its heartbeat") {
		t.Errorf("a lock of another host being refreshed: %v, want it in use", err)
	}
	if b, _ := os.ReadFile(path); string(b) != foreignOwner {
		t.Errorf("the live lock was replaced: %q", b)
	}

	// Without a heartbeat, from another host: honoured, however old.
	legacy := t.TempDir()
	writeLock(t, legacy, "17649 cfgfuzz-shards-20261129-3-aaaaa\n", time.Hour)
	if _, err := LockDir(legacy, nil); err == nil || !strings.Contains(err.Error(), "in use by process 17649") {
		t.Errorf("a lock without a heartbeat of another host: %v, want it honoured", err)
	}
}

// TestLockNamingThisProcessTakenOver: a lock naming this process's pid that
// this process did not take (a container started again in a new pid
// namespace gets the pid its dead predecessor recorded) is stale, in
// either format; one this process took is in use.
func TestLockNamingThisProcessTakenOver(t *testing.T) {
	host, _ := os.Hostname()
	contents := []string{fmt.Sprintf("%d %s\n", os.Getpid(), host)} // a bare "PID HOST" lock
	// Where /proc is another pid namespace's, this process cannot check
	// its own: a lock of its very line is watched as any other's.
	if me := thisOwner(); me.pidns != "" || me.boot == "" {
		contents = append(contents, me.line())
	}
	for _, content := range contents {
		dir := t.TempDir()
		writeLock(t, dir, content, 0)
		if err := InUse(dir); err != nil {
			t.Errorf("InUse of a lock %q naming this process: %v", content, err)
		}
		var note strings.Builder
		unlock, err := LockDir(dir, &note)
		if err != nil {
			t.Errorf("a lock %q naming this process, which did not take it: %v", content, err)
			continue
		}
		if !strings.Contains(note.String(), "names this process's pid, which this process did not take") {
			t.Errorf("the takeover of %q says %q", content, note.String())
		}
		if _, err := LockDir(dir, nil); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("in use by process %d", os.Getpid())) {
			t.Errorf("a lock this process took, taken again: %v", err)
		}
		unlock()
	}
}

// TestLockTakeoverRemovesOnlyTheStaleLock: a takeover removes the lock it
// judged stale only while it is that very file, unrefreshed: a lock
// another process made meanwhile (it took the stale one over first), or
// the stale one refreshed since, stays. While another process holds the
// takeover lock, a takeover waits for it; one left behind by a process
// gone is removed once stale.
func TestLockTakeoverRemovesOnlyTheStaleLock(t *testing.T) {
	lockTimings(t, 50*time.Millisecond, 500*time.Millisecond)
	dir := t.TempDir()
	path := writeLock(t, dir, foreignOwner, time.Hour)
	judged, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	me := thisOwner().line()

	os.Remove(path)
	writeLock(t, dir, "4242 other-resumer heartbeat=5s\n", 0) // the other resumer won
	if err := takeOver(path, judged, me); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); string(b) != "4242 other-resumer heartbeat=5s\n" {
		t.Errorf("a takeover removed the lock another process took meanwhile: %q, %v", b, err)
	}

	path = writeLock(t, dir, foreignOwner, time.Hour)
	judged, _ = os.Stat(path)
	now := time.Now()
	os.Chtimes(path, now, now) // its owner refreshed it after all
	takeOver(path, judged, me)
	if _, err := os.Stat(path); err != nil {
		t.Errorf("a takeover removed a lock refreshed since it was judged: %v", err)
	}

	judged = func() os.FileInfo { writeLock(t, dir, foreignOwner, time.Hour); fi, _ := os.Stat(path); return fi }()
	mutex := path + takeoverSuffix
	if err := os.WriteFile(mutex, []byte("4242 other-resumer heartbeat=5s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- takeOver(path, judged, me) }()
	select {
	case err := <-done:
		t.Fatalf("a takeover did not wait for another process's takeover lock: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the stale lock was removed while another process held the takeover lock: %v", err)
	}
	os.Remove(mutex)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the stale lock is still there after the takeover: %v", err)
	}

	judged = func() os.FileInfo { writeLock(t, dir, foreignOwner, time.Hour); fi, _ := os.Stat(path); return fi }()
	os.WriteFile(mutex, []byte("4242 other-resumer heartbeat=5s\n"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(mutex, old, old)
	if err := takeOver(path, judged, me); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, mutex} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there after a takeover past a takeover lock left behind: %v", p, err)
		}
	}
}

// lockChildEnv asks TestMain for lockChild: take the lock of the
// directory it names, print "locked" and hold it for lockChildHold (the
// fast timings of lockChildBeat and lockChildStale), or print the error.
const (
	lockChildEnv   = "FUZZ_TEST_LOCK_DIR"
	lockChildHold  = "FUZZ_TEST_LOCK_HOLD"
	lockChildStale = 500 * time.Millisecond
	lockChildBeat  = 50 * time.Millisecond
)

func lockChild(dir string) {
	lockBeat, lockStale = lockChildBeat, lockChildStale
	unlock, err := LockDir(dir, os.Stdout)
	if err != nil {
		fmt.Println("refused:", err)
		os.Exit(4)
	}
	fmt.Printf("locked by %d\n", os.Getpid())
	hold, _ := time.ParseDuration(os.Getenv(lockChildHold))
	time.Sleep(hold)
	unlock()
	os.Exit(0)
}

// lockChildCmd is this test binary as lockChild, run through the command
// before (unshare, say), holding the lock for hold.
func lockChildCmd(dir string, hold time.Duration, before ...string) *exec.Cmd {
	args := append(before, os.Args[0], "-test.run=^$")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), lockChildEnv+"="+dir, lockChildHold+"="+hold.String())
	return cmd
}

// TestLockTakeoverRace: processes resuming one directory at once, whose
// lock is stale, take it one at a time: the first holds it, the others
// find it held (by a live process of this host) and are refused.
func TestLockTakeoverRace(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	host, _ := os.Hostname()
	writeLock(t, dir, fmt.Sprintf("%d %s\n", gone.Process.Pid, host), 0)
	const n = 4
	outs := make([]strings.Builder, n)
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmds[i] = lockChildCmd(dir, 3*time.Second)
		cmds[i].Stdout = &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	won := 0
	for i, cmd := range cmds {
		err := cmd.Wait()
		switch {
		case err == nil && strings.Contains(outs[i].String(), "locked by"):
			won++
		case strings.Contains(outs[i].String(), "in use by process"):
		default:
			t.Errorf("process %d: %v: %s", i, err, outs[i].String())
		}
	}
	if won != 1 {
		for i := range outs {
			t.Logf("process %d: %s", i, outs[i].String())
		}
		t.Errorf("%d of %d processes took the stale lock at once, want 1", won, n)
	}
}

// TestLockLostIsLeftToItsNewOwner: a lock another process took over while
// its holder was stopped (the file replaced by the new owner's) is not
// removed by the holder's unlock; the holder's heartbeat records the loss
// and says it once, and a state commit under the lost lock is refused,
// naming the new owner.
func TestLockLostIsLeftToItsNewOwner(t *testing.T) {
	lockTimings(t, 20*time.Millisecond, time.Second)
	dir := t.TempDir()
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	var note lockedBuffer
	unlock, err := LockDir(dir, &note)
	if err != nil {
		t.Fatal(err)
	}
	held.Lock()
	h := held.locks[len(held.locks)-1]
	held.Unlock()
	path := filepath.Join(dir, LockFile)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(foreignOwner), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil { // the takeover: another file, another owner
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); h.lost.Load() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the heartbeat (beat %s) did not record the lost lock within 5s", lockBeat)
		}
	}
	err = commitLocked(st, StateUpdate{Seen: NewBloom()})
	if want := fmt.Sprintf("lost its lock on %s to process 17649 on cfgfuzz-shards-20261129-3-aaaaa", dir); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the commit under a lost lock: %v, want an error saying %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, StateFindingsFile)); !os.IsNotExist(err) {
		t.Errorf("the commit under a lost lock wrote findings.json: %v", err)
	}
	unlock()
	if b, err := os.ReadFile(path); err != nil || string(b) != foreignOwner {
		t.Errorf("the new owner's lock after the old owner's unlock: %q, %v; want it left as it was", b, err)
	}
	if n := strings.Count(note.String(), "lost its lock"); n != 1 {
		t.Errorf("the loss was said %d times on the lock's note, want once:\n%s", n, note.String())
	}
}
