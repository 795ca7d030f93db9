// baseline_cleanup.go makes a build (baseline.go) leave nothing behind:
// its git and build processes run in a process group of their own that
// cancelling the build's context (a signal to the CLI) kills whole, as
// does StopServers (a command that ends at once on a signal); the
// build directory (REVISION.tmpPID: the worktree, the output, go's work
// files) is removed and the worktree unregistered on every exit from
// BuildProject; and before it looks in the cache, a build removes what
// builds whose process died (kill -9, a crash) left in the cache, in
// every project folder (the build and serve commands of a one-off
// --build have one too): build directories whose PID is not alive on
// this host, with their worktrees' registrations in whichever repository
// holds them, and git's registrations of its own repository's worktrees
// whose directories are gone (git worktree prune), while no other build
// changes those repositories' worktrees (worktreelock.go). A cache shared between
// hosts can have a live build of another host taken for dead. A command
// that ends at once on a stop signal stops its builds first, through the
// BuildStop its build options carry (BuildStop.Stop, BuildStop.Wait), so
// that their cleanup runs before the process exits.

package fuzz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cfgfuzz/cfgfuzz/internal/procgroup"
)

// BuildStop is how whoever runs builds (a command's stop-signal handling)
// stops the builds whose options carry it (BuildOptions.Stop) and waits
// for them to be gone: Stop cancels each as a cancelled BuildOptions.Context
// does (their git and build processes killed with their process groups,
// each removing its build directory and unregistering its worktree on its
// way out), no build carrying it starts after, and Wait waits for their
// cleanup to end. A build that does not carry it is not stopped by it.
// The zero value, as NewBuildStop's, is not stopped and has no build in
// progress; a nil *BuildStop never stops a build and counts none.
type BuildStop struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelCauseFunc
	// running counts the BuildProject calls carrying it in progress, from
	// before their build directory is made to after it is removed.
	running atomic.Int64
}

// NewBuildStop is a BuildStop not stopped, with no build in progress.
func NewBuildStop() *BuildStop { return &BuildStop{} }

// context is s's context, cancelled by Stop with its cause.
func (s *BuildStop) context() context.Context {
	s.once.Do(func() { s.ctx, s.cancel = context.WithCancelCause(context.Background()) })
	return s.ctx
}

// Stop stops every build in progress that carries s, with cause as their
// context's cause, and every one that starts after. Nothing is recorded
// of a stopped build. On a nil s it does nothing.
func (s *BuildStop) Stop(cause error) {
	if s != nil {
		s.context()
		s.cancel(cause)
	}
}

// Building says whether a build carrying s is in progress; false for a
// nil s.
func (s *BuildStop) Building() bool { return s != nil && s.running.Load() > 0 }

