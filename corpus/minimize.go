// minimize.go: the minimizer's entry point, its options and its search
// state. Minimization is a pipeline of stages (stages.go), after
// syzkaller's pkg/repro: each stage proposes smaller candidates, a
// candidate is accepted only when the predicate gives exactly the target
// signature (and, in baseline mode, the baseline passes it), the pipeline
// repeats until a whole round shrinks nothing, and the result is verified
// again with the cache bypassed. For a signature judged on walks, a graph
// whose every block can return is shrunk only into graphs that can too
// (returnsEverywhere). The original graph is judged as given, its dead
// blocks (those no path from the entry reaches) included, and the search
// keeps them while the failure needs them: the stages drop dead blocks as
// they drop any other (reduce.go). The original
// graph and the result are each judged Options.Rejudge times, so that a
// structurizer whose answers depend on chance shows as judgements that
// disagree (Result.Original, Result.Confirmed). Candidates are cached by
// Key, so a candidate two stages both propose is judged once. Step and time limits
// end the search early with the smallest graph accepted so far.

package corpus

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Predicate judges a candidate: the failure's signature, "" when it
// passes. err is a harness failure (not a finding); such a candidate counts
// as not failing. A Runner's Predicate is one; a baseline runner from the
// campaign engine is another.
type Predicate func(g *cfg.Graph) (signature string, err error)

// Options configures Minimize. The zero value minimizes for the original
// failure's signature, with no baseline, at most DefaultMaxSteps predicate
// calls and DefaultTimeout, and reports other signatures nowhere.
type Options struct {
	// Signature is the signature to keep; "" means the original graph's
	// own (it must fail).
	Signature string
	// Baseline, when non-nil, judges the original graph and each
	// candidate on the baseline, so that the failure stays new on the
	// current side: a graph the baseline fails is never taken. A decline
	// (Declined: a refusal, or a graph the baseline does not serve) is
	// no failure, as the campaign counts it, but no pass either: where
	// the baseline passes the original graph, a candidate counts only when
	// it passes it too (a candidate it declines cannot show the failure
	// new against a baseline that passes it: Result.BaselineDeclined
	// counts them); where it declines the original, a candidate counts
	// when it passes or declines it (Result.BaselineDeclines). A
	// refusal is no decline where the signature kept is SigRefused: the
	// baseline then fails the graph as the current side does.
	// Runner.BaselinePredicate is one.
	Baseline Predicate
	// CampaignBaseline is the baseline's answer on the original graph in
	// the campaign that found it (the finding's record), for a search
	// with a Baseline: the zero value is unknown, as for a graph no
	// campaign judged (`cfgfuzz minimize --baseline` on a file). Where it
	// is known and Baseline's judgement of the original graph differs
	// from it (a pass against a decline, one decline against another, or
	// a failure), the baseline's answers depend on chance, and whether
	// the failure is new is uncertain: BaselineNote, MinimizeHook's
	// *BaselineChanged and BaselineFailsError.Campaign say so. It changes
	// no rule of the search, which judges by Baseline's own answer.
	CampaignBaseline BaselineAnswer
	// MaxSteps bounds the predicate calls (cache hits are free); 0 means
	// DefaultMaxSteps, negative means no bound.
	MaxSteps int
	// Timeout bounds the search, from the end of the original graph's
	// judgement (and the baseline's); 0 means DefaultTimeout, negative
	// means no bound. The candidate being judged when it runs out is
	// judged to its end, and the final verification runs after it.
	Timeout time.Duration
	// OnOther is called once per other signature met on the way, with the
	// first candidate that showed it; nil ignores them. They are never
	// adopted as the target.
	OnOther func(g *cfg.Graph, signature string)
	// IsomorphicCache keys the cache by the canonical depth-first
	// numbering (DFSRenumber), so relabeled copies share one verdict.
	// false keys it by the candidate's own numbering (Key): a bug that
	// depends on block ids is never credited to a relabeled copy.
	IsomorphicCache bool
	// Stages replaces the pipeline; nil means DefaultStages.
	Stages []Stage
	// Log, when non-nil, receives one line per accepted reduction.
	Log func(format string, args ...any)
	// Progress, when non-nil, is called after every judgement of a
	// candidate and of the result, and after every accepted reduction,
	// with the judgements so far (Result.Steps) and the current graph's
	// size; it must be cheap, or throttle itself (the minimize command
	// prints a line every few seconds).
	Progress func(steps int, cur Size)
	// Context, when non-nil, stops the search once it is done (a stopped
	// campaign): Result.Stopped is then "interruption".
	Context context.Context
	// Rejudge is how many times the original graph and the result are
	// judged (Result.Original, Result.Confirmed): a structurizer whose
	// answers depend on chance fails some of them. 0 means
	// DefaultRejudge; every candidate in between is judged once.
	Rejudge int
	// Fresh, when non-nil, makes every judgement of the original graph
	// and of the result but the first of each: it judges a graph on a
	// structurizer of its own (a new process for an external one), so
	// that answers depending on the process (a hash seed, addresses) or
	// on the requests before disagree too. nil: the search's predicate.
	Fresh Predicate
	// Deadline, when not zero, is when the whole minimization must end
	// (a campaign's budget): no judgement of the result starts past it
	// (Result.Unjudged). It does not end the search (Timeout does).
	Deadline time.Time
	// Replay, when non-nil, judges a graph as its replay command does,
	// for a search whose predicate is laxer: a timeout finding's keeps
	// candidates that answer late (Runner.PredicateFor), a replay only
	// those that get no answer within the time limit. It makes the first
	// judgement of the original graph and of the result, Fresh (which
	// must then judge as Replay does) the others, and the predicate only
	// the candidates of the search. When Replay does not judge the
	// search's smallest graph with the target signature, the search goes
	// back to the smallest graph it accepted that Replay does judge so,
	// and, when its limits have time and steps left, goes on from there
	// with Replay judging the candidates (Result.Overshot). The predicate
	// judges no graph before the first candidate: give it its target
	// (Runner.PredicateFor with the signature, not ""). nil: the
	// predicate judges as a replay does.
	Replay Predicate
}

