// baseline.go builds one revision of a project (project.go): the commit
// (or a working tree's snapshot, worktree.go) is checked out in a detached
// git worktree, built there with the project's build command, and the
// result cached by project and revision under
// os.UserCacheDir()/cfgfuzz/builds/PROJECT/REVISION/, so every shard and
// every later campaign against the same revision reuses it. A build is
// made in a directory of its own (REVISION.tmpPID) and renamed into place
// when it succeeded, so two processes building one revision never see
// each other's half-built one. cfgfuzz's own revisions are the project
// OwnProject (BuildRevision).

package fuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// BuildOptions configures a build. The zero value builds from the
// repository containing the current directory into the user cache,
// quietly.
type BuildOptions struct {
	Repo     string    // a directory inside the git repository; "" the current directory
	CacheDir string    // "" os.UserCacheDir()/cfgfuzz
	Log      io.Writer // build messages; nil discards
	// Context cancels the build (its git and build processes are killed
	// and everything it made removed: baseline_cleanup.go); nil means
	// Background.
	Context context.Context
	// Stop, when not nil, stops the build as a cancelled Context does,
	// from outside the caller (a command's stop-signal handling: Stop.Stop),
	// and lets its holder wait until the build has removed what it made
	// (Stop.Wait). nil: never stopped but through Context.
	Stop *BuildStop
	// Timeout bounds the build command of one revision (--build-timeout):
	// past it the command is killed with its process group and the build
	// fails (BuildError.TimedOut), with nothing kept and no failure
	// recorded (a longer limit builds the revision again). 0: no limit.
	Timeout time.Duration
	// Named, when not nil, holds the builds (cache entries) the log has
	// named, built or found in the cache: a build is named once, so the
	// two sides of a comparison of one revision with itself say so once.
	// nil: every call names its build.
	Named map[string]bool
}

// named says whether the log has named the build in entry (Named), and
// marks it named.
func (o BuildOptions) named(entry string) bool {
	if o.Named == nil {
		return false
	}
	was := o.Named[entry]
	o.Named[entry] = true
	return was
}

// Revision is what a build checks out: a commit, or a snapshot of a
// working tree on top of one.
type Revision struct {
	Commit string // full hash
	// Tree is the snapshot's tree hash; "" the commit itself.
	Tree string
	// Checkout is the commit to check out: Commit, or the snapshot's
	// commit object; "" means Commit.
	Checkout string
}

// String is the revision as reports and {rev} name it.
func (r Revision) String() string {
	if r.Tree == "" {
		return r.Commit
	}
	return r.Commit + "+dirty:" + r.Tree
}

// Built is a revision built.
type Built struct {
	Rev Revision
	// Worktree is the kept checkout; "" when the serve command does not
	// need it (it was removed after the build).
	Worktree string
	Out      string // the build's output directory ({out})
}

// ResolveRevision returns the full commit hash of rev.
func ResolveRevision(rev string, opt BuildOptions) (string, error) {
	out, err := git(opt.Repo, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		top, terr := repoTop(opt.Repo)
		if terr != nil {
			return "", fmt.Errorf("revision %q: %v", rev, terr)
		}
		return "", fmt.Errorf("revision %q: not a commit of the git repository %s", rev, top)
	}
	return strings.TrimSpace(out), nil
}

// BuildRevision returns the path of cfgfuzz's cmd/structurize built at
// commit (a full hash), building it when the cache lacks it.
func BuildRevision(commit string, opt BuildOptions) (string, error) {
	b, err := BuildProject(OwnProject(), Revision{Commit: commit}, opt)
	if err != nil {
		return "", err
	}
	return filepath.Join(b.Out, "structurize"), nil
}

