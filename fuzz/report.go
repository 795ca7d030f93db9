// report.go defines the Report (report.json; schema in REPORT.md) and
// BuildReport, which computes it from a campaign's Settings and records
// alone, sorted by graph index: the same records give the same report,
// whatever the order, the number of workers, the shards or the restarts
// that produced them. Only Throughput, and the Provenance WriteReports
// stamps, depend on the machine and the clock.

package fuzz

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Schema names the report.json format (the JSON Schema
// fuzz/schema/report-v1.json).
const Schema = "cfgfuzz-report/v1"

// Report is a campaign's result.
type Report struct {
	Schema   string   `json:"schema"`
	Settings Settings `json:"config"`
	// Graphs is the distinct graphs run (records not skipped); Skipped the
	// indices skipped as repeats of an earlier index's graph (distinct.go).
	Graphs  int `json:"graphs"`
	Skipped int `json:"skipped"`
	// Outcomes counts the current side's outcomes over all graphs.
	Outcomes map[string]int `json:"outcomes"`
	// BaselineOutcomes counts the baseline's outcomes (with a baseline).
	BaselineOutcomes map[string]int `json:"baseline_outcomes,omitempty"`
	// Fallbacks counts the graphs on which the current side's structurizer
	// fell back to the dispatch loop (stats.fallbacks > 0), whatever their
	// outcome; BaselineFallbacks the baseline's (with a baseline).
	Fallbacks         int `json:"fallbacks"`
	BaselineFallbacks int `json:"baseline_fallbacks,omitempty"`
	// Leaked counts the graphs whose answer left processes running
	// (LeakSignature: the server's processes were killed with it);
	// BaselineLeaked the baseline's (with a baseline).
	Leaked         int `json:"leaked"`
	BaselineLeaked int `json:"baseline_leaked,omitempty"`
	// Checks are the checks every graph's current module ran, in the
	// oracle's order (the gpu check of Settings.GPUEvery aside: GPUChecked).
	Checks []string `json:"checks,omitempty"`
	// GPUChecked counts the graphs whose current side's module the gpu
	// check also judged (Settings.GPUEvery samples them); absent without
	// the gpu check.
	GPUChecked int `json:"gpu_checked,omitempty"`
	// Strategies counts the graphs per strategy they ran when it is not
	// the campaign's (the dispatch share: Record.Strategy); absent when
	// every graph ran the campaign's.
	Strategies map[string]int `json:"strategies,omitempty"`
	// Streams has one row per generator and weight setting, in
	// Settings.Streams order.
	Streams []StreamRow `json:"streams"`
	// Divergences is the divergence table (with a baseline).
	Divergences *Divergences `json:"divergences,omitempty"`
	// Declined is the current side's refused and unsupported graphs by
	// reason (declined.go); nil when it declined none.
	Declined *Declined `json:"declined,omitempty"`
	// Findings has one entry per failure signature on the current side,
	// sorted by signature.
	Findings    []Finding `json:"findings"`
	NewFindings int       `json:"new_findings"` // graphs whose failure is new
	// HarnessErrors are graphs with an "error" outcome on either side
	// (not findings), the first few kept.
	HarnessErrors []Example `json:"harness_errors,omitempty"`
	// TimeBudgetNote says that the time budget ran out before the graph
	// budget (a complete campaign all the same), and that a resumed
	// campaign under a time budget had the whole budget again: the
	// summary's note.
	TimeBudgetNote string `json:"-"`
	// Unchecked counts the graphs whose current module some check could
	// not judge (SideResult.Unchecked), by what it could not judge: a
	// skipped check's name, or CHECK:PART; BaselineUnchecked the
	// baseline's. UncheckedFirst is the lowest-index such graph of either
	// side. Absent when every check judged every module: the verdicts
	// of these graphs are incomplete, and the exit status says so.
	Unchecked         map[string]int `json:"unchecked,omitempty"`
	BaselineUnchecked map[string]int `json:"baseline_unchecked,omitempty"`
	UncheckedFirst    *Example       `json:"unchecked_first,omitempty"`
	// Guided is a guided campaign's features and mutants (guidereport.go).
	Guided     *GuidedSummary `json:"guided,omitempty"`
	Throughput Throughput     `json:"throughput"`
	// Declared is what the sides declared in a protocol v2 handshake, by
	// side; absent for sides that declared nothing.
	Declared Declarations `json:"declared,omitempty"`
	// Incomplete, when set, says the report covers less than its campaign
	// (interrupted, a partial merge) and how to complete it.
	Incomplete *Incomplete `json:"incomplete,omitempty"`
	// Mixed, when set, says a merge's shards were not all written by the
	// cfgfuzz that merged them (MergeOptions.Mixed; writer.go): its
	// verdicts are several oracles'.
	Mixed *Mixed `json:"mixed,omitempty"`
	// Seen counts the graphs skipped as checked on an earlier night (the
	// state's filter); Graphs does not count them.
	Seen int `json:"seen,omitempty"`
	// State classes the signatures against the state directory (with
	// --state; classify.go).
	State *StateReport `json:"state,omitempty"`
	// ExhaustiveNext is the exhaustive generator's next position after
	// tonight (with --state): one past the last it gave, a graph skipped
	// or seen included, so the next night goes on from there.
	ExhaustiveNext *uint64 `json:"exhaustive_next,omitempty"`
	// Minimization is "deferred to merge" on a shard, whose new findings
	// `cfgfuzz merge` minimizes once; "" otherwise.
	Minimization string `json:"minimization,omitempty"`
	// Unminimized is why no minimizer ran on this report's findings
	// ("minimization is off (--minimize=false)", a merge's minimizer that
	// did not start), the reason Finding.NotMinimized gives a new finding
	// no other reason covers; "" a minimizer ran. Not in report.json: each
	// finding says it.
	Unminimized string `json:"-"`
	// Provenance says which build wrote the report, when, where, on
	// which sides (provenance.go); WriteReports stamps it.
	Provenance *Provenance `json:"provenance,omitempty"`
	// Sides names the sides of a comparison for people: each revision as
	// given, its short commit and subject, and the commits between them
	// (sides.go); WriteReports sets it. Absent without a baseline or
	// when neither side is a revision.
	Sides *Sides `json:"sides,omitempty"`
}

// StreamRow counts one stream's graphs by outcome and divergence class.
type StreamRow struct {
	Stream
	Graphs      int            `json:"graphs"`  // distinct graphs run
	Skipped     int            `json:"skipped"` // repeats skipped
	Outcomes    map[string]int `json:"outcomes"`
	Fallbacks   int            `json:"fallbacks"` // graphs the current side fell back on
	Baseline    map[string]int `json:"baseline_outcomes,omitempty"`
	Divergences map[string]int `json:"divergences,omitempty"`
}

// Divergences counts graphs by class and keeps the first graphs of every
// class other than "same".
type Divergences struct {
	Classes  map[string]int `json:"classes"`
	Examples []Example      `json:"examples"`
	// Summary facts for the prose of report.md.
	BaselineStructured int `json:"baseline_structured"` // baseline ok
	IdenticalOnThose   int `json:"identical_on_those"`  // ... and the current module is identical
	BaselineFailures   int `json:"baseline_failures"`   // baseline refused, invalid, panic, timeout, crash
	NowStructured      int `json:"now_structured"`      // ... and current is ok
	NewlyInvalid       int `json:"newly_invalid"`       // class newly-invalid
	BothInvalid        int `json:"both_invalid"`        // class output-changed, invalid on both sides
	BaselineFindings   int `json:"baseline_findings"`   // baseline invalid, panic, timeout, crash
	// Size compares the sides' module sizes (sizes.go).
	Size *SizeDiff `json:"size"`
}

// Example is one graph, as a report shows it.
type Example struct {
	Class    string `json:"class,omitempty"`
	Index    int    `json:"index"`
	Stream   Stream `json:"stream"`
	Seed     uint64 `json:"seed"`
	Graph    string `json:"graph"`
	Weights  []int  `json:"weights,omitempty"`
	Current  string `json:"current"`            // outcome[: signature]
	Baseline string `json:"baseline,omitempty"` // outcome[: signature]
	Detail   string `json:"detail,omitempty"`
	Program  string `json:"program,omitempty"` // the program the graph was lowered from (findings)
	// Strategy is the strategy the sides ran when it is not the
	// campaign's (Record.Strategy).
	Strategy string `json:"strategy,omitempty"`
	// Mutant is Record.Mutant: the graph is a guided campaign's mutant,
	// replayed from its own text.
	Mutant string `json:"mutant,omitempty"`
	// Replay is, for a harness error, the command that prints its graph
	// and judges it as the campaign's current side did, as a finding's
	// replay (the campaign's --blocks tier of the graph included); ""
	// elsewhere, and where no graph source filled it.
	Replay string `json:"replay,omitempty"`
	// CurrentModule and BaselineModule are the sides' modules of one of
	// the first sideBySide divergence examples of its class
	// (SideResult.Module), for the compare report's pictures and
	// disassembly diff.
	CurrentModule  []byte `json:"current_module,omitempty"`
	BaselineModule []byte `json:"baseline_module,omitempty"`
}

// Finding is one failure signature of the current side on one strategy.
type Finding struct {
	Signature string `json:"signature"`
	// Strategy is the strategy its graphs ran when it is not the
	// campaign's (the dispatch share); "" the campaign's.
	Strategy string `json:"strategy,omitempty"`
	Outcome  string `json:"outcome"` // of the first graph
	Count    int    `json:"count"`   // graphs failing with it
	New      int    `json:"new"`     // of which the baseline did not fail (passed or declined; no baseline: all)
	// First is the lowest-index graph failing with the signature, and
	// Others the next ones, up to KeepGraphs in all (what the state keeps
	// to re-run, with FirstNew: keptExamples).
	First  Example   `json:"first"`
	Others []Example `json:"others,omitempty"`
	// FirstNew is the lowest-index graph failing with the signature that
	// the baseline did not fail (Record.isNew), when that is not First:
	// the baseline fails First too. Subject is the graph the finding is
	// minimized, replayed, stored and saved as a regression on.
	FirstNew *Example `json:"first_new,omitempty"`
	Replay   string   `json:"replay"` // shell command reproducing Subject()
	// Bisect is the command that finds the first commit between the
	// sides whose verdict on the finding's graph in the findings store
	// changed, when both sides are commits of one repository, the
	// current side ahead of the baseline or diverging from it (from their
	// merge base, Sides.MergeBase), and the baseline did not fail some of
	// its graphs (New: it passed or declined them; sides.go); "" otherwise.
	Bisect string `json:"bisect,omitempty"`
	// Minimized is the minimized graph (compact), when a minimizer ran,
	// and MinimizedWeights its blocks' weights when any is not 0: the
	// compact notation has none, and a finding of the filler or growth
	// checks needs them to fail.
	Minimized        string `json:"minimized,omitempty"`
	MinimizedWeights []int  `json:"minimized_weights,omitempty"`
	// MinimizeStopped is the limit that ended the minimizer's search
	// before its fixpoint ("time limit (30s)", "step limit (5000)"): the
	// minimized graph is the smallest found by then. A time limit's
	// result depends on the machine's speed and load. "" the search
	// reached its fixpoint (or no minimizer ran).
	MinimizeStopped string `json:"minimize_stopped,omitempty"`
	// MinimizedStored says Minimized is the state's: the store's
	// minimized graph of the signature, made by an earlier run and taken
	// from the state (fillStateMinimized), not by this campaign's
	// minimizer. Not in report.json: a merge or a resume sets it again
	// from the state it reads.
	MinimizedStored bool `json:"-"`
	// NotReproduced says why the minimizer, judging Subject again on a
	// structurizer of its own, did not see it fail with the signature
	// (it passes, or fails another way): a structurizer whose answer
	// depends on the requests before it, or on chance. The replay
	// command may then pass as well.
	NotReproduced string `json:"not_reproduced,omitempty"`
	// Flaky says the minimizer's judgements of one graph disagreed:
	// Subject, or the minimized graph, failed with the signature in some
	// of them and not in the others (or the minimized graph in none of its
	// own, when Minimized is ""). The structurizer's answers depend on chance,
	// or on the requests before them: the replay commands may pass, and
	// the same campaign run again may report other graphs.
	Flaky string `json:"flaky,omitempty"`
	// MinimizeError is what kept the minimizer from judging (a harness
	// error: a structurizer side that did not start, say), apart from the
	// limits, reproductions and disagreements the fields beside it
	// record: Minimized is then absent, or not judged again every time.
	// "" none.
	MinimizeError string `json:"minimize_error,omitempty"`
	// MinimizeSkipped says what of this new signature's minimization the
	// campaign's total minimization time (--minimize-budget) left undone:
	// all of it, spent on the findings before it (Minimized is then
	// absent, and the finding was not judged again), or the judgements
	// of Minimized after its search (whether it reproduces is then
	// unknown, and it is not in the findings store). "" none.
	MinimizeSkipped string `json:"minimize_skipped,omitempty"`
	// BaselineFlaky says the minimizer, judging Subject again on the
	// baseline, saw it fail there too, though the campaign's baseline did
	// not fail it (the minimizer runs only on findings with new graphs,
	// and Subject is their first), or judging the minimized graph again saw
	// the baseline fail it, though it did not fail it during the search:
	// the baseline's answers depend on chance or on the requests before
	// them, and the finding may not be new. A refusal, or a graph the
	// baseline does not serve, is a decline, not a failure, as in the
	// campaign: never baseline flaky.
	BaselineFlaky string `json:"baseline_flaky,omitempty"`
	// BaselineChanged says the minimizer, judging Subject again on the
	// baseline before its search, got another answer than the campaign's
	// baseline gave on it (Subject's Baseline), neither a failure: it
	// passed it in the campaign and refused it, or did not serve it,
	// when the minimizer judged it, or the other way round. The
	// baseline's answers depend on chance, and whether the finding is new
	// is uncertain; it is minimized, its search judging by the
	// minimizer's answer (a failure there is BaselineFlaky, which then
	// names the campaign's answer).
	BaselineChanged string `json:"baseline_changed,omitempty"`
	// IsMinimized says Minimized is smaller than the finding's graph
	// (Subject): fewer blocks, edges or words (corpus.Size.Less). When it
	// is false, NotMinimized says why: a minimizer that found no smaller
	// graph, one that did not run (off, deferred to a merge, an
	// interrupted campaign, a finding that is not new) or one that gave
	// no graph (the fields above say more). WriteReports sets both
	// (minimized.go).
	IsMinimized  bool   `json:"is_minimized"`
	NotMinimized string `json:"not_minimized,omitempty"`
	// notShrunk is the minimizer's word on a Minimized no smaller than
	// the finding's graph (corpus.NotShrunk), "" when it gave none.
	notShrunk string
	// Func is the structured function of Subject, when the side gave one
	// (for the report's "after" picture, beside Subject's graph).
	Func *structurizer.Func `json:"func,omitempty"`
	// FuncCut is the size of that function's JSON when it was longer
	// than MaxKeptFunc and not kept (SideResult.FuncCut); 0 none was cut.
	FuncCut int `json:"func_cut,omitempty"`
	// stored is the finding's entry of the findings store relative to
	// the report's directory, and storedFiles its files to link, when
	// WriteReports found it there (write.go).
	stored      string
	storedFiles []string
}

// Throughput is the only part of a report that depends on the clock.
type Throughput struct {
	Graphs       int     `json:"graphs"`  // distinct graphs run by this run (not replayed)
	Skipped      int     `json:"skipped"` // repeats this run skipped
	Resumed      int     `json:"resumed"` // records replayed from the log
	Seconds      float64 `json:"seconds"`
	GraphsPerSec float64 `json:"graphs_per_sec"` // distinct graphs per second
	Workers      int     `json:"workers"`
	Shards       int     `json:"shards,omitempty"` // merged reports: shards merged
	// CurrentSeconds and BaselineSeconds are how long each side took to
	// answer this run's graphs, summed over the workers: the wait for the
	// answer to each graph's first structurization (the checks and the
	// minimizer not counted). BaselineSeconds is 0 without a baseline.
	CurrentSeconds  float64 `json:"current_seconds"`
	BaselineSeconds float64 `json:"baseline_seconds,omitempty"`
	// CurrentMetaSeconds and BaselineMetaSeconds are how long each side
	// took to answer meta's re-runs of this run's graphs (determinism,
	// renumbering, idempotence), summed over the workers; 0 when meta
	// re-ran nothing (--checks -meta).
	CurrentMetaSeconds  float64 `json:"current_meta_seconds,omitempty"`
	BaselineMetaSeconds float64 `json:"baseline_meta_seconds,omitempty"`
}

// AnswerTimes is one sentence on how long the sides took to answer this
// run's graphs and meta's re-runs of them, and for a comparison the ratio
// of their first answers; "" when this run judged no graph.
func AnswerTimes(t Throughput) string {
	if t.Graphs == 0 {
		return ""
	}
	if t.BaselineSeconds == 0 {
		return fmt.Sprintf("The structurizer answered them in %.2f s and meta's re-runs of them in %.2f s, summed over the workers.", t.CurrentSeconds, t.CurrentMetaSeconds)
	}
	return fmt.Sprintf("The sides answered them in %.2f s (current) and %.2f s (baseline), and meta's re-runs of them in %.2f s and %.2f s, summed over the workers: the current side's first answers took %.2fx the baseline's time.",
		t.CurrentSeconds, t.BaselineSeconds, t.CurrentMetaSeconds, t.BaselineMetaSeconds, t.CurrentSeconds/t.BaselineSeconds)
}

// slowGraph is the structurizers' time a graph (first answers and meta's
// re-runs) from which MetaHint speaks: 100 ms, where a campaign of two
// workers judges at most about 20 graphs a second.
const slowGraph = 100 * time.Millisecond

// MetaHint is a line naming --checks -meta when the structurizers' time
// (first answers and meta's re-runs, both sides) is most of the
// campaign's time on its workers, meta's re-runs are most of that, and a
// graph costs the structurizers at least slowGraph: a slow structurizer,
// whose campaign meta slows several times over. A fast one behind the
// protocol may spend most of a campaign answering too, at a rate that
// needs no hint. "" otherwise.
func MetaHint(t Throughput) string {
	meta := t.CurrentMetaSeconds + t.BaselineMetaSeconds
	all := t.CurrentSeconds + t.BaselineSeconds + meta
	if t.Graphs == 0 || t.Seconds <= 0 || t.Workers <= 0 || 2*all <= t.Seconds*float64(t.Workers) || 2*meta <= all {
		return ""
	}
	if all/float64(t.Graphs) < slowGraph.Seconds() {
		return ""
	}
	return fmt.Sprintf("hint: meta's re-runs took %.0f%% of the structurizer's time (%.2f of %.2f s); --checks -meta skips them and gives up the metamorphic checks (determinism, renumbering, idempotence)",
		100*meta/all, meta, all)
}

func (t *Throughput) fill() {
	if t.Seconds > 0 {
		t.GraphsPerSec = float64(t.Graphs) / t.Seconds
	}
}

const maxExamples = 20

// BuildReport computes a report from records (any order, no duplicates).
func BuildReport(s Settings, recs []Record) *Report {
	rs := newRecordSet(&s, false)
	for _, r := range recs {
		rs.add(r)
	}
	return rs.report(s)
}

// newReport is the empty report of a campaign under settings s.
func newReport(s Settings) *Report {
	rep := &Report{Schema: Schema, Settings: s, Outcomes: zeroCounts(Outcomes), Findings: []Finding{}}
	for _, st := range s.Streams {
		rep.Streams = append(rep.Streams, StreamRow{Stream: st, Outcomes: zeroCounts(Outcomes)})
	}
	if s.Baseline != "" {
		rep.BaselineOutcomes = zeroCounts(Outcomes)
		rep.Divergences = &Divergences{Classes: zeroCounts(Classes), Examples: []Example{}, Size: newSizeDiff(&s)}
		for i := range rep.Streams {
			rep.Streams[i].Baseline = zeroCounts(Outcomes)
			rep.Streams[i].Divergences = zeroCounts(Classes)
		}
	}
	return rep
}

// sortFindings puts the findings in signature order.
func (rep *Report) sortFindings() {
	slices.SortFunc(rep.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Signature, b.Signature), cmp.Compare(a.Strategy, b.Strategy))
	})
}

