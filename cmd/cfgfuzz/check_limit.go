// check_limit.go: the time limits of `cfgfuzz check`. The structurizer
// runs through the campaign's Side machinery (fuzz.InProcess: panics
// recovered, a call past --timeout abandoned and answered timeout), every
// call under the same per-graph limit as a campaign's (--timeout, default
// fuzz.DefaultTimeout), the meta check's re-runs included: a structurizer
// that hangs is the finding structurize:timeout, never a hang of check. The
// checks themselves run under --check-timeout (default DefaultCheckTimeout):
// past it the graph's outcome is error (its verdicts are incomplete, exit
// 2), and the abandoned checks run on until check exits.
package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// DefaultCheckTimeout bounds one graph's checks. spirv-val, the costliest
// check on large modules, takes 5.2 s on a structured module of a
// 4,000-block reducible graph and grows faster than linearly
// (BenchmarkSpirvValGrowth, oracle/README.md), so two minutes checks such
// graphs rather than timing them out.
const DefaultCheckTimeout = 2 * time.Minute

// harnessError is a structurizer call that ended as a harness outcome
// (fuzz.OutTimeout, fuzz.OutPanic, fuzz.OutCrash): a finding.
type harnessError struct{ outcome, reason string }

func (e *harnessError) Error() string { return e.outcome + ": " + e.reason }

// signature is the finding's signature, as a campaign writes it.
func (e *harnessError) signature() string {
	if e.outcome == fuzz.OutTimeout {
		return "structurize:timeout"
	}
	return "structurize:" + e.outcome
}

// sideSeam structurizes through side (one call at a time) within limit
// and emits the function.
func sideSeam(side fuzz.Side, sopt structurizer.Options, limit time.Duration) structurizerSeam {
	opt := proto.Options{Strategy: sopt.Strategy, Inject: sopt.Inject}
	return func(g *cfg.Graph) ([]byte, seamInfo, error) {
		start := time.Now()
		a := side.Structurize(g, opt, limit)
		took := time.Since(start)
		switch a.Outcome {
		case proto.OK:
		case proto.Refused:
			return nil, seamInfo{}, &structurizer.Refusal{Strategy: strategyName(sopt.Strategy), Reason: a.Reason}
		case fuzz.OutTimeout, fuzz.OutPanic, fuzz.OutCrash:
			return nil, seamInfo{}, &harnessError{outcome: a.Outcome, reason: a.Reason}
		default:
			return nil, seamInfo{}, errors.New(a.Reason)
		}
		mod, err := fuzz.ModuleOf(a)
		if err != nil {
			var ue *emit.UnsupportedError
			if errors.As(err, &ue) {
				return nil, seamInfo{}, ue
			}
			return nil, seamInfo{}, &emitError{err}
		}
		info := fuzz.InfoOf(a, opt, took)
		return mod, seamInfo{stats: a.Stats, ResultInfo: info}, nil
	}
}

// checkWithin runs the oracle on sub; ok is false when no verdict came
// within limit.
func checkWithin(orc *oracle.Oracle, sub *oracle.Subject, limit time.Duration) (vs []oracle.Verdict, ok bool) {
	done := make(chan []oracle.Verdict, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- []oracle.Verdict{{Check: "oracle", Status: oracle.Error, Detail: fmt.Sprintf("panic: %v", p)}}
			}
		}()
		done <- orc.Check(sub)
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case vs := <-done:
		return vs, true
	case <-t.C:
		return nil, false
	}
}

// checkLimits are check's time limits (flags --timeout, --check-timeout).
type checkLimits struct {
	timeout, checks time.Duration
}

// register declares the flags on fs.
func (l *checkLimits) register(fs *flag.FlagSet) {
	fs.DurationVar(&l.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each structurizer call (as in campaigns): past it the finding structurize:timeout")
	fs.DurationVar(&l.checks, "check-timeout", DefaultCheckTimeout, "limit on one graph's checks: past it the graph's outcome is error (incomplete)")
}
