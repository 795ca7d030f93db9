// recorded.go: the judging a graph file's header records (the
// structurizer, the register file and the strategy of a finding's
// graph.cfg or min.cfg, or of a regression file: corpus.Header), held
// against the flags check and minimize judge it under. They read the graph
// alone, so a file judged without the register file it failed under, or on
// cfgfuzz's own structurizer when it was found on another, passes; they say
// so.

package main

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// recordedMismatch words the flags that judge the file at path as its
// header records, where registers, strategy, walks, target environment and
// rules reading differ from them, and the structurizer where the file names one
// and used is cfgfuzz's own (the default: --structurizer left out; another
// structurizer given is a choice, as regress makes it for a fixed build):
// "" when they agree, or when path is standard input or not a file with a
// header.
func recordedMismatch(path string, used fuzz.Spec, registers int, strategy string, walks corpus.Walks, j judgeFlags) string {
	if path == "" || path == "-" {
		return ""
	}
	r, err := corpus.ReadRegression(path)
	if err != nil {
		return ""
	}
	var flags []string
	if r.Header.Structurizer != "" && specField(used) == "" {
		flags = append(flags, recordedFlag(r))
	}
	if r.Header.Registers != registers {
		flags = append(flags, fmt.Sprintf("--registers %d", r.Header.Registers))
	}
	if r.Header.Strategy != "" && r.Header.Strategy != strategy {
		flags = append(flags, "--strategy "+r.Header.Strategy)
	}
	if w := r.Header.JudgedWalks(); w != walks {
		flags = append(flags, fmt.Sprintf("--walks %d --seed %d", w.Random, w.Seed))
	}
	if r.Header.Env() != j.targetEnv {
		flags = append(flags, "--target-env "+fuzz.ShellQuote(r.Header.Env()))
	}
	if r.Header.RulesCompat != j.rulesCompat {
		flags = append(flags, "--rules-compat "+fuzz.ShellQuote(r.Header.RulesCompat))
	}
	if len(flags) == 0 {
		return ""
	}
	return fmt.Sprintf("%s records another judging in its header: judge it with %s as it was judged", path, strings.Join(flags, " "))
}

// recordedFlag is the --structurizer flag that judges r on the
// structurizer it records: its placeholders replaced and its paths named
// from the working directory (portable.go), or as recorded when a
// placeholder cannot be replaced.
func recordedFlag(r *corpus.Regression) string {
	spec, err := recordedSpec(r)
	if err != nil {
		return "--structurizer " + fuzz.ShellQuote(r.Header.Structurizer)
	}
	if sp, err := fuzz.ParseSpec(spec); err == nil {
		spec = shownSpec(sp).String()
	}
	return "--structurizer " + fuzz.ShellQuote(spec)
}
