// lock.go defines the lock of a campaign directory, DIR/lock, which keeps
// two cfgfuzz processes from writing one results log or one report at
// once. The file holds the owner's pid and host name; a lock whose owner
// ran on this host and is no longer alive is stale and taken over. A lock
// of another host cannot be checked and is honoured. A process that ends
// at once on a stop signal removes its locks first (package tidy). The
// lock appears whole: written beside it, then linked to its name, which
// fails when the name is taken, so another process never reads it empty
// (where the file system has no hard links it is created, then written).
// A lock that is not a regular file (a named pipe, which a read would
// wait on for ever) or larger than MaxLockFile is no lock cfgfuzz wrote:
// it is refused, naming it, and neither waited on nor taken over.

package fuzz

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
)

// LockFile is the lock's name inside a campaign directory.
const LockFile = "lock"

// LockDir takes dir's lock for this process and returns what releases it.
// It fails, naming the owner, when another live process holds the lock.
func LockDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockFile)
	host, _ := os.Hostname()
	me := fmt.Sprintf("%d %s\n", os.Getpid(), host)
	for attempt := 0; ; attempt++ {
		err := createLock(path, me)
		if err == nil {
			tidy.Hold(path, []byte(me)) // a process ending at once removes it too
			return func() { tidy.Release(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) || attempt > 0 {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		pid, owner, ok, bad := readLockSettled(path)
		switch {
		case bad != nil:
			return nil, foreignLock(dir, bad)
		case ok && owner == host && !processAlive(pid):
			os.Remove(path) // stale: its owner is gone
		case ok:
			return nil, inUseError(dir, path, pid, owner)
		default:
			return nil, fmt.Errorf("%s is locked (%s, unreadable); if no cfgfuzz uses the directory, remove the lock", dir, path)
		}
	}
}

// createLock makes the lock file path holding content, whole, or fails
// with os.ErrExist when path exists.
func createLock(path, content string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	f, err := tidy.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	defer func() { os.Remove(tmp); tidy.Forget(tmp) }()
	if err != nil {
		return err
	}
	if err = os.Link(tmp, path); err == nil || errors.Is(err, os.ErrExist) {
		return err
	}
	// A file system without hard links: created, then written.
	f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// readLockSettled is readLock, read again for up to lockSettle while it
// does not read: a lock being written on a file system without hard
// links (createLock) is empty for a moment.
func readLockSettled(path string) (pid int, host string, ok bool, bad error) {
	for deadline := time.Now().Add(lockSettle); ; time.Sleep(10 * time.Millisecond) {
		if pid, host, ok, bad = readLock(path); ok || bad != nil || time.Now().After(deadline) {
			return pid, host, ok, bad
		}
	}
}

// foreignLock is the error of dir's lock that readLock refused (bad).
func foreignLock(dir string, bad error) error {
	return fmt.Errorf("%v; if no cfgfuzz uses %s, remove the lock", bad, dir)
}

// lockSettle bounds readLockSettled's wait.
const lockSettle = 200 * time.Millisecond

// InUse is LockDir's error naming the owner when another live process
// holds dir's lock, without taking it: what a command that must read the
// campaign first (a resume) says when the campaign is still being
// started, and a new campaign when one runs there; nil when no live
// process holds it, or this one does. A lock that readLock refuses (a
// named pipe) is an error naming it.
func InUse(dir string) error {
	path := filepath.Join(dir, LockFile)
	pid, owner, ok, bad := readLock(path)
	if bad != nil {
		return foreignLock(dir, bad)
	}
	host, _ := os.Hostname()
	if !ok || owner == host && (!processAlive(pid) || pid == os.Getpid()) {
		return nil
	}
	return inUseError(dir, path, pid, owner)
}

// inUseError says that dir is in use by the lock's owner.
func inUseError(dir, path string, pid int, owner string) error {
	return fmt.Errorf("%s is in use by process %d on %s (%s); if that process is gone, remove the lock", dir, pid, owner, path)
}

// readLock reads a lock file's pid and host; ok is false when there is
// none or it holds no pid and host. bad, an error naming the file, is a
// lock that is not a regular file (never opened to wait on) or larger
// than MaxLockFile (read no further): no lock cfgfuzz wrote.
func readLock(path string) (pid int, host string, ok bool, bad error) {
	b, err := readFileWithin(path, MaxLockFile, "a lock")
	var refused *bounded.Refused
	if errors.As(err, &refused) {
		return 0, "", false, err
	}
	if err != nil {
		return 0, "", false, nil
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, "", false, nil
	}
	pid, err = strconv.Atoi(f[0])
	return pid, f[1], err == nil && pid > 0, nil
}
