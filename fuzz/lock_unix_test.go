//go:build unix

package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockNotRegularRefused: a campaign's or state's lock that is a named
// pipe is refused naming it, never waited on (reading it would wait for
// a writer for ever): by LockDir (a run, a resume, a merge's --out, a
// state's commit), by InUse (a resume, a new campaign), by LoadState (a
// night's state, before the night runs) and by a merge reading the shard
// that has it; a lock past MaxLockFile is refused too.
func TestLockNotRegularRefused(t *testing.T) {
	dir := t.TempDir()
	sealedLog(t, dir, `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`)
	path := filepath.Join(dir, LockFile)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	want := path + ": not a regular file but a named pipe"
	// A state is a directory of its own, apart from a campaign's output
	// (LoadState refuses one holding a campaign's files): its own lock.
	state := t.TempDir()
	stateLock := filepath.Join(state, LockFile)
	if err := syscall.Mkfifo(stateLock, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call func() error
		want string
	}{
		{"LockDir", func() error {
			unlock, err := LockDir(dir, nil)
			if err == nil {
				unlock()
			}
			return err
		}, want},
		{"InUse", func() error { return InUse(dir) }, want},
		{"LoadState", func() error { _, err := LoadState(state); return err }, stateLock + ": not a regular file but a named pipe"},
		{"Merge", func() error { _, err := Merge([]string{dir}); return err }, want},
	} {
		done := make(chan error, 1)
		go func() { done <- c.call() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s with a lock that is a named pipe: err %v, want %q", c.name, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s waits on a lock that is a named pipe", c.name)
		}
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was not left as it was: %v, %v", st, err)
	}

	os.Remove(path)
	if err := os.WriteFile(path, []byte(strings.Repeat(" ", MaxLockFile+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir, nil); err == nil || !strings.Contains(err.Error(), path+": more than 4KiB, the limit of a lock") {
		t.Errorf("LockDir with a lock of %d bytes: err %v, want it refused past its limit", MaxLockFile+1, err)
	}
}
