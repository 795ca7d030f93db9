// portable.go: regression files that travel to another checkout. A
// regression file is committed to its project and replayed in that
// project's CI, in a checkout at another path, so the paths its header
// records are written from the place the file lies in whenever they lie
// there too:
//
//	{repo}   the top of the git work tree that holds the regression file
//	         (the directory with .git: a clone, a linked worktree, a submodule)
//	{dir}    the directory that holds the regression file, for a file in no
//	         git work tree
//
// `minimize --save-regression` and `--save-regressions` write a
// structurizer's paths (a cmd spec's path words, a repo spec's DIR, the
// path words of its `# build:` and `# serve:` commands) and the origin's
// graph file that way: `# structurizer: cmd:{repo}/tools/adapter
// --inject swap-arms`; paths elsewhere stay absolute. `regress` reads them
// back against the file's own place, and the replay commands it prints
// name every path under the working directory from there (./tools/adapter),
// so a command copied from a CI log runs in the same place of another
// checkout; check and minimize name a file's recorded structurizer the
// same way.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// The placeholders of a regression header's paths.
const (
	rootRepo = "{repo}"
	rootDir  = "{dir}"
)

// fileRoots are the directories a regression file's placeholders stand
// for, absolute; repo is "" for a file in no git work tree.
type fileRoots struct {
	repo, dir string
}

// rootsOf are the roots of the regression files of dir.
func rootsOf(dir string) (fileRoots, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fileRoots{}, err
	}
	return fileRoots{repo: gitTop(abs), dir: abs}, nil
}

// gitTop is the top of the git work tree dir lies in: the directory at or
// above it that holds a .git (a directory, or the file of a linked
// worktree or a submodule), or "". Where dir lies is where its symbolic
// links lead (a regression directory linked into a project from outside
// lies in the project, one linked out of it in none); the top is named as
// dir names it when that is the same directory.
func gitTop(dir string) string {
	named := gitTopAbove(dir)
	real := resolvedDir(dir)
	if real == dir {
		return named
	}
	top := gitTopAbove(real)
	if named != "" && top != "" && sameDir(named, top) {
		return named
	}
	return top
}

