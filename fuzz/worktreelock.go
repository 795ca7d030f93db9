// worktreelock.go: one process at a time changes a repository's git
// worktrees. `git worktree add` makes the new worktree's directory in
// .git/worktrees before it writes the lock that keeps `git worktree
// prune` off it, and a build moved into the cache (installBuild) points
// its registration at a directory that is gone until `git worktree
// repair`: a prune run between the two, by another build of the same
// repository (removeStaleBuilds), removes the registration of a live
// worktree. So every build's worktree add, remove, move and the prune of
// dead builds run holding worktreeLock: a sync.Mutex within the process
// and, between processes, an flock of cfgfuzz-worktrees.lock in the
// repository's common git directory (every linked worktree and every
// cache of the repository meet there; the kernel releases it when the
// process dies). Builds of one cache entry within a process take turns
// (entryLock), so the later finds the earlier's build.

package fuzz

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// worktreesMu serializes this process's worktree changes.
var worktreesMu sync.Mutex

// worktreeLockName is the lock file in a repository's common git directory.
const worktreeLockName = "cfgfuzz-worktrees.lock"

// worktreeLock waits, until ctx is done, to change repo's worktrees alone
// and returns the function that lets others. A repository whose git
// directory cannot be found or written is locked within this process only
// (git then fails on its own account).
func worktreeLock(ctx context.Context, repo string) (func(), error) {
	worktreesMu.Lock()
	f, err := openWorktreeLock(repo)
	if err != nil || f == nil {
		return worktreesMu.Unlock, nil
	}
	for {
		ok, err := tryFlock(f)
		if err != nil {
			f.Close()
			return worktreesMu.Unlock, nil
		}
		if ok {
			return func() {
				f.Close() // releases the flock
				worktreesMu.Unlock()
			}, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			worktreesMu.Unlock()
			return nil, context.Cause(ctx)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// openWorktreeLock opens (creating it) the lock file of repo's worktrees;
// nil when repo's common git directory is not found.
func openWorktreeLock(repo string) (*os.File, error) {
	out, err := git(repo, "rev-parse", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	dir := strings.TrimSpace(out)
	if dir == "" {
		return nil, nil
	}
	if !filepath.IsAbs(dir) {
		base := repo
		if base == "" {
			base = "."
		}
		dir = filepath.Join(base, dir)
	}
	return os.OpenFile(filepath.Join(dir, worktreeLockName), os.O_RDWR|os.O_CREATE, 0o644)
}

var (
	buildEntriesMu sync.Mutex
	buildEntries   = map[string]*sync.Mutex{}
)

// entryLock waits for this process's other build of the cache entry to end
// (it builds in the same directory, entry.tmpPID) and returns the
// function that lets the next.
func entryLock(entry string) func() {
	buildEntriesMu.Lock()
	mu := buildEntries[entry]
	if mu == nil {
		mu = new(sync.Mutex)
		buildEntries[entry] = mu
	}
	buildEntriesMu.Unlock()
	mu.Lock()
	return mu.Unlock
}
