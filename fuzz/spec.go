// spec.go defines Spec, the one name of a structurizer under test. Every
// command that runs a structurizer takes one (--structurizer, --baseline,
// --current), every report and findings-store entry records it, and every
// replay command repeats it, so what a report prints reproduces what it
// found, whoever's structurizer it was.
//
// The forms, as written on the command line and stored in campaign.json:
//
//	self            this binary's own structurizer, called in-process
//	isolated        this binary's own structurizer as child processes
//	                (`cfgfuzz structurize`), so a hang is killed, not leaked
//	rev:REV         cfgfuzz's own structurizer built from revision REV of the
//	                cfgfuzz repository around the current directory
//	cmd:CMD         any program speaking the protocol (fuzz/PROTOCOL.md),
//	                run as `sh -c 'exec CMD'`
//	repo:DIR@REV    revision REV of the git repository DIR, built and served
//	                by that repository's build and serve commands (Project:
//	                --build and --serve, or DIR/.cfgfuzz.json)
//
// The working tree: REV+dirty in a rev or repo spec (rev:HEAD+dirty,
// repo:DIR@HEAD+dirty) is HEAD plus the working tree's uncommitted changes
// (tracked and untracked files git does not ignore, less the directories
// holding a campaign's output or a state: worktree.go), snapshotted and built
// like a commit (worktree.go); REV must be the working tree's HEAD.
// Resolved, a repo spec's DIR is absolute, and the spec names exactly
// what was built: rev:COMMIT when the tree has no changes, else
// rev:COMMIT+dirty:TREE with the git tree hash of the content; a later
// resolution of that form uses the cached build, or builds the working
// tree again only while its content still has that hash.
//
// A value with none of these prefixes is a command: `--structurizer
// ./my-adapter` is cmd:./my-adapter. "in-process" is read as self.

package fuzz

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// The kinds of Spec.
const (
	SpecSelf     = "self"
	SpecIsolated = "isolated"
	SpecRev      = "rev"
	SpecCmd      = "cmd"
	SpecRepo     = "repo"
)

// Spec names a structurizer under test. The zero value is self.
type Spec struct {
	Kind string // one of the Spec* kinds; "" is self
	// Rev is the revision of rev and repo specs, as given or resolved to a
	// full commit hash.
	Rev string
	// Cmd is the shell command of a cmd spec.
	Cmd string
	// Repo is the repository directory of a repo spec.
	Repo string
	// WorkTree, on a rev or repo spec, adds a working tree's uncommitted
	// changes to Rev: "" none; WorkTreeAny whatever they are when the spec
	// is resolved; else the tree hash of the content (a resolved spec).
	WorkTree string
}

// WorkTreeAny is Spec.WorkTree of REV+dirty: the working tree as found.
const WorkTreeAny = "dirty"

// splitWorkTree splits "REV+dirty[:TREE]" into REV and Spec.WorkTree.
func splitWorkTree(rev string) (string, string) {
	i := strings.Index(rev, "+dirty")
	if i < 0 {
		return rev, ""
	}
	rest := rev[i+len("+dirty"):]
	if tree, ok := strings.CutPrefix(rest, ":"); ok && tree != "" {
		return rev[:i], tree
	}
	if rest == "" {
		return rev[:i], WorkTreeAny
	}
	return rev, ""
}

// revString is Rev with its WorkTree suffix.
func (s Spec) revString() string {
	switch s.WorkTree {
	case "":
		return s.Rev
	case WorkTreeAny:
		return s.Rev + "+dirty"
	}
	return s.Rev + "+dirty:" + s.WorkTree
}