// Overshoot is the search's smallest graph when a replay's judgement of
// it (Options.Replay) did not give the target signature, though the
// search's predicate did: a timeout finding's search keeps a graph the
// structurizer answers late, within the time limit, which a replay judges
// by its answer (growth:time, say). The result is then the smallest graph
// the search accepted on its way that the replay's judgement gave the
// target (the original graph, when none did: Original), or a graph the
// search shrank that one into with Replay judging its candidates. When
// the search went back to the original and shrank it no further, the
// result is the original graph (Result.After equals Result.Before): the
// finding is not minimized, and OvershotNote says so.
type Overshoot struct {
	Size Size   // the search's smallest graph's size
	Got  string // what a replay's judgement of it gave, "" a pass
	// Back is the size of the graph the search went back to: the
	// smallest it had accepted that the replay's judgement gave the
	// target, or the original's.
	Back Size
	// Original: the replay's judgement gave the target on none of the
	// graphs the search accepted (those it judged bisecting its path),
	// and the search went back to the original graph.
	Original bool
}

// StoppedByInterruption is Result.Stopped for a search whose
// Options.Context was done.
const StoppedByInterruption = "interruption"

// VerifiedText is the log's word on whether res was verified: "verified
// true" or "verified false", which says whether its judgements gave the
// signature again, or, after an interruption, which ends the search
// before them, that it was not judged.
func VerifiedText(res *Result) string {
	if res.Stopped == StoppedByInterruption {
		return "not verified: the interruption stopped it before its result was judged"
	}
	return fmt.Sprintf("verified %v", res.Verified)
}

// Defaults for the zero values of Options.
const (
	DefaultMaxSteps = 20000
	DefaultTimeout  = 5 * time.Minute
	DefaultRejudge  = 3
)

