// hook.go: the minimizer as the campaign engine's hook. fuzz.Config has
// Minimize (a fuzz.Minimizer), called once per new finding's signature
// before the report is written; MinimizeHook builds
// that function over a Runner with the campaign's structurizer (its
// options, or its side through RunnerOptions.Structurize, so the stored
// module, verdicts, stats and answer are the structurizer under test's), a
// per-finding time bound, an optional baseline predicate, and an optional
// findings store that receives the finding (before and after) and every
// other signature met on the way.

package corpus

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// StoppedEarly is the error MinimizeHook returns beside a minimized graph
// when a limit ended the search before its fixpoint: the graph is the
// smallest accepted by then, which a longer search (or, for a time limit,
// a faster machine) shrinks further.
type StoppedEarly struct {
	// Limit is the limit that ended it (Result.Stopped): "time limit
	// (30s)" or "step limit (5000)".
	Limit string
}

func (e *StoppedEarly) Error() string {
	return "stopped early by the " + e.Limit + ", not at the fixpoint"
}

// NotJudged is the error MinimizeHook returns beside a minimized graph
// when the minimization budget (HookOptions.Remaining) ran out before
// every judgement of the result was made: whether it fails with the
// signature every time is unknown, and it was not stored.
type NotJudged struct {
	Skipped int   // judgements of the result skipped (Result.Unjudged)
	Judged  Tally // those made (Result.Confirmed)
}

func (e *NotJudged) Error() string { return e.What() }

// What is what was left undone, worded for a report.
func (e *NotJudged) What() string {
	made := ""
	if e.Judged.Judged > 0 {
		made = fmt.Sprintf(", it failed with the signature in %v made", e.Judged)
	}
	return fmt.Sprintf("the minimization budget ran out before its minimized graph was judged again every time (%d judgements skipped%s): whether it reproduces is unknown", e.Skipped, made)
}

// NotShrunk is the error MinimizeHook returns beside a minimized graph
// that is no smaller than the finding's graph (Size.Less): the finding is
// not minimized, and What says why.
type NotShrunk struct {
	// Stopped is the limit that ended the search (Result.Stopped), ""
	// when it reached its fixpoint.
	Stopped string
	// Original: a timeout finding's search went back to the original
	// graph (Overshoot.Original), its smaller graphs having been answered
	// late, within the time limit, which a replay judges by the answer.
	Original bool
}

func (e *NotShrunk) Error() string { return "not minimized: " + e.What() }

// What is why the result is the finding's graph's size, worded for a
// report.
func (e *NotShrunk) What() string {
	switch {
	case e.Original && e.Stopped != "":
		return "a replay times out on none of the smaller graphs the search kept (they were answered late, within the time limit): it went back to the finding's graph, and the " + e.Stopped + " stopped it there"
	case e.Original:
		return "a replay times out on none of the smaller graphs the search kept (they were answered late, within the time limit): it went back to the finding's graph and found no smaller one from there"
	case e.Stopped != "":
		return "the " + e.Stopped + " stopped the search before it found a smaller graph that fails so"
	}
	return "the search found no smaller graph that fails so: the finding's graph is as small as the minimizer makes it"
}

// notShrunkOf is the NotShrunk error of a result no smaller than the
// original graph, nil for one smaller.
func notShrunkOf(res *Result) error {
	if res.After.Less(res.Before) {
		return nil
	}
	return &NotShrunk{Stopped: res.Stopped, Original: res.Overshot != nil && res.Overshot.Original}
}

// Flaky is the error MinimizeHook returns when the judgements of one
// graph disagreed: the finding's graph, or its minimized graph, failed
// with the signature in some of its judgements and not in the others, or
// the minimized graph, accepted on a judgement that failed, failed in
// none of its own. The structurizer's answers then depend on chance (or
// on the requests before them), and a replay may pass.
type Flaky struct {
	// Original and Minimized are Result.Original and Result.Confirmed.
	Original, Minimized Tally
}

