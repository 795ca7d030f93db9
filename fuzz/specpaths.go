// specpaths.go: the paths a spec names, rewritten. A file that records a
// spec (a regression file's `# structurizer:`) and travels to another
// checkout writes the paths that lie inside it from a placeholder, and a
// replay command printed for the user names them from the working
// directory; both go through MapPaths, which finds the paths of a spec the
// way Resolve makes them absolute (absoluteWords). Its word splitter
// (shellWords) is written here rather than taken from a library: MapPaths
// needs each word's span in the command, to replace a path and keep every
// other byte as the user wrote it; google/shlex gives the words' values
// only, and mvdan.cc/sh, which gives positions, parses whole shell
// programs, a large dependency for a loop of thirty lines.

package fuzz

import "strings"

// MapPaths is the spec with each path it names replaced by f's answer: a
// cmd spec's words that read as paths (plain path characters and a slash,
// a {placeholder} alone or leading such a path; or a path quoted whole, '/my
// proj/adapter', as Resolve records one a shell would split) and a repo
// spec's DIR. A cmd word f answers with characters a shell would read
// otherwise is shell-quoted, and an answer of plain path characters goes
// unquoted whatever the word was. Other specs come back as they are.
func (s Spec) MapPaths(f func(path string) string) Spec {
	switch s.Kind {
	case SpecCmd:
		s.Cmd = mapCommandPaths(s.Cmd, f)
	case SpecRepo:
		s.Repo = f(s.Repo)
	}
	return s
}

// mapCommandPaths is the shell command cmd with each word that is a
// path (pathOfWord) replaced by f's path, quoted, where f changes it.
func mapCommandPaths(cmd string, f func(path string) string) string {
	var b strings.Builder
	last := 0
	for _, w := range shellWords(cmd) {
		word := cmd[w[0]:w[1]]
		path, ok := pathOfWord(word)
		if !ok {
			continue
		}
		if p := f(path); p != path {
			b.WriteString(cmd[last:w[0]])
			b.WriteString(quotedPath(p))
			last = w[1]
		}
	}
	b.WriteString(cmd[last:])
	return b.String()
}

// shellScan calls f with the index of each byte of cmd and whether a
// shell reads it as syntax: outside quotes ('...', "...") and no
// backslash's character. A quote's own marks are syntax; an unclosed
// quote runs to the end.
func shellScan(cmd string, f func(i int, syntax bool)) {
	quote := byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(cmd) {
				f(i, false)
				i++
			} else if c == quote {
				quote = 0
				f(i, true)
				continue
			}
			f(i, false)
		case c == '\\':
			f(i, true)
			if i+1 < len(cmd) {
				i++
				f(i, false)
			}
		default:
			if c == '\'' || c == '"' {
				quote = c
			}
			f(i, true)
		}
	}
}

// shellWords are the spans [start, end) of cmd's words: runs of characters
// up to a space a shell reads as syntax (shellScan).
func shellWords(cmd string) [][2]int {
	var words [][2]int
	start := -1
	shellScan(cmd, func(i int, syntax bool) {
		switch {
		case syntax && cmd[i] == ' ':
			if start >= 0 {
				words = append(words, [2]int{start, i})
				start = -1
			}
		case start < 0:
			start = i
		}
	})
	if start >= 0 {
		words = append(words, [2]int{start, len(cmd)})
	}
	return words
}

// commandWords is shellWords(cmd) past its leading variable assignments
// (NAME=value words, which a shell puts into the program's environment):
// the program, then its arguments.
func commandWords(cmd string) [][2]int {
	words := shellWords(cmd)
	for len(words) > 0 && isAssignment(cmd[words[0][0]:words[0][1]]) {
		words = words[1:]
	}
	return words
}

