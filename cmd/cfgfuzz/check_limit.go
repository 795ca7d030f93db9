// check_limit.go: the time limits of `cfgfuzz check`. The structurizer
// runs through the campaign's Side machinery (fuzz.InProcess or a process:
// panics recovered, a call past --timeout abandoned and answered timeout),
// every call under the same per-graph limit as a campaign's (--timeout,
// default fuzz.DefaultTimeout), the meta check's re-runs included: a
// structurizer that hangs is the finding structurize:timeout, never a hang
// of check. One graph's whole judgement runs under --check-timeout
// (default DefaultCheckTimeout): past it the graph's outcome is error (its
// verdicts are incomplete), check stops there and exits 2, since the
// abandoned judgement still holds the side and the oracle.

package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// DefaultCheckTimeout bounds one graph's checks, as in campaigns
// (fuzz.DefaultCheckTimeout).
const DefaultCheckTimeout = fuzz.DefaultCheckTimeout

// judgeWithin judges g through the seam (corpus.Judge) and waits at most
// limit for it; ok is false when no outcome came within it. The abandoned
// judgement runs on in its goroutine, still using the seam's side and the
// oracle, so the caller must use neither again.
func judgeWithin(seam corpus.StructurizeFunc, g *cfg.Graph, orc *oracle.Oracle, limit time.Duration) (o corpus.Outcome, ok bool) {
	done := make(chan corpus.Outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- corpus.Outcome{Err: fmt.Errorf("checks panicked: %v", p)}
			}
		}()
		done <- corpus.Judge(seam, g, orc)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case o := <-done:
		return o, true
	case <-t.C:
		return corpus.Outcome{}, false
	}
}

// checkLimits is check's limit on each structurizer call (--timeout);
// the limit on a graph's checks, --check-timeout, is a judgement flag
// (judgeflags.go).
type checkLimits struct {
	timeout time.Duration
}

// timeoutVerdicts says what --timeout decides, and what it does not: the
// growth check's limit on a structurizer's time, which --growth-time sets.
const timeoutVerdicts = "past it a call is the finding structurize:timeout (a meta check's re-run, meta:rerun-failed:timeout); an answer within it that took longer than --growth-time (1s) + 1ms per block of the graph is growth:time, the growth check's own limit"

// register declares the flag on fs.
func (l *checkLimits) register(fs *flag.FlagSet) {
	fs.DurationVar(&l.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each structurizer call (as in campaigns): "+timeoutVerdicts)
}