// Result is a minimization's outcome.
type Result struct {
	Graph     *cfg.Graph // the smallest graph that still fails (normalized)
	Signature string     // the signature it keeps
	Before    Size       // the original's size, dead blocks included
	After     Size       // the result's size
	Steps     int        // predicate calls, the final verification included
	CacheHits int        // candidates answered from the cache
	Errors    int        // predicate harness errors (counted as passing)
	Elapsed   time.Duration
	// Search is the search's own part of Elapsed, the part
	// Options.Timeout bounds: from the end of the judgements of the
	// original graph (and the baseline's) to the start of the result's;
	// SearchSteps its predicate calls. The rest of Elapsed is the
	// Steps-SearchSteps judgements around it.
	Search      time.Duration
	SearchSteps int
	Stopped     string // "" when the pipeline reached its fixpoint, else the limit that ended it
	// Verified: every judgement of the result gave the signature again
	// (and, in baseline mode, the baseline did not fail it: it passed or
	// declined it).
	Verified bool
	// Original and Confirmed count the judgements of the original graph
	// and of the result (Options.Rejudge each; none of the result after
	// an interruption) that gave the signature. Judgements of one graph
	// that disagree (Tally.Mixed) mean the structurizer's answers depend
	// on chance, or on the requests before them.
	Original, Confirmed Tally
	// RejudgeErr is the first harness error of a judgement of the result
	// (a fresh structurizer side that did not start, say, or the
	// baseline's judgement of it, "on the baseline: ..."): that judgement
	// is not counted in Confirmed, and the result is not Verified. It says
	// nothing of the structurizer's answers.
	RejudgeErr error
	// Unjudged counts the judgements of the result skipped because
	// Options.Deadline had passed (the baseline's included): the result
	// is then not Verified, and whether it fails as the original did is
	// unknown.
	Unjudged int
	// BaselineFails is the baseline's signature on the result when, in
	// baseline mode, it failed it: the result is not a new failure.
	BaselineFails string
	// BaselineDeclines is the baseline's answer on the original graph
	// when it declined it (SigRefused, SigUnsupported): the failure is
	// new, and the search took candidates the baseline declines as well
	// as those it passes. "" when the baseline passed it, or there is
	// none.
	BaselineDeclines string
	// CampaignBaseline is Options.CampaignBaseline in baseline mode (the
	// zero value, unknown, without a baseline): where it is known and
	// differs from BaselineDeclines ("" a pass), the baseline's answers
	// depend on chance (BaselineNote, BaselineChanged).
	CampaignBaseline BaselineAnswer
	// BaselineDeclined counts the candidates that failed with the
	// signature but were not taken because the baseline, which passed the
	// original graph, declined them.
	BaselineDeclined int
	// Overshot, when not nil, is the search's smallest graph, which
	// Options.Replay did not judge with the signature: Graph is the
	// smallest graph accepted on the way that it did (or the original),
	// or one the search shrank that into with Replay judging its
	// candidates; Steps counts the judgements that found it, and Search
	// and SearchSteps the search's own from there.
	Overshot *Overshoot
	// Others maps each other signature met on the way to the first
	// candidate that showed it.
	Others map[string]*cfg.Graph
	// Stages counts the accepted reductions per stage name, those on
	// the way to Graph: a search that went back (Overshot) does not count
	// the reductions past the graph it went back to.
	Stages map[string]int
}

// ErrNotFailing means the original graph does not fail the way asked.
var ErrNotFailing = errors.New("the graph does not fail")

// NotFailingError is Minimize's error for an original graph that does
// not fail the way asked; it wraps ErrNotFailing. The graph is judged as
// given, its dead blocks (those no path from the entry reaches) included.
type NotFailingError struct {
	Target string // the signature asked for, "" the graph's own
	Got    string // the signature the graph gave (its first judgement), "" it passes
	// Judged is how many times the graph was judged, none of them
	// failing as asked (Options.Rejudge).
	Judged int
}

func (e *NotFailingError) Error() string {
	times := e.times()
	switch {
	case e.Target == "":
		return ErrNotFailing.Error() + ": it passes" + times + ", so there is nothing to minimize"
	case e.Got == "":
		return fmt.Sprintf("%v with %q: it passes%s", ErrNotFailing, e.Target, times)
	}
	return fmt.Sprintf("%v with %q: it fails with %q%s", ErrNotFailing, e.Target, e.Got, times)
}

func (e *NotFailingError) Unwrap() error { return ErrNotFailing }

// What is what the graph did, worded for a report: "it passes" or "it
// fails with SIGNATURE".
func (e *NotFailingError) What() string {
	if e.Got == "" {
		return "it passes" + e.times()
	}
	return "it fails with " + e.Got + e.times()
}