// RelativeCd is the directory of the first `cd DIR` of spec's command
// that names DIR relative to where the command runs (not absolute, nor
// {repo}/... or {dir}/... of a regression file), or "" when it has none or
// spec is no cmd spec. Only a cd that is a command counts: the first word
// of a command (after its assignments, and after a program that runs the
// rest of its words as a command, read past its options and operands as
// the program reads them: env -u NAME, nice --adjustment 5, timeout
// --signal KILL 5, exec, ...; commandWrappers), never an argument of
// another program (./adapter cd tools) nor of one whose options make it
// run none (command -v cd). A pushd DIR (bash's; not pushd -n, which
// changes no directory) and an env -C DIR (--chdir DIR) count as a cd
// DIR. A cd in the command string of a shell the command runs (sh -c
// 'cd tools && ./adapter', bash, dash, zsh, ksh, mksh; env bash -c
// "...", timeout 5 sh -c "..."; shellOptions) counts too. A spec that changes into such a directory runs as
// written from the working directory of each run: a regression file
// recording it replays right only from the place it was saved in.
func RelativeCd(spec string) string {
	sp, err := ParseSpec(spec)
	if err != nil || sp.Kind != SpecCmd {
		return ""
	}
	return relativeCdIn(sp.Cmd)
}

// relativeCdIn is RelativeCd of the shell command cmd.
func relativeCdIn(cmd string) string {
	found := ""
	eachCd(cmd, func(c cdAt) bool {
		if d, ok := relativeDir(c.dirText); ok {
			found = d
			return false
		}
		return true
	})
	return found
}

// cdAt is one cd of a shell command that is a command (eachCd): a cd, or
// a command wrapper's option that runs its command in a directory (env
// -C DIR).
type cdAt struct {
	words []controlWord // the words it lies among
	i     int           // its word's index there: the cd's, or the wrapper's
	// dir is the index in words of its directory's word, -1 for none (cd
	// && ...: to the home directory) or one attached to its option
	// (--chdir=DIR); dirText is the directory as written, "" for none.
	dir     int
	dirText string
	// script is the offset in the command of the shell's command string
	// that holds it (sh -c '...'), -1 for a cd of the command's own.
	script int
}

// eachCd calls f, in order, with each cd of the shell command cmd that is
// a command (RelativeCd says which count), among the controlWords of cmd
// or of the command string of a shell cmd runs. It stops when f answers
// false.
func eachCd(cmd string, f func(cdAt) bool) {
	eachCdIn(controlWords(cmd), -1, f)
}

// eachCdIn is eachCd over words, script the offset of the command string
// they are the words of (-1: cmd's own); false when f stopped it.
func eachCdIn(words []controlWord, script int, f func(cdAt) bool) bool {
	program := true // words[i] may be a command's program
	for i := 0; i < len(words); i++ {
		w := words[i].text
		switch {
		case w == "": // a character that joins or groups commands
			program = true
			continue
		case !program:
			continue
		case isAssignment(w) || shellKeywords[w]:
			continue
		}
		if r := wrapperWords(words[i:]); r.n > 0 {
			if r.chdirSet {
				dir := -1
				if r.chdirWord > 0 {
					dir = i + r.chdirWord
				}
				if !f(cdAt{words: words, i: i, dir: dir, dirText: r.chdir, script: script}) {
					return false // env -C tools ./adapter
				}
			}
			i += r.n - 1 // the wrapped command's program comes next
			program = !r.noRun
			continue
		}
		program = false
		if k, ok := shellScript(words[i:]); ok {
			at := script
			if at < 0 {
				at = words[i+k].at
			}
			if !eachCdIn(controlWords(shellUnquote(words[i+k].text)), at, f) {
				return false
			}
		}
		dir, ok := dirChange(words, i)
		if !ok {
			continue
		}
		c := cdAt{words: words, i: i, dir: dir, script: script}
		if c.dir >= 0 {
			c.dirText = words[c.dir].text
		}
		if !f(c) {
			return false
		}
	}
	return true
}

// dirChange is whether words[i], a command's program, changes the
// directory the commands after it run in (cd, bash's pushd), and the
// index in words of the directory's word, -1 for none the command names
// (cd alone: to the home directory; pushd alone, pushd +N: a directory
// of pushd's stack).
func dirChange(words []controlWord, i int) (dir int, ok bool) {
	switch words[i].text {
	case "cd":
		return cdDirWord(words, i), true
	case "pushd":
		return pushdDirWord(words, i)
	}
	return -1, false
}

