// lint.go: `cfgfuzz lint [--json] FILE.spv...`: the oracle's structured
// rules checker (rules R1-R17 of oracle/RULES.md,
// and the id bound rule of oracle/rules_bound.go) on any SPIR-V binary.
// Exit 0 when every file is clean, 1 on violations, 2 when a file cannot be
// read or split into blocks.

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func init() {
	register(command{name: "lint", summary: "check SPIR-V binaries against the structured control-flow rules", run: runLint})
}

// lintSchema names the format of a --json line (the JSON Schema
// fuzz/schema/lint-v1.json).
const lintSchema = "cfgfuzz-lint/v1"

// lintRecord is one file's result in --json output.
type lintRecord struct {
	Schema     string             `json:"schema"` // lintSchema
	File       string             `json:"file"`
	Error      string             `json:"error,omitempty"`
	Violations []oracle.Violation `json:"violations"`
}

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer, _ *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per file")
	compat := fs.String("compat", "", "follow a validator's readings where they differ from the specification: "+oracle.CompatSPIRVTools2023+" (default: the specification)")
	fs.StringVar(compat, "rules-compat", "", "the same as --compat, by the name the other commands give it")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz lint [--json] FILE.spv...  (- reads standard input)")
		fmt.Fprintln(fs.Output(), "\nChecks every function against rules R1-R16 of SPIR-V structured control flow, the functions a\nMaximallyReconvergesKHR entry point reaches against R17 too, and the header's id bound\n(rule bound: 0 < id < Bound, SPIR-V specification 2.3).")
		fmt.Fprintln(fs.Output(), "Exit status: 0 clean, 1 violations, 2 unreadable input.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if *compat != "" && *compat != oracle.CompatSPIRVTools2023 {
		fmt.Fprintf(stderr, "cfgfuzz lint: unknown --compat %q (have %s)\n", *compat, oracle.CompatSPIRVTools2023)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	code := exitOK
	enc := json.NewEncoder(stdout)
	for _, f := range fs.Args() {
		rec := lintFile(f, stdin, oracle.RulesOptions{Compat: *compat})
		switch {
		case rec.Error != "":
			code = exitUsage
		case len(rec.Violations) > 0 && code == exitOK:
			code = exitFail
		}
		if *asJSON {
			rec.Schema = lintSchema
			if rec.Violations == nil {
				rec.Violations = []oracle.Violation{}
			}
			enc.Encode(rec)
			continue
		}
		printLint(stdout, stderr, rec)
	}
	return code
}

// lintFile reads and checks one file.
func lintFile(name string, stdin io.Reader, opt oracle.RulesOptions) lintRecord {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err == nil {
		var vs []oracle.Violation
		vs, err = oracle.CheckRulesWith(data, opt)
		if err == nil {
			return lintRecord{File: name, Violations: vs}
		}
	}
	return lintRecord{File: name, Error: err.Error()}
}

func printLint(stdout, stderr io.Writer, rec lintRecord) {
	if rec.Error != "" {
		fmt.Fprintf(stderr, "%s: %s\n", rec.File, rec.Error)
		return
	}
	for _, v := range rec.Violations {
		fmt.Fprintf(stdout, "%s: %s\n", rec.File, v)
	}
	if len(rec.Violations) == 0 {
		fmt.Fprintf(stdout, "%s: clean\n", rec.File)
	}
}