// ParseSpec reads a spec in one of the forms of the file comment.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s == SpecSelf || s == "in-process":
		return Spec{Kind: SpecSelf}, nil
	case s == SpecIsolated:
		return Spec{Kind: SpecIsolated}, nil
	case strings.HasPrefix(s, "rev:"):
		rev := strings.TrimPrefix(s, "rev:")
		if rev == "" {
			return Spec{}, fmt.Errorf("structurizer spec %q: rev: needs a revision", s)
		}
		rev, tree := splitWorkTree(rev)
		if rev == "" {
			return Spec{}, fmt.Errorf("structurizer spec %q: rev: needs a revision", s)
		}
		return Spec{Kind: SpecRev, Rev: rev, WorkTree: tree}, nil
	case strings.HasPrefix(s, "cmd:"):
		cmd := strings.TrimSpace(strings.TrimPrefix(s, "cmd:"))
		if cmd == "" {
			return Spec{}, fmt.Errorf("structurizer spec %q: cmd: needs a command", s)
		}
		return Spec{Kind: SpecCmd, Cmd: cmd}, nil
	case strings.HasPrefix(s, "repo:"):
		body := strings.TrimPrefix(s, "repo:")
		i := strings.LastIndex(body, "@")
		if i <= 0 || i == len(body)-1 {
			return Spec{}, fmt.Errorf("structurizer spec %q: want repo:DIR@REV", s)
		}
		rev, tree := splitWorkTree(body[i+1:])
		if rev == "" {
			return Spec{}, fmt.Errorf("structurizer spec %q: want repo:DIR@REV", s)
		}
		return Spec{Kind: SpecRepo, Repo: body[:i], Rev: rev, WorkTree: tree}, nil
	}
	return Spec{Kind: SpecCmd, Cmd: s}, nil
}

// MustParseSpec is ParseSpec for specs known to be well formed (tests,
// constants); it panics on a malformed one.
func MustParseSpec(s string) Spec {
	sp, err := ParseSpec(s)
	if err != nil {
		panic(err)
	}
	return sp
}

// String is the spec in the form ParseSpec reads.
func (s Spec) String() string {
	switch s.Kind {
	case "", SpecSelf:
		return SpecSelf
	case SpecIsolated:
		return SpecIsolated
	case SpecRev:
		return "rev:" + s.revString()
	case SpecCmd:
		return "cmd:" + s.Cmd
	case SpecRepo:
		return "repo:" + s.Repo + "@" + s.revString()
	}
	return s.Kind
}

// Describe says in words what the spec runs, for reports: the revision
// it runs, and where cfgfuzz cannot tell it, why.
func (s Spec) Describe() string { return s.describe(true) }

// DescribeDeclared is Describe for a side whose protocol v2 hello
// declared name ("" none): a command's description names it where a
// revision would go, as the one word cfgfuzz has of which build it ran.
func (s Spec) DescribeDeclared(name string) string { return s.describeAs(true, name) }

// describe is Describe; why false leaves out why a revision is unknown
// (the state store's revision, stateRevision).
func (s Spec) describe(why bool) string { return s.describeAs(why, "") }

// describeAs is describe for a command whose v2 hello declared the name
// declared ("" none).
func (s Spec) describeAs(why bool, declared string) string {
	switch s.Kind {
	case "", SpecSelf:
		return "the structurizer compiled into this cfgfuzz binary (" + selfRevision(why) + "), called in-process; nothing built"
	case SpecIsolated:
		return "the structurizer compiled into this cfgfuzz binary (" + selfRevision(why) + "), as child processes; nothing built"
	case SpecCmd:
		switch {
		case declared != "":
			return fmt.Sprintf("%s, which declares itself %q in its protocol v2 hello (cfgfuzz cannot ask a command for a revision); nothing built", externalHead(s.Cmd), declared)
		case why:
			return externalHead(s.Cmd) + ", " + externalRevision + "; nothing built"
		}
		return externalHead(s.Cmd) + "; nothing built"
	}
	what := "cfgfuzz's cmd/structurize"
	if s.Kind == SpecRepo {
		what = "the repository " + s.Repo
	}
	switch s.WorkTree {
	case "":
		return what + " built from commit " + s.Rev
	case WorkTreeAny:
		return what + " built from the working tree on " + s.Rev + " (not resolved yet)"
	}
	return what + " built from the working tree: commit " + s.Rev + " plus uncommitted changes (tree " + s.WorkTree + ")"
}

// DescribeSpec is ParseSpec(s).Describe(), or s itself when it does not
// parse.
func DescribeSpec(s string) string { return DescribeSide(s, nil) }

// DescribeSide is DescribeSpec for a side whose v2 hello answered h (nil:
// none, or a v1 server): Spec.DescribeDeclared with h's name.
func DescribeSide(s string, h *proto.HelloAnswer) string {
	sp, err := ParseSpec(s)
	if err != nil {
		return s
	}
	if h == nil {
		return sp.Describe()
	}
	return sp.DescribeDeclared(h.Name)
}

// externalHead opens a command's description: the command in backticks.
// report.md's description (mdDescribe) takes it for a code span.
func externalHead(cmd string) string { return "the external structurizer `" + cmd + "`" }