// Wait waits, up to wait, until no build carrying s is in progress, and
// says whether none is; true at once for a nil s.
func (s *BuildStop) Wait(wait time.Duration) bool {
	for deadline := time.Now().Add(wait); s.Building(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// track counts a build carrying s in progress until the returned func
// runs.
func (s *BuildStop) track() (done func()) {
	if s == nil {
		return func() {}
	}
	s.running.Add(1)
	return func() { s.running.Add(-1) }
}

// buildContext is opt.Context (Background when nil), also cancelled by
// opt.Stop; release frees what joins the two.
func buildContext(opt BuildOptions) (ctx context.Context, release func()) {
	parent := opt.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	if opt.Stop == nil {
		return ctx, func() { cancel(nil) }
	}
	stop := opt.Stop.context()
	if stop.Err() != nil {
		cancel(context.Cause(stop))
	}
	unhook := context.AfterFunc(stop, func() { cancel(context.Cause(stop)) })
	return ctx, func() {
		unhook()
		cancel(nil)
	}
}

// buildCommand is a git or build command, killed with its whole process
// group when ctx is cancelled.
func buildCommand(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	procgroup.Own(cmd)
	cmd.Cancel = func() error {
		if cmd.Process != nil {
			procgroup.Kill(cmd.Process.Pid)
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runCommand runs cmd and returns its combined output; when ctx was
// cancelled, its cause is the error.
func runCommand(ctx context.Context, cmd *exec.Cmd) (string, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := startBuildCommand(cmd)
	if err == nil {
		err = cmd.Wait()
		buildsMu.Lock()
		delete(builds, cmd.Process.Pid)
		buildsMu.Unlock()
	}
	if ctx.Err() != nil {
		if cmd.Process != nil {
			reapGroup(cmd.Process.Pid) // what the group's kill orphaned to this process
		}
		err = context.Cause(ctx)
	}
	return out.String(), err
}

// errBuildsStopped is what starting a git or build command says after
// killBuilds.
var errBuildsStopped = errors.New("cfgfuzz is ending: no build starts now")

var (
	buildsMu      sync.Mutex
	builds        = map[int]bool{} // the pids, process group leaders, of the git and build commands running
	buildsStopped bool             // set by killBuilds: no build command starts after it
)

// startBuildCommand starts cmd and registers it for killBuilds, unless
// killBuilds ran.
func startBuildCommand(cmd *exec.Cmd) error {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	if buildsStopped {
		return errBuildsStopped
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	builds[cmd.Process.Pid] = true
	return nil
}

// killBuilds kills every running git and build command with its process
// group, and lets no other start: for StopServers, the exit path.
func killBuilds() {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	buildsStopped = true
	for pid := range builds {
		procgroup.Kill(pid)
	}
}

// goTempDir points go's work files (GOTMPDIR) of cmd into a directory
// beside the worktree wt, inside the build directory, so that a killed go
// leaves them where the build directory's removal deletes them.
func goTempDir(cmd *exec.Cmd, wt string) (string, error) {
	dir := filepath.Join(filepath.Dir(wt), "gotmp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd.Env = append(os.Environ(), "GOTMPDIR="+dir)
	return dir, nil
}

// staleBuild matches a build directory: REVISION.tmpPID.
var staleBuild = regexp.MustCompile(`\.tmp([0-9]+)$`)

// deadBuild reports whether name is a build directory of a pid not alive.
func deadBuild(name string) bool {
	m := staleBuild.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	pid, err := strconv.Atoi(m[1])
	return err == nil && pid != os.Getpid() && !processAlive(pid)
}

// removeStaleBuilds removes the build directories of dead builds in
// every project folder of builds (the cache's builds/ directory: a
// one-off --build's folder too) and unregisters their worktrees, each
// holding the worktreeLock of the repository the worktree belongs to
// (worktreelock.go), so no other build's worktree is half-made or
// half-moved meanwhile; then it prunes repo's worktrees whose directories
// are gone, holding repo's lock. Only directories named REVISION.tmpPID
// whose PID is not alive on this host are removed (deadBuild). The error
// is ctx's, done before a lock came.
func removeStaleBuilds(ctx context.Context, repo, builds string) error {
	projects, _ := os.ReadDir(builds)
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(builds, p.Name())
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if !e.IsDir() || !deadBuild(e.Name()) {
				continue
			}
			if err := removeDeadBuild(ctx, filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	unlock, err := worktreeLock(ctx, repo)
	if err != nil {
		return err
	}
	defer unlock()
	git(repo, "worktree", "prune")
	return nil
}

// removeDeadBuild removes the build directory tmp of a dead build and
// unregisters its worktree in the repository it belongs to, whichever,
// holding that repository's worktreeLock (found through the worktree; a
// worktree whose repository cannot be found is locked within this
// process only, and its registration, if any, goes with that
// repository's next prune). A build directory without a worktree is
// removed without a lock. An error removing it is not the build's: only
// ctx's error is returned.
func removeDeadBuild(ctx context.Context, tmp string) error {
	wt := filepath.Join(tmp, "worktree")
	if _, err := os.Stat(filepath.Join(wt, ".git")); err != nil {
		os.RemoveAll(tmp) // no worktree: nothing registered, no repository to lock
		return nil
	}
	unlock, err := worktreeLock(ctx, wt)
	if err != nil {
		return err
	}
	defer unlock()
	git(wt, "worktree", "remove", "--force", wt)
	os.RemoveAll(tmp)
	return nil
}