// pushdDirWord is dirChange of the pushd at words[i], read as bash reads
// pushd [-n] [+N | -N | DIR]: -n pushes DIR on the stack and changes no
// directory, -- ends the options, a lone - is the previous directory, +N
// and -N are a directory of the stack, and another option fails pushd.
func pushdDirWord(words []controlWord, i int) (dir int, ok bool) {
	changes := true
	for k := i + 1; k < len(words) && words[k].text != ""; k++ {
		switch w := words[k].text; {
		case w == "-n":
			changes = false
		case w == "--":
			if k+1 < len(words) && words[k+1].text != "" {
				return k + 1, changes
			}
			return -1, changes
		case w == "-":
			return -1, changes
		case w[0] == '+' || w[0] == '-':
			return -1, changes && strings.Trim(w[1:], "0123456789") == "" && len(w) > 1
		default:
			return k, changes
		}
	}
	return -1, changes
}

// cdDirWord is the index in words of the directory of the cd at words[i]:
// its first word that is no option (cd -P tools), or -1 when it has none
// (cd && ...: to the home directory).
func cdDirWord(words []controlWord, i int) int {
	for k := i + 1; k < len(words); k++ {
		switch dir := words[k].text; {
		case dir == "":
			return -1
		case strings.HasPrefix(dir, "-"): // cd -P, cd -L
			continue
		}
		return k
	}
	return -1
}

// relativeDir is the directory of the word dir, as written in a command,
// and whether it is relative to where the command runs: not absolute,
// {repo}/... or {dir}/..., nor ~ or a variable's.
func relativeDir(dir string) (string, bool) {
	dir = cdTarget(dir)
	if dir == "" || strings.HasPrefix(dir, "/") || strings.HasPrefix(dir, "{repo}") || strings.HasPrefix(dir, "{dir}") || strings.HasPrefix(dir, "~") || strings.HasPrefix(dir, "$") {
		return "", false
	}
	return dir, true
}

// cdTarget is the directory of a cd's word dir, as written in a command,
// without the quotes around it.
func cdTarget(dir string) string {
	if p, ok := pathOfWord(dir); ok {
		return p // quoted whole
	}
	return strings.Trim(dir, `'"`)
}

// shellKeywords are the words a shell reads before a command's program
// (if cd tools; then ...; ! cd x; time cd x).
var shellKeywords = map[string]bool{"!": true, "{": true, "if": true, "then": true, "else": true, "elif": true, "while": true, "until": true, "do": true, "time": true}

// commandWrapper is a program that runs the rest of its words as a
// command: its options, then operands words of its own (timeout's
// duration), then the command. Options are read as the program's getopt
// reads them: up to the first word that is none, -- ending them; short
// ones clustered (-iu NAME), a value attached (-n5, --signal=KILL) or the
// next word (-n 5, --signal KILL), a long one by any unambiguous prefix
// of its name (--sig KILL).
type commandWrapper struct {
	options  map[string]wrapperOption // by letter (short) or name (long)
	operands int
}

// wrapperOption is what one option of a command wrapper does.
type wrapperOption uint8

const (
	optFlag  wrapperOption = iota // takes no value
	optValue                      // takes a value
	optNoRun                      // the program runs no command (command -v, ionice -p PID, --help)
	optChdir                      // takes a directory the command runs in (env -C DIR)
)

// wrapperOptions is the option table of a spec of words: a letter or a
// long name each, ":" after one that takes a value, "!" after one with
// which the program runs no command, "@" after one whose value is the
// directory the command runs in; "-" a lone "-" read as an option.
func wrapperOptions(spec string) map[string]wrapperOption {
	m := map[string]wrapperOption{}
	for _, o := range strings.Fields(spec) {
		k := optFlag
		switch o[len(o)-1] {
		case ':':
			k = optValue
		case '!':
			k = optNoRun
		case '@':
			k = optChdir
		}
		if k != optFlag {
			o = o[:len(o)-1]
		}
		m[o] = k
	}
	return m
}