// times says how many judgements there were, when more than one: with no
// signature asked every one passed; with one, Got is the first's.
func (e *NotFailingError) times() string {
	switch {
	case e.Judged <= 1:
		return ""
	case e.Target == "":
		return fmt.Sprintf(" (judged %d times)", e.Judged)
	}
	return fmt.Sprintf(" (the first of %d judgements, none failing with the signature)", e.Judged)
}

// BaselineFailsError is Minimize's error for an original graph that the
// baseline fails too (Options.Baseline): not a new failure; and
// MinimizeHook's for a minimized graph the baseline fails when judged
// again, though it did not fail it during the search (Minimized). A
// graph the baseline declines (Declined) is not one it fails.
type BaselineFailsError struct {
	Got       string // the baseline's signature, never a decline
	Minimized bool   // the graph is the minimized one, not the original
	// Campaign is, for the original graph, the baseline's answer on it
	// in the campaign that found it (Options.CampaignBaseline): where
	// that is known and no failure, the baseline's answers depend on
	// chance, and whether the failure is new is uncertain.
	Campaign BaselineAnswer
}

func (e *BaselineFailsError) Error() string {
	switch {
	case e.Minimized:
		return fmt.Sprintf("the baseline fails the minimized graph (%s), though it did not fail it during the search: perhaps not a new failure", e.Got)
	case e.Campaign.Known && !e.Campaign.Failed():
		return (&BaselineChanged{Campaign: e.Campaign.Signature, Minimizer: e.Got}).What()
	}
	return fmt.Sprintf("not a new failure: the baseline fails it too (%s)", e.Got)
}

// Tally counts the judgements of one graph that gave the target
// signature.
type Tally struct {
	Failed, Judged int
}

// Mixed says the judgements disagreed: some gave the signature, some not.
func (t Tally) Mixed() bool { return t.Failed > 0 && t.Failed < t.Judged }

func (t Tally) String() string { return fmt.Sprintf("%d of %d", t.Failed, t.Judged) }

// search is the state shared by the stages of one minimization.
type search struct {
	pred     Predicate
	opt      Options
	target   string
	cur      *cfg.Graph
	cache    map[string]bool
	res      *Result
	deadline time.Time
	start    time.Time
	// searchStart and searchSteps: when the search proper began, and
	// Result.Steps then (Result.Search).
	searchStart time.Time
	searchSteps int
	// returning: the target is judged on walks and every block of the
	// original graph can reach a return, so every candidate's must too
	// (returnsEverywhere).
	returning bool
	// trail is, with Options.Replay, the graphs the search stood at, the
	// original first and cur last, the last of each block count (accept),
	// from which replayable takes a larger graph when Replay does not
	// judge cur with the target. trailStages[i] is Result.Stages when
	// the search stood at trail[i].
	trail       []*cfg.Graph
	trailStages []map[string]int
}

// Minimize shrinks g while it keeps failing with the target signature.
func Minimize(g *cfg.Graph, pred Predicate, opt Options) (*Result, error) {
	s, err := newSearch(g, pred, opt)
	if err != nil {
		return nil, err
	}
	stages := opt.Stages
	if stages == nil {
		stages = DefaultStages
	}
	if err := s.runPipeline(stages); err != nil {
		return nil, err
	}
	s.endSearch()
	first, err := s.replayable(stages)
	if err != nil {
		return nil, err
	}
	s.verify(first)
	return s.res, nil
}

// endSearch adds the time and judgements since the search (or its
// continuation) started to Result.Search and SearchSteps.
func (s *search) endSearch() {
	s.res.Search += time.Since(s.searchStart)
	s.res.SearchSteps += s.res.Steps - s.searchSteps
}