func zeroCounts(keys []string) map[string]int {
	m := make(map[string]int, len(keys))
	for _, k := range keys {
		m[k] = 0
	}
	return m
}

// dispatchShare is the number of graphs that ran the dispatch share.
func (rep *Report) dispatchShare() int { return rep.Strategies[DispatchStrategy] }

// exhaustiveStep is how far record r's graph is along the exhaustive
// generator's walk of the growing order: its position (its own seed:
// gen.SeedFor walks positions) less the walk's start (Settings.runSeed),
// both as the walk counts them, modulo 2^64, so a walk that wraps past
// 2^64 (one started near the top of the range) keeps its order; false
// for a record of another generator or a mutant.
func exhaustiveStep(s *Settings, r *Record) (uint64, bool) {
	if r.Mutant != "" || r.Stream < 0 || r.Stream >= len(s.Streams) || s.Streams[r.Stream].Kind != ExhaustiveKind {
		return 0, false
	}
	return r.Seed - s.runSeed(r.Stream), true
}

// findingKey keys the findings: a signature on one strategy.
type findingKey struct{ sig, strategy string }

// row is stream k's row of the report; a row of its own, counted nowhere,
// for a stream the settings do not have.
func (rep *Report) row(k int) *StreamRow {
	if k >= 0 && k < len(rep.Streams) {
		return &rep.Streams[k]
	}
	return &StreamRow{Outcomes: map[string]int{}, Baseline: map[string]int{}, Divergences: map[string]int{}}
}

