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
		var b strings.Builder
		last := 0
		for _, w := range shellWords(s.Cmd) {
			word := s.Cmd[w[0]:w[1]]
			path, ok := pathOfWord(word)
			if !ok {
				continue
			}
			if p := f(path); p != path {
				b.WriteString(s.Cmd[last:w[0]])
				b.WriteString(quotedPath(p))
				last = w[1]
			}
		}
		b.WriteString(s.Cmd[last:])
		s.Cmd = b.String()
	case SpecRepo:
		s.Repo = f(s.Repo)
	}
	return s
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
// rest of its words as a command: env, nice, timeout 5, exec, ...;
// commandWrappers), never an argument of another program (./adapter cd
// tools). A cd in the command string of a shell the command runs (sh -c
// 'cd tools && ./adapter', bash, dash, env bash -c "...", timeout 5 sh
// -c "...") counts too. A spec that changes into such a directory runs as
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
	eachCd(cmd, func(words []controlWord, i, _ int) bool {
		if at := cdDirWord(words, i); at >= 0 {
			dir := words[at].text
			if p, ok := pathOfWord(dir); ok {
				dir = p // quoted whole
			} else {
				dir = strings.Trim(dir, `'"`)
			}
			if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "{repo}") && !strings.HasPrefix(dir, "{dir}") && !strings.HasPrefix(dir, "~") && !strings.HasPrefix(dir, "$") {
				found = dir
				return false
			}
		}
		return true
	})
	return found
}

// eachCd calls f, in order, with each cd of the shell command cmd that is
// a command (RelativeCd says which count): the words it lies among
// (controlWords of cmd, or of the command string of a shell cmd runs) and
// its word's index there; script is the offset in cmd of the command
// string that holds it, -1 for a cd of cmd's own. It stops when f answers
// false.
func eachCd(cmd string, f func(words []controlWord, i, script int) bool) {
	eachCdIn(controlWords(cmd), -1, f)
}

// eachCdIn is eachCd over words, script the offset of the command string
// they are the words of (-1: cmd's own); false when f stopped it.
func eachCdIn(words []controlWord, script int, f func(words []controlWord, i, script int) bool) bool {
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
		if n := wrapperWords(words[i:]); n > 0 {
			i += n - 1 // the wrapped command's program comes next
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
		if w == "cd" && !f(words, i, script) {
			return false
		}
	}
	return true
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

// shellKeywords are the words a shell reads before a command's program
// (if cd tools; then ...; ! cd x; time cd x).
var shellKeywords = map[string]bool{"!": true, "{": true, "if": true, "then": true, "else": true, "elif": true, "while": true, "until": true, "do": true, "time": true}

// commandWrapper is a program that runs the rest of its words as a
// command: its options (those of withArg take the next word, when their
// value is not attached: -n 5, -n5), then operands words of its own
// (timeout's duration), then the command.
type commandWrapper struct {
	withArg  string
	operands int
}

// commandWrappers are the programs wrapperWords reads through, by name
// (any directory: /usr/bin/env too).
var commandWrappers = map[string]commandWrapper{
	"exec":    {withArg: "a"},
	"command": {},
	"env":     {withArg: "uCS"},
	"nice":    {withArg: "n"},
	"nohup":   {},
	"setsid":  {},
	"stdbuf":  {withArg: "ioe"},
	"timeout": {withArg: "sk", operands: 1},
	"ionice":  {withArg: "cnp"},
	"chrt":    {operands: 1},
	"taskset": {operands: 1},
}

// wrapperWords is how many of words, which open a command, are a command
// wrapper's (commandWrappers) before the command it runs: its name, its
// options and its operands; 0 when words[0] is none.
func wrapperWords(words []controlWord) int {
	cw, ok := commandWrappers[programName(words[0].text)]
	if !ok {
		return 0
	}
	k := 1
	for ; k < len(words); k++ {
		w := words[k].text
		if w == "--" {
			k++
			break
		}
		if len(w) < 2 || w[0] != '-' || isAssignment(w) {
			break
		}
		if strings.HasPrefix(w, "--") { // --foreground, --signal=KILL
			continue
		}
		if i := strings.IndexAny(w[1:], cw.withArg); i >= 0 && i == len(w)-2 {
			k++ // -n 5: the option's value is the next word
		}
	}
	for n := 0; n < cw.operands && k < len(words) && words[k].text != ""; n++ {
		k++
	}
	return k
}

// controlWord is a word of controlWords: its text, "" for a character
// that joins or groups commands, and its offset in the command.
type controlWord struct {
	text string
	at   int
}

// controlWords are cmd's words (shellWords), each cut at the characters
// that join or group commands where a shell reads them as syntax (cd
// tools&&./a), each such character an empty word: a quoted command string
// stays one word.
func controlWords(cmd string) []controlWord {
	var words []controlWord
	for _, span := range shellWords(cmd) {
		w := cmd[span[0]:span[1]]
		start := 0
		shellScan(w, func(i int, syntax bool) {
			if syntax && strings.IndexByte(";&|()", w[i]) >= 0 {
				if i > start {
					words = append(words, controlWord{w[start:i], span[0] + start})
				}
				words = append(words, controlWord{"", span[0] + i})
				start = i + 1
			}
		})
		if start < len(w) {
			words = append(words, controlWord{w[start:], span[0] + start})
		}
	}
	return words
}

// programName is a command's program word without its directory
// (/usr/bin/env: env).
func programName(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// shellScript is the index in words of the command string of words when
// they open with a shell run with -c (sh -c 'cd tools && ./a', /bin/bash
// -ec "..."): the first word after the shell's options, which the shell
// runs as a command, as written. -o and +o take the next word; -- ends the
// options; a -c after the first other word is that script's own.
func shellScript(words []controlWord) (int, bool) {
	if len(words) == 0 {
		return 0, false
	}
	switch programName(words[0].text) {
	case "sh", "bash", "dash":
	default:
		return 0, false
	}
	command := false
	for k := 1; k < len(words); k++ {
		switch w := words[k].text; {
		case w == "--":
			if k+1 < len(words) {
				return k + 1, command
			}
		case w == "-o" || w == "+o":
			k++ // the option's name
		case strings.HasPrefix(w, "--"): // --norc, --login
		case len(w) > 1 && (w[0] == '-' || w[0] == '+'):
			command = command || w[0] == '-' && strings.ContainsRune(w[1:], 'c')
		default:
			return k, command
		}
	}
	return 0, false
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
