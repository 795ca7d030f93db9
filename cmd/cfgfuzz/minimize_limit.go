// minimize_limit.go: minimize's --check-timeout, as check's: every
// judgement of a graph (the original, each candidate, the final check, on
// the structurizer under test and on the baseline) runs under the limit;
// past it the graph has no verdict (the error names the check left
// running: oracle.StillRunning), which the search counts as a harness
// error (a candidate is not accepted; the original graph without a verdict
// ends minimize with exit 2). The abandoned judgement keeps the side and
// the oracle it was using, so the judge goes on with new ones, and the
// abandoned side is closed when its judgement ends.

package main

import (
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// boundedJudge judges graphs through a runner on a side of its own, each
// judgement within limit.
type boundedJudge struct {
	limit time.Duration
	// open makes a runner on a new side.
	open func() (*corpus.Runner, fuzz.Side, error)
	// pick is the predicate of a runner (its signature target set, for
	// the structurizer under test, once the first judgement decided it).
	pick func(r *corpus.Runner, target string) corpus.Predicate

	run    *corpus.Runner
	side   fuzz.Side
	broken error // a new side after an abandoned judgement did not open: every judgement's error
	target string
	judged bool
}

// newBoundedJudge opens the first runner.
func newBoundedJudge(limit time.Duration, target string, open func() (*corpus.Runner, fuzz.Side, error), pick func(*corpus.Runner, string) corpus.Predicate) (*boundedJudge, error) {
	b := &boundedJudge{limit: limit, open: open, pick: pick, target: target}
	if err := b.renew(); err != nil {
		return nil, err
	}
	return b, nil
}

// renew takes a new side and runner.
func (b *boundedJudge) renew() error {
	run, side, err := b.open()
	if err != nil {
		return err
	}
	b.run, b.side, b.broken = run, side, nil
	return nil
}

// runner is the runner in use (for the store's judgements of the result).
func (b *boundedJudge) runner() *corpus.Runner { return b.run }

// close closes the side in use.
func (b *boundedJudge) close() {
	if b.side != nil {
		b.side.Close()
	}
}

// fresh is replay on a new side for every graph, the side before it
// closed (corpus.Options.Fresh): a judgement by a structurizer that
// served nothing before, as a replay's. The search goes on on that side.
func (b *boundedJudge) fresh() corpus.Predicate {
	pred := b.replay()
	return func(g *cfg.Graph) (string, error) {
		old := b.side
		if err := b.renew(); err != nil {
			return "", err
		}
		old.Close()
		return pred(g)
	}
}

// predicate is the judge as a minimization predicate: pick's.
func (b *boundedJudge) predicate() corpus.Predicate {
	return b.bounded(func(r *corpus.Runner) corpus.Predicate { return b.pick(r, b.target) })
}

// replay is the judge as a replay command judges (corpus.Options.Replay):
// the runner's Predicate, which a timeout finding's search predicate
// (pick's, corpus.Runner.PredicateFor) is laxer than.
func (b *boundedJudge) replay() corpus.Predicate {
	return b.bounded((*corpus.Runner).Predicate)
}

// bounded judges each graph with the predicate of pred on the runner in
// use, within limit; the first verdict decides the target.
func (b *boundedJudge) bounded(pred func(*corpus.Runner) corpus.Predicate) corpus.Predicate {
	type verdict struct {
		sig string
		err error
	}
	return func(g *cfg.Graph) (string, error) {
		if b.broken != nil {
			return "", b.broken
		}
		done := make(chan verdict, 1)
		judge, side, orc := pred(b.run), b.side, b.run.Oracle
		g = g.Clone()
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- verdict{err: fmt.Errorf("checks panicked: %v", p)}
				}
			}()
			sig, err := judge(g)
			done <- verdict{sig, err}
		}()
		t := time.NewTimer(b.limit)
		defer t.Stop()
		select {
		case v := <-done:
			if !b.judged && v.err == nil {
				b.judged = true
				if b.target == "" {
					b.target = v.sig
				}
			}
			return v.sig, v.err
		case <-t.C:
			go func() { <-done; side.Close() }()
			err := fmt.Errorf("checks: no verdict within %v (--check-timeout)%s", b.limit, oracle.StillRunning(orc))
			if rerr := b.renew(); rerr != nil {
				err = fmt.Errorf("%w; a new structurizer side: %v", err, rerr)
				b.broken = err
			}
			return "", err
		}
	}
}