// commandWrappers are the programs wrapperWords reads through, by name
// (any directory: /usr/bin/env too), with their options (GNU coreutils',
// util-linux's and the shell's builtins').
var commandWrappers = map[string]commandWrapper{
	"exec":    {options: wrapperOptions("a: c l")},
	"command": {options: wrapperOptions("p v! V!")},
	"env": {options: wrapperOptions("- i 0 v u: C@ S: a: ignore-environment null debug unset: chdir@ split-string: argv0: " +
		"block-signal default-signal ignore-signal list-signal-handling help! version!")},
	"nice":    {options: wrapperOptions("n: adjustment: help! version!")},
	"nohup":   {options: wrapperOptions("help! version!")},
	"setsid":  {options: wrapperOptions("c f w h! V! ctty fork wait help! version!")},
	"stdbuf":  {options: wrapperOptions("i: o: e: input: output: error: help! version!")},
	"timeout": {options: wrapperOptions("k: s: f p v kill-after: signal: foreground preserve-status verbose help! version!"), operands: 1},
	"ionice":  {options: wrapperOptions("c: n: t p! P! u! h! V! class: classdata: ignore pid! pgid! uid! help! version!")},
	"chrt": {options: wrapperOptions("a b d f i o r R v T: P: D: p! m! h! V! all-tasks batch deadline fifo idle other rr " +
		"reset-on-fork verbose sched-runtime: sched-period: sched-deadline: pid! max! help! version!"), operands: 1},
	"taskset": {options: wrapperOptions("a c p! h! V! all-tasks cpu-list pid! help! version!"), operands: 1},
}

// wrapped is what wrapperWords read of a command wrapper's words.
type wrapped struct {
	n     int    // how many words are the wrapper's; 0 when words[0] is none
	noRun bool   // an option says the program runs no command: the rest are its arguments
	chdir string // the directory an option (env -C) runs the command in, as written
	// chdirWord is the index in words of chdir's word, 0 when it is
	// attached to its option (--chdir=DIR); chdirSet says an option gave
	// one.
	chdirWord int
	chdirSet  bool
}

// wrapperWords is what of words, which open a command, are a command
// wrapper's (commandWrappers) before the command it runs: its name, its
// options and its operands.
func wrapperWords(words []controlWord) wrapped {
	cw, ok := commandWrappers[programName(words[0].text)]
	if !ok {
		return wrapped{}
	}
	var r wrapped
	k := 1
	// value reads an option of kind o whose value is attached (a
	// non-empty rest) or the next word.
	value := func(o wrapperOption, attached string, hasAttached bool) {
		switch o {
		case optNoRun:
			r.noRun = true
		case optValue, optChdir:
			v, at := attached, 0
			if !hasAttached && k+1 < len(words) && words[k+1].text != "" {
				k++
				v, at = words[k].text, k
			}
			if o == optChdir {
				r.chdir, r.chdirWord, r.chdirSet = v, at, true
			}
		}
	}
	for ; k < len(words); k++ {
		w := words[k].text
		if w == "--" {
			k++
			break
		}
		if _, ok := cw.options[w]; ok && w == "-" { // env -: env -i
			continue
		}
		if len(w) < 2 || w[0] != '-' || isAssignment(w) {
			break
		}
		if name, ok := strings.CutPrefix(w, "--"); ok { // --foreground, --signal=KILL, --signal KILL
			name, attached, hasAttached := strings.Cut(name, "=")
			value(longOption(cw.options, name), attached, hasAttached)
			continue
		}
		for j := 1; j < len(w); j++ { // -iu NAME, -n5, -10 (nice's own)
			o, ok := cw.options[w[j:j+1]]
			if !ok || o == optFlag {
				continue
			}
			if o == optNoRun {
				r.noRun = true
				continue
			}
			value(o, w[j+1:], j+1 < len(w))
			break
		}
	}
	for n := 0; n < cw.operands && k < len(words) && words[k].text != ""; n++ {
		k++
	}
	r.n = k
	return r
}

// longOption is the kind of the long option name (written whole or as an
// unambiguous prefix of one) in options; optFlag for none.
func longOption(options map[string]wrapperOption, name string) wrapperOption {
	if o, ok := options[name]; ok && len(name) > 1 {
		return o
	}
	found, kind := 0, optFlag
	for full, o := range options {
		if len(full) > 1 && strings.HasPrefix(full, name) {
			found, kind = found+1, o
		}
	}
	if found != 1 {
		return optFlag
	}
	return kind
}

