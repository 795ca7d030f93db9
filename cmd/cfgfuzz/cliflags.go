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
	"strings"

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
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
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
		return err
	}
	return checkFlagRanges(fs)
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
