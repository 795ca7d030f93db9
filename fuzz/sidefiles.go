// sidefiles.go: which build of an external structurizer a campaign ran.
// A verdict belongs to one build of the structurizer under test as much
// as to one cfgfuzz (writer.go): a revision spec names its build by the
// commit it resolves to, but a cmd spec names a program that may be
// rebuilt in place between a stop and its resume. So campaign.json records,
// for each cmd side, a digest of the files its command names (the program,
// found on PATH when it names no path, and every other word that reads as
// a path to a file: a script, a model; in a shell's command string too,
// and from the directory of a cd before it, as long as the cd lasts); a
// relative path in a directory the command does not tell is left out,
// and the summary says so (SideFilesNote). --resume refuses a side whose
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
	"slices"
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

// SideFilesNote says which cmd sides of s have a digest (side_files)
// that leaves out a relative path their command names, its directory
// unknown there (after cd $DIR, a call of a function that cds, a case
// with an arm that does: namedFiles), so a rebuild of that file is not
// told apart (each path named once, in order); "" when none.
func SideFilesNote(s *Settings) string {
	var notes []string
	for _, side := range []struct{ name, spec string }{{"current", s.Current}, {"baseline", s.Baseline}} {
		spec, err := ParseSpec(side.spec)
		if err != nil || spec.Kind != SpecCmd {
			continue
		}
		if left := uniq(cmdFiles(spec.Cmd).leftOut); len(left) > 0 {
			notes = append(notes, fmt.Sprintf("the %s structurizer's build digest (side_files) leaves out the relative paths its command names in a directory it does not name (after cd $DIR, cd ~, popd +N, a call of a function that changes directory, or a case with an arm that does), and the paths in a here-document no delimiter line ends (its data, or commands after a mistyped delimiter): %s; a rebuild of those files is not told apart by --resume, merge or a state's night (name them by absolute paths to have them covered)",
				side.name, strings.Join(left, ", ")))
		}
	}
	return strings.Join(notes, "; ")
}

