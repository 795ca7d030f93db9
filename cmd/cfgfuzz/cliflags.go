// cliflags.go: the one argument parser every subcommand uses. Flags are
// accepted before and after operands (`check g.cfg --inject swap-arms`), a
// "--" ends the flags, numeric flags are range-checked (flagbounds.go), and
// -h/--help prints the command's usage and exits 0.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/agnivade/levenshtein"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// parseCommandLine parses args into fs. When it returns done, the command
// stops with code: exitOK after -h or --help (the usage printed to stdout:
// asked for, it is the output), exitUsage after a bad flag or value (one
// line naming the command and the error, and where the flags are listed,
// on fs.Output(), the command's standard error). Otherwise the operands,
// in order, are fs.Args().
func parseCommandLine(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	if wantsHelp(args) {
		fs.SetOutput(stdout)
	}
	err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK, true
	case err != nil:
		fmt.Fprintln(fs.Output(), flagError(fs.Name(), err))
		return exitUsage, true
	}
	return exitOK, false
}

// flagError is a bad flag's message: the command, the error, and the
// command that lists the flags (the usage is not repeated: it would bury
// the one line that matters).
func flagError(name string, err error) string {
	name = strings.TrimPrefix(name, "cfgfuzz ")
	return fmt.Sprintf("cfgfuzz %s: %v (cfgfuzz %s -h lists the flags)", name, err, name)
}

// parseFlags parses flags before and after operands and then checks the
// numeric flags' ranges. Unless help is asked for, the flag package prints
// nothing: the caller reports the error it returns. fs.Args() holds the
// operands.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if !wantsHelp(args) {
		out, usage := fs.Output(), fs.Usage
		fs.SetOutput(io.Discard)
		fs.Usage = func() {}
		defer func() { fs.SetOutput(out); fs.Usage = usage }()
	}
	if !wantsHelp(args) { // the usage names a wrapped flag's type "value"
		defer keepTyped(fs)()
	}
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return plainFlagError(fs, err)
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			operands = append(operands, rest...) // "--": the rest are operands
			break
		}
		if len(rest) == 0 {
			break
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
	// Parsing "--" alone leaves the flags as set and fs.Args() the operands.
	if err := fs.Parse(append([]string{"--"}, operands...)); err != nil {
		return plainFlagError(fs, err)
	}
	return checkFlagRanges(fs)
}

// goFlagName is a flag named in an error of Go's flag package, which
// writes one dash: "for flag -seed", "not defined: -nope", "argument: -out".
var goFlagName = regexp.MustCompile(`(for flag |for |defined: |argument: )-([A-Za-z0-9][-A-Za-z0-9_.]*)`)

// goParseError is Go's error for a value a flag of a built-in type cannot
// parse: "invalid value "x" for flag -n: parse error", or "invalid boolean
// value "x" for -n: parse error".
var goParseError = regexp.MustCompile(`^(invalid (?:boolean )?value "(?:[^"\\]|\\.)*" for (?:flag )?)-([-A-Za-z0-9_.]+): parse error$`)

// plainFlagError rewrites an error of Go's flag package in the form the
// usage and the documentation give flags, --name, and says what the flag
// wants instead of Go's bare "parse error".
func plainFlagError(fs *flag.FlagSet, err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if m := goUndefined.FindStringSubmatch(msg); m != nil {
		if near := nearestFlag(fs, m[1]); near != "" {
			return fmt.Errorf("flag provided but not defined: --%s: did you mean --%s?", m[1], near)
		}
	}
	if m := goParseError.FindStringSubmatch(msg); m != nil {
		if want := flagWants(fs.Lookup(m[2])); want != "" {
			return fmt.Errorf("%s--%s: %s", m[1], m[2], want)
		}
	}
	return errors.New(goFlagName.ReplaceAllString(msg, "${1}--${2}"))
}

// goUndefined is Go's error for a flag the set does not define.
var goUndefined = regexp.MustCompile(`^flag provided but not defined: -([^\s]+)$`)

// nearestFlag is the flag of fs that an unknown name most likely meant
// (nearestName over its flags' names).
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return nearestName(names, name)
}

// nearestName is the one of names that an unknown name most likely meant:
// the one within a small edit distance (1 for a name of up to 4
// characters, 2 beyond), else the one name the unknown name begins or is
// the beginning of (3 characters at least); "" when none, or several, are
// that near. Flags and commands are matched alike.
func nearestName(names []string, name string) string {
	limit := 1
	if len(name) > 4 {
		limit = 2
	}
	best, bestDist, ties := "", limit+1, 0
	var prefixed []string
	for _, n := range names {
		switch d := levenshtein.ComputeDistance(name, n); {
		case d < bestDist:
			best, bestDist, ties = n, d, 0
		case d == bestDist:
			ties++
		}
		if len(name) >= 3 && (strings.HasPrefix(n, name) || strings.HasPrefix(name, n) && len(n) >= 3) {
			prefixed = append(prefixed, n)
		}
	}
	switch {
	case best != "" && ties == 0:
		return best
	case best == "" && len(prefixed) == 1:
		return prefixed[0]
	}
	return ""
}

// flagWants says what a flag of a built-in type takes, "" for another.
func flagWants(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return "want a duration such as 30s or 10m"
	case int, int64:
		return "want a whole number"
	case uint, uint64:
		return "want a whole number, 0 or more"
	case float64:
		return "want a number"
	case bool:
		return "want true or false"
	}
	return ""
}

// listFaultsUsage is the --list-faults flag's text, the same on every
// command that takes --inject or plants faults.
const listFaultsUsage = "list the faults --inject can plant, each with what it plants, and exit"

// printFaults writes one line per fault: its name and its description.
func printFaults(w io.Writer) {
	for _, name := range structurizer.FaultNames() {
		fmt.Fprintf(w, "%-20s %s\n", name, structurizer.Faults[name])
	}
}
