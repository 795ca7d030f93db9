// flagbounds.go: the ranges of every command's numeric flags, checked right
// after parsing, so a value out of range (--walks -5, --workers -1,
// --timeout 0s) is a usage error naming the flag, never a silent default or
// a campaign that cannot run; the flags that name a program or a path,
// which an empty value would turn into the flag left out; and a --checks
// entry of a + or a - without its check's name.

package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// flagRange is the values a numeric flag accepts: at least min, at most
// max when hasMax.
type flagRange struct {
	min, max float64
	hasMax   bool
}

func atLeast(min float64) flagRange { return flagRange{min: min} }

// positive accepts durations above zero: the smallest is 1ns.
var positive = atLeast(1)

// flagRanges lists, by command, the numeric flags and their ranges. A flag
// a command does not define is skipped (compare shares run's table).
var flagRanges = map[string]map[string]flagRange{
	"run":      campaignRanges,
	"compare":  campaignRanges,
	"check":    {"walks": walksRange, "timeout": positive, "check-timeout": positive, "growth-time": positive, "start-timeout": positive},
	"minimize": {"walks": walksRange, "index": atLeast(0), "timeout": positive, "search-timeout": atLeast(0), "check-timeout": positive, "growth-time": positive, "start-timeout": positive},
	"bisect":   {"walks": walksRange, "start-timeout": positive},
	"selftest": {"timeout": positive, "start-timeout": positive},
	"regress":  {"walks": walksRange, "timeout": positive, "check-timeout": positive, "growth-time": positive, "start-timeout": positive, "duration": atLeast(0)},
	"merge":    {"minimize-timeout": atLeast(0), "minimize-steps": atLeast(0), "minimize-budget": atLeast(0)},
	"bench":    {"graphs": atLeast(1), "words": atLeast(0), "warmup": atLeast(0), "repeats": atLeast(1), "timeout": positive, "fence-timeout": positive, "start-timeout": positive},
	"cfgfuzz gen": {"count": atLeast(0), "words": atLeast(0), "switch": {min: 0, max: 1, hasMax: true},
		"wide-switch": {min: 0, max: 1, hasMax: true}, "n": {min: 1, max: gen.MaxExhaustiveN, hasMax: true}},
}

// walksRange bounds --walks: random walks a graph, oracle.MaxRandomWalks
// at most.
var walksRange = flagRange{min: 0, max: oracle.MaxRandomWalks, hasMax: true}

var campaignRanges = map[string]flagRange{
	"graphs": atLeast(0), "duration": atLeast(0), "timeout": positive, "check-timeout": positive, "growth-time": positive, "start-timeout": positive,
	"workers": atLeast(0), "walks": walksRange, "gpu-every": atLeast(0), "mutate": {min: 0, max: 1, hasMax: true},
	"minimize-timeout": atLeast(0), "minimize-steps": atLeast(0), "minimize-budget": atLeast(0),
}

// nonEmptyFlags are the flags whose value names a program, a strategy, a
// repository or a path: given, they need one. An empty value (an unset shell
// variable) would otherwise read as the flag left out, and test this
// tree's structurizer or write to the default directory without a word.
var nonEmptyFlags = []string{"strategy", "structurizer", "baseline-structurizer", "repo", "out", "state", "resume", "junit", "save-regressions", "regressions", "build", "serve"}

// checkFlagRanges checks the flags of fs (named after its command) against
// flagRanges, and that a flag of nonEmptyFlags given has a value; the
// error names the flag, its value and the range.
func checkFlagRanges(fs *flag.FlagSet) error {
	var empty error
	fs.Visit(func(f *flag.Flag) {
		if empty == nil && slices.Contains(nonEmptyFlags, f.Name) && strings.TrimSpace(f.Value.String()) == "" {
			empty = fmt.Errorf("--%s: empty value (an unset variable?): give one, or leave the flag out", f.Name)
		}
	})
	if empty != nil {
		return empty
	}
	if f := fs.Lookup("checks"); f != nil {
		if err := checksNamesGiven(f.Value.String()); err != nil {
			return err
		}
	}
	for name, r := range flagRanges[fs.Name()] {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		v, ok := numericValue(f)
		if !ok {
			continue
		}
		if v != v || v < r.min || r.hasMax && v > r.max { // v != v: NaN
			return fmt.Errorf("invalid value %q for flag --%s: %s", f.Value.String(), name, r.describe(f))
		}
	}
	return nil
}

// checksNamesGiven refuses a --checks value with a + or a - that no name
// follows ("+", "exec,-"): the check it adds or removes is missing
// (oracle.CheckNameMissing), which the oracle would otherwise report as a
// check named "".
func checksNamesGiven(v string) error {
	if why := oracle.CheckNameMissing(v); why != "" {
		return fmt.Errorf("invalid value %q for flag --checks: %s", v, why)
	}
	return nil
}

// numericValue is the flag's value as a number (a duration in nanoseconds).
func numericValue(f *flag.Flag) (float64, bool) {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return 0, false
	}
	switch v := g.Get().(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	case float64:
		return v, true
	case time.Duration:
		return float64(v), true
	}
	return 0, false
}

// describe says what the flag accepts.
func (r flagRange) describe(f *flag.Flag) string {
	if _, isDuration := f.Value.(flag.Getter).Get().(time.Duration); isDuration {
		if r.min > 0 {
			return "must be positive"
		}
		return "must not be negative"
	}
	if r.hasMax {
		return fmt.Sprintf("must be between %g and %g", r.min, r.max)
	}
	return fmt.Sprintf("must be at least %g", r.min)
}