func (e *Flaky) Error() string { return "flaky: " + e.What() }

// What is what the judgements saw, worded for a report: "judged again by
// the minimizer, it failed with the signature in 2 of 3 judgements, its
// minimized graph in 3 of 3".
func (e *Flaky) What() string {
	return fmt.Sprintf("judged again by the minimizer, it failed with the signature in %v judgements, its minimized graph in %v", e.Original, e.Minimized)
}

// flakyOf is the Flaky error of a finished search, nil when every
// judgement of the original and of the result gave the signature.
func flakyOf(res *Result) error {
	if res.Original.Mixed() || res.Confirmed.Failed < res.Confirmed.Judged && res.BaselineFails == "" {
		return &Flaky{Original: res.Original, Minimized: res.Confirmed}
	}
	return nil
}

// HookOptions configures MinimizeHook. The zero value minimizes under the
// default strategy with no fault, every available check, 30 s and 5,000
// predicate calls per finding, no baseline, no store and no log.
type HookOptions struct {
	Runner RunnerOptions
	// Predicate, when non-nil, judges candidates instead of a Runner made
	// from Runner (a campaign whose current side is a process); the Runner
	// still records the verdicts and modules of stored findings.
	Predicate Predicate
	// Minimize are the search's options; its Signature is set per finding.
	// A zero Timeout means 30 s, a zero MaxSteps 5,000.
	Minimize Options
	// Store, when non-nil, receives every minimized finding and every
	// other signature met.
	Store *Store
	// Origin describes the campaign in stored findings.
	Origin string
	// Structurizer is the spec of the structurizer under test, recorded
	// with stored findings; "" this tree's.
	Structurizer string
	// Build and Serve are a repo: Structurizer's build and serve
	// commands given on the command line, recorded with it; "" none.
	Build, Serve string
	// Judged is how the campaign judged, recorded with stored findings
	// (Judged.For each one's signature); the zero value the defaults.
	Judged Judged
	// Replay, when non-nil, gives the command, run in an entry's
	// directory, that judges its graph.cfg again for a finding of the
	// signature given.
	Replay func(signature string) string
	// Log receives one line per finding; nil discards.
	Log io.Writer
	// Quiet leaves out of Log the lines that only say how a search went
	// (a finding's sizes, and a search stopped early, which the report
	// records; the judgements for the store); its errors and what was not
	// stored are still written.
	Quiet bool
	// Fresh, when non-nil, gives for a signature the predicate that
	// judges a graph on a structurizer of its own each time
	// (Options.Fresh).
	Fresh func(sig string) Predicate
	// Remaining, when non-nil, is the time left of a budget shared by
	// several findings: each search's time limit is the smaller of
	// Minimize.Timeout and Remaining() when the minimization starts, and
	// that is its Deadline too: no judgement of the result, nor the
	// store's, starts past it (the result is returned with a *NotJudged
	// error, and not stored). The judgements of the graph before the
	// search are not cut.
	Remaining func() time.Duration
	// Searched, when non-nil, is called as each minimization (the
	// search, and the judgements of the graph and of its result around
	// it) returns, before the hook logs what it gave: a caller's lines on
	// where the search stands end there, so none follows its result's.
	Searched func()
	// Storing, when non-nil, is called before each judgement the
	// findings store takes of a minimized finding (the finding's graph,
	// then its minimized graph: i of n, and the graph judged's size),
	// after the search and its result's judgements: each is as long as
	// any judgement, up to the structurizer's time limit on one that
	// hangs, so a caller's lines on where the minimization stands go on
	// through them.
	Storing func(i, n int, size Size)
}