// namedBySpec says whether a side's description (DescribeSide) names what
// its v2 hello declared: a command's does.
func namedBySpec(s string, h *proto.HelloAnswer) bool {
	sp, err := ParseSpec(s)
	return err == nil && h != nil && h.Name != "" && sp.Kind == SpecCmd
}

// externalRevision is what Describe says of a cmd spec's revision, which
// cfgfuzz has no way to read, and where a report can show one.
const externalRevision = "revision unknown: cfgfuzz cannot ask a command for one (a protocol v2 server can put it in its hello's name, which the report then shows in its place; repo:DIR@REV builds a commit and names it)"

// NoVCSStamp says why a cfgfuzz binary's revision is unknown: the Go
// toolchain stamps a binary with its commit (debug.ReadBuildInfo's
// vcs.revision) only when go build or go install runs inside a git
// checkout, without -buildvcs=false.
const NoVCSStamp = "the binary carries no VCS stamp (built with -buildvcs=false, by go run, or outside a git checkout)"

// selfRevision is the revision this binary was built from, as its build
// information records it; why adds why it is unknown, when it is.
func selfRevision(why bool) string {
	unknown := func(reason string) string {
		if why {
			return "revision unknown: " + reason
		}
		return "revision unknown"
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return unknown("the binary carries no build information")
	}
	rev, dirty := "", false
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.modified":
			dirty = st.Value == "true"
		}
	}
	switch {
	case rev == "":
		return unknown(NoVCSStamp)
	case dirty:
		return "built from commit " + rev + " with uncommitted changes"
	}
	return "built from commit " + rev
}

// IsSelf reports whether the spec is this binary's own structurizer, in
// process or isolated.
func (s Spec) IsSelf() bool {
	return s.Kind == "" || s.Kind == SpecSelf || s.Kind == SpecIsolated
}

// Flag is the command-line argument that names this spec to
// --structurizer, shell-quoted, for replay commands; "" for self, which
// needs no flag.
func (s Spec) Flag() string {
	if s.Kind == "" || s.Kind == SpecSelf {
		return ""
	}
	return "--structurizer " + ShellQuote(s.String())
}

// ShellQuote quotes s for a POSIX shell: as it is when it holds only safe
// characters, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ResolveOptions configures Resolve. The zero value resolves revisions in
// the repository around the current directory, takes repo specs' build
// and serve commands from their .cfgfuzz.json, and serves isolated specs
// with the running executable.
type ResolveOptions struct {
	// Self is the program whose `structurize` command serves the
	// isolated spec; "" the running executable.
	Self string
	// Build configures the building of rev and repo specs (its Repo is
	// replaced by a repo spec's DIR).
	Build BuildOptions
	// Project overrides a repo spec's build and serve commands where set
	// (--build, --serve); the rest come from DIR/.cfgfuzz.json.
	Project Project
	// Process configures the structurizer processes of every spec but
	// self (the answer size limit).
	Process ProcessOptions
	// HandOn gives the server the preflight started (cmd, rev and repo
	// specs) to the returned factory's first New, for a caller that
	// calls New: a campaign then starts no server for nothing, and a
	// slow start is not cut short (preflight.go). false: the preflight
	// ends its server.
	HandOn bool
	// LeaveEnded leaves a server that ends having written nothing (with a
	// status other than 126 and 127) to the caller, as selftest, which
	// shows the exchange, wants. false: the preflight sends further
	// servers the one-block graph and a diamond, and fails the spec when
	// they end the same way (preflight.go).
	LeaveEnded bool
}