// BuildProject returns rev of p built, building it when the cache lacks
// it. A failed build's error holds the build's output.
func BuildProject(p Project, rev Revision, opt BuildOptions) (Built, error) {
	defer opt.Stop.track()() // until every deferred cleanup below has run
	entry, err := buildEntry(p, rev, opt)
	if err != nil {
		return Built{}, err
	}
	defer entryLock(entry)()
	ctx, release := buildContext(opt)
	defer release()
	noteProject(filepath.Dir(entry), p, opt.Repo)
	if err := removeStaleBuilds(ctx, opt.Repo, filepath.Dir(filepath.Dir(entry))); err != nil {
		return Built{}, err
	}
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	if b, ok := cachedBuild(p, rev, entry); ok {
		if opt.named(entry) {
			return b, nil
		}
		fmt.Fprintf(log, "cfgfuzz: %s built before (kept in %s; delete it to build it again, should it no longer run)\n", short(rev), entry)
		return b, nil
	}
	if be := cachedFailure(rev, entry); be != nil {
		fmt.Fprintf(log, "cfgfuzz: building %s failed before (recorded in %s, which stands for %v: delete it to build again sooner)\n", short(rev), entry+FailedSuffix, FailedFor)
		return Built{}, be
	}
	tmp := fmt.Sprintf("%s.tmp%d", entry, os.Getpid())
	os.RemoveAll(tmp)
	b := Built{Rev: rev, Worktree: filepath.Join(tmp, "worktree"), Out: filepath.Join(tmp, "out")}
	if err := os.MkdirAll(b.Out, 0o755); err != nil {
		return Built{}, err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(log, "cfgfuzz: building %s (kept in %s)\n", short(rev), entry)
	start := time.Now()
	if err := addWorktree(ctx, opt.Repo, b.Worktree, rev); err != nil {
		return Built{}, err
	}
	if err := runBuild(ctx, p, b, opt.Timeout); err != nil {
		removeWorktree(opt.Repo, b.Worktree)
		var be *BuildError
		isBuild := errors.As(err, &be)
		ended, kept := "failed", "nothing kept"
		switch {
		case ctx.Err() != nil:
			ended = "stopped"
		case isBuild && be.TimedOut:
			ended, kept = "timed out", fmt.Sprintf("--build-timeout %v; nothing kept", opt.Timeout)
		}
		fmt.Fprintf(log, "cfgfuzz: building %s %s after %.1fs (%s)\n", short(rev), ended, time.Since(start).Seconds(), kept)
		if ctx.Err() == nil && isBuild && !be.TimedOut {
			if rerr := recordFailure(entry, be); rerr != nil {
				fmt.Fprintf(log, "cfgfuzz: recording the failed build of %s: %v\n", short(rev), rerr)
			}
		}
		return Built{}, err
	}
	if !p.keepsWorktree() {
		removeWorktree(opt.Repo, b.Worktree)
	}
	built, err := installBuild(opt.Repo, p, b, tmp, entry)
	if err == nil {
		fmt.Fprintf(log, "cfgfuzz: built %s in %.1fs\n", short(rev), time.Since(start).Seconds())
		opt.named(entry)
	}
	return built, err
}

// buildEntry is the cache directory of rev of p.
func buildEntry(p Project, rev Revision, opt BuildOptions) (string, error) {
	cache := opt.CacheDir
	if cache == "" {
		uc, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(uc, "cfgfuzz")
	}
	name := rev.Commit
	if rev.Tree != "" {
		name += "-dirty-" + rev.Tree
	}
	dir := filepath.Join(cache, "builds", p.key())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// cachedBuild is the build in entry, when there is one.
func cachedBuild(p Project, rev Revision, entry string) (Built, bool) {
	b := Built{Rev: rev, Out: filepath.Join(entry, "out")}
	if p.keepsWorktree() {
		b.Worktree = filepath.Join(entry, "worktree")
	}
	st, err := os.Stat(b.Out)
	return b, err == nil && st.IsDir()
}

// short is a revision in build messages.
func short(r Revision) string {
	s := r.Commit[:min(12, len(r.Commit))]
	if r.Tree != "" {
		s += "+dirty:" + r.Tree[:min(12, len(r.Tree))]
	}
	return s
}

// addWorktree checks rev out, detached, in a new worktree wt of repo,
// holding repo's worktreeLock; a failed add leaves none registered.
func addWorktree(ctx context.Context, repo, wt string, rev Revision) error {
	commit := rev.Checkout
	if commit == "" {
		commit = rev.Commit
	}
	unlock, err := worktreeLock(ctx, repo)
	if err != nil {
		return fmt.Errorf("git worktree add %s: %w", short(rev), err)
	}
	defer unlock()
	if out, err := runCommand(ctx, buildCommand(ctx, repo, "git", "worktree", "add", "--detach", wt, commit)); err != nil {
		removeWorktreeLocked(repo, wt) // a cancelled add may have registered it
		return fmt.Errorf("git worktree add %s: %v: %s", short(rev), err, strings.TrimSpace(out))
	}
	return nil
}

// errBuildTimeout is the cause of a build command's context past its
// limit.
var errBuildTimeout = errors.New("past --build-timeout")

// runBuild runs p's build command in b's worktree (cancelled with ctx,
// and killed past limit unless it is 0).
func runBuild(ctx context.Context, p Project, b Built, limit time.Duration) error {
	if strings.TrimSpace(p.Build) == "" {
		return nil
	}
	bctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeoutCause(ctx, limit, errBuildTimeout)
		defer cancel()
	}
	v := projectVars{Worktree: b.Worktree, Rev: b.Rev.String(), Out: b.Out}
	cmd := buildCommand(bctx, b.Worktree, "sh", "-c", v.expand(p.Build))
	gotmp, err := goTempDir(cmd, b.Worktree)
	if err != nil {
		return err
	}
	defer os.RemoveAll(gotmp)
	out, err := runCommand(bctx, cmd)
	be := &BuildError{Rev: b.Rev, Command: v.expand(p.Build), Err: err, Output: out, Worktree: b.Worktree, Out: b.Out}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("building %s: %w", short(b.Rev), err)
	case bctx.Err() != nil:
		be.TimedOut = true
		be.Err = fmt.Errorf("killed with its process group after %v (--build-timeout)", limit)
		return be
	case err != nil:
		return be
	}
	return nil
}

