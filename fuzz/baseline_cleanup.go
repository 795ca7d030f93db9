// baseline_cleanup.go makes a baseline build leave nothing behind: its git
// and go processes run in a process group of their own that cancelling
// the build's context kills whole; the worktree, the temporary binary and
// go's work files (kept inside the worktree) are removed on every exit
// from BuildRevision; and at its start the
// worktrees and temporary binaries of builds whose process died (kill -9,
// a crash) are removed: those under the cache named COMMIT12-PID with a
// PID not alive on this host, and git's registrations of worktrees whose
// directories are gone (git worktree prune). A cache shared between hosts
// can have a live build of another host taken for dead.
package fuzz

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// buildCommand is a git or go command of a build, killed with its whole
// process group when ctx is cancelled.
func buildCommand(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	setProcessGroup(cmd)
	cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runBuildCommand runs a build command and returns its combined output.
func runBuildCommand(ctx context.Context, dir, name string, args ...string) (string, error) {
	return runCommand(ctx, buildCommand(ctx, dir, name, args...))
}

// goBuild builds cmd/structurize of the worktree wt into out, with go's
// own temporary directory (GOTMPDIR) inside wt, so that a killed go leaves
// its work files where the worktree's removal deletes them.
func goBuild(ctx context.Context, wt, out string) (string, error) {
	tmp := filepath.Join(wt, ".cfgfuzz-gotmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	cmd := buildCommand(ctx, wt, "go", "build", "-o", out, "./cmd/structurize")
	cmd.Env = append(os.Environ(), "GOTMPDIR="+tmp)
	return runCommand(ctx, cmd)
}

// runCommand runs cmd and returns its combined output; a cancelled ctx is
// the error.
func runCommand(ctx context.Context, cmd *exec.Cmd) (string, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	return out.String(), err
}

// removeWorktree unregisters and deletes a build's worktree.
func removeWorktree(repo, wt string) {
	git(repo, "worktree", "remove", "--force", wt)
	os.RemoveAll(wt)
	git(repo, "worktree", "prune")
}

// staleName matches the cache's worktrees (COMMIT12-PID) and temporary
// binaries (structurize.tmpPID).
var (
	staleWorktree = regexp.MustCompile(`^[0-9a-f]{12}-([0-9]+)$`)
	staleBinary   = regexp.MustCompile(`^structurize\.tmp([0-9]+)$`)
)

// deadOwner reports whether name matches re with a pid not alive.
func deadOwner(re *regexp.Regexp, name string) bool {
	m := re.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	pid, err := strconv.Atoi(m[1])
	return err == nil && pid != os.Getpid() && !processAlive(pid)
}

// removeStaleBuilds removes what dead builds left in the cache.
func removeStaleBuilds(repo, cache string) {
	wts, _ := os.ReadDir(filepath.Join(cache, "worktrees"))
	for _, e := range wts {
		if deadOwner(staleWorktree, e.Name()) {
			wt := filepath.Join(cache, "worktrees", e.Name())
			git(wt, "worktree", "remove", "--force", wt) // the repository it belongs to, whichever
			os.RemoveAll(wt)
		}
	}
	git(repo, "worktree", "prune")
	bins, _ := filepath.Glob(filepath.Join(cache, "structurize", "*", "structurize.tmp*"))
	for _, b := range bins {
		if deadOwner(staleBinary, filepath.Base(b)) {
			os.Remove(b)
		}
	}
}