// controlWord is a word of controlWords: its text, "" for a character
// that joins or groups commands, and its offset in the command; op is
// that character (0 for a word).
type controlWord struct {
	text string
	at   int
	op   byte
}

// controlWords are cmd's words (shellWords), each cut at the characters
// that join or group commands where a shell reads them as syntax (cd
// tools&&./a; a newline), each such character an empty word: a quoted
// command string stays one word. The & and | of a redirection (2>&1,
// &>log, >|log) join nothing and stay in their word. The body of a
// here-document is no words (hereDocsBlanked).
func controlWords(cmd string) []controlWord {
	cmd, _ = hereDocsBlanked(cmd)
	var words []controlWord
	for _, span := range shellWords(cmd) {
		w := cmd[span[0]:span[1]]
		start := 0
		shellScan(w, func(i int, syntax bool) {
			if syntax && strings.IndexByte(";&|()\n", w[i]) >= 0 && !redirection(w, i) {
				if i > start {
					words = append(words, controlWord{text: w[start:i], at: span[0] + start})
				}
				words = append(words, controlWord{at: span[0] + i, op: w[i]})
				start = i + 1
			}
		})
		if start < len(w) {
			words = append(words, controlWord{text: w[start:], at: span[0] + start})
		}
	}
	return words
}

// hereDocsBlanked is cmd with the body of each here-document blanked,
// each of its bytes a space, so that the offsets of the rest stay: the
// lines after the line of a << or <<- operator (a shell reads no quote
// there), up to and including the line that is its delimiter (<<- strips
// the tabs that lead it), for each such operator of the line in turn;
// a body with no such line runs to the end, and unended holds its text
// (its paths are left out, and said so: unendedHereDocPaths). A
// here-string (<<<), a << or <<= inside arithmetic ($((...)), ((...)))
// and a <<= have none.
func hereDocsBlanked(cmd string) (blanked string, unended []string) {
	var (
		b       []byte // cmd's bytes, copied at the first body
		pending []hereDoc
		quote   byte
		arith   int // the depth of parentheses inside $((...)) or ((...)); 0 outside
	)
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case arith > 0 && c == '(':
			arith++
		case arith > 0 && c == ')':
			arith--
		case strings.HasPrefix(cmd[i:], "(("):
			arith = 2
			i++
		case arith > 0:
		case strings.HasPrefix(cmd[i:], "<<<"):
			i += 2
		case strings.HasPrefix(cmd[i:], "<<="):
			i += 2
		case strings.HasPrefix(cmd[i:], "<<"):
			d, end := hereDelimiter(cmd, i+2)
			pending = append(pending, d)
			i = end - 1
		case c == '\n' && len(pending) > 0:
			end, ended := i, true
			for _, d := range pending {
				if !ended {
					break
				}
				start := end + 1
				if end, ended = d.bodyEnd(cmd, start); !ended {
					unended = append(unended, cmd[min(start, len(cmd)):])
				}
			}
			if b == nil {
				b = []byte(cmd)
			}
			for k := i + 1; k < end && k < len(b); k++ {
				b[k] = ' '
			}
			pending = nil
			i = end - 1 // the newline that ends the last delimiter's line
		}
	}
	if b == nil {
		return cmd, unended
	}
	return string(b), unended
}

