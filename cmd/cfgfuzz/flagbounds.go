// flagbounds.go: the ranges of every command's numeric flags, checked right
// after parsing, so a value out of range (--walks -5, --workers -1,
// --timeout 0) is a usage error naming the flag and the value as typed,
// never a silent default or a campaign that cannot run (a duration flag no
// table lists must not be negative); the flags that name a program or a path,
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
	"bisect":   {"walks": walksRange, "timeout": positive, "check-timeout": positive, "growth-time": positive, "start-timeout": positive},
	"selftest": {"timeout": positive, "start-timeout": positive},
	"regress":  {"walks": walksRange, "timeout": positive, "check-timeout": positive, "growth-time": positive, "start-timeout": positive, "duration": atLeast(0)},
	"merge":    {"minimize-timeout": atLeast(0), "minimize-steps": atLeast(0), "minimize-budget": atLeast(0)},
	"bench":    {"graphs": atLeast(1), "words": atLeast(0), "warmup": atLeast(0), "repeats": atLeast(1), "timeout": positive, "fence-timeout": positive, "start-timeout": positive, "module-limit": positive},
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

// nonNegative is the range of a duration flag flagRanges does not list
// (--build-timeout): 0 is its "none", and a negative duration means
// nothing.
var nonNegative = atLeast(0)

// checkFlagRanges checks the flags of fs (named after its command) against
// flagRanges, every other duration flag against nonNegative, and that a
// flag of nonEmptyFlags given has a value; the error names the flag, its
// value as typed (typedText) and the range.
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
	var bad error
	fs.VisitAll(func(f *flag.Flag) {
		r, listed := flagRanges[fs.Name()][f.Name]
		if !listed && isDuration(f) {
			r, listed = nonNegative, true
		}
		v, ok := numericValue(f)
		if bad != nil || !listed || !ok {
			return
		}
		if v != v || v < r.min || r.hasMax && v > r.max { // v != v: NaN
			bad = fmt.Errorf("invalid value %q for flag --%s: %s", typedText(f), f.Name, r.describe(f))
		}
	})
	return bad
}

// isDuration says whether f's value is a time.Duration.
func isDuration(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	_, ok = g.Get().(time.Duration)
	return ok
}

// typed is a duration flag's value while the command line is parsed
// (keepTyped): it keeps the text the value was last set from, so that an
// error quotes what the user typed ("0", "-1m"), not the duration it
// parsed to ("0s", "-1m0s").
type typed struct {
	flag.Value // nil only in the zero value the flag package makes for its usage
	text       string
	set        bool
}

func (t *typed) Set(s string) error {
	t.text, t.set = s, true
	return t.Value.Set(s)
}

func (t *typed) Get() any { return t.Value.(flag.Getter).Get() }

func (t *typed) String() string {
	if t.Value == nil {
		return time.Duration(0).String()
	}
	return t.Value.String()
}

// keepTyped wraps every duration flag of fs in a typed while the command
// line is parsed; the function it returns puts the values back.
func keepTyped(fs *flag.FlagSet) (restore func()) {
	var wrapped []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if isDuration(f) {
			f.Value = &typed{Value: f.Value}
			wrapped = append(wrapped, f)
		}
	})
	return func() {
		for _, f := range wrapped {
			f.Value = f.Value.(*typed).Value
		}
	}
}

// typedText is f's value as the command line gave it when it did
// (keepTyped), else as the flag shows it.
func typedText(f *flag.Flag) string {
	if t, ok := f.Value.(*typed); ok && t.set {
		return t.text
	}
	return f.Value.String()
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
	if isDuration(f) {
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
