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
package corpus

import (
	"time"

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

// TimeoutPredicate judges a candidate of a timeout finding (the file
// comment's rule).
func (r *Runner) TimeoutPredicate() Predicate {
	bound := r.SlowBound()
	return func(g *cfg.Graph) (string, error) {
		o := r.Run(g)
		if o.Signature == SigTimeout {
			return SigTimeout, nil
		}
		if o.Took <= bound {
			return o.Signature, o.Err
		}
		again := r.Run(g)
		if again.Signature == SigTimeout || again.Took > bound {
			return SigTimeout, nil
		}
		return again.Signature, again.Err
	}
}