// MinimizeHook returns a function for fuzz.Config.Minimize (the strategy
// is the Runner's), given the finding's graph g, its signature sig and
// the baseline's answer on g in the campaign (Options.CampaignBaseline;
// the zero value unknown): the minimized graph, with a *StoppedEarly
// error beside it when a limit ended the search, a *Flaky error when
// judgements disagreed, a *NotShrunk error when it is no smaller than g
// and a *BaselineChanged error when the baseline's answer on g differs
// from the campaign's (through errors.Join); nil and no error when the
// search was interrupted; nil and a *Flaky error when the result failed
// none of its judgements, and a *BaselineFailsError when the baseline
// failed it (each with the *BaselineChanged error, if any); an error
// when g could not be minimized, a *NotFailingError when g does not fail
// with sig, a *BaselineFailsError when the baseline fails it too (a
// graph the baseline declines, Declined, is minimized: the failure is
// new). It is not safe for concurrent use (the campaign calls it from
// one goroutine).
func MinimizeHook(opt HookOptions) (func(g *cfg.Graph, sig string, campaign BaselineAnswer) (*cfg.Graph, error), error) {
	run, err := NewRunner(opt.Runner)
	if err != nil {
		return nil, err
	}
	h := &findingHook{opt: opt, run: run, mo: opt.Minimize, log: opt.Log, sopt: opt.Runner.Structurizer}
	if h.mo.Timeout == 0 {
		h.mo.Timeout = 30 * time.Second
	}
	if h.mo.MaxSteps == 0 {
		h.mo.MaxSteps = 5000
	}
	if h.log == nil {
		h.log = io.Discard
	}
	h.registers = opt.Runner.Oracle.Walks.Registers
	h.env, h.compat = opt.Runner.Oracle.Env, opt.Runner.Oracle.RulesCompat
	if h.env == oracle.DefaultTargetEnv {
		h.env = ""
	}
	return h.minimize, nil
}

// findingHook is the function MinimizeHook returns, with what it holds:
// the hook's options, the runner that judges graphs, the minimization's
// options with their defaults, the log, and the settings a stored finding
// records it was judged under (the structurizer's options, the register
// file, the validator's target environment, "" the default, and
// readings).
type findingHook struct {
	opt         HookOptions
	run         *Runner
	mo          Options
	log         io.Writer
	sopt        structurizer.Options
	registers   int
	env, compat string
}

// minimize minimizes g, the first graph of the finding of signature sig,
// which the campaign's baseline answered as campaign, logs the result,
// and stores the finding with its minimized graph (MinimizeHook says
// what it returns).
func (h *findingHook) minimize(g *cfg.Graph, sig string, campaign BaselineAnswer) (*cfg.Graph, error) {
	o, pred := h.options(sig)
	o.CampaignBaseline = campaign
	name := sig // the finding as the campaign names it: per signature and strategy
	if h.sopt.Strategy != "" {
		name += " (strategy " + h.sopt.Strategy + ")"
	}
	res, err := Minimize(g, pred, o)
	if h.opt.Searched != nil {
		h.opt.Searched()
	}
	if err != nil {
		fmt.Fprintf(h.log, "minimize %s: %v\n", name, err)
		return nil, err
	}
	flaky := h.logResult(name, res)
	changed := baselineChangedError(res)
	switch {
	case res.Stopped == StoppedByInterruption:
		return nil, nil // an interrupted campaign's resume minimizes it whole
	case res.BaselineFails != "":
		return nil, errors.Join(&BaselineFailsError{Got: res.BaselineFails, Minimized: true}, changed)
	case res.Confirmed.Failed == 0 && res.RejudgeErr != nil:
		return nil, errors.Join(rejudgeError(res), changed)
	case res.Confirmed.Failed == 0 && res.Confirmed.Judged > 0:
		return nil, errors.Join(flaky, changed)
	}
	unjudged := h.store(g, sig, name, res, o.Deadline)
	var early error
	if res.Stopped != "" {
		early = &StoppedEarly{Limit: res.Stopped}
	}
	return res.Graph, errors.Join(early, flaky, rejudgeError(res), unjudged, notShrunkOf(res), changed)
}