// count adds n records of key k to the report's counts: everything a
// record adds but examples and findings.
func (rep *Report) count(k countKey, n int) {
	row := rep.row(k.stream)
	switch {
	case k.seen:
		rep.Seen += n
		return
	case k.skipped:
		rep.Skipped += n
		row.Skipped += n
		return
	}
	rep.Graphs += n
	row.Graphs += n
	rep.Outcomes[k.outcome] += n
	row.Outcomes[k.outcome] += n
	if k.fallback {
		rep.Fallbacks += n
		row.Fallbacks += n
	}
	if k.gpu {
		rep.GPUChecked += n
	}
	if k.baseFallback {
		rep.BaselineFallbacks += n
	}
	if k.leaked {
		rep.Leaked += n
	}
	if k.baseLeaked {
		rep.BaselineLeaked += n
	}
	addUnchecked(&rep.Unchecked, k.unchecked, n)
	addUnchecked(&rep.BaselineUnchecked, k.baseUnchecked, n)
	if k.strategy != "" {
		if rep.Strategies == nil {
			rep.Strategies = map[string]int{}
		}
		rep.Strategies[k.strategy] += n
	}
	if k.base && rep.Divergences != nil {
		rep.countDivergence(k, row, n)
	}
}

// countDivergence adds n records of key k (with a baseline) to the
// divergence counts.
func (rep *Report) countDivergence(k countKey, row *StreamRow, n int) {
	d := rep.Divergences
	rep.BaselineOutcomes[k.baseOutcome] += n
	row.Baseline[k.baseOutcome] += n
	d.Classes[k.class] += n
	row.Divergences[k.class] += n
	switch {
	case k.baseOutcome == OutOK:
		d.BaselineStructured += n
		if k.identical {
			d.IdenticalOnThose += n
		}
	case k.baseOutcome != OutError:
		d.BaselineFailures += n
		if isFailure(k.baseOutcome) {
			d.BaselineFindings += n
		}
		if k.outcome == OutOK {
			d.NowStructured += n
		}
	}
	if k.class == ClassNewlyInvalid {
		d.NewlyInvalid += n
	}
	if k.class == ClassChanged && k.outcome == OutInvalid && k.baseOutcome == OutInvalid {
		d.BothInvalid += n
	}
}

