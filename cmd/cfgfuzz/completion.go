// completion.go: `cfgfuzz completion bash|zsh|fish`, a shell completion
// script generated from the command table and each command's flag set: the
// flags are read from the usage the command prints for -h (flag.PrintDefaults),
// so a flag added to a command is completed without touching this file. A
// flag that takes a value completes the values flagValues lists for its
// name (generators, faults, strategies, ...), else file names; a boolean
// flag takes none.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func init() {
	register(command{name: "completion", summary: "print a bash, zsh or fish completion script", run: runCompletion})
}

// completionFlag is one flag of a command: its name, the first line of its
// usage, and whether it takes a value.
type completionFlag struct {
	name, usage string
	value       bool
}

// flagValues are the values a flag of this name takes, by name across
// commands; a value flag not listed completes file names.
func flagValues(name string) []string {
	switch name {
	case "kind", "kinds":
		return kindNames()
	case "inject":
		return structurizer.FaultNames()
	case "strategy":
		return structurizer.Strategies()
	case "weights":
		var w []string
		for _, x := range gen.Weightings() {
			w = append(w, x.Name())
		}
		return w
	case "checks":
		var c []string
		for n := range oracle.CheckNames() {
			c = append(c, n)
		}
		sort.Strings(c)
		return c
	case "progress":
		return []string{"auto", "bar", "plain", "none"}
	case "device", "gpu-device":
		return []string{"cpu", "gpu", "any"}
	case "form":
		return []string{"func", "module"}
	case "expect":
		return []string{"pass", "fail"}
	}
	return nil
}

// kindNames are the generators' names.
func kindNames() []string {
	var k []string
	for _, x := range gen.Kinds() {
		k = append(k, string(x))
	}
	return k
}

// completionCommand is one command: name, summary, flags.
type completionCommand struct {
	name, summary string
	flags         []completionFlag
}

func runCompletion(args []string, _ io.Reader, stdout, stderr io.Writer, _ *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz completion bash|zsh|fish")
		fmt.Fprintln(fs.Output(), "\nPrint a completion script of every command and its flags. Load it with, e.g.:")
		fmt.Fprintln(fs.Output(), "  bash: source <(cfgfuzz completion bash)")
		fmt.Fprintln(fs.Output(), "  zsh:  source <(cfgfuzz completion zsh)")
		fmt.Fprintln(fs.Output(), "  fish: cfgfuzz completion fish | source")
		fmt.Fprintln(fs.Output(), "Exit status: 0, 2 usage.")
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	cmds := completionCommands()
	switch fs.Arg(0) {
	case "bash":
		io.WriteString(stdout, bashCompletion(cmds))
	case "zsh":
		io.WriteString(stdout, zshCompletion(cmds))
	case "fish":
		io.WriteString(stdout, fishCompletion(cmds))
	default:
		fmt.Fprintf(stderr, "cfgfuzz completion: unknown shell %q (have bash, zsh, fish)\n", fs.Arg(0))
		return exitUsage
	}
	return exitOK
}

// completionCommands is every command, sorted, with its flags.
func completionCommands() []completionCommand {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []completionCommand
	for _, n := range names {
		c := completionCommand{name: n, summary: commands[n].summary}
		if n != "completion" {
			c.flags = commandFlags(commands[n])
		}
		out = append(out, c)
	}
	return out
}

// flagLine matches a flag's first line in flag.PrintDefaults' output:
// "  -name" (a boolean), "  -name TYPE" (a value), or a one-letter flag's
// "  -v\tusage" (a boolean) or "  -n N\tusage" (a value).
var flagLine = regexp.MustCompile(`^  -([A-Za-z0-9][A-Za-z0-9-]*)(?:([ \t])(.*))?$`)

// commandFlags runs the command's -h and reads its flags from the usage.
func commandFlags(c command) []completionFlag {
	var out, errw bytes.Buffer
	c.run([]string{"-h"}, strings.NewReader(""), &out, &errw, nil)
	var flags []completionFlag
	lines := strings.Split(out.String()+errw.String(), "\n")
	for i, l := range lines {
		m := flagLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		f := completionFlag{name: m[1], value: m[2] == " "}
		rest := m[3]
		if m[2] == " " {
			_, rest, _ = strings.Cut(rest, "\t") // past the value's name
		}
		if strings.TrimSpace(rest) != "" {
			f.usage = strings.TrimSpace(rest)
		} else if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "    \t") {
			f.usage = strings.TrimSpace(lines[i+1])
		}
		flags = append(flags, f)
	}
	return flags
}

