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
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
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
	// project is the --build and --serve given ("" each: not given) of a
	// repo: spec.
	project fuzz.Project
}

// recordedMismatch words the flags that judge the file named name as its
// header records, where registers, strategy, walks, target environment
// and rules reading differ from u, and the checks (--allow-fallbacks
// among them), limits and planted faults where the header records them,
// and the structurizer where the file names one
// and u's is cfgfuzz's own (the default: --structurizer left out; another
// structurizer given is a choice, as regress makes it for a fixed build),
// and the build and serve commands the header records where u's is the
// same repo: spec built or served otherwise (unrecordedProject): "" when
// they agree, or when data is not a graph file with a header. data is the
// file's bytes as the command read them (readInputs: once, as a pipe
// gives them), name the input as the command names it (a path, or
// standard input's name): a file is never opened again.
func recordedMismatch(name string, data []byte, u usedJudging) string {
	r, err := recordedRegression(name, data)
	if err != nil {
		return ""
	}
	var flags []string
	if r.Header.Structurizer != "" && specField(u.spec) == "" {
		flags = append(flags, recordedFlag(r))
	} else if p := unrecordedProject(r, u); p != "" {
		flags = append(flags, p)
	}
	flags = append(flags, u.mismatched(r.Header)...)
	if len(flags) == 0 {
		return ""
	}
	return fmt.Sprintf("%s records another judging in its header: judge it with %s as it was judged", name, strings.Join(flags, " "))
}

// recordedRegression is the graph file named name whose bytes are data,
// read as a regression file (corpus.ParseRegression); an error for no
// bytes (nothing read).
func recordedRegression(name string, data []byte) (*corpus.Regression, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: empty", name)
	}
	return corpus.ParseRegression(name, data)
}

// recordedIn is the header of the graph file at path, whose bytes are
// data as check or minimize read them (once: a pipe gives them only
// once), where it records how the file was judged: the file holds one
// graph under a header that reads (corpus.ParseRegression). nil, with no
// error, for standard input and a file that records no judging: no
// header, several graphs, or one that does not read as a graph file
// (check and minimize read it themselves and say why). A file of one
// graph whose header records a judging (recordedFields) but does not
// read (a value that does not parse, a '# compact:' line of another
// graph, no '# signature:') is the error: judged under the flags alone
// it would pass or fail under a judging it never had.
func recordedIn(path string, data []byte) (*corpus.Header, error) {
	if path == "" || path == "-" {
		return nil, nil
	}
	r, err := corpus.ParseRegression(path, data)
	if err == nil {
		return &r.Header, nil
	}
	if items, perr := cfg.Parse(path, data, cfg.Limits{}); perr != nil || len(items) != 1 {
		return nil, nil
	}
	h, herr := corpus.ParseHeader(path, data)
	if herr != nil {
		return nil, herr
	}
	if slices.ContainsFunc(recordedFields, func(f recordedField) bool { return f.records(h) }) {
		return nil, err
	}
	return nil, nil
}

// recordedField is one setting of the judging a header records, beside
// its structurizer: the flags that set it, whether a header records it
// (a value other than the default), whether a judging differs from it,
// how a judging takes it, the flags that judge as the header records,
// and their values by flag name (check --json's from_header).
// recordedMismatch holds every field against the flags used; adopt takes
// every field the command line leaves out.
type recordedField struct {
	flags   []string // any of them given is a choice: the header's value is not taken
	records func(h corpus.Header) bool
	differs func(h corpus.Header, u usedJudging) bool
	take    func(h corpus.Header, u *usedJudging)
	word    func(h corpus.Header) string
	values  func(h corpus.Header) map[string]any
}