// add accounts for one record, in index order: its counts, then the
// examples and findings it shows. It reports whether the report shows r
// (as an example or a finding's graph): records added later, of higher
// indices, never change that.
func (rep *Report) add(r *Record, bySig map[findingKey]int) (shown bool) {
	rep.count(keyOf(r), 1)
	if r.Seen || r.Skipped {
		return false
	}
	if r.Current.Outcome == OutError || r.Baseline != nil && r.Baseline.Outcome == OutError {
		if len(rep.HarnessErrors) < maxExamples {
			rep.HarnessErrors = append(rep.HarnessErrors, harnessDetail(rep.example(r, ""), r))
			shown = true
		}
	}
	if r.Baseline != nil && rep.Divergences != nil && r.Class != ClassSame {
		shown = rep.addDivergenceExample(r) || shown
	}
	if rep.UncheckedFirst == nil && (len(r.Current.Unchecked) > 0 || r.Baseline != nil && len(r.Baseline.Unchecked) > 0) {
		e := rep.example(r, "")
		e.CurrentModule, e.BaselineModule = nil, nil
		rep.UncheckedFirst, shown = &e, true
	}
	if !isFailure(r.Current.Outcome) {
		return shown
	}
	key := findingKey{r.Current.Signature, r.Strategy}
	k, ok := bySig[key]
	if !ok {
		k = len(rep.Findings)
		bySig[key] = k
		f := Finding{Signature: r.Current.Signature, Strategy: r.Strategy, Outcome: r.Current.Outcome, First: rep.example(r, ""), Func: r.Current.Func, FuncCut: r.Current.FuncCut}
		rep.Findings = append(rep.Findings, f)
		shown = true
	}
	f := &rep.Findings[k]
	if ok && len(f.Others)+1 < KeepGraphs {
		e := rep.example(r, "")
		e.Program = "" // the first graph's is enough
		f.Others = append(f.Others, e)
		shown = true
	}
	if ok && r.isNew() && f.New == 0 {
		// Records come in index order and a kept one adds to New at
		// once: New is 0 only before the first new one. (recordSet
		// keeps that one: the report shows it.)
		e := rep.example(r, "")
		f.FirstNew, f.Func, f.FuncCut, shown = &e, r.Current.Func, r.Current.FuncCut, true
	}
	rep.countFinding(f, 1, btoi(r.isNew()))
	return shown
}

