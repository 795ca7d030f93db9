// sidefiles.go: which build of an external structurizer a campaign ran.
// A verdict belongs to one build of the structurizer under test as much
// as to one cfgfuzz (writer.go): a revision spec names its build by the
// commit it resolves to, but a cmd spec names a program that may be
// rebuilt in place between a stop and its resume. So campaign.json records,
// for each cmd side, a digest of the files its command names (the program,
// found on PATH when it names no path, and every other word that reads as
// a path to a file: a script, a model; in a shell's command string too,
// and from the directory of a cd before it); --resume refuses a side whose
// digest changed, and merge shards whose digests differ (writer.go: a
// mixed merge). A file the program reads without naming it on the
// command line (a library, a module a script imports) is not covered.

package fuzz

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// SideFiles is the digest of the files each cmd side's command names
// (sideFilesDigest), by side; a side that is no cmd spec, or names no
// file, is absent.
type SideFiles struct {
	Current  string `json:"current,omitempty"`
	Baseline string `json:"baseline,omitempty"`
}

// String names the digests: "current sha256:X, baseline sha256:Y", a
// side without one as "none recorded".
func (f SideFiles) String() string {
	or := func(d string) string {
		if d == "" {
			return "none recorded"
		}
		return d
	}
	if f.Baseline == "" {
		return "current " + or(f.Current)
	}
	return "current " + or(f.Current) + ", baseline " + f.Baseline
}

// sideFilesOf is the digests of s's sides.
func sideFilesOf(s *Settings) SideFiles {
	return SideFiles{Current: sideFilesDigest(s.Current), Baseline: sideFilesDigest(s.Baseline)}
}

