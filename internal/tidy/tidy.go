// Package tidy keeps what a process that ends at once must not leave in
// the directories it writes: the temporary files and directories of the
// replacements in progress (corpus.ReplaceFiles, a findings entry), the
// directories it made for files it had not put into place yet (MkdirFor:
// a report's pictures) and the lock files it holds (fuzz.LockDir). A process ending on os.Exit (a
// second stop signal) runs no deferred function, so without them a
// NAME.tmp and a lock of a process gone would stay behind.
//
// The exit path calls Freeze, then Clean. Freeze waits for a replacement
// that is renaming its files into place and keeps any other from
// starting: a file replaced together with others (the three reports) is
// then either all old or all new. Clean removes the temporary files, the
// directories made for a file not put into place, and the locks. A writer
// that reaches Create, Mkdir, MkdirFor or Commit after Freeze waits there
// until the process exits.
package tidy

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"time"
)

var (
	mu       sync.Mutex
	frozen   bool
	temps    = map[string]bool{}   // temporary files and directories to remove
	creating int                   // temporaries being created (Create, Mkdir)
	locks    = map[string][]byte{} // lock file -> what this process wrote in it
	replaced = map[string]bool{}   // files Commit put into place
	madeFor  = map[string]string{} // directory MkdirFor made -> the file it was made for
)

// createWait bounds how long Clean waits for a temporary being created
// (an open that blocks: a FIFO, a hung file system) before it removes
// what it knows of.
const createWait = time.Second

// begin registers path as a temporary about to be created, or waits for
// the process to exit once Freeze has run.
func begin(path string) {
	mu.Lock()
	if frozen {
		mu.Unlock()
		select {} // the process is ending
	}
	temps[path] = true
	creating++
	mu.Unlock()
}

// created ends begin's creation.
func created() {
	mu.Lock()
	creating--
	mu.Unlock()
}

// Create creates (or truncates) the temporary file path for writing and
// keeps it for Clean until Forget or Commit.
func Create(path string) (*os.File, error) {
	begin(path)
	defer created()
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// Mkdir creates the temporary directory path and keeps it, with what is
// written into it, for Clean until Forget or Commit.
func Mkdir(path string) error {
	begin(path)
	defer created()
	return os.MkdirAll(path, 0o755)
}

// MkdirFor creates the directory path and its missing parents, as
// os.MkdirAll does, for files that go with target (a report's pictures,
// with report.json). Clean removes the topmost directory it created, with
// what is written into it, unless a Commit has put target into place:
// the files of a target a process ending at once never wrote do not stay
// behind. A directory that was there already stays, whatever is in it.
func MkdirFor(path, target string) error {
	mu.Lock()
	if frozen {
		mu.Unlock()
		select {} // the process is ending
	}
	creating++
	mu.Unlock()
	defer created()
	top := "" // the topmost directory of path not there yet
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		top = p
		if filepath.Dir(p) == p {
			break
		}
	}
	if top != "" {
		mu.Lock()
		madeFor[top] = target // before it is made: Clean removes one made part way too
		mu.Unlock()
	}
	return os.MkdirAll(path, 0o755)
}

// Forget drops temporaries the caller removed.
func Forget(paths ...string) {
	mu.Lock()
	for _, p := range paths {
		delete(temps, p)
	}
	mu.Unlock()
}

// Commit runs rename, which moves the temporaries tmps into place as
// targets, unless Freeze has run (it then waits for the process to exit):
// Freeze waits for a Commit in progress. When rename succeeds the
// temporaries are forgotten and the targets count as replaced (Replaced).
func Commit(tmps, targets []string, rename func() error) error {
	mu.Lock()
	if frozen {
		mu.Unlock()
		select {} // the process is ending
	}
	defer mu.Unlock()
	if err := rename(); err != nil {
		return err
	}
	for _, p := range tmps {
		delete(temps, p)
	}
	for _, p := range targets {
		replaced[p] = true
	}
	return nil
}

// Replaced says whether Commit put path into place in this process.
func Replaced(path string) bool {
	mu.Lock()
	defer mu.Unlock()
	return replaced[path]
}

// Hold records the lock file path, which holds content, for Clean.
func Hold(path string, content []byte) {
	mu.Lock()
	locks[path] = content
	mu.Unlock()
}

// Release removes the lock file path that Hold recorded, as long as it
// still holds what this process wrote in it (removeOwn): a lock another
// process took over is left to it.
func Release(path string) {
	mu.Lock()
	defer mu.Unlock()
	if content, ok := locks[path]; ok {
		delete(locks, path)
		removeOwn(path, content)
	}
}

// Unhold drops the lock file path that Hold recorded without removing
// it: the caller found it is no longer this process's.
func Unhold(path string) {
	mu.Lock()
	delete(locks, path)
	mu.Unlock()
}

// removeOwn removes the lock file path when it holds content.
func removeOwn(path string, content []byte) {
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, content) {
		os.Remove(path)
	}
}

// Freeze waits for a Commit in progress and keeps every later Create,
// Mkdir and Commit waiting: the files replaced so far stay as they are.
func Freeze() {
	mu.Lock()
	frozen = true
	mu.Unlock()
}

// Clean, after Freeze, removes the temporaries (waiting up to createWait
// for those being created), the directories MkdirFor made for a file not
// put into place, and the locks that still hold what this process wrote
// in them. It is the exit path's last step.
func Clean() {
	for deadline := time.Now().Add(createWait); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		if creating == 0 || time.Now().After(deadline) {
			break
		}
		mu.Unlock()
	}
	defer mu.Unlock()
	for p := range temps {
		os.RemoveAll(p)
	}
	for p, target := range madeFor {
		if !replaced[target] {
			os.RemoveAll(p)
		}
	}
	for p, content := range locks {
		removeOwn(p, content)
	}
}