// Resolve makes the side factory a spec names, building what it needs
// (a rev spec's revision, once, cached by commit), and checks that a
// command's program runs at all (preflight; for a built revision a serve
// command that does not is a BuildError). The isolated spec runs this
// executable, which is there. The returned spec is
// the one to record: a revision resolved to its full commit hash, so a
// resumed campaign or a replay uses the same build.
func Resolve(s Spec, opt ResolveOptions) (SideFactory, Spec, error) {
	switch s.Kind {
	case "", SpecSelf:
		s.Kind = SpecSelf
		return InProcessFactory(), s, nil
	case SpecIsolated:
		self := opt.Self
		if self == "" {
			var err error
			if self, err = os.Executable(); err != nil {
				return SideFactory{}, s, err
			}
		}
		return ProcessFactoryWith(s.String(), []string{self, "structurize"}, "", opt.Process), s, nil
	case SpecCmd:
		s.Cmd = absoluteWords(s.Cmd)
		f, err := preflight(ProcessFactoryWith(s.String(), []string{"sh", "-c", execLine(s.Cmd)}, "", opt.Process), preflightLimit, opt)
		return f, s, err
	case SpecRev:
		return resolveBuilt(s, OwnProject(), opt)
	case SpecRepo:
		// Recorded absolute, as --repo is, so a replay runs from anywhere.
		abs, err := filepath.Abs(s.Repo)
		if err != nil {
			return SideFactory{}, s, err
		}
		s.Repo = abs
		p, err := ProjectFor(s.Repo, opt.Project)
		if err != nil {
			return SideFactory{}, s, err
		}
		opt.Build.Repo = s.Repo
		return resolveBuilt(s, p, opt)
	}
	return SideFactory{}, s, fmt.Errorf("unknown structurizer spec kind %q", s.Kind)
}

// RecordedSpec is the spec a campaign records for the structurizer spec v
// (Resolve's returned spec, without building or starting anything): self
// named, a command's relative paths absolute, a repository's directory
// absolute and a revision resolved to its commit. A working tree's spec
// (+dirty) is v as it parses. The error is one of parsing or resolving.
func RecordedSpec(v string) (string, error) {
	s, err := ParseSpec(v)
	if err != nil {
		return v, err
	}
	var opt BuildOptions
	switch s.Kind {
	case "", SpecSelf:
		s.Kind = SpecSelf
	case SpecCmd:
		s.Cmd = absoluteWords(s.Cmd)
	case SpecRepo:
		if s.Repo, err = filepath.Abs(s.Repo); err != nil {
			return v, err
		}
		opt.Repo = s.Repo
	}
	if (s.Kind == SpecRev || s.Kind == SpecRepo) && s.WorkTree == "" {
		if s.Rev, err = ResolveRevision(s.Rev, opt); err != nil {
			return v, err
		}
	}
	return s.String(), nil
}

// CheckRevision resolves the commit a rev or repo spec names (desc as
// recorded), as Resolve does first, without building it: a campaign of
// two sides checks both before it builds either, so a revision that does
// not exist is refused before the other side's build. Other specs, and
// the working tree of a +dirty spec, are left to Resolve; a spec that
// does not parse is its error.
func CheckRevision(desc string) error {
	s, err := ParseSpec(desc)
	if err != nil {
		return err
	}
	var opt BuildOptions
	switch s.Kind {
	case SpecRev:
	case SpecRepo:
		if opt.Repo, err = filepath.Abs(s.Repo); err != nil {
			return err
		}
	default:
		return nil
	}
	_, err = ResolveRevision(s.Rev, opt)
	return err
}

// absoluteWords is cmd with each relative path made absolute: a word of
// plain path characters that holds a slash and names a file or directory
// from the working directory (./adapter, build/ss, ../tools/ss.py). The
// recorded spec then runs from any directory, as a findings store's replay
// does from the entry's own; an absolute path a shell would split (a
// directory with a space) is single-quoted, which MapPaths reads back.
// Words with quotes, variables or globs are left as they are, and so is a
// bare name, which the shell looks up in PATH. A command that changes
// directory (cd build && ./adapter, sh -c 'cd tools && ./a'; a cd as
// RelativeCd counts one) runs its later words from that directory, not
// from the working directory: the words after its first cd's directory
// are left as they are, and all of a shell's command string that holds
// it; the cd's own directory, which the shell finds from the working
// directory, is made absolute as any other path (cd build/bin: cd
// /abs/build/bin). A `go run` command gets the working directory too
// (goRunFrom).
func absoluteWords(cmd string) string {
	from, dir := firstCdFrom(cmd)
	words := strings.Split(cmd, " ")
	at := 0
	for i, w := range words {
		at += len(w) + 1
		if start := at - len(w) - 1; start >= from && start != dir {
			continue
		}
		if !strings.Contains(w, "/") || strings.HasPrefix(w, "/") || strings.Trim(w, pathChars) != "" {
			continue
		}
		if _, err := os.Stat(w); err != nil {
			continue
		}
		abs, err := filepath.Abs(w)
		switch {
		case err != nil:
		case strings.Trim(abs, pathChars) == "":
			words[i] = abs
		case !strings.ContainsAny(abs, "'\n"):
			words[i] = "'" + abs + "'" // a directory with a space, say: one word still
		}
	}
	return goRunFrom(strings.Join(words, " "))
}