// gitTopAbove is the directory at or above dir, as written, that holds a
// .git, or "".
func gitTopAbove(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// resolvedDir is absolute dir with the symbolic links of its longest
// existing prefix followed (a regression directory not made yet lies
// where its parent does).
func resolvedDir(dir string) string {
	rest := ""
	for d := dir; ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(d) == d {
			return dir
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// rooted is absolute path p written from the placeholder of the root it
// lies in: the git work tree's, else (in none) the file's directory's;
// any other path as it is.
func (r fileRoots) rooted(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	root, name := r.repo, rootRepo
	if root == "" {
		root, name = r.dir, rootDir
	}
	rel, ok := pathWithin(root, p)
	if !ok {
		return p
	}
	if rel == "." {
		return name
	}
	return name + "/" + filepath.ToSlash(rel)
}

// expand is p with its leading placeholder replaced by the root it names;
// the error says that a file in no git work tree names {repo}.
func (r fileRoots) expand(p string) (string, error) {
	for _, ph := range []struct{ name, dir string }{{rootRepo, r.repo}, {rootDir, r.dir}} {
		rest, ok := strings.CutPrefix(p, ph.name)
		if !ok || (rest != "" && rest[0] != '/') {
			continue
		}
		if ph.dir == "" {
			return p, fmt.Errorf("%s stands for the top of the git work tree holding the file, and no .git lies at or above %s", ph.name, r.dir)
		}
		return ph.dir + filepath.FromSlash(rest), nil
	}
	return p, nil
}

// pathWithin is p relative to root when p lies at or below root, compared as
// written and, failing that, with symbolic links followed.
func pathWithin(root, p string) (string, bool) {
	if rel, ok := below(root, p); ok {
		return rel, true
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	realDir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", false
	}
	return below(realRoot, filepath.Join(realDir, filepath.Base(p)))
}

// below is the lexical half of pathWithin.
func below(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// portableSpec is spec (as specField records it) with the paths inside
// the roots written from their placeholders.
func (r fileRoots) portableSpec(spec string) string {
	sp, err := fuzz.ParseSpec(spec)
	if spec == "" || err != nil {
		return spec
	}
	return sp.MapPaths(r.rooted).String()
}

// expandSpec is a recorded spec with its placeholders replaced.
func (r fileRoots) expandSpec(spec string) (string, error) {
	sp, err := fuzz.ParseSpec(spec)
	if spec == "" || err != nil {
		return spec, nil // regress reports a spec that does not parse when it opens it
	}
	var bad error
	sp = sp.MapPaths(func(p string) string {
		e, err := r.expand(p)
		if err != nil && bad == nil {
			bad = err
		}
		return e
	})
	return sp.String(), bad
}

// portableHeader is h as a regression file in dir records it: its
// structurizer's paths inside the file's roots written from their
// placeholders.
func portableHeader(h corpus.Header, dir string) corpus.Header {
	r, err := rootsOf(dir)
	if err != nil {
		return h
	}
	h.Structurizer = r.portableSpec(h.Structurizer)
	r.portableProject(&h)
	return h
}

// portableProject writes the paths of h's build and serve commands that
// lie inside the roots from their placeholders, as portableSpec writes a
// spec's.
func (r fileRoots) portableProject(h *corpus.Header) {
	p := fuzz.Project{Build: h.Build, Serve: h.Serve}.MapPaths(r.rooted)
	h.Build, h.Serve = p.Build, p.Serve
}

// headerProject is the build and serve commands a header records for its
// structurizer (spec, as resolved): fuzz.Project's fields of project for
// a repo spec, none for another or for a nil project.
func headerProject(spec fuzz.Spec, project *fuzz.Project) (build, serve string) {
	if spec.Kind != fuzz.SpecRepo || project == nil {
		return "", ""
	}
	return project.Build, project.Serve
}

// recordedProject is the build and serve commands a regression file
// records for its structurizer, their placeholders replaced from where
// the file lies.
func recordedProject(reg *corpus.Regression) (fuzz.Project, error) {
	p := fuzz.Project{Build: reg.Header.Build, Serve: reg.Header.Serve}
	if p.Build == "" && p.Serve == "" {
		return p, nil
	}
	r, err := rootsOf(filepath.Dir(reg.Path))
	if err != nil {
		return p, err
	}
	var bad error
	p = p.MapPaths(func(path string) string {
		e, err := r.expand(path)
		if err != nil && bad == nil {
			bad = err
		}
		return e
	})
	if bad != nil {
		return p, fmt.Errorf("'# build:' or '# serve:': %w", bad)
	}
	return p, nil
}

// relativeCdNote is a note for a regression whose recorded structurizer
// changes into a directory relative to where it runs (cd tools && ...),
// which a replay from elsewhere (a CI job's checkout top, another
// directory) would not find; "" for none.
func relativeCdNote(spec string) string {
	d := fuzz.RelativeCd(spec)
	if d == "" {
		return ""
	}
	return fmt.Sprintf("note: the recorded structurizer changes into %s, relative to where it runs: a replay from another directory will not find it; name it {repo}/... (the git work tree's top) or by an absolute path", fuzz.PrintableLine(d))
}

// pinnedCommitNote is a note for a regression whose recorded structurizer
// is a commit (a rev: or repo: spec, as a comparison of two commits saves
// the one that failed): regress judges that commit's build, so the file
// fails on every replay until --structurizer names the build to judge (a
// CI job's own), as regress's failed line says (replayer.pinnedNote); ""
// for any other spec.
func pinnedCommitNote(spec string) string {
	sp, err := fuzz.ParseSpec(spec)
	if err != nil || sp.Kind != fuzz.SpecRev && sp.Kind != fuzz.SpecRepo {
		return ""
	}
	return fmt.Sprintf("note: the recorded structurizer is %s, the commit the finding showed on: cfgfuzz regress judges that build and fails while it has the bug; give cfgfuzz regress --structurizer SPEC to judge your build (a CI job's own)", fuzz.PrintableLine(spec))
}

// outsideRepoNote is a note for regression files saved into dir, inside
// a git work tree, whose recorded structurizer (spec, as portableHeader
// writes it) is a command naming programs or files by absolute paths and
// nothing from the work tree's top ({repo}): the files replay only where
// those paths hold the adapter, not in another clone of the work tree
// (the CI job that replays them); "" for none. A command that names
// something inside the work tree ({repo}/adapter.py after /usr/bin/python3)
// gets none: its other paths are the machine's programs.
func outsideRepoNote(spec, dir string) string {
	r, err := rootsOf(dir)
	if err != nil || r.repo == "" {
		return ""
	}
	sp, err := fuzz.ParseSpec(spec)
	if err != nil || sp.Kind != fuzz.SpecCmd {
		return ""
	}
	var abs []string
	inside := false
	sp.MapPaths(func(p string) string {
		switch {
		case strings.HasPrefix(p, rootRepo) || strings.HasPrefix(p, rootDir):
			inside = true
		case filepath.IsAbs(p):
			abs = append(abs, fuzz.PrintableLine(p))
		}
		return p
	})
	if inside || len(abs) == 0 {
		return ""
	}
	what, where := "an absolute path", "that path holds"
	if len(abs) > 1 {
		what, where = "absolute paths", "those paths hold"
	}
	return fmt.Sprintf("note: the recorded structurizer names %s by %s, outside %s, the git work tree the regression files lie in: they replay only where %s the adapter, not in another clone (a CI job's); serve the adapter from inside the work tree (recorded as {repo}/...), or give cfgfuzz regress --structurizer",
		strings.Join(abs, ", "), what, fuzz.PrintableLine(r.repo), where)
}

// markUncommitted adds to h, a regression header about to be written, a
// note when its structurizer is a build of uncommitted changes
// (fuzz.UncommittedTree), and returns the note to print ("" none).
func markUncommitted(h *corpus.Header) string {
	n := fuzz.UncommittedTree(h.Structurizer)
	if n == "" {
		return ""
	}
	h.Notes = append(h.Notes, "uncommitted: "+n)
	return "note: " + n
}

// recordedSpec is the structurizer a regression file records, its
// placeholders replaced from where the file lies.
func recordedSpec(reg *corpus.Regression) (string, error) {
	r, err := rootsOf(filepath.Dir(reg.Path))
	if err != nil {
		return reg.Header.Structurizer, err
	}
	spec, err := r.expandSpec(reg.Header.Structurizer)
	if err != nil {
		return spec, fmt.Errorf("'# structurizer: %s': %w", reg.Header.Structurizer, err)
	}
	return spec, nil
}

// shownSpec is a spec as a replay command printed for the user names it:
// its absolute paths under the working directory from there.
func shownSpec(sp fuzz.Spec) fuzz.Spec {
	return sp.MapPaths(shownPath)
}

// shownPath is p from the working directory when it lies at or below it
// ("./" and the rest), else as it is; from the file system's root, as it
// is.
func shownPath(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil || filepath.Dir(wd) == wd {
		return p
	}
	rel, ok := below(wd, p)
	if !ok {
		return p
	}
	if rel == "." {
		return "."
	}
	return "./" + filepath.ToSlash(rel)
}