// recordedFields is the judging a header records, field by field, in the
// order the flags are worded.
var recordedFields = []recordedField{
	{flags: []string{"inject"},
		records: func(h corpus.Header) bool { return h.Fault != "" },
		differs: func(h corpus.Header, u usedJudging) bool {
			return h.Fault != "" && u.plants && !sameFaults(h.Fault, u.inject)
		},
		take:   func(h corpus.Header, u *usedJudging) { u.inject = h.Fault },
		word:   func(h corpus.Header) string { return "--inject " + fuzz.ShellQuote(h.Fault) },
		values: func(h corpus.Header) map[string]any { return map[string]any{"inject": h.Fault} }},
	{flags: []string{"strategy"},
		records: func(h corpus.Header) bool { return h.Strategy != "" },
		differs: func(h corpus.Header, u usedJudging) bool { return h.Strategy != "" && h.Strategy != u.strategy },
		take:    func(h corpus.Header, u *usedJudging) { u.strategy = h.Strategy },
		word:    func(h corpus.Header) string { return "--strategy " + h.Strategy },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"strategy": h.Strategy} }},
	{flags: []string{"registers"},
		records: func(h corpus.Header) bool { return h.Registers != 0 },
		differs: func(h corpus.Header, u usedJudging) bool { return h.Registers != u.registers },
		take:    func(h corpus.Header, u *usedJudging) { u.registers = h.Registers },
		word:    func(h corpus.Header) string { return fmt.Sprintf("--registers %d", h.Registers) },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"registers": h.Registers} }},
	// '# walks: N seed S' is two settings, each taken where its flag is
	// left out (--walks 64 keeps the recorded seed), as regress takes them.
	{flags: []string{"walks"},
		records: func(h corpus.Header) bool { return h.Walks != nil },
		differs: func(h corpus.Header, u usedJudging) bool { return h.JudgedWalks().Random != u.walks.Random },
		take:    func(h corpus.Header, u *usedJudging) { u.walks.Random = h.JudgedWalks().Random },
		word:    func(h corpus.Header) string { return fmt.Sprintf("--walks %d", h.JudgedWalks().Random) },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"walks": h.JudgedWalks().Random} }},
	{flags: []string{"seed"},
		records: func(h corpus.Header) bool { return h.Walks != nil },
		differs: func(h corpus.Header, u usedJudging) bool { return h.JudgedWalks().Seed != u.walks.Seed },
		take:    func(h corpus.Header, u *usedJudging) { u.walks.Seed = h.JudgedWalks().Seed },
		word:    func(h corpus.Header) string { return fmt.Sprintf("--seed %d", h.JudgedWalks().Seed) },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"seed": h.JudgedWalks().Seed} }},
	{flags: []string{"checks", "allow-fallbacks"},
		records: func(h corpus.Header) bool { return h.Checks != "" },
		differs: func(h corpus.Header, u usedJudging) bool {
			return h.Checks != "" && recordedChecksDiffer(h, oracle.ResolveChecks(strings.Join(u.judge.checks(u.checks), ",")))
		},
		take:   func(h corpus.Header, u *usedJudging) { u.checks = h.Checks },
		word:   func(h corpus.Header) string { return "--checks " + fuzz.ShellQuote(h.Checks) },
		values: func(h corpus.Header) map[string]any { return map[string]any{"checks": h.Checks} }},
	{flags: []string{"timeout", "graph-timeout"},
		records: func(h corpus.Header) bool { return h.Timeout != 0 },
		differs: func(h corpus.Header, u usedJudging) bool { return h.Timeout != 0 && h.Timeout != u.timeout },
		take:    func(h corpus.Header, u *usedJudging) { u.timeout = h.Timeout },
		word:    func(h corpus.Header) string { return "--timeout " + h.Timeout.String() },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"timeout": h.Timeout.String()} }},
	{flags: []string{"check-timeout"},
		records: func(h corpus.Header) bool { return h.CheckTimeout != 0 },
		differs: func(h corpus.Header, u usedJudging) bool {
			return h.CheckTimeout != 0 && h.CheckTimeout != u.judge.checkTimeout
		},
		take:   func(h corpus.Header, u *usedJudging) { u.judge.checkTimeout = h.CheckTimeout },
		word:   func(h corpus.Header) string { return "--check-timeout " + h.CheckTimeout.String() },
		values: func(h corpus.Header) map[string]any { return map[string]any{"check-timeout": h.CheckTimeout.String()} }},
	{flags: []string{"growth-time"},
		records: func(h corpus.Header) bool { return h.GrowthTime != 0 },
		differs: func(h corpus.Header, u usedJudging) bool {
			return h.GrowthTime != 0 && h.GrowthTime != u.judge.growthTime
		},
		take:   func(h corpus.Header, u *usedJudging) { u.judge.growthTime = h.GrowthTime },
		word:   func(h corpus.Header) string { return "--growth-time " + h.GrowthTime.String() },
		values: func(h corpus.Header) map[string]any { return map[string]any{"growth-time": h.GrowthTime.String()} }},
	{flags: []string{"target-env"},
		records: func(h corpus.Header) bool { return h.TargetEnv != "" },
		differs: func(h corpus.Header, u usedJudging) bool { return h.Env() != u.judge.targetEnv },
		take:    func(h corpus.Header, u *usedJudging) { u.judge.targetEnv = h.TargetEnv },
		word:    func(h corpus.Header) string { return "--target-env " + fuzz.ShellQuote(h.Env()) },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"target-env": h.Env()} }},
	{flags: []string{"rules-compat"},
		records: func(h corpus.Header) bool { return h.RulesCompat != "" },
		differs: func(h corpus.Header, u usedJudging) bool { return h.RulesCompat != u.judge.rulesCompat },
		take:    func(h corpus.Header, u *usedJudging) { u.judge.rulesCompat = h.RulesCompat },
		word:    func(h corpus.Header) string { return "--rules-compat " + fuzz.ShellQuote(h.RulesCompat) },
		values:  func(h corpus.Header) map[string]any { return map[string]any{"rules-compat": h.RulesCompat} }},
}

// mismatched words the flags that judge as h records where u judges
// otherwise (the structurizer aside); nil where they agree.
func (u usedJudging) mismatched(h corpus.Header) []string {
	var flags []string
	for _, f := range recordedFields {
		if f.differs(h, u) {
			flags = append(flags, f.word(h))
		}
	}
	return flags
}