func newSearch(g *cfg.Graph, pred Predicate, opt Options) (*search, error) {
	if opt.MaxSteps == 0 {
		opt.MaxSteps = DefaultMaxSteps
	}
	if opt.Timeout == 0 {
		opt.Timeout = DefaultTimeout
	}
	if err := g.Validate(cfg.Limits{}); err != nil {
		return nil, err
	}
	if opt.Rejudge <= 0 {
		opt.Rejudge = DefaultRejudge
	}
	h := normalize(g, g, nil)
	s := &search{pred: pred, opt: opt, cur: h, cache: map[string]bool{}, start: time.Now(), trail: []*cfg.Graph{h}, trailStages: []map[string]int{{}},
		res: &Result{Before: SizeOf(h), Others: map[string]*cfg.Graph{}, Stages: map[string]int{}}}
	first, err := s.judgeOriginal(h)
	if err != nil {
		return nil, err
	}
	if s.res.Original.Failed == 0 {
		return nil, &NotFailingError{Target: opt.Signature, Got: first, Judged: s.res.Original.Judged}
	}
	if err := s.checkBaseline(h); err != nil {
		return nil, err
	}
	s.cache[s.key(h)] = true
	s.res.Signature = s.target
	s.returning = onWalks(s.target) && returnsEverywhere(h)
	s.searchStart, s.searchSteps = time.Now(), s.res.Steps
	if opt.Timeout > 0 {
		s.deadline = s.searchStart.Add(opt.Timeout) // the search's own time: the graph is judged first
	}
	return s, nil
}

func (s *search) checkBaseline(h *cfg.Graph) error {
	if s.opt.Baseline == nil {
		return nil
	}
	sig, err := s.opt.Baseline(h)
	s.res.Steps++
	if err != nil {
		return fmt.Errorf("judging the original graph on the baseline: %w", err)
	}
	if sig != "" && !s.declines(sig) {
		return &BaselineFailsError{Got: sig, Campaign: s.opt.CampaignBaseline}
	}
	s.res.BaselineDeclines, s.res.CampaignBaseline = sig, s.opt.CampaignBaseline
	return nil
}

// declines says whether base, the baseline's answer, is a decline
// (Declined) and not the target: a graph whose failure is a refusal
// (structurize:refused, which check and minimize count on the
// structurizer under test) is failed by a baseline that refuses it too,
// not declined.
func (s *search) declines(base string) bool { return Declined(base) && base != s.target }

// baselineTakes reports whether the baseline's answer base on a
// candidate that fails with the target lets the search take it
// (Options.Baseline): a pass, or a decline where the baseline declined
// the original graph too; a decline where it passed the original is
// counted in Result.BaselineDeclined.
func (s *search) baselineTakes(base string) bool {
	switch {
	case base == "":
		return true
	case !s.declines(base):
		return false
	case s.res.BaselineDeclines != "":
		return true
	}
	s.res.BaselineDeclined++
	return false
}

// judgeOriginal judges the original graph h Options.Rejudge times into
// Result.Original and sets the target: Options.Signature, else the first
// signature h gave. It returns the first judgement's signature.
func (s *search) judgeOriginal(h *cfg.Graph) (string, error) {
	s.target = s.opt.Signature
	first := ""
	for i := range s.opt.Rejudge {
		sig, err := s.rejudge(i)(h)
		s.res.Steps++
		if err != nil {
			return "", fmt.Errorf("judging the original graph: %w", err)
		}
		if i == 0 {
			first = sig
		}
		if s.target == "" {
			s.target = sig
		}
		s.res.Original.Judged++
		if sig != "" && sig == s.target {
			s.res.Original.Failed++
		}
	}
	return first, nil
}

// stopped reports (and records) whether a limit has been reached.
func (s *search) stopped() bool {
	switch {
	case s.res.Stopped != "":
		return true
	case s.opt.Context != nil && s.opt.Context.Err() != nil:
		s.res.Stopped = StoppedByInterruption
	case s.opt.MaxSteps > 0 && s.res.Steps >= s.opt.MaxSteps:
		s.res.Stopped = fmt.Sprintf("step limit (%d)", s.opt.MaxSteps)
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		s.res.Stopped = fmt.Sprintf("time limit (%s)", s.opt.Timeout)
	}
	return s.res.Stopped != ""
}

// fails judges a candidate through the cache: true when it gives the
// target signature (and passes the baseline). A candidate that is not
// smaller than the current graph is refused unjudged, which is what makes
// every stage, and so the pipeline, terminate.
func (s *search) fails(c *cfg.Graph) bool {
	if !SizeOf(c).Less(SizeOf(s.cur)) {
		return false
	}
	return s.judge(c)
}

