// project.go defines a Project: how the revisions of a git repository are
// built and served as structurizers under test, by two shell commands
// given on the command line (--build, --serve) or in the repository's
// .cfgfuzz.json. cfgfuzz's own revisions (rev: specs) are the project
// OwnProject: cmd/structurize built with go build.
//
// In both commands {worktree} is the revision's checkout, {rev} its commit
// hash (with "+dirty:TREE" for a working tree's uncommitted changes) and
// {out} a directory for build outputs outside the checkout; each is
// substituted as one shell word, quoted only where it holds a character
// the shell reads (ShellQuote): {rev}, hexadecimal digits and "+dirty:",
// always goes in bare and may stand inside a command's own quotes, and a
// path with a space goes in as '...'. The build runs once per revision,
// in the checkout (`sh -c BUILD`); the serve command runs once per worker, as
// `sh -c 'exec SERVE'`, in the checkout when it names {worktree}, else in
// {out}; a checkout that the serve command does not name is removed after
// the build.

package fuzz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ConfigFile is the project file at the top of a repository.
const ConfigFile = ".cfgfuzz.json"

// Project is how a repository's revisions are built and served. The zero
// value has no serve command and cannot be served.
type Project struct {
	// Build is the shell command that builds a revision in its checkout;
	// "" builds nothing.
	Build string `json:"build,omitempty"`
	// Serve is the shell command of the protocol server (fuzz/PROTOCOL.md);
	// "" in a campaign's record (Settings.Project): .cfgfuzz.json gives it.
	Serve string `json:"serve,omitempty"`
}

// OwnProject is cfgfuzz's own repository: cmd/structurize, built into
// {out} and served from there.
func OwnProject() Project {
	return Project{Build: "go build -o {out}/structurize ./cmd/structurize", Serve: "{out}/structurize"}
}

// LoadProject reads repo's .cfgfuzz.json (at the top of the repository
// that holds the directory repo); found is false when there is none.
func LoadProject(repo string) (p Project, found bool, err error) {
	top, err := repoTop(repo)
	if err != nil {
		return p, false, err
	}
	path := filepath.Join(top, ConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return p, false, nil
	}
	if err != nil {
		return p, false, err
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // a byte-order mark, as some editors save UTF-8
	if len(bytes.TrimSpace(b)) == 0 {
		return p, false, fmt.Errorf("%s: empty (%d bytes): want {\"build\": CMD, \"serve\": CMD}", path, len(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // a misspelt "serve" is an error, not a missing command
	if err := dec.Decode(&p); err != nil {
		return p, false, fmt.Errorf("%s: %w", path, jsonError(b, err))
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(b[off:])) > 0 {
		return p, false, fmt.Errorf("%s: %s: more after the object: %s", path, jsonPos(b, off+int64(len(b[off:])-len(bytes.TrimLeft(b[off:], " \t\r\n")))), excerpt(bytes.TrimSpace(b[off:])))
	}
	var keys map[string]json.RawMessage // Go's decoding matches "Build" to build: the file's keys are spelt exactly
	if json.Unmarshal(b, &keys) == nil {
		for _, k := range slices.Sorted(maps.Keys(keys)) { // the first in order: the same message every time
			if k != "build" && k != "serve" {
				return p, false, fmt.Errorf("%s: unknown key %q: want \"build\" and \"serve\", in lower case", path, k)
			}
		}
	}
	return p, true, nil
}

// ProjectFor is the project of repo: over's build and serve commands
// where set, else those of repo's .cfgfuzz.json; a repository of cfgfuzz
// with neither is OwnProject. It fails when no serve command is left.
func ProjectFor(repo string, over Project) (Project, error) {
	p, _, err := LoadProject(repo)
	if err != nil {
		return p, err
	}
	if over.Build != "" {
		p.Build = over.Build
	}
	if over.Serve != "" {
		p.Serve = over.Serve
	}
	if strings.TrimSpace(p.Serve) == "" && strings.TrimSpace(p.Build) == "" && IsOwnRepo(repo) {
		return OwnProject(), nil
	}
	if strings.TrimSpace(p.Serve) == "" {
		return p, fmt.Errorf("repository %s: no serve command (put \"build\" and \"serve\" in its %s, or give --build and --serve)", repo, ConfigFile)
	}
	return p, nil
}

// Flags are the --build and --serve flags that give p's commands, each
// with a leading space, for those set: "" when neither is. A replay
// command that names a repo spec carries them, so that it builds and
// serves the revision as the campaign that printed it did.
func (p Project) Flags() string {
	var b strings.Builder
	if p.Build != "" {
		b.WriteString(" --build " + ShellQuote(p.Build))
	}
	if p.Serve != "" {
		b.WriteString(" --serve " + ShellQuote(p.Serve))
	}
	return b.String()
}

// MapPaths is p with each word of its commands that reads as a path
// replaced by f's answer, as Spec.MapPaths replaces a cmd spec's.
func (p Project) MapPaths(f func(path string) string) Project {
	if p.Build != "" {
		p.Build = mapCommandPaths(p.Build, f)
	}
	if p.Serve != "" {
		p.Serve = mapCommandPaths(p.Serve, f)
	}
	return p
}

// key names the project's builds in the cache: a digest of both commands.
func (p Project) key() string {
	sum := sha256.Sum256([]byte(p.Build + "\x00" + p.Serve))
	return hex.EncodeToString(sum[:6])
}

// keepsWorktree says whether serving needs the checkout.
func (p Project) keepsWorktree() bool { return strings.Contains(p.Serve, "{worktree}") }

// projectVars are the values substituted into a project's commands.
type projectVars struct {
	Worktree, Rev, Out string
}

// expand substitutes v into cmd, each value shell-quoted where it needs
// it (ShellQuote: a revision never does).
func (v projectVars) expand(cmd string) string {
	return strings.NewReplacer("{worktree}", ShellQuote(v.Worktree), "{rev}", ShellQuote(v.Rev), "{out}", ShellQuote(v.Out)).Replace(cmd)
}

// IsOwnRepo reports whether dir ("" the current directory) is inside a
// git repository of cfgfuzz: its top holds cfgfuzz's go.mod and
// cmd/structurize.
func IsOwnRepo(dir string) bool {
	top, err := repoTop(dir)
	if err != nil {
		return false
	}
	mod, err := os.ReadFile(filepath.Join(top, "go.mod"))
	if err != nil {
		return false
	}
	if !slices.ContainsFunc(strings.Split(string(mod), "\n"), func(l string) bool { return strings.TrimSpace(l) == "module "+ownModule }) {
		return false
	}
	st, err := os.Stat(filepath.Join(top, "cmd", "structurize"))
	return err == nil && st.IsDir()
}

// ownModule is cfgfuzz's module path.
const ownModule = "github.com/cfgfuzz/cfgfuzz"