// sideFilesDigest is "sha256:" and 16 hex digits of the files the cmd spec
// desc names (namedFiles), each by its path and content. "" for another
// spec, or when no word names a file that can be read.
func sideFilesDigest(desc string) string {
	spec, err := ParseSpec(desc)
	if err != nil || spec.Kind != SpecCmd {
		return ""
	}
	h := sha256.New()
	n := 0
	for _, path := range namedFiles(spec.Cmd) {
		if hashFile(h, path) == nil {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// isPath says whether the word w reads as a path (pathOfWord).
func isPath(w string) bool {
	_, ok := pathOfWord(w)
	return ok
}

// namedFiles are the paths the shell command cmd names, in the order of
// its words: its program (its first word past variable assignments)
// through PATH (exec.LookPath) when it is a bare name, and each word that
// reads as a path (pathOfWord), those of the command string of a shell it
// runs too (sh -c './adapter --model m.bin'). A relative path after a cd
// (one eachCd counts) is read from the cd's directory (sh -c 'cd tools &&
// ./adapter': tools/adapter), one after env -C DIR from DIR for the rest
// of env's command, and one after a cd to a directory not known from the
// command (cd, cd ~, cd $DIR) is left out.
func namedFiles(cmd string) []string {
	var paths []string
	if words := commandWords(cmd); len(words) > 0 {
		if w := cmd[words[0][0]:words[0][1]]; !isPath(w) {
			if p, err := exec.LookPath(w); err == nil {
				paths = append(paths, p)
			}
		}
	}
	return pathsIn(controlWords(cmd), wordsDir{}, paths)
}

// pathsIn is paths with the paths that words name (namedFiles) appended,
// words that run in the directory in.
func pathsIn(words []controlWord, in wordsDir, paths []string) []string {
	here := in      // the directory of the command words[i] is part of: in, or its env -C DIR
	program := true // words[i] may be a command's program
	script := -1    // the index of the command string of a shell that words run
	for i := 0; i < len(words); i++ {
		w := words[i].text
		if i == script {
			paths = pathsIn(controlWords(shellUnquote(w)), here, paths)
			continue
		}
		paths = here.path(w, paths)
		switch {
		case w == "": // a character that joins or groups commands
			program, here = true, in
			continue
		case !program || isAssignment(w) || shellKeywords[w]:
			continue
		}
		if r := wrapperWords(words[i:]); r.n > 0 {
			for k := i + 1; k < i+r.n; k++ {
				paths = here.path(words[k].text, paths)
			}
			if r.chdirSet {
				here = here.cd(r.chdir)
			}
			i += r.n - 1 // the wrapped command's program comes next
			program = !r.noRun
			continue
		}
		program = false
		if k, ok := shellScript(words[i:]); ok {
			script = i + k
		}
		if d, ok := dirChange(words, i); ok {
			to := ""
			if d >= 0 {
				to = words[d].text
			}
			in = in.cd(to) // the next command's: the cd's own words are read from here
		}
	}
	return paths
}

// wordsDir is the directory a command's words run in, as far as the
// command tells: a path relative to the working directory ("" for it) or
// absolute; lost after a cd to a directory the command does not name
// (cd, cd ~, cd $DIR).
type wordsDir struct {
	dir  string
	lost bool
}

// cd is the directory a cd to the word to (as written; "" for none)
// changes d to.
func (d wordsDir) cd(to string) wordsDir {
	if rel, ok := relativeDir(to); ok {
		return wordsDir{dir: filepath.Join(d.dir, rel), lost: d.lost}
	}
	if abs := cdTarget(to); strings.HasPrefix(abs, "/") {
		return wordsDir{dir: abs}
	}
	return wordsDir{lost: true}
}

// path is paths with the path the word w names appended, read from d;
// paths as they are when w names none, or a relative one in a lost
// directory.
func (d wordsDir) path(w string, paths []string) []string {
	p, ok := pathOfWord(w)
	switch {
	case !ok:
		return paths
	case filepath.IsAbs(p):
		return append(paths, p)
	case d.lost:
		return paths
	}
	return append(paths, filepath.Join(d.dir, p))
}

// hashFile writes path (absolute) and the regular file's content to h.
func hashFile(h io.Writer, path string) error {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	c := sha256.New()
	if _, err := io.Copy(c, f); err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%x\n", path, c.Sum(nil))
	return nil
}

// SideFilesMismatch is --resume's refusal of a cmd side whose files
// changed since the campaign started, and a merge's of the minimizer on
// a side whose files differ from those the shards ran (Merge).
type SideFilesMismatch struct {
	Dir, Side, Spec string
	Then, Now       string // digests; Now "" when the files cannot be read
	Merge           bool
}

func (e *SideFilesMismatch) Error() string {
	now := e.Now
	if now == "" {
		now = "none (the files it names cannot be read)"
	}
	if e.Merge {
		return fmt.Sprintf("the %s structurizer %s here is not the build the shards ran (%s): the files its command names were %s there, %s here; the merge minimizes the new findings with it, so give it the shards' build",
			e.Side, strings.TrimPrefix(e.Spec, "cmd:"), e.Dir, e.Then, now)
	}
	return fmt.Sprintf("the %s structurizer %s is not the build %s started with: the files its command names were %s, now %s (rebuilt since?); a campaign's verdicts come from one build: resume it with that build, or start again with this one (--force, or another --out)",
		e.Side, strings.TrimPrefix(e.Spec, "cmd:"), e.Dir, e.Then, now)
}

// CheckShardSideFiles refuses to minimize a merge of the shard in dir
// with sides whose files differ from those the shard ran (a
// SideFilesMismatch for a merge): a finding the shards' build showed may
// not show on another.
func CheckShardSideFiles(dir string) error {
	s, err := LoadSettings(dir)
	if err != nil {
		return err
	}
	err = checkSideFiles(dir, &s, recordedSideFiles(dir))
	if m, ok := err.(*SideFilesMismatch); ok {
		m.Merge = true
	}
	return err
}

// checkSideFiles refuses, for a resume of the campaign in dir that
// recorded was written with, a side whose files changed.
func checkSideFiles(dir string, s *Settings, recorded SideFiles) error {
	now := sideFilesOf(s)
	for _, c := range []struct{ side, spec, then, now string }{
		{"current", s.Current, recorded.Current, now.Current},
		{"baseline", s.Baseline, recorded.Baseline, now.Baseline},
	} {
		if c.then != "" && c.then != c.now {
			return &SideFilesMismatch{Dir: dir, Side: c.side, Spec: c.spec, Then: c.then, Now: c.now}
		}
	}
	return nil
}