// FirstNewNote says of a finding with FirstNew which graph its replay,
// minimized graph and regression are of, and why.
func FirstNewNote(f *Finding) string {
	return fmt.Sprintf("the baseline fails the signature's first graph (index %d) too: the replay and the minimized graph are of its first new graph (index %d), which the baseline did not fail", f.First.Index, f.FirstNew.Index)
}

// Subject is the graph a finding's write-up is built around: the
// signature's first new graph (FirstNew) when the baseline fails its first
// graph too, First otherwise. It is the graph minimized, replayed
// (Replay), stored in the findings store and saved as a regression: the
// failure the baseline does not have.
func (f *Finding) Subject() *Example {
	if f.FirstNew != nil {
		return f.FirstNew
	}
	return &f.First
}

// SubjectName names Subject for a caption or a heading: "the graph", or
// "the first new graph (index N)" when it is not First.
func (f *Finding) SubjectName() string {
	if f.FirstNew != nil {
		return fmt.Sprintf("the first new graph (index %d)", f.FirstNew.Index)
	}
	return "the graph"
}

// addUnchecked adds n graphs to *m for each entry of the comma list what.
func addUnchecked(m *map[string]int, what string, n int) {
	if what == "" {
		return
	}
	if *m == nil {
		*m = map[string]int{}
	}
	for _, w := range strings.Split(what, ",") {
		(*m)[w] += n
	}
}