// adopt sets every field of u that h records and that no flag in given
// sets to h's value, and returns the flags it took, worded as
// recordedMismatch words them. The structurizer is never taken.
func (u *usedJudging) adopt(h corpus.Header, given map[string]bool) []string {
	var taken []string
	for _, f := range recordedFields {
		if f.records(h) && !slices.ContainsFunc(f.flags, func(n string) bool { return given[n] }) {
			f.take(h, u)
			taken = append(taken, f.word(h))
		}
	}
	return taken
}

// adoptedValues is what adopt takes of h where the flags in given leave
// it out, as flag names and their values: the strings a flag takes, the
// numbers of --registers, --walks and --seed. nil when it takes nothing.
func adoptedValues(h corpus.Header, given map[string]bool) map[string]any {
	var m map[string]any
	for _, f := range recordedFields {
		if f.records(h) && !slices.ContainsFunc(f.flags, func(n string) bool { return given[n] }) {
			if m == nil {
				m = map[string]any{}
			}
			maps.Copy(m, f.values(h))
		}
	}
	return m
}

// recordedChecksDiffer says whether the checks used judge a file otherwise
// than its header's `# checks:` records. A list of names (as a finding's
// header has it: corpus.PinChecks) is the set the file was judged under,
// which used must be. A list of changes of the defaults (`-fallback`, as
// a regression file records --allow-fallbacks) is kept when every check it
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
// structurizer it records, with the --build and --serve it records:
// their placeholders replaced and their paths named from the working
// directory (portable.go), or as recorded when a placeholder cannot be
// replaced.
func recordedFlag(r *corpus.Regression) string {
	asRecorded := fuzz.Project{Build: r.Header.Build, Serve: r.Header.Serve}.Flags()
	spec, err := recordedSpec(r)
	if err != nil {
		return "--structurizer " + fuzz.ShellQuote(r.Header.Structurizer) + asRecorded
	}
	if sp, err := fuzz.ParseSpec(spec); err == nil {
		spec = shownSpec(sp).String()
	}
	p, err := recordedProject(r)
	if err != nil {
		return "--structurizer " + fuzz.ShellQuote(spec) + asRecorded
	}
	return "--structurizer " + fuzz.ShellQuote(spec) + p.MapPaths(shownPath).Flags()
}

// unrecordedProject is the --build and --serve flags of the commands r's
// header records for its repo: structurizer where u judges on that same
// structurizer (its directory, revision and working tree) with other
// commands: the flags given, else the repository's .cfgfuzz.json
// (fuzz.ProjectFor). A header's commands are never taken, as its
// structurizer is not. "" where they agree, or where u's structurizer is
// another.
func unrecordedProject(r *corpus.Regression, u usedJudging) string {
	if u.spec.Kind != fuzz.SpecRepo || (r.Header.Build == "" && r.Header.Serve == "") {
		return ""
	}
	spec, err := recordedSpec(r)
	if err != nil {
		return ""
	}
	sp, err := fuzz.ParseSpec(spec)
	if err != nil || sp.Kind != fuzz.SpecRepo || sp.Rev != u.spec.Rev || sp.WorkTree != u.spec.WorkTree || !sameDir(sp.Repo, u.spec.Repo) {
		return ""
	}
	want, err := recordedProject(r)
	if err != nil {
		return ""
	}
	used, err := fuzz.ProjectFor(u.spec.Repo, u.project)
	if err != nil {
		used = u.project
	}
	var differ fuzz.Project
	if want.Build != "" && want.Build != used.Build {
		differ.Build = want.Build
	}
	if want.Serve != "" && want.Serve != used.Serve {
		differ.Serve = want.Serve
	}
	return strings.TrimSpace(differ.MapPaths(shownPath).Flags())
}

// unresolvedProjectNote is, for the file named name whose bytes as read
// are data (recordedMismatch) and whose structurizer given (spec, as the
// flag names it) did not resolve, a note naming the --build and --serve
// its header records for that structurizer that project (the flags given)
// does not give, where they are the commands it lacks; "" otherwise.
func unresolvedProjectNote(name string, data []byte, spec string, project fuzz.Project) string {
	r, err := recordedRegression(name, data)
	if err != nil {
		return ""
	}
	recorded, err := fuzz.RecordedSpec(spec)
	if err != nil {
		return ""
	}
	sp, err := fuzz.ParseSpec(recorded)
	if err != nil {
		return ""
	}
	flags := unrecordedProject(r, usedJudging{spec: sp, project: project})
	if flags == "" {
		return ""
	}
	return fmt.Sprintf("%s records how its structurizer was built and served, which is never taken from it: judge it with %s as it was judged", name, flags)
}

// sameFaults says whether the comma-separated fault lists a and b name the
// same faults, in any order.
func sameFaults(a, b string) bool {
	x, y := splitList(a), splitList(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