// judge is fails without the size rule (the renumbering stage).
func (s *search) judge(c *cfg.Graph) bool {
	if s.returning && !returnsEverywhere(c) {
		return false
	}
	key := s.key(c)
	if v, ok := s.cache[key]; ok {
		s.res.CacheHits++
		return v
	}
	if s.stopped() {
		return false
	}
	v := s.judgeUncached(c)
	s.cache[key] = v
	return v
}

func (s *search) key(c *cfg.Graph) string {
	if s.opt.IsomorphicCache {
		return Key(DFSRenumber(c))
	}
	return Key(c)
}

func (s *search) judgeUncached(c *cfg.Graph) bool {
	defer s.progress()
	sig, err := s.pred(c)
	s.res.Steps++
	switch {
	case err != nil:
		s.res.Errors++
		return false
	case sig == "":
		return false
	case sig != s.target:
		s.other(c, sig)
		return false
	case s.opt.Baseline == nil:
		return true
	}
	base, err := s.opt.Baseline(c)
	s.res.Steps++
	if err != nil {
		s.res.Errors++
		return false
	}
	return s.baselineTakes(base)
}

func (s *search) other(c *cfg.Graph, sig string) {
	if _, seen := s.res.Others[sig]; seen {
		return
	}
	s.res.Others[sig] = c
	if s.opt.OnOther != nil {
		s.opt.OnOther(c, sig)
	}
}

// progress reports the search's progress to Options.Progress.
func (s *search) progress() {
	if s.opt.Progress != nil {
		s.opt.Progress(s.res.Steps, SizeOf(s.cur))
	}
}

// accept makes c the current graph.
func (s *search) accept(stage string, c *cfg.Graph) {
	if s.opt.Log != nil {
		s.opt.Log("%s: %d blocks %d edges -> %d blocks %d edges", stage, s.cur.Len(), s.cur.Edges(), c.Len(), c.Edges())
	}
	s.cur = c
	s.res.Stages[stage]++
	if s.opt.Replay != nil {
		if last := len(s.trail) - 1; last > 0 && c.Len() == s.trail[last].Len() {
			s.trail[last], s.trailStages[last] = c, maps.Clone(s.res.Stages) // one graph a block count, and the original: what replayable bisects
		} else {
			s.trail, s.trailStages = append(s.trail, c), append(s.trailStages, maps.Clone(s.res.Stages))
		}
	}
	s.progress() // the size the search stands at, not the one before this candidate
}

// rejudge is the predicate of the i-th judgement of the original graph
// or of the result: Options.Replay's (else the search's) for the first,
// Options.Fresh's after, when given.
func (s *search) rejudge(i int) Predicate {
	if i > 0 && s.opt.Fresh != nil {
		return s.opt.Fresh
	}
	if s.opt.Replay != nil {
		return s.opt.Replay
	}
	return s.pred
}

// verify judges the result Options.Rejudge times more, bypassing the
// cache (not after an interruption: the campaign stops, and its resume
// minimizes anew), and fills the result's figures. first, when not nil,
// is the result's first judgement, made already (replayable).
func (s *search) verify(first *judgement) {
	s.res.Graph = s.cur
	s.res.After = SizeOf(s.cur)
	if s.res.Stopped == StoppedByInterruption {
		s.res.Elapsed = time.Since(s.start) // not verified: the caller stops
		return
	}
	for i := range s.opt.Rejudge {
		var sig string
		var err error
		switch {
		case i == 0 && first != nil:
			sig, err = first.sig, first.err
		case s.past():
			s.res.Unjudged++
			continue
		default:
			sig, err = s.rejudge(i)(s.cur)
			s.res.Steps++
			s.progress()
		}
		if err != nil {
			if s.res.RejudgeErr == nil {
				s.res.RejudgeErr = err
			}
			continue // no judgement: neither failing nor passing
		}
		s.res.Confirmed.Judged++
		if sig == s.target {
			s.res.Confirmed.Failed++
		}
	}
	s.res.Verified = s.res.RejudgeErr == nil && s.res.Unjudged == 0 && s.res.Confirmed.Failed == s.res.Confirmed.Judged
	if s.res.Confirmed.Failed > 0 && s.opt.Baseline != nil && s.past() {
		s.res.Unjudged++
		s.res.Verified = false
	} else if s.res.Confirmed.Failed > 0 && s.opt.Baseline != nil {
		base, err := s.opt.Baseline(s.cur)
		s.res.Steps++
		switch {
		case err != nil: // no judgement: the result is not shown new
			s.res.Verified = false
			if s.res.RejudgeErr == nil {
				s.res.RejudgeErr = fmt.Errorf("on the baseline: %w", err)
			}
		case base != "" && !s.declines(base): // a decline is no failure: the result is new, as the campaign counts it
			s.res.Verified, s.res.BaselineFails = false, base
		}
	}
	s.res.Elapsed = time.Since(s.start)
}