// BuildError is a build command that failed; Output is what it printed.
type BuildError struct {
	Rev     Revision
	Command string
	Err     error
	Output  string
	// Serving: the build finished but its serve command cannot run.
	Serving bool
	// TimedOut: the build command ran past BuildOptions.Timeout and was
	// killed (not recorded as a failed build).
	TimedOut bool
	// Worktree and Out are a failed build's checkout and output
	// directory ({worktree}, {out}), removed when the build failed.
	Worktree, Out string
}

// Reason is the failure in one line, naming no path: "build failed:
// exit status 101".
func (e *BuildError) Reason() string {
	switch {
	case e.Serving:
		return "serve command failed: " + firstLine(e.Err.Error())
	case e.TimedOut:
		return "build timed out: " + firstLine(e.Err.Error())
	}
	return "build failed: " + firstLine(e.Err.Error())
}

// OutputTail is the last n lines of the build's output that hold more
// than spaces, the first error line leading them when it is above them.
// Paths inside the build's checkout, removed once the build failed, are
// written relative to it, as in the repository, and its output directory
// {out}.
func (e *BuildError) OutputTail(n int) []string {
	out := e.unplace(e.Output)
	var lines []string
	for l := range strings.Lines(out) {
		if l = strings.TrimRight(l, " \t\r\n"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) <= n {
		return lines
	}
	// A compiler's first error can sit above pages of notes: it leads,
	// then "...", then the last lines.
	tail := lines[len(lines)-n:]
	if i := slices.IndexFunc(lines[:len(lines)-n], isErrorLine); i >= 0 && n >= 3 {
		return append([]string{lines[i], "..."}, tail[2:]...)
	}
	return tail
}

// isErrorLine says whether a build output line reports an error
// (error:, error[E0425]:, fatal error:, ERROR).
func isErrorLine(l string) bool {
	l = strings.ToLower(l)
	return strings.Contains(l, "error:") || strings.Contains(l, "error[")
}

// Error is the failure, then the build's output with every line
// indented, so that no line of it reads as one of cfgfuzz's own.
func (e *BuildError) Error() string {
	verb := "building"
	if e.Serving {
		verb = "serving the build of"
	}
	var out strings.Builder
	for l := range strings.Lines(e.unplace(e.Output)) {
		out.WriteString("    " + l)
	}
	return strings.TrimSuffix(fmt.Sprintf("%s %s (%s): %v\n%s", verb, short(e.Rev), e.unplace(e.Command), e.Err, out.String()), "\n")
}

// unplace writes s without the places of the failed build, removed by
// the time anyone reads it: a path inside its checkout relative to it,
// the checkout itself {worktree}, its output directory {out}.
func (e *BuildError) unplace(s string) string {
	var pairs []string
	if e.Worktree != "" {
		pairs = append(pairs, e.Worktree+string(filepath.Separator), "", e.Worktree, "{worktree}")
	}
	if e.Out != "" {
		pairs = append(pairs, e.Out, "{out}")
	}
	if len(pairs) == 0 {
		return s
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// IsBuildError reports whether err is a failed build command (not git
// or the cache failing).
func IsBuildError(err error) bool {
	var b *BuildError
	return errors.As(err, &b)
}

// installBuild renames the finished build tmp into its cache entry (a
// kept worktree is repaired to its new place) and returns it there. When
// another process installed the same build first, that one is used. It
// holds repo's worktreeLock: a prune between the rename and the repair
// would take the moved worktree for one whose directory is gone.
func installBuild(repo string, p Project, b Built, tmp, entry string) (Built, error) {
	unlock, _ := worktreeLock(context.Background(), repo)
	defer unlock()
	if err := os.Rename(tmp, entry); err != nil {
		if done, ok := cachedBuild(p, b.Rev, entry); ok {
			if p.keepsWorktree() {
				removeWorktreeLocked(repo, b.Worktree)
			}
			return done, nil
		}
		return Built{}, err
	}
	done, _ := cachedBuild(p, b.Rev, entry)
	if p.keepsWorktree() {
		if out, err := git(repo, "worktree", "repair", done.Worktree); err != nil {
			return Built{}, fmt.Errorf("git worktree repair %s: %v: %s", done.Worktree, err, strings.TrimSpace(out))
		}
	}
	return done, nil
}

// removeWorktree removes the worktree wt of repo, holding repo's
// worktreeLock.
func removeWorktree(repo, wt string) {
	unlock, _ := worktreeLock(context.Background(), repo)
	defer unlock()
	removeWorktreeLocked(repo, wt)
}

// removeWorktreeLocked is removeWorktree for a caller holding the lock.
func removeWorktreeLocked(repo, wt string) {
	git(repo, "worktree", "remove", "--force", wt)
	os.RemoveAll(wt)
}

// ServeBuilt is the side factory serving b with p's serve command, its
// processes configured by popt.
func ServeBuilt(describe string, p Project, b Built, popt ProcessOptions) SideFactory {
	v := projectVars{Worktree: b.Worktree, Rev: b.Rev.String(), Out: b.Out}
	dir := b.Out
	if b.Worktree != "" {
		dir = b.Worktree
	}
	return ProcessFactoryWith(describe, []string{"sh", "-c", execLine(v.expand(p.Serve))}, dir, popt)
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
