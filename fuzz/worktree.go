// worktree.go takes a snapshot of a git working tree, uncommitted changes
// included, without touching the user's index, stash or refs: a temporary
// index is filled from HEAD and every tracked and untracked file git does
// not ignore (`git add -A`), written as a tree, and wrapped in a commit
// object whose parent is HEAD and that no ref names. Untracked directories
// that hold what cfgfuzz itself writes (a campaign's output, a state
// directory: outputDirs) are left out, and so are untracked regression
// files (regressionFiles): they are results and test data, not source, so
// a campaign run inside the checkout, or the regression files it saves
// there before they are committed, neither make it dirty nor go into its
// build. The tree's hash is
// the content hash that names the snapshot (two equal working trees give
// one hash, so one build); the commit is what a build checks out. git
// writes the files' blobs into the repository's object store, where
// `git gc` prunes them once nothing refers to them.

package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

// Snapshot is a working tree's state.
type Snapshot struct {
	Head   string // the commit checked out (full hash)
	Tree   string // the tree hash of the working tree's content
	Commit string // a commit of Tree on top of Head; Head when Clean
	Clean  bool   // the content equals Head's
	// Changed are the paths whose content differs from Head's (tracked
	// files changed or deleted, untracked files added), relative to the
	// repository's top; none when Clean.
	Changed []string
}

// SnapshotWorkTree snapshots the working tree of the repository holding
// dir ("" the current directory).
func SnapshotWorkTree(dir string) (Snapshot, error) {
	var s Snapshot
	top, err := repoTop(dir)
	if err != nil {
		return s, err
	}
	if s.Head, err = ResolveRevision("HEAD", BuildOptions{Repo: top}); err != nil {
		return s, err
	}
	tmp, err := os.MkdirTemp("", "cfgfuzz-index-")
	if err != nil {
		return s, err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := gitEnv(top, env, "read-tree", s.Head); err != nil {
		return s, err
	}
	outputs, err := outputDirs(top)
	if err != nil {
		return s, err
	}
	add := []string{"add", "-A", "--", "."}
	for _, d := range outputs {
		add = append(add, ":(exclude)"+d)
	}
	regs, err := regressionFiles(top, outputs)
	if err != nil {
		return s, err
	}
	for _, f := range regs {
		add = append(add, ":(exclude,literal)"+f)
	}
	if _, err := gitEnv(top, env, add...); err != nil {
		return s, err
	}
	if s.Tree, err = gitEnv(top, env, "write-tree"); err != nil {
		return s, err
	}
	headTree, err := gitEnv(top, nil, "rev-parse", s.Head+"^{tree}")
	if err != nil {
		return s, err
	}
	if s.Clean = s.Tree == headTree; s.Clean {
		s.Commit = s.Head
		return s, nil
	}
	changed, err := gitEnv(top, nil, "diff-tree", "-r", "--name-only", "-z", headTree, s.Tree)
	if err != nil {
		return s, err
	}
	for _, p := range strings.Split(changed, "\x00") {
		if p != "" {
			s.Changed = append(s.Changed, p)
		}
	}
	id := []string{"GIT_AUTHOR_NAME=cfgfuzz", "GIT_AUTHOR_EMAIL=cfgfuzz@localhost", "GIT_COMMITTER_NAME=cfgfuzz", "GIT_COMMITTER_EMAIL=cfgfuzz@localhost"}
	s.Commit, err = gitEnv(top, id, "commit-tree", s.Tree, "-p", s.Head, "-m", "cfgfuzz: the working tree on "+s.Head)
	return s, err
}

// outputDirs are the untracked directories of the working tree at top
// (as git lists them, and their subdirectories two levels down) that hold
// a campaign (campaign.json or results.jsonl) or a state (findings.json
// with seen.bloom), relative to top with a trailing slash.
func outputDirs(top string) ([]string, error) {
	list, err := gitEnv(top, nil, "ls-files", "--others", "--exclude-standard", "--directory", "-z")
	if err != nil {
		return nil, err
	}
	var out []string
	var visit func(rel string, depth int)
	visit = func(rel string, depth int) {
		dir := filepath.Join(top, rel)
		if isOutputDir(dir) {
			out = append(out, filepath.ToSlash(rel)+"/")
			return
		}
		if depth == 0 {
			return
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() {
				visit(filepath.Join(rel, e.Name()), depth-1)
			}
		}
	}
	for _, entry := range strings.Split(list, "\x00") {
		if strings.HasSuffix(entry, "/") {
			visit(strings.TrimSuffix(entry, "/"), 2)
		}
	}
	return out, nil
}

// regressionFiles are the untracked files of the working tree at top
// (outside the output directories) named *.cfg that read as regression
// files (corpus.ReadRegression: one graph under a '# signature:' or
// '# expect: pass' header), relative to top. cfgfuzz writes them
// (--save-regressions, minimize --save-regression) for `cfgfuzz regress`
// to replay, so they are test data, never the structurizer's source. The
// rule goes by content, not by the directory a command saves into: the
// snapshot's tree hash names a build of uncommitted changes
// (REV+dirty:TREE), and every later command (regress of a file saved, a
// compare saving elsewhere) must find the same tree. A regression file
// git tracks stays in: its change is the user's, and cfgfuzz never
// rewrites a saved one.
func regressionFiles(top string, outputs []string) ([]string, error) {
	args := []string{"ls-files", "--others", "--exclude-standard", "-z", "--", "*.cfg"}
	for _, d := range outputs {
		args = append(args, ":(exclude)"+d)
	}
	list, err := gitEnv(top, nil, args...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rel := range strings.Split(list, "\x00") {
		if !strings.HasSuffix(rel, ".cfg") {
			continue
		}
		if _, err := corpus.ReadRegression(filepath.Join(top, filepath.FromSlash(rel))); err == nil {
			out = append(out, rel)
		}
	}
	return out, nil
}

// isOutputDir says whether dir holds a campaign or a state.
func isOutputDir(dir string) bool {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	return has(CampaignFile) || has(ResultsFile) || (has(StateFindingsFile) && has(StateSeenFile))
}

// RepoTop is the top directory of the git repository holding dir; the
// error says why there is none (no such directory, or not inside one).
func RepoTop(dir string) (string, error) { return repoTop(dir) }

// repoTop is the top directory of the git repository holding dir.
func repoTop(dir string) (string, error) {
	top, err := gitEnv(dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		d := dir
		if d == "" {
			d = "."
		}
		if _, serr := os.Stat(d); serr != nil {
			return "", fmt.Errorf("%s: no such directory", d)
		}
		return "", fmt.Errorf("%s: not inside a git repository", d)
	}
	return top, nil
}

// gitEnv runs git in dir with env added and returns its trimmed standard
// output; an error carries its standard error.
func gitEnv(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
