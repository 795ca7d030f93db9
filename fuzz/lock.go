// lock.go defines the lock of a campaign directory, DIR/lock, which keeps
// two cfgfuzz processes from writing one results log or one report at
// once. The file holds the owner's pid and host name; a lock whose owner
// ran on this host and is no longer alive is stale and taken over. A lock
// of another host cannot be checked and is honoured. A process that ends
// at once on a stop signal removes its locks first (package tidy).

package fuzz

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_, werr := f.WriteString(me)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return nil, werr
			}
			tidy.Hold(path, []byte(me)) // a process ending at once removes it too
			return func() { tidy.Release(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) || attempt > 0 {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		pid, owner, ok := readLock(path)
		switch {
		case ok && owner == host && !processAlive(pid):
			os.Remove(path) // stale: its owner is gone
		case ok:
			return nil, inUseError(dir, path, pid, owner)
		default:
			return nil, fmt.Errorf("%s is locked (%s, unreadable); if no cfgfuzz uses the directory, remove the lock", dir, path)
		}
	}
}

// InUse is LockDir's error naming the owner when a live process holds
// dir's lock, without taking it: what a command that must read the
// campaign first (a resume) says when the campaign is still being
// started; nil when no live process holds it.
func InUse(dir string) error {
	path := filepath.Join(dir, LockFile)
	pid, owner, ok := readLock(path)
	if host, _ := os.Hostname(); !ok || owner == host && !processAlive(pid) {
		return nil
	}
	return inUseError(dir, path, pid, owner)
}

// inUseError says that dir is in use by the lock's owner.
func inUseError(dir, path string, pid int, owner string) error {
	return fmt.Errorf("%s is in use by process %d on %s (%s); if that process is gone, remove the lock", dir, pid, owner, path)
}

// readLock reads a lock file's pid and host.
func readLock(path string) (pid int, host string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, "", false
	}
	pid, err = strconv.Atoi(f[0])
	return pid, f[1], err == nil && pid > 0
}