// options are the minimization's options for the finding of sig, with
// the predicate that judges its candidates: the hook's limits, cut to
// the budget left (Remaining), which is the deadline too; a structurizer
// of its own each judgement (Fresh); the other signatures met on the way
// stored; and, without the hook's Predicate, the runner's for sig, with
// its replay.
func (h *findingHook) options(sig string) (Options, Predicate) {
	o := h.mo
	o.Signature = sig
	if h.opt.Remaining != nil {
		left := max(h.opt.Remaining(), time.Millisecond)
		if o.Timeout < 0 || left < o.Timeout {
			// Rounded to 10 ms: the limit is printed ("time limit (8.04s)").
			o.Timeout = max(left.Round(10*time.Millisecond), time.Millisecond)
		}
		o.Deadline = time.Now().Add(left)
	}
	if h.opt.Fresh != nil {
		o.Fresh = h.opt.Fresh(sig)
	}
	if h.opt.Store != nil {
		o.OnOther = func(c *cfg.Graph, other string) {
			r := h.run.Run(c)
			storeOrLog(h.opt.Store, h.log, Finding{Signature: other, Graph: c, Verdicts: r.Verdicts, Module: r.Module, Stats: r.Stats,
				Origin: h.opt.Origin + " (met while minimizing " + sig + ")", Strategy: h.sopt.Strategy, Inject: h.sopt.Inject, Registers: h.registers,
				TargetEnv: h.env, RulesCompat: h.compat, Structurizer: h.opt.Structurizer, Build: h.opt.Build, Serve: h.opt.Serve, Judged: h.opt.Judged.For(other), Answer: r.Answer, Replay: h.opt.replay(other)})
		}
	}
	pred := h.opt.Predicate
	if pred == nil {
		pred = h.run.PredicateFor(sig) // a timeout keeps slow candidates (timeout.go)
		o.Replay = h.run.ReplayFor(sig)
	}
	return o, pred
}

// logResult logs the minimization's result (unless Quiet): the blocks
// before and after, its time, whether it was verified (VerifiedText), and whether the
// search overshot, stopped early or met disagreeing judgements. It
// returns the *Flaky error of those judgements, nil when they agreed.
func (h *findingHook) logResult(name string, res *Result) (flaky error) {
	stopped := ""
	if res.Overshot != nil {
		stopped = "; " + OvershotNote(res)
	}
	if res.Stopped != "" {
		stopped += "; the search stopped early by the " + res.Stopped + ", not at the fixpoint: another run may shrink it further"
	}
	if note := BaselineNote(res); note != "" {
		stopped += "; " + note
	}
	flaky = flakyOf(res)
	if flaky != nil {
		stopped += "; " + flaky.Error()
	}
	if !h.opt.Quiet {
		fmt.Fprintf(h.log, "minimize %s: %d -> %d blocks in %v (%s), %s%s\n", name, res.Before.Blocks, res.After.Blocks, res.Elapsed.Round(time.Millisecond), timeSplit(res), VerifiedText(res), stopped)
	}
	return flaky
}