// judgement is one judgement's verdict.
type judgement struct {
	sig string
	err error
}

// past reports whether Options.Deadline has passed.
func (s *search) past() bool { return !s.opt.Deadline.IsZero() && time.Now().After(s.opt.Deadline) }

// replayable makes sure, with Options.Replay, that the result is a graph
// Replay judges with the target: it judges the search's smallest graph
// so and, when that does not give the target, goes back to the smallest
// graph of the trail that it does (Result.Overshot; the original when
// none of the others does), found by bisecting
// the trail between the original, which Replay judged with the target,
// and the smallest graph (a graph is taken to fail so when a larger one
// the search accepted before it does, as a structurizer's time grows with
// the graph), then, unless a limit stopped the search, goes on searching
// from there with Replay judging the candidates. No judgement of it starts
// past Options.Deadline. It returns Replay's judgement of the result when
// one was made (the original's judgements are Result.Original's), to count
// as the first of the result's, else nil.
func (s *search) replayable(stages []Stage) (*judgement, error) {
	if s.opt.Replay == nil || len(s.trail) < 2 || s.res.Stopped == StoppedByInterruption || s.past() {
		return nil, nil
	}
	replay := func(g *cfg.Graph) *judgement {
		sig, err := s.opt.Replay(g)
		s.res.Steps++
		s.progress()
		return &judgement{sig, err}
	}
	j := replay(s.cur)
	if j.err != nil || j.sig == s.target {
		return j, nil // a harness error says nothing of the graph: the result's judgement not made
	}
	smallest, got := SizeOf(s.cur), j.sig
	lo, hi := 0, len(s.trail)-1 // trail[lo] fails with the target, trail[hi] does not
	j = nil
	for hi-lo > 1 && !s.past() {
		mid := (lo + hi) / 2
		s.cur = s.trail[mid]
		if m := replay(s.cur); m.err == nil && m.sig == s.target {
			lo, j = mid, m
		} else {
			hi = mid
		}
	}
	s.cur = s.trail[lo]
	s.res.Overshot = &Overshoot{Size: smallest, Got: got, Back: SizeOf(s.cur), Original: lo == 0}
	s.res.Stages = maps.Clone(s.trailStages[lo])
	s.progress()
	if s.stopped() {
		return j, nil
	}
	// Go on from there, judging candidates as a replay does: a verdict
	// of the laxer predicate that accepted a graph does not hold.
	for k, failed := range s.cache {
		if failed {
			delete(s.cache, k)
		}
	}
	s.cache[s.key(s.cur)] = true
	s.pred, s.trail, s.trailStages = s.opt.Replay, s.trail[:lo+1], s.trailStages[:lo+1]
	from := s.cur
	s.searchStart, s.searchSteps = time.Now(), s.res.Steps
	err := s.runPipeline(stages)
	s.endSearch()
	if s.cur != from {
		j = nil // the search's last graph, judged once: verify judges it whole
	}
	return j, err
}

// onWalks reports whether a signature comes of running the module on the
// walks (the exec and gpu checks), whose traces a loop that never exits
// would cut at the step cap.
func onWalks(signature string) bool {
	c := checkOf(signature)
	return c == "exec" || c == "gpu"
}

// returnsEverywhere reports whether every block reachable from the entry
// can reach a block without successors (a return). The search keeps a
// graph that returns from everywhere so: a smaller graph with a loop that
// never exits shows its signature only on walks cut at the step cap, far
// harder to read than the original's returning walks.
func returnsEverywhere(g *cfg.Graph) bool {
	returns := cfg.RefExitReaching(g, g.Preds())
	for b, reached := range g.Reachable() {
		if reached && !returns[b] {
			return false
		}
	}
	return true
}