// unendedHereDocPaths are the words naming a path in the bodies of cmd's
// here-documents that no delimiter line ends (hereDocsBlanked): a shell
// reads them as the here-document's data, where a delimiter mistyped
// would have them run as commands, so they are neither read nor dropped
// unsaid.
func unendedHereDocPaths(cmd string) []string {
	var out []string
	_, unended := hereDocsBlanked(cmd)
	for _, body := range unended {
		for _, w := range strings.Fields(body) {
			if p, ok := pathOfWord(w); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// hereDoc is a here-document's delimiter, as the shell compares its
// lines with it, and whether its operator is <<-.
type hereDoc struct {
	delim string
	tabs  bool
}

// hereDelimiter reads the delimiter of the here-document whose operator
// ends at cmd[at] (past its <<): a - (<<-), blanks, then a word up to an
// unquoted blank, newline or operator character, its quotes removed
// (<<'EOF'); end is the offset past the word.
func hereDelimiter(cmd string, at int) (d hereDoc, end int) {
	if at < len(cmd) && cmd[at] == '-' {
		d.tabs = true
		at++
	}
	for at < len(cmd) && (cmd[at] == ' ' || cmd[at] == '\t') {
		at++
	}
	end = at
	for quote := byte(0); end < len(cmd); end++ {
		c := cmd[end]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
		} else if c == '\\' && end+1 < len(cmd) {
			end++
		} else if strings.IndexByte(" \t\n;&|()<>", c) >= 0 {
			break
		}
	}
	d.delim = shellUnquote(cmd[at:end])
	return d, end
}

// bodyEnd is the offset of the newline that ends the delimiter's line of
// the here-document d whose body starts at cmd[start] (len(cmd) for a
// last line without one), and whether a line is its delimiter: len(cmd)
// and false when none is.
func (d hereDoc) bodyEnd(cmd string, start int) (end int, ended bool) {
	for start < len(cmd) {
		end := strings.IndexByte(cmd[start:], '\n')
		if end < 0 {
			end = len(cmd) - start
		}
		end += start
		line := cmd[start:end]
		if d.tabs {
			line = strings.TrimLeft(line, "\t")
		}
		if line == d.delim {
			return end, true
		}
		start = end + 1
	}
	return len(cmd), false
}

// redirection says whether the & or | at w[i] is part of a redirection
// operator: >& and <& (2>&1), &> and &>> (&>log), >| (>|log).
func redirection(w string, i int) bool {
	before := i > 0 && (w[i-1] == '>' || w[i-1] == '<' && w[i] == '&')
	return before || w[i] == '&' && i+1 < len(w) && w[i+1] == '>'
}

// programName is a command's program word without its directory
// (/usr/bin/env: env).
func programName(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// shellOption is how a shell reads its options (shells): its options
// that take a value (wrapperOptions' notation), and where a short one
// finds its value.
type shellOption struct {
	options map[string]wrapperOption
	// nextWord: a short option takes the next word wherever it lies in
	// its word, and the word's other letters are options still (bash
	// -oc pipefail '...'); else getopt's way: the rest of its word, or
	// the next word when it ends its word (zsh -xoshwordsplit, -xo
	// shwordsplit).
	nextWord bool
}

// shells are the shells whose command string shellScript reads, by name
// (any directory: /bin/sh too): -o NAME and +o NAME of every one, bash's
// -O NAME, --rcfile FILE and --init-file FILE, ksh's -R FILE, mksh's -T
// TTY; zsh's long options (--sh-word-split) take no value.
var shells = map[string]shellOption{
	"sh":   {options: wrapperOptions("o:"), nextWord: true},
	"dash": {options: wrapperOptions("o:"), nextWord: true},
	"bash": {options: wrapperOptions("o: O: rcfile: init-file:"), nextWord: true},
	"zsh":  {options: wrapperOptions("o:")},
	"ksh":  {options: wrapperOptions("o: R:")},
	"mksh": {options: wrapperOptions("o: T:")},
}

// shellScript is the index in words of the command string of words when
// they open with a shell run with -c (sh -c 'cd tools && ./a', /bin/bash
// -ec "...", zsh -c): the first word after the shell's options, read as
// the shell reads them (shells), which the shell runs as a command, as
// written. -- and a lone - end the options; a -c after the first other
// word is that script's own.
func shellScript(words []controlWord) (int, bool) {
	if len(words) == 0 {
		return 0, false
	}
	sh, ok := shells[programName(words[0].text)]
	if !ok {
		return 0, false
	}
	command := false
	for k := 1; k < len(words); k++ {
		switch w := words[k].text; {
		case w == "--" || w == "-":
			if k+1 < len(words) {
				return k + 1, command
			}
		case strings.HasPrefix(w, "--"): // --norc, --login; --rcfile FILE
			if len(w) > 3 && sh.options[w[2:]] == optValue {
				k++
			}
		case len(w) > 1 && (w[0] == '-' || w[0] == '+'):
			var c bool
			k, c = sh.cluster(words, k)
			command = command || c
		default:
			return k, command
		}
	}
	return 0, false
}

// cluster reads the shell's short options in words[k] (-ec, +o, -xo
// NAME): the index of its last word (k, or past the values it takes from
// the words after it) and whether it holds a -c.
func (sh shellOption) cluster(words []controlWord, k int) (last int, command bool) {
	w, last := words[k].text, k
	for j := 1; j < len(w); j++ {
		command = command || w[0] == '-' && w[j] == 'c'
		switch {
		case sh.options[w[j:j+1]] != optValue:
		case sh.nextWord:
			last++
		case j+1 == len(w):
			return last + 1, command
		default:
			return last, command // the rest of the word is its value
		}
	}
	return last, command
}

// shellUnquote is the value a shell gives word: its quotes removed, the
// character after a backslash taken as it is (inside double quotes, only
// before $, `, ", \ or a newline, as a shell does).
func shellUnquote(w string) string {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(w) && strings.IndexByte("$`\"\\\n", w[i+1]) >= 0:
				i++
				b.WriteByte(w[i])
			default:
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(w):
			i++
			b.WriteByte(w[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isAssignment says whether a command's word is a shell variable
// assignment: a name of letters, digits and '_', not starting with a
// digit, then '='.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || '0' <= name[0] && name[0] <= '9' {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == ""
}

// execLine is cmd as `sh -c` runs a server, the shell replaced by the
// program: exec before the program's word, after any assignments, which
// then reach the program's environment (FOO=1 exec ./adapter; exec
// FOO=1 ./adapter would run a program named FOO=1). A command that is
// more than one simple command (cd DIR && ./adapter, a list, a group) or
// whose first word is a shell builtin that is no program (exec, command,
// cd) runs as it is written: the shell stays, a parent of its programs in
// their process group.
func execLine(cmd string) string {
	words := commandWords(cmd)
	if len(words) == 0 || shellControl(cmd) {
		return cmd
	}
	at := words[0][0]
	switch cmd[at:words[0][1]] {
	case "exec", "command", "cd", "export", "set", "ulimit", "umask", "trap", "eval", ".", "source", "if", "for", "while", "case", "!":
		return cmd
	}
	return cmd[:at] + "exec " + cmd[at:]
}

// shellControl says whether cmd holds, as syntax (shellScan), a
// character that joins or groups commands (; & | ( ) or a newline; a
// group's braces come with a ;). A pipeline is one: exec before its first
// command would leave the rest to the shell.
func shellControl(cmd string) bool {
	found := false
	shellScan(cmd, func(i int, syntax bool) {
		found = found || syntax && strings.IndexByte(";&|()\n", cmd[i]) >= 0
	})
	return found
}

// pathOfWord is the path a command's word names, and whether it names
// one: a word of path characters with a slash (isPathWord), or a path with
// a slash quoted whole, in single quotes or in double quotes without the
// characters a shell reads inside those.
func pathOfWord(w string) (string, bool) {
	if isPathWord(w) {
		return w, true
	}
	if len(w) < 2 || (w[0] != '\'' && w[0] != '"') || w[len(w)-1] != w[0] {
		return "", false
	}
	inner, special := w[1:len(w)-1], "'"
	if w[0] == '"' {
		special = "\"$`\\!"
	}
	if !strings.Contains(inner, "/") || strings.ContainsAny(inner, special+"\n") {
		return "", false
	}
	return inner, true
}

// isPathWord says whether a command's word reads as a path: path
// characters with a slash, or a {placeholder} alone or followed by a
// slash and path characters.
func isPathWord(w string) bool {
	if rest, ok := strings.CutPrefix(w, "{"); ok {
		name, after, ok := strings.Cut(rest, "}")
		if !ok || name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") != "" {
			return false
		}
		return after == "" || after[0] == '/' && strings.Trim(after, pathChars) == ""
	}
	return strings.Contains(w, "/") && strings.Trim(w, pathChars) == ""
}

// quotedPath is p as a word of a shell command: as it is when it holds
// only path characters or braces, else shell-quoted.
func quotedPath(p string) string {
	if strings.Trim(p, pathChars+"{}") == "" {
		return p
	}
	return ShellQuote(p)
}