// goRunFrom is cmd with go's -C flag naming the working directory when
// cmd runs `go run` (go its program, after any assignments, and run the
// word after it) and changes no directory: go finds the module, and with
// it the package (go run ./cmd/x, go run .), from the directory it runs
// in, so a replay from another directory (a findings store's entry, a CI
// job's checkout top) would find none. go -C DIR (Go 1.20 and later)
// runs go as from DIR, a path that MapPaths, and so a regression file's
// {repo}, rewrites as any other. A command that names -C itself, or whose
// working directory a shell would not read as one word, is left as it is.
func goRunFrom(cmd string) string {
	words := commandWords(cmd)
	if len(words) < 2 || cmd[words[0][0]:words[0][1]] != "go" || cmd[words[1][0]:words[1][1]] != "run" {
		return cmd
	}
	if from, _ := firstCdFrom(cmd); from < len(cmd) {
		return cmd
	}
	wd, err := os.Getwd()
	if err != nil || strings.ContainsAny(wd, "'\n") {
		return cmd
	}
	if strings.Trim(wd, pathChars) != "" {
		wd = "'" + wd + "'"
	}
	at := words[0][1]
	return cmd[:at] + " -C " + wd + cmd[at:]
}

// firstCdFrom is where absoluteWords leaves cmd as written, the offset
// of its first cd that is a command (eachCd: env -C DIR too; len(cmd) for
// none), and the offset of that cd's directory word (-1 for none, one
// attached to its option, or a cd in a shell's command string).
func firstCdFrom(cmd string) (from, dir int) {
	from, dir = len(cmd), -1
	eachCd(cmd, func(c cdAt) bool {
		if c.script >= 0 {
			from = c.script
			return false
		}
		from = c.words[c.i].at
		if c.dir >= 0 {
			dir = c.words[c.dir].at
		}
		return false
	})
	return from, dir
}

// pathChars are the characters absoluteWords takes for a path's.
const pathChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-"

// resolveBuilt builds the revision a rev or repo spec names with p (as
// opt.Build says) and serves it; the returned spec names the revision
// exactly.
func resolveBuilt(s Spec, p Project, opt ResolveOptions) (SideFactory, Spec, error) {
	rev, err := revisionOf(s, p, opt.Build)
	if err != nil {
		return SideFactory{}, s, err
	}
	b, err := BuildProject(p, rev, opt.Build)
	if err != nil {
		return SideFactory{}, s, err
	}
	s.Rev, s.WorkTree = rev.Commit, rev.Tree
	f, err := preflight(ServeBuilt(s.String(), p, b, opt.Process), preflightLimit, opt)
	if err != nil {
		return f, s, &BuildError{Rev: rev, Command: p.Serve, Err: servedFrom(err, p.Serve, b), Serving: true}
	}
	return f, s, nil
}

// servedFrom is err, the serve command's failure to start, saying where
// the command ran when its program is a path relative to that directory
// that is not there ({out}, or the checkout when the command names
// {worktree}), or a bare name that the shell looks up in PATH though a
// file of that name is there, and how to name the program instead.
func servedFrom(err error, serve string, b Built) error {
	words := shellWords(serve)
	if len(words) == 0 {
		return err
	}
	word := serve[words[0][0]:words[0][1]]
	dir, where := b.Out, "{out}"
	if b.Worktree != "" {
		dir, where = b.Worktree, "{worktree}"
	}
	_, statErr := os.Stat(filepath.Join(dir, word))
	switch {
	case strings.ContainsAny(word, "{$'\"\\") || filepath.IsAbs(word):
		return err
	case !strings.Contains(word, "/") && statErr == nil:
		return fmt.Errorf("%w: the serve command runs in %s (%s), and the shell looks a bare %s up in PATH, not there: name it %s/%s", err, where, dir, word, where, word)
	case !strings.Contains(word, "/") || statErr == nil:
		return err
	}
	if where == "{worktree}" {
		return fmt.Errorf("%w: the serve command runs in the checkout {worktree} (%s), which holds no %s: name the program the build makes from there, {worktree}/PATH", err, dir, word)
	}
	return fmt.Errorf("%w: the serve command runs in {out} (%s), not in the checkout (removed after the build), and finds no %s there: copy the program into {out} in the build command (cp %s {out}/) and serve {out}/%s, or serve {worktree}/%s, which keeps the checkout",
		err, dir, word, word, filepath.Base(word), word)
}

