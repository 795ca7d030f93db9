// timeout.go: the minimization predicate of a timeout finding. A hang of a
// large graph is often a structurizer that is slow beyond reason (time
// growing with the graph), whose smaller candidates still answer, late: a
// candidate keeps the finding when it still gets no answer within the
// per-graph limit, or when its answer still took longer than TimeoutFactor
// times the growth check's time budget (oracle.GrowthOptions.TimeLimit,
// 1 s by default), the fastest of two runs so a process starting up is not
// counted. Whatever else such a slow candidate answers (a refusal, an
// error, a growth:time verdict) it is the same finding; a candidate that
// answers within the bound is judged as usual, so the search never drifts
// to a refusal or an error of the smaller graph.
//
// The rule is the search's alone. A replay command judges a graph by its
// answer within the time limit, so a graph answered late is growth:time
// (or passes) there, not a timeout: the original graph and the result
// are judged as a replay judges them (ReplayFor, Options.Replay), and a
// search whose smallest graph is answered within the limit gives as its
// result the smallest graph on its path that is not (Result.Overshot).

package corpus

import (
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TimeoutFactor times the growth check's time budget is how long a
// candidate of a timeout finding may take and still count as one.
const TimeoutFactor = 2

// SlowBound is the time past which a candidate of a timeout finding still
// has it: TimeoutFactor times the growth check's time budget.
func (r *Runner) SlowBound() time.Duration {
	budget := r.oracleOpt.Growth.TimeLimit
	if budget <= 0 {
		budget = time.Second
	}
	return TimeoutFactor * budget
}

// PredicateFor is the runner's predicate for minimizing a finding with the
// target signature: TimeoutPredicate for structurize:timeout, Predicate
// otherwise. An empty target is the first graph judged's own signature
// (corpus.Minimize judges the original first).
func (r *Runner) PredicateFor(target string) Predicate {
	plain, slow := r.Predicate(), r.TimeoutPredicate()
	decided := target != ""
	return func(g *cfg.Graph) (string, error) {
		if !decided {
			sig, err := plain(g)
			target, decided = sig, true
			return sig, err
		}
		if target == SigTimeout {
			return slow(g)
		}
		return plain(g)
	}
}

// ReplayFor is Options.Replay for minimizing a finding with the target
// signature on the runner: its Predicate, which judges a graph as a
// replay command does (structurize:timeout only when no answer came
// within the time limit), for a timeout finding, whose PredicateFor keeps
// candidates answered late; nil for any other target, whose PredicateFor
// judges as a replay does.
func (r *Runner) ReplayFor(target string) Predicate {
	if target != SigTimeout {
		return nil
	}
	return r.Predicate()
}

// TimeoutPredicate judges a candidate of a timeout finding (the file
// comment's rule).
func (r *Runner) TimeoutPredicate() Predicate {
	bound := r.SlowBound()
	if r.seamFn != nil && r.Timeout <= 0 {
		return func(g *cfg.Graph) (string, error) {
			o := r.judgeSlow(g, bound)
			return o.Signature, o.Err
		}
	}
	return func(g *cfg.Graph) (string, error) {
		o := r.runWith(g, true)
		if o.Signature == SigTimeout {
			return SigTimeout, nil
		}
		if o.Took <= bound {
			return o.Signature, o.Err
		}
		again := r.runWith(g, true)
		if again.Signature == SigTimeout || again.Took > bound {
			return SigTimeout, nil
		}
		return again.Signature, again.Err
	}
}

// judgeSlow is TimeoutPredicate through the seam: the answer's time is
// known before any check runs, so a candidate that answers late costs two
// structurizer calls, not two whole judgements (each of which calls the
// structurizer again for meta's re-runs and growth's re-timing). A
// candidate that answers within the bound is judged from that answer as
// Run judges it.
func (r *Runner) judgeSlow(g *cfg.Graph, bound time.Duration) Outcome {
	slow := func(s Structurized) bool {
		return s.Failure == SigTimeout || s.Err == nil && !s.Unsupported && s.Info.Duration > bound
	}
	s := r.seamFn(g)
	if slow(s) && s.Failure != SigTimeout {
		s = r.seamFn(g) // the fastest of two runs: a process starting up is not counted
	}
	if slow(s) {
		return failure(SigTimeout, "structurize", fmt.Sprintf("answered in %v, past %v", s.Info.Duration, bound))
	}
	return r.judgeAnswer(g, s)
}

// judgeAnswer judges g as Run does, from the answer the seam already gave
// for it (Judge's first call); later calls (meta's re-runs, growth's
// re-timing) go to the seam.
func (r *Runner) judgeAnswer(g *cfg.Graph, first Structurized) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			msg := oracle.RecoveredPanic(p)
			out = failure(PanicSignature(msg), "structurize", msg)
		}
	}()
	used := false
	return Judge(func(h *cfg.Graph) Structurized {
		if !used {
			used = true
			return first
		}
		return r.seamFn(h)
	}, g, r.Oracle.Decisive())
}
