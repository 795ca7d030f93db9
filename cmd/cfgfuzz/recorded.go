// recorded.go: the judging a graph file's header records (the
// structurizer, the register file, the strategy, the checks and the limits of a finding's
// graph.cfg or min.cfg, or of a regression file: corpus.Header), held
// against the flags check and minimize judge it under. They read the graph
// alone, so a file judged without the register file it failed under, or on
// cfgfuzz's own structurizer when it was found on another, passes; they say
// so.

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// usedJudging is how check or minimize judges a file: the flags that
// recordedMismatch holds against the file's header.
type usedJudging struct {
	spec      fuzz.Spec
	registers int
	strategy  string
	walks     corpus.Walks
	checks    string        // --checks, "" the defaults
	timeout   time.Duration // --timeout
	judge     judgeFlags
	// inject is --inject; plants says the command plants faults (check,
	// minimize), so that the faults a header records are held against
	// it (faults planted in a file that records none are a choice).
	inject string
	plants bool
}

// recordedMismatch words the flags that judge the file at path as its
// header records, where registers, strategy, walks, target environment
// and rules reading differ from u, and the checks (--allow-fallbacks
// among them), limits and planted faults where the header records them,
// and the structurizer where the file names one
// and u's is cfgfuzz's own (the default: --structurizer left out; another
// structurizer given is a choice, as regress makes it for a fixed build):
// "" when they agree, or when path is standard input or not a file with a
// header.
func recordedMismatch(path string, u usedJudging) string {
	if path == "" || path == "-" {
		return ""
	}
	r, err := corpus.ReadRegression(path)
	if err != nil {
		return ""
	}
	j := u.judge
	var flags []string
	if r.Header.Structurizer != "" && specField(u.spec) == "" {
		flags = append(flags, recordedFlag(r))
	}
	if f := r.Header.Fault; f != "" && u.plants && !sameFaults(f, u.inject) {
		flags = append(flags, "--inject "+fuzz.ShellQuote(f))
	}
	if r.Header.Registers != u.registers {
		flags = append(flags, fmt.Sprintf("--registers %d", r.Header.Registers))
	}
	if r.Header.Strategy != "" && r.Header.Strategy != u.strategy {
		flags = append(flags, "--strategy "+r.Header.Strategy)
	}
	if w := r.Header.JudgedWalks(); w != u.walks {
		flags = append(flags, fmt.Sprintf("--walks %d --seed %d", w.Random, w.Seed))
	}
	if h := r.Header.Checks; h != "" && recordedChecksDiffer(r.Header, oracle.ResolveChecks(strings.Join(j.checks(u.checks), ","))) {
		flags = append(flags, "--checks "+fuzz.ShellQuote(h))
	}
	if t := r.Header.Timeout; t != 0 && t != u.timeout {
		flags = append(flags, "--timeout "+t.String())
	}
	if t := r.Header.CheckTimeout; t != 0 && t != j.checkTimeout {
		flags = append(flags, "--check-timeout "+t.String())
	}
	if t := r.Header.GrowthTime; t != 0 && t != j.growthTime {
		flags = append(flags, "--growth-time "+t.String())
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

// recordedChecksDiffer says whether the checks used judge a file otherwise
// than its header's `# checks:` records. A list of names is the set the file
// was judged under, which used must be. A list of changes of the defaults
// (`-fallback`, as --allow-fallbacks records it) is kept when every check it
// leaves of the defaults runs and every check it removes does not: checks
// added beside them (the `+gpu` of regress's replay command where a Vulkan
// device is) judge more, not otherwise.
func recordedChecksDiffer(h corpus.Header, used []string) bool {
	want := oracle.ResolveChecks(h.Checks)
	if !h.ChecksChangeDefaults() {
		return !slices.Equal(want, used)
	}
	for _, c := range want {
		if !slices.Contains(used, c) {
			return true
		}
	}
	for _, c := range strings.Split(h.Checks, ",") {
		c = strings.TrimSpace(c)
		if strings.HasPrefix(c, "-") && slices.Contains(used, strings.TrimSpace(c[1:])) {
			return true
		}
	}
	return false
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

// sameFaults says whether the comma-separated fault lists a and b name the
// same faults, in any order.
func sameFaults(a, b string) bool {
	x, y := splitList(a), splitList(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