// UncheckedGraphs is the most graphs any one thing went unjudged on, of
// either side: 0 when every check judged every module.
func (rep *Report) UncheckedGraphs() int {
	n := 0
	for _, m := range []map[string]int{rep.Unchecked, rep.BaselineUnchecked} {
		for _, c := range m {
			n = max(n, c)
		}
	}
	return n
}

// countFinding adds n graphs of finding f to its counts, fresh of them new.
func (rep *Report) countFinding(f *Finding, n, fresh int) {
	f.Count += n
	f.New += fresh
	rep.NewFindings += fresh
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// addDivergenceExample keeps divergent record r as an example of its
// class, up to maxExamples of each, and reports whether it did.
func (rep *Report) addDivergenceExample(r *Record) bool {
	d := rep.Divergences
	n := 0
	for i := range d.Examples {
		if d.Examples[i].Class == r.Class {
			n++
		}
	}
	if n >= maxExamples {
		return false
	}
	e := rep.example(r, r.Class)
	if r.Class == ClassError {
		e = harnessDetail(e, r)
	}
	if n >= sideBySide {
		// Only the first sideBySide of a class are drawn; which
		// later records still carry modules depends on the workers.
		e.CurrentModule, e.BaselineModule = nil, nil
	}
	d.Examples = append(d.Examples, e)
	return true
}

// harnessDetail is example e of record r, a graph without a verdict, with
// the detail of the side that erred: the baseline's when the error is the
// baseline's alone, the side its replay judges (harnessSide), as a finding
// of the current side says nothing of why the graph has no verdict.
func harnessDetail(e Example, r *Record) Example {
	if r.Current.Outcome != OutError && r.Baseline != nil && r.Baseline.Outcome == OutError {
		e.Detail = r.Baseline.Detail
	}
	return e
}

func (rep *Report) example(r *Record, class string) Example {
	return exampleOf(&rep.Settings, r, class)
}

// exampleOf is record r of a campaign under settings s as a report shows
// it; with a class, the sides' modules too (the divergence examples').
func exampleOf(s *Settings, r *Record, class string) Example {
	e := Example{Class: class, Index: r.Index, Seed: r.Seed, Graph: r.Graph, Weights: r.Weights,
		Current: sideLabel(&r.Current), Detail: r.Current.Detail, Program: r.Program, Strategy: r.Strategy, Mutant: r.Mutant}
	e.Stream = streamOf(s, r)
	if class != "" {
		e.CurrentModule = r.Current.Module
		if r.Baseline != nil {
			e.BaselineModule = r.Baseline.Module
		}
	}
	if r.Baseline != nil {
		e.Baseline = sideLabel(r.Baseline)
		if e.Detail == "" {
			e.Detail = r.Baseline.Detail
		}
	}
	return e
}

// streamOf is r's stream as the reports label it: GraftStream for a
// guided campaign's graft (no stream's label is true of it), the zero
// Stream where r names none of s's.
func streamOf(s *Settings, r *Record) Stream {
	switch {
	case r.Mutant != "":
		return GraftStream()
	case r.Stream >= 0 && r.Stream < len(s.Streams):
		return s.Streams[r.Stream]
	}
	return Stream{}
}

func sideLabel(s *SideResult) string {
	if s.Signature != "" {
		return s.Outcome + ": " + s.Signature
	}
	return s.Outcome
}

// MinimizedGraph rebuilds the finding's minimized graph with its weights;
// an error when they do not read back (a damaged report or state).
func (f *Finding) MinimizedGraph() (*cfg.Graph, error) {
	return graphOf(&Example{Graph: f.Minimized, Weights: f.MinimizedWeights})
}

// graphOf rebuilds an example's graph with its weights.
func graphOf(e *Example) (*cfg.Graph, error) {
	g, err := cfg.ParseCompact(e.Graph, cfg.Limits{})
	if err != nil {
		return nil, err
	}
	if len(e.Weights) == 0 {
		return g, nil
	}
	g.Weights = slices.Clone(e.Weights)
	if err := g.Validate(cfg.Limits{}); err != nil {
		return nil, err
	}
	return g, nil
}

// MinimizeFindings runs the minimizer on the first new graph (Subject) of
// every finding with new failures that is not minimized yet; with a state section, only
// on the signatures it classes new, and on known ones the store holds no
// minimized graph of (a night with --minimize=false, or past
// --minimize-budget, left it unminimized); a known signature keeps the
// store's minimized graph (fillStateMinimized), as does a new one an
// earlier run of the night recorded, while a regression is minimized
// again; an ignored one is not minimized.
//
// log, when not nil, gets a line as each minimization starts (i of n, the
// signature, the graph's size): one may take its whole bound (30 s in a
// campaign), and on a slow structurizer minutes more. The minimizer
// reports where its search stands and its result (cmd/cfgfuzz's: a line
// every 10 s, then blocks before and after, time, verified). stop, when
// not nil, is asked before each minimization: true ends them there, with
// no line for those not started (a stop signal).
func MinimizeFindings(rep *Report, min Minimizer, log io.Writer, stop func() bool) {
	var todo []*Finding
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if f.New == 0 || f.Minimized != "" || rep.State != nil && !minimizedTonight(rep.State.class(f.Signature, f.Strategy)) {
			continue
		}
		todo = append(todo, f)
	}
	for i, f := range todo {
		if stop != nil && stop() {
			return
		}
		g, err := graphOf(f.Subject())
		if err != nil {
			continue
		}
		name := f.Signature
		if f.Strategy != "" {
			name += " (strategy " + f.Strategy + ")"
		}
		if log != nil {
			fmt.Fprintf(log, "cfgfuzz: minimizing %d of %d: %s, %d blocks...\n", i+1, len(todo), PrintableLine(name), len(g.Succs))
		}
		m, err := min(g, f.Signature, f.Strategy, campaignBaseline(f.Subject()))
		if m != nil {
			f.Minimized, f.MinimizedWeights, f.MinimizeStopped = cfg.FormatCompact(m), m.WeightList(), stoppedBy(err)
			f.notShrunk = notShrunk(err)
		}
		f.NotReproduced, f.Flaky, f.BaselineFlaky, f.BaselineChanged = notReproduced(err), flakyNote(err), baselineFlaky(err), baselineChanged(err)
		f.MinimizeError = minimizeError(err)
		f.MinimizeSkipped = budgetSkipped(err)
	}
}

// minimizedTonight reports whether a finding of a signature of the given
// class, with no minimized graph of its own or in the store, is minimized.
func minimizedTonight(class string) bool {
	return class == ClassNew || class == ClassKnown
}