// uniq is words with each word kept at its first place only.
func uniq(words []string) []string {
	var out []string
	for _, w := range words {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// isPath says whether the word w reads as a path (pathOfWord).
func isPath(w string) bool {
	_, ok := pathOfWord(w)
	return ok
}

// namedFiles are the paths the shell command cmd names, in the order of
// its words: its program (its first word past variable assignments,
// cut at a character that ends a command: make;./x)
// through PATH (exec.LookPath) when it is a bare name, and each word that
// reads as a path (pathOfWord), those of the command string of a shell it
// runs too (sh -c './adapter --model m.bin'). A newline ends a command
// as ; does (not one after &&, || or |, which the command goes on past).
// The lines of a here-document's body (cat <<EOF ... EOF) are data, no
// command, and no path in them is read: commands a program reads from
// there (sh <<EOF) are not followed. A comment (# ...) is not told
// apart: its words are read as the command's. A relative path after a cd
// (one eachCd counts) is read from the cd's directory (sh -c 'cd tools &&
// ./adapter': tools/adapter), one after env -C DIR from DIR for the rest
// of env's command, and one after a popd from the directory its pushd
// left. A cd lasts as long as the shell that runs it: not past the ) of
// a subshell ((cd x && make) && ./adapter), nor past the end of a
// pipeline it is part of (cd x | ./y), nor past the & that runs its list
// in the background (cd x & ./adapter). Each arm of a case ... esac is
// read from the directory the case started in, its patterns are no
// command and name no file (the ) that ends one closes no subshell),
// and after the esac the directory is unknown when an arm changed it.
// The words of a function's body are read from the directory it is
// defined in, and a call of a function whose body changes directory
// leaves the directory unknown.
// A relative path in an unknown directory (after cd, cd ~, cd $DIR,
// popd +1, such a call or case) is left out; leftOut names those.
func namedFiles(cmd string) []string {
	return cmdFiles(cmd).paths
}

// namedWords is what namedFiles reads of a command: the paths, and the
// words naming a relative path it left out, their directory unknown.
type namedWords struct {
	paths, leftOut []string
}

// cmdFiles is namedWords of the shell command cmd (namedFiles).
func cmdFiles(cmd string) namedWords {
	var n namedWords
	words := controlWords(cmd)
	for _, w := range words {
		if w.op == 0 && isAssignment(w.text) {
			continue
		}
		if w.op == 0 && !isPath(w.text) {
			if p, err := exec.LookPath(w.text); err == nil {
				n.paths = append(n.paths, p)
			}
		}
		break
	}
	pathsIn(words, wordsDir{}, &n)
	n.leftOut = append(n.leftOut, unendedHereDocPaths(cmd)...)
	return n
}

// shellDirs is where the commands of a shell run, as pathsIn follows
// them: the directory of the next command, pushd's stack below it, and
// the directories a background list and a pipeline started in, to which
// their ends return.
type shellDirs struct {
	in        wordsDir
	pushed    []wordsDir // pushd's stack below in, its top last
	stackLost bool       // a pushd or popd the stack is not followed through
	listAt    wordsDir   // the directory the current list (up to ; or &) started in
	pipeAt    wordsDir   // the directory the current pipeline started in
	piped     bool       // the current pipeline has a |
}

// group is a ( or {, or a case ... esac, that pathsIn has not seen
// closed: the shellDirs at its start, whether it is a subshell, the
// function it is the body of ("" for none), and for a case what of it
// the words are in.
type group struct {
	at       shellDirs
	subshell bool
	fn       string
	arms     *caseArms // nil for a ( or {
}

// caseArms is what pathsIn has read of a case ... esac: which of its
// parts the next word is in, and whether an arm ended in another
// directory than the case started in.
type caseArms struct {
	part    casePart
	changed bool
}

// casePart is a part of a case ... esac.
type casePart uint8

const (
	caseSubject casePart = iota // the word the case tests, up to its in
	casePattern                 // an arm's patterns, up to their ): (q|r)
	caseBody                    // an arm's commands, up to its ;; or the esac
)

// topCase is the innermost open group when it is a case, else nil.
func topCase(groups []group) *group {
	if len(groups) > 0 && groups[len(groups)-1].arms != nil {
		return &groups[len(groups)-1]
	}
	return nil
}

// startArm makes d the shellDirs an arm of a case starts in: from's
// directory and stack, a list and a pipeline of its own.
func (d *shellDirs) startArm(from shellDirs) {
	d.in, d.pushed, d.stackLost = from.in, from.pushed, from.stackLost
	d.listAt, d.pipeAt, d.piped = d.in, d.in, false
}

// endArm ends the arm of the case c whose commands d ran, at the
// operator op that ends it (;;, ;& or ;;&), and starts the next: ;;
// starts it where the case started, while ;& (which runs the next arm's
// commands too) and ;;& (which tests its patterns) start it in the
// directory the arm ended in or the case started in, unknown when the
// two differ.
func (d *shellDirs) endArm(c *group, op string) {
	if d.piped {
		d.in = d.pipeAt
	}
	if !d.same(c.at) {
		c.arms.changed = true
		if op != ";;" {
			d.lose()
			d.listAt, d.pipeAt, d.piped = d.in, d.in, false
			c.arms.part = casePattern
			return
		}
	}
	d.startArm(c.at)
	c.arms.part = casePattern
}

// endCase is d after the esac of the case c, its last arm's commands
// ended: where the case started when no arm changed directory, else
// unknown (which arm runs depends on the word it tests).
func (d *shellDirs) endCase(c group) {
	if d.piped {
		d.in = d.pipeAt
	}
	if c.arms.changed || !d.same(c.at) {
		d.lose()
	} else {
		d.in, d.pushed, d.stackLost = c.at.in, c.at.pushed, c.at.stackLost
	}
	d.listAt, d.pipeAt, d.piped = c.at.listAt, c.at.pipeAt, c.at.piped
}

// same says whether d and e run the next command in the same directory
// with the same stack.
func (d shellDirs) same(e shellDirs) bool {
	return d.in == e.in && d.stackLost == e.stackLost && slices.Equal(d.pushed, e.pushed)
}

// lose is d after a command that changes the directory and the stack
// in a way the command does not tell (a call of a function that cds).
func (d *shellDirs) lose() {
	d.in, d.pushed, d.stackLost = wordsDir{lost: true}, nil, true
}

// controlOp is the operator the control word words[i] opens (";", "&",
// "|", "&&", "||", "(", ")", ...), and how many words it takes: two for
// && and ||, and for |& (a pipe of stderr too) and ;; and ;& (which end
// a case's arm), three for ;;& (which ends one too).
func controlOp(words []controlWord, i int) (string, int) {
	next := func(k int) byte { // the operator right after words[k]
		if k+1 < len(words) && words[k+1].op != 0 && words[k+1].at == words[k].at+1 {
			return words[k+1].op
		}
		return 0
	}
	switch c, n := words[i].op, next(i); {
	case c == ';' && n == ';' && next(i+1) == '&':
		return ";;&", 3
	case c == n && (c == '&' || c == '|' || c == ';'), c == ';' && n == '&':
		return string([]byte{c, n}), 2
	case c == '|' && n == '&':
		return "|", 2
	}
	return string(words[i].op), 1
}

// pathsIn appends to n the paths that words name (namedFiles), words
// that run in the directory in.
func pathsIn(words []controlWord, in wordsDir, n *namedWords) {
	ww := &wordWalk{words: words, n: n, d: shellDirs{in: in, listAt: in, pipeAt: in}, here: in, program: true, script: -1}
	for i := 0; i < len(words); i++ {
		switch {
		case i == ww.script:
			text := shellUnquote(words[i].text)
			pathsIn(controlWords(text), ww.here, n)
			n.leftOut = append(n.leftOut, unendedHereDocPaths(text)...)
		case ww.caseHead(i):
		case words[i].op != 0:
			i = ww.operator(i)
		default:
			i = ww.word(i)
		}
	}
}

// wordWalk is pathsIn's walk over a command's words: where the commands
// run (d), the groups open, the function whose body opens next and the
// functions whose body changes directory, the directory of the command
// the word at hand is part of (here: d.in, or its env -C DIR), whether
// that word may be a command's program, and the index of the command
// string of a shell the words run.
type wordWalk struct {
	words   []controlWord
	n       *namedWords
	d       shellDirs
	groups  []group
	fn      string
	cds     map[string]bool
	here    wordsDir
	program bool
	script  int
}

// caseHead reads words[i] when it is a case's word or one of its
// patterns: no command, and a pattern's parentheses and | no group nor
// pipe. It reports whether it was.
func (ww *wordWalk) caseHead(i int) bool {
	c := topCase(ww.groups)
	if c == nil || c.arms.part == caseBody {
		return false
	}
	w := ww.words[i]
	switch {
	case c.arms.part == caseSubject && w.text == "in":
		c.arms.part = casePattern
	case c.arms.part == casePattern && w.op == ')':
		c.arms.part = caseBody
		ww.program, ww.here = true, ww.d.in
	case c.arms.part == casePattern && w.text == "esac":
		ww.d.endCase(*c)
		ww.groups = ww.groups[:len(ww.groups)-1]
	}
	return true
}

// operator reads the characters that join or group commands starting at
// words[i], returning the index of their last.
func (ww *wordWalk) operator(i int) int {
	op, k := controlOp(ww.words, i)
	i += k - 1
	d := &ww.d
	if c := topCase(ww.groups); c != nil && (op == ";;" || op == ";&" || op == ";;&") {
		d.endArm(c, op)
		return i
	}
	if op == "\n" && i > 0 && ww.words[i-1].op != 0 && ww.words[i-1].op != ')' {
		return i // a newline after && or |, ( or ;: the command goes on
	}
	switch op {
	case "(":
		ww.groups = append(ww.groups, group{at: *d, subshell: true, fn: ww.fn})
		ww.fn, d.listAt, d.pipeAt, d.piped = "", d.in, d.in, false
	case ")":
		if g, ok := closeGroup(&ww.groups, true); ok {
			*d = g.at // a subshell's cds end with it
		}
	case "|":
		d.in, d.piped = d.pipeAt, true // each command of a pipeline is a subshell's
	case "&":
		d.in = d.listAt // a background list runs in a subshell
		d.pipeAt, d.piped = d.in, false
	case "&&", "||", ";", "\n", ";;", ";&", ";;&":
		if d.piped {
			d.in = d.pipeAt
		}
		d.pipeAt, d.piped = d.in, false
		if op != "&&" && op != "||" {
			d.listAt = d.in
		}
	}
	ww.program, ww.here = true, d.in
	return i
}

// word reads the word words[i]: a path it names, and when it may be a
// command's program, a group's brace, a case's start or end, a
// function's definition, a wrapper's words or a command, returning the
// index of the last word it read.
func (ww *wordWalk) word(i int) int {
	w := ww.words[i].text
	ww.here.path(w, ww.n)
	if !ww.program || ww.keyword(w) {
		return i
	}
	if name, k := functionName(ww.words, i); k > 0 {
		ww.fn = name
		return i + k - 1 // its body comes next
	}
	if r := wrapperWords(ww.words[i:]); r.n > 0 {
		for k := i + 1; k < i+r.n; k++ {
			ww.here.path(ww.words[k].text, ww.n)
		}
		if r.chdirSet {
			ww.here = ww.here.cd(r.chdir)
		}
		ww.program = !r.noRun
		return i + r.n - 1 // the wrapped command's program comes next
	}
	ww.program = false
	if ww.cds[w] {
		ww.d.lose()
		return i
	}
	if k, ok := shellScript(ww.words[i:]); ok {
		ww.script = i + k
	}
	ww.d.changeDir(ww.words, i)
	return i
}

// keyword reads w, a word where a command's program may stand, when it
// is a group's brace, a case's start or end, an assignment or a shell
// keyword, and reports whether it was.
func (ww *wordWalk) keyword(w string) bool {
	d := &ww.d
	switch {
	case w == "{":
		ww.groups = append(ww.groups, group{at: *d, fn: ww.fn})
		ww.fn, d.listAt, d.pipeAt, d.piped = "", d.in, d.in, false
	case w == "}":
		if g, ok := closeGroup(&ww.groups, false); ok {
			if g.fn != "" { // a body runs when called, not here
				if !d.same(g.at) {
					ww.cds = set(ww.cds, g.fn)
				}
				d.in, d.pushed, d.stackLost = g.at.in, g.at.pushed, g.at.stackLost
			}
			d.listAt, d.pipeAt, d.piped = g.at.listAt, g.at.pipeAt, g.at.piped
		}
	case w == "case":
		ww.groups = append(ww.groups, group{at: *d, arms: &caseArms{}})
		d.listAt, d.pipeAt, d.piped = d.in, d.in, false
	case w == "esac" && topCase(ww.groups) != nil:
		d.endCase(*topCase(ww.groups))
		ww.groups = ww.groups[:len(ww.groups)-1]
		ww.program = false
	case isAssignment(w) || shellKeywords[w]:
	default:
		return false
	}
	return true
}

// changeDir follows the directory change of the command whose program
// is words[i] (a cd, pushd or popd; dirChange): the next command's
// directory, and pushd's stack. The cd's own words are read from the
// directory before it.
func (d *shellDirs) changeDir(words []controlWord, i int) {
	switch words[i].text {
	case "popd":
		switch w := nextWord(words, i); {
		case w == "-n": // the stack loses an entry, the directory stays
			d.stackLost = true
		case w != "" && (w[0] == '+' || w[0] == '-'):
			d.lose() // popd +N: which entry goes depends on the stack
		case d.stackLost:
			d.in = wordsDir{lost: true}
		case len(d.pushed) > 0:
			d.in, d.pushed = d.pushed[len(d.pushed)-1], d.pushed[:len(d.pushed)-1]
		} // popd of an empty stack fails, and stays
		return
	case "pushd":
		if _, ok := dirChange(words, i); !ok { // pushd -n DIR
			d.stackLost = true
			return
		}
	}
	dir, ok := dirChange(words, i)
	if !ok {
		return
	}
	to := ""
	if dir >= 0 {
		to = words[dir].text
	}
	if words[i].text == "pushd" {
		if dir < 0 { // pushd alone, pushd +N: the stack turns
			d.stackLost = true
		}
		d.pushed = append(slices.Clip(d.pushed), d.in)
	}
	d.in = d.in.cd(to)
}

// nextWord is the word after words[i] in its command, "" for none.
func nextWord(words []controlWord, i int) string {
	if i+1 < len(words) && words[i+1].op == 0 {
		return words[i+1].text
	}
	return ""
}

// closeGroup takes the innermost open group off groups, a subshell's
// when subshell says the closing character is a ), a brace group's when
// it is a }, and any case opened inside it: false when none is open.
func closeGroup(groups *[]group, subshell bool) (group, bool) {
	for k := len(*groups) - 1; k >= 0; k-- {
		if g := (*groups)[k]; g.subshell == subshell && g.arms == nil {
			*groups = (*groups)[:k]
			return g, true
		}
	}
	return group{}, false
}

// functionName is the name of the function whose definition words[i]
// opens (NAME () or function NAME [()]), and how many words its head
// takes before its body; 0 when it opens none.
func functionName(words []controlWord, i int) (string, int) {
	parens := func(k int) bool {
		return k+1 < len(words) && words[k].op == '(' && words[k+1].op == ')'
	}
	switch {
	case words[i].text == "function" && nextWord(words, i) != "":
		if parens(i + 2) {
			return words[i+1].text, 4
		}
		return words[i+1].text, 2
	case parens(i + 1):
		return words[i].text, 3
	}
	return "", 0
}

// set is m with key set, made when nil.
func set(m map[string]bool, key string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[key] = true
	return m
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

// path appends to n the path the word w names, read from d: to its
// leftOut when it is relative and d is lost.
func (d wordsDir) path(w string, n *namedWords) {
	p, ok := pathOfWord(w)
	switch {
	case !ok:
	case filepath.IsAbs(p):
		n.paths = append(n.paths, p)
	case d.lost:
		n.leftOut = append(n.leftOut, p)
	default:
		n.paths = append(n.paths, filepath.Join(d.dir, p))
	}
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