// store judges the finding of sig's graph g and its minimized graph once
// more and stores both in the findings store, unless judgements of the
// result were skipped (the *NotJudged error returned) or the
// minimization budget is spent by deadline; each logged.
func (h *findingHook) store(g *cfg.Graph, sig, name string, res *Result, deadline time.Time) error {
	var unjudged error
	if res.Unjudged > 0 {
		unjudged = &NotJudged{Skipped: res.Unjudged, Judged: res.Confirmed}
		fmt.Fprintf(h.log, "minimize %s: %v; not stored\n", name, unjudged)
	} else if !deadline.IsZero() && time.Now().After(deadline) {
		fmt.Fprintf(h.log, "minimize %s: the minimization budget is spent: not stored (its 2 judgements for the findings store skipped)\n", name)
	} else if h.opt.Store != nil {
		// Two judgements more, as long as any on a slow structurizer.
		if !h.opt.Quiet {
			fmt.Fprintf(h.log, "minimize %s: judging the graph and its minimized graph once more for the findings store (verdicts, modules, answer)...\n", name)
		}
		h.opt.storing(1, 2, g)
		before := h.run.Run(g)
		h.opt.storing(2, 2, res.Graph)
		after := h.run.Run(res.Graph)
		storeOrLog(h.opt.Store, h.log, Finding{Signature: sig, Graph: g, Minimized: res.Graph, Verdicts: before.Verdicts, Module: before.Module,
			MinModule: after.Module, Stats: before.Stats, Origin: h.opt.Origin, Strategy: h.sopt.Strategy, Inject: h.sopt.Inject, Registers: h.registers,
			TargetEnv: h.env, RulesCompat: h.compat, Structurizer: h.opt.Structurizer, Build: h.opt.Build, Serve: h.opt.Serve, Judged: h.opt.Judged.For(sig), Answer: before.Answer, Replay: h.opt.replay(sig)})
	}
	return unjudged
}

// OvershotNote words a result's Overshot: "the search's smallest graph,
// 3 blocks, gave growth:time, not structurize:timeout, judged as its
// replay judges it (a timeout finding's search keeps graphs answered
// late, within the time limit); the search went back to the smallest graph
// it had accepted that gave structurize:timeout so, 10 blocks, and shrank
// it to 6 blocks 7 edges judging as a replay does". When it went back to
// the original graph it says so, and when the result is the original's
// size it says the finding is not minimized, and why: the search from the
// original found no smaller graph its replay judges so, or a limit
// stopped it first.
func OvershotNote(res *Result) string {
	o := res.Overshot
	got := "passed"
	if o.Got != "" {
		got = "gave " + o.Got + ", not " + res.Signature + ","
	}
	back := fmt.Sprintf("the search went back to the smallest graph it had accepted that gave %s so, %d blocks", res.Signature, o.Back.Blocks)
	if o.Original {
		back = fmt.Sprintf("none of the graphs it had accepted that were judged so gave %s: the search went back to the original graph, %d blocks", res.Signature, o.Back.Blocks)
	}
	on := ""
	switch {
	case res.After != o.Back:
		on = fmt.Sprintf(", and shrank it to %d blocks %d edges judging as a replay does", res.After.Blocks, res.After.Edges)
	case !o.Original:
	case res.Stopped != "":
		on = "; the result is the original graph's size, not minimized: the " + res.Stopped + " stopped the search from it before it found a smaller graph its replay judges " + res.Signature
	default:
		on = "; the result is the original graph's size, not minimized: searching on from it, judging candidates as a replay does, found no smaller graph"
	}
	return fmt.Sprintf("the search's smallest graph, %d blocks, %s judged as its replay judges it (a timeout finding's search keeps graphs answered late, within the time limit); %s%s",
		o.Size.Blocks, got, back, on)
}

// BaselineNote words what the baseline's answers did to a search with a
// baseline: that its answer on the original graph differs from the
// campaign's (Options.CampaignBaseline: BaselineChanged says what that
// means), first; that it declined (Declined) the original graph, which
// is no failure, so candidates it declines were taken too; or how many
// candidates failing with the signature were not taken because it
// declined them though it passed the original graph. "" when neither
// its answer nor its declines mattered.
func BaselineNote(res *Result) string {
	var parts []string
	changed := baselineChangedOf(res)
	if changed != nil {
		parts = append(parts, changed.What())
	}
	switch n := res.BaselineDeclined; {
	case res.BaselineDeclines != "" && changed != nil:
		parts = append(parts, "the search took candidates the baseline declines as well as those it passes, as it declined the graph")
	case res.BaselineDeclines != "":
		parts = append(parts, fmt.Sprintf("the baseline %s the graph (%s), which is no failure: the failure is new, and the search took candidates the baseline declines as well as those it passes",
			declineWords(res.BaselineDeclines), res.BaselineDeclines))
	case n > 0:
		what := "candidates that fail with the signature were not taken: the baseline declines them"
		if n == 1 {
			what = "candidate that fails with the signature was not taken: the baseline declines it"
		}
		parts = append(parts, fmt.Sprintf("%d %s (refuses, or does not serve), though it passes the graph: a decline is no failure, but cannot show the failure new against a baseline that passes", n, what))
	}
	return strings.Join(parts, "; ")
}

