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
//	                by that repository's build and serve commands
//
// A value with none of these prefixes is a command: `--structurizer
// ./my-adapter` is cmd:./my-adapter. "in-process" is read as self.
package fuzz

import (
	"fmt"
	"os"
	"strings"
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
		return Spec{Kind: SpecRev, Rev: rev}, nil
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
		return Spec{Kind: SpecRepo, Repo: body[:i], Rev: body[i+1:]}, nil
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
		return "rev:" + s.Rev
	case SpecCmd:
		return "cmd:" + s.Cmd
	case SpecRepo:
		return "repo:" + s.Repo + "@" + s.Rev
	}
	return s.Kind
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
// the repository around the current directory and serves isolated specs
// with the running executable.
type ResolveOptions struct {
	// Self is the program whose `structurize` command serves the
	// isolated spec; "" the running executable.
	Self string
	// Build configures the building of rev specs.
	Build BuildOptions
}

// Resolve makes the side factory a spec names, building what it needs
// (a rev spec's revision, once, cached by commit). The returned spec is
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
		return ProcessFactory(s.String(), []string{self, "structurize"}, ""), s, nil
	case SpecCmd:
		return ProcessFactory(s.String(), []string{"sh", "-c", "exec " + s.Cmd}, ""), s, nil
	case SpecRev:
		commit, err := ResolveRevision(s.Rev, opt.Build)
		if err != nil {
			return SideFactory{}, s, err
		}
		bin, err := BuildRevision(commit, opt.Build)
		if err != nil {
			return SideFactory{}, s, err
		}
		s.Rev = commit
		return ProcessFactory(s.String(), []string{bin}, ""), s, nil
	case SpecRepo:
		return SideFactory{}, s, fmt.Errorf("structurizer spec %s: revisions of another repository are not supported by this build", s)
	}
	return SideFactory{}, s, fmt.Errorf("unknown structurizer spec kind %q", s.Kind)
}