// changedList names the first paths of a working tree's changes, and how
// many more there are.
func changedList(paths []string) string {
	const shown = 5
	if len(paths) <= shown {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:shown], ", "), len(paths)-shown)
}

// UncommittedTree is, for a rev or repo spec that names a working tree's
// uncommitted changes by their content (REV+dirty:TREE, as a resolved
// spec records them), what a record of it must say: it is built again
// only while its build is cached or a working tree still has that
// content. "" for any other spec.
func UncommittedTree(spec string) string {
	sp, err := ParseSpec(spec)
	if err != nil || (sp.Kind != SpecRev && sp.Kind != SpecRepo) || sp.WorkTree == "" || sp.WorkTree == WorkTreeAny {
		return ""
	}
	return fmt.Sprintf("the structurizer was built from commit %s plus uncommitted changes (tree %s), which no commit holds: a replay builds it only where that build is cached (on the machine that built it) or the working tree still has that content; commit the changes and record that commit (rev:COMMIT, repo:DIR@COMMIT) to replay it anywhere",
		shortHash(sp.Rev), shortHash(sp.WorkTree))
}

// shortHash is a git hash's first 12 digits (h itself when shorter).
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// revisionOf is the revision s names: its commit, and with +dirty the
// working tree's snapshot (none when the tree is clean). A recorded tree
// hash is taken from the cache when built there, else the working tree
// must still have that content; when HEAD moved to a commit whose tree
// is that content, the error names it.
func revisionOf(s Spec, p Project, opt BuildOptions) (Revision, error) {
	commit, err := ResolveRevision(s.Rev, opt)
	if err != nil {
		return Revision{}, err
	}
	rev := Revision{Commit: commit}
	if s.WorkTree == "" {
		return rev, nil
	}
	if s.WorkTree != WorkTreeAny {
		entry, err := buildEntry(p, Revision{Commit: commit, Tree: s.WorkTree}, opt)
		if err != nil {
			return rev, err
		}
		if _, ok := cachedBuild(p, Revision{Commit: commit, Tree: s.WorkTree}, entry); ok {
			return Revision{Commit: commit, Tree: s.WorkTree}, nil
		}
	}
	snap, err := SnapshotWorkTree(opt.Repo)
	if err != nil {
		return rev, err
	}
	gone := func(now string) error {
		return fmt.Errorf("%s: the uncommitted changes it names (tree %s on commit %s) are gone: %s, and no build of them is cached here; such a spec is built again only while the working tree has that content, so replay it on a commit that holds the changes instead (rev:COMMIT, repo:DIR@COMMIT)",
			s, shortHash(s.WorkTree), shortHash(commit), now)
	}
	if snap.Head != commit {
		if s.WorkTree != WorkTreeAny {
			if tree, err := gitEnv(opt.Repo, nil, "rev-parse", snap.Head+"^{tree}"); err == nil && tree == s.WorkTree {
				at := s
				at.Rev, at.WorkTree = snap.Head, ""
				return rev, fmt.Errorf("%s: the uncommitted changes it names (tree %s on commit %s) were committed since: commit %s (HEAD) holds them, and no build of them is cached here; record %s to replay it on that commit",
					s, shortHash(s.WorkTree), shortHash(commit), shortHash(snap.Head), at)
			}
			return rev, gone("HEAD is " + shortHash(snap.Head) + " now")
		}
		return rev, fmt.Errorf("%s: the working tree's changes are on HEAD (%s), not on %s", s, snap.Head[:12], s.Rev)
	}
	if !snap.Clean {
		rev.Tree, rev.Checkout = snap.Tree, snap.Commit
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "cfgfuzz: the working tree differs from %s in %s (uncommitted changes, built in): %s\n", snap.Head[:12], Plural(len(snap.Changed), "path"), changedList(snap.Changed))
		}
	}
	if s.WorkTree != WorkTreeAny && rev.Tree != s.WorkTree {
		if rev.Tree == "" {
			return rev, gone("the working tree has changed since (it has no uncommitted changes now)")
		}
		return rev, gone("the working tree has changed since (its content is now tree " + shortHash(rev.Tree) + ")")
	}
	return rev, nil
}