func bashCompletion(cmds []completionCommand) string {
	var b strings.Builder
	b.WriteString("# bash completion for cfgfuzz (cfgfuzz completion bash)\n_cfgfuzz() {\n")
	b.WriteString("  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} flags=\n")
	b.WriteString("  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
	fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(append(commandNames(cmds), "--help", "--version"), " "))
	b.WriteString("  case \"${COMP_WORDS[1]}\" in\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s) flags=%q ;;\n", c.name, strings.Join(dashed(c.flags), " "))
	}
	b.WriteString("  esac\n")
	// After a flag that takes a value: its values, or file names.
	b.WriteString("  case \"$prev\" in\n")
	for _, name := range valueFlagNames(cmds) {
		if vs := flagValues(name); vs != nil {
			fmt.Fprintf(&b, "    --%s|-%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", name, name, strings.Join(vs, " "))
		} else {
			fmt.Fprintf(&b, "    --%s|-%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", name, name)
		}
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [ \"${COMP_WORDS[1]}\" = completion ]; then\n    COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\"))\n  elif [[ $cur == -* ]]; then\n")
	b.WriteString("    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o filenames -F _cfgfuzz cfgfuzz\n")
	return b.String()
}

func zshCompletion(cmds []completionCommand) string {
	var b strings.Builder
	b.WriteString("#compdef cfgfuzz\n# zsh completion for cfgfuzz (cfgfuzz completion zsh)\n_cfgfuzz() {\n")
	b.WriteString("  if (( CURRENT == 2 )); then\n    local -a cmds\n    cmds=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "      %s\n", completionQuote(c.name+":"+c.summary))
	}
	b.WriteString("    )\n    _describe command cmds\n    return\n  fi\n  case $words[2] in\n")
	for _, c := range cmds {
		if c.name == "completion" {
			b.WriteString("    completion) compadd bash zsh fish ;;\n")
			continue
		}
		fmt.Fprintf(&b, "    %s) _arguments", c.name)
		for _, f := range c.flags {
			spec := "--" + f.name + "[" + zshBracket(f.usage) + "]"
			if f.value {
				spec += ":" + f.name + ":_files"
				if vs := flagValues(f.name); vs != nil {
					spec = "--" + f.name + "[" + zshBracket(f.usage) + "]:" + f.name + ":(" + strings.Join(vs, " ") + ")"
				}
			}
			fmt.Fprintf(&b, " %s", completionQuote(spec))
		}
		b.WriteString(" '*:file:_files' ;;\n")
	}
	b.WriteString("  esac\n}\ncompdef _cfgfuzz cfgfuzz\n")
	return b.String()
}

func fishCompletion(cmds []completionCommand) string {
	var b strings.Builder
	b.WriteString("# fish completion for cfgfuzz (cfgfuzz completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c cfgfuzz -f -n __fish_use_subcommand -a %s -d %s\n", c.name, completionQuote(c.summary))
	}
	b.WriteString("complete -c cfgfuzz -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	for _, c := range cmds {
		for _, f := range c.flags {
			arg := ""
			if f.value {
				arg = " -r"
				if vs := flagValues(f.name); vs != nil {
					arg = " -x -a " + completionQuote(strings.Join(vs, " "))
				}
			}
			fmt.Fprintf(&b, "complete -c cfgfuzz -n '__fish_seen_subcommand_from %s' -l %s%s -d %s\n", c.name, f.name, arg, completionQuote(f.usage))
		}
	}
	return b.String()
}

// valueFlagNames are the names of every command's flags that take a value,
// sorted, once each.
func valueFlagNames(cmds []completionCommand) []string {
	seen := map[string]bool{}
	var n []string
	for _, c := range cmds {
		for _, f := range c.flags {
			if f.value && !seen[f.name] {
				seen[f.name] = true
				n = append(n, f.name)
			}
		}
	}
	sort.Strings(n)
	return n
}

func commandNames(cmds []completionCommand) []string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.name)
	}
	return n
}

func dashed(flags []completionFlag) []string {
	var n []string
	for _, f := range flags {
		n = append(n, "--"+f.name)
	}
	return n
}

// completionQuote single-quotes s for sh, zsh and fish alike: a quote inside
// ends the string, is escaped, and opens a new one. Fish reads '\” the
// same way.
func completionQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshBracket makes a usage safe inside _arguments' [description]: no
// brackets, no colons, at most one line of about 70 characters.
func zshBracket(s string) string {
	s = strings.NewReplacer("[", "(", "]", ")", ":", " ", "\\", "").Replace(s)
	if len(s) > 70 {
		s = s[:70]
	}
	return s
}