// declineWords words a decline: "refuses", "does not serve".
func declineWords(sig string) string {
	if sig == SigUnsupported {
		return "does not serve"
	}
	return "refuses"
}

// timeSplit words how a search's time divides between the search, which
// Options.Timeout bounds, and the judgements around it, which it does not
// (each as long as a judgement of the graph takes: up to the
// structurizer's time limit for a timeout): "the search 30.2s, the 6
// judgements of the graph and of its result around it 1m0.771s".
func timeSplit(res *Result) string {
	around, n := res.Elapsed-res.Search, res.Steps-res.SearchSteps
	judgements := "judgements"
	if n == 1 {
		judgements = "judgement"
	}
	return fmt.Sprintf("the search %v, the %d %s of the graph and of its result around it %v",
		res.Search.Round(time.Millisecond), n, judgements, max(around, 0).Round(time.Millisecond))
}

// rejudgeError is the error of a result some judgement of which could not
// be made (Result.RejudgeErr), nil when each was.
func rejudgeError(res *Result) error {
	if res.RejudgeErr == nil {
		return nil
	}
	return fmt.Errorf("judging the minimized graph again: %w", res.RejudgeErr)
}

// storeOrLog adds f to store and logs why when it could not: the report
// still holds the finding, but its store entry is missing.
func storeOrLog(store *Store, log io.Writer, f Finding) {
	if _, err := store.Add(f); err != nil {
		fmt.Fprintf(log, "cfgfuzz: findings store: %s not stored under %s: %v\n", f.Signature, store.Dir, err)
	}
}

// storing tells Storing, when set, of the store's judgement i of n, of g.
func (opt *HookOptions) storing(i, n int, g *cfg.Graph) {
	if opt.Storing != nil {
		opt.Storing(i, n, SizeOf(g))
	}
}

// replay is the replay command of a finding of signature; "" none.
func (opt *HookOptions) replay(signature string) string {
	if opt.Replay == nil {
		return ""
	}
	return opt.Replay(signature)
}

// Judging is what of a campaign's settings its oracle depends on
// (Settings.Walks, Seed, Registers, GPUDevice, TargetEnv and RulesCompat in
// package fuzz); the zero value is no random walk, seed 0, no register
// file, the default device, target environment and rules reading.
type Judging struct {
	Walks       int
	Seed        uint64
	Registers   int
	GPUDevice   string
	TargetEnv   string
	RulesCompat string
	// GrowthTime is the fixed part of the growth check's time limit
	// (oracle.GrowthOptions.TimeLimit); 0 the default.
	GrowthTime time.Duration
}

// CampaignOracle is the oracle's settings as a campaign's workers make
// them from j: the random walks and meta's renumbering are seeded with the
// campaign's seed (0 walks means none), the walks and the modules carry
// its register file, the gpu check runs on its device, spirv-val on its
// target environment and the rules check with its reading, and the growth
// check holds the structurizer to its time limit. A finding that
// only a random walk or the register file shows keeps failing under the
// minimizer only with the same settings.
func CampaignOracle(j Judging) oracle.Options {
	o := oracle.Options{Walks: oracle.WalkOptions{Random: j.Walks, Seed: j.Seed, Registers: j.Registers}, Seed: j.Seed, GPUDevice: j.GPUDevice,
		Env: j.TargetEnv, RulesCompat: j.RulesCompat, Growth: oracle.GrowthOptions{TimeLimit: j.GrowthTime}}
	if j.Walks == 0 {
		o.Walks.Random = -1
	}
	return o
}
