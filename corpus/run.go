// run.go: judging one graph, the operation the minimizer, the store, the
// regression suite and the fuzz harnesses all share: structurize it, emit
// the structured function as SPIR-V and run the oracle's checks, with a
// panic anywhere in the structurizer or the emitter contained and turned
// into a failure with its own signature (the campaign engine's rule: a
// panic is a finding, never a crash of the tool).

package corpus

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Signatures of failures found before the oracle runs.
const (
	SigPanic   = "structurize:panic"       // the structurizer or the emitter panicked; ":" and the normalized message follow
	SigTimeout = "structurize:timeout"     // no answer within Runner.Timeout
	SigRefused = "structurize:refused"     // the strategy refused (a bug on the default strategy)
	SigEmit    = "emit:malformed-function" // the emitter rejected the structured function
	// SigUnsupported is a baseline's answer (BaselinePredicate) for a
	// graph its structurizer declared it does not serve: a decline, as a
	// refusal is (Declined), never a finding's signature.
	SigUnsupported = "structurize:unsupported"
)

// Declined reports whether sig, a baseline's answer (Options.Baseline),
// is a decline: the baseline refused the graph (SigRefused) or declared
// it does not serve it (SigUnsupported). A decline is not a failure: the
// campaign counts the current side's failure on a graph the baseline
// declined as newly failing against it.
func Declined(sig string) bool {
	return sig == SigRefused || sig == SigUnsupported
}

// Outcome is the judgement of one graph.
type Outcome struct {
	// Signature is "" when every check passed, else the first failure's
	// "check:reason".
	Signature string
	// Verdicts are the oracle's verdicts (nil when it did not run), with a
	// synthetic failing verdict for a panic, a refusal or an emit failure.
	Verdicts []oracle.Verdict
	// Module is the emitted SPIR-V (nil when none was emitted).
	Module []byte
	// Stats are the structurizer's statistics (nil when it failed).
	Stats *structurizer.Stats
	// Took is how long the structurizer took on the graph (0 when it
	// failed before answering, or in process).
	Took time.Duration
	// Answer is the structurizer's answer when it came through a
	// StructurizeFunc that records one (Structurized.Answer), else nil.
	Answer []byte
	// Err is a harness error: the graph is invalid, an option is unknown,
	// or a check could not run. It is not a finding.
	Err error
	// Unsupported, when not "", says why the structurizer does not serve
	// the graph (its protocol v2 declaration): not checked, not a finding.
	Unsupported string
}

// Failed reports whether the outcome is a finding.
func (o Outcome) Failed() bool { return o.Signature != "" }

// Runner structurizes, emits and checks graphs. It holds an Oracle, so one
// Runner serves one goroutine at a time.
type Runner struct {
	// Options are the structurizer's options (strategy, planted faults).
	Options structurizer.Options
	// Oracle runs the checks.
	Oracle *oracle.Oracle
	// Timeout bounds one judgement; 0 means none. A call past it is
	// abandoned (Go cannot stop a goroutine) and fails with SigTimeout;
	// the runner then gets a fresh Oracle, since the abandoned call may
	// still be using the old one.
	Timeout time.Duration
	// CheckLimit bounds one judgement as `cfgfuzz check --check-timeout`
	// bounds a graph's checks; 0 means none (Timeout, when set, applies
	// instead). Past it the outcome has no verdict: Err says so, naming
	// the check left running (oracle.StillRunning); it is no finding. The
	// abandoned judgement keeps the runner's structurizer seam, so every
	// later Run gives the same error; OnAbandon, when set, is called once
	// then, for the caller to judge on with a new runner.
	CheckLimit time.Duration
	OnAbandon  func()
	abandoned  error
	// oracleOpt remakes the Oracle after a timeout.
	oracleOpt oracle.Options
	// structurize is RunnerOptions.Structurize.
	seamFn StructurizeFunc
}

// RunnerOptions configures NewRunner. The zero value structurizes with the
// default strategy, plants no fault and runs every check whose tool is
// present (AllChecks).
type RunnerOptions struct {
	Structurizer structurizer.Options
	// Structurize, when non-nil, is the structurizer under test (an
	// external one through package fuzz's side seam); Structurizer is then
	// not used. nil means this tree's structurizer.Structurize.
	Structurize StructurizeFunc
	// Timeout is Runner.Timeout.
	Timeout time.Duration
	// CheckLimit and OnAbandon are Runner.CheckLimit and OnAbandon.
	CheckLimit time.Duration
	OnAbandon  func()
	// Checks names the checks; nil means AllChecks().
	Checks []string
	// Oracle carries the oracle's other settings (walks, validator,
	// executor); its Checks field is replaced by Checks.
	Oracle oracle.Options
}

// NewRunner prepares a Runner.
func NewRunner(opt RunnerOptions) (*Runner, error) {
	o := opt.Oracle
	if o.GPUTimeout == 0 {
		o.GPUTimeout = opt.CheckLimit // a driver's run ends with the checks it was abandoned with
	}
	o.Checks = opt.Checks
	if o.Checks == nil {
		o.Checks = AllChecks(opt.Oracle)
	}
	orc, err := oracle.New(o)
	if err != nil {
		return nil, err
	}
	return &Runner{Options: opt.Structurizer, Oracle: orc, Timeout: opt.Timeout, CheckLimit: opt.CheckLimit, OnAbandon: opt.OnAbandon,
		oracleOpt: o, seamFn: opt.Structurize}, nil
}

// AllChecks lists every check of the oracle that can run here: the default
// checks first, in their order, then the others sorted by name, leaving out
// any whose tool is missing (oracle.New refuses it alone). A validator
// that runs on the default target environment but not on base.Env is not
// missing: spirv-val stays in the list, and oracle.New refuses the
// environment, rather than a graph being judged without the validator.
func AllChecks(base oracle.Options) []string {
	envRefused := base.Validator == nil && oracle.UnknownTargetEnv(base.Env) != nil
	names := slices.Clone(oracle.DefaultChecks)
	var rest []string
	for n := range oracle.CheckNames() {
		if !slices.Contains(names, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	var usable []string
	for _, n := range append(names, rest...) {
		o := base
		o.Checks = []string{n}
		if _, err := oracle.New(o); err == nil || envRefused && n == "spirv-val" {
			usable = append(usable, n)
		}
	}
	return usable
}

// Run judges g. It never panics because of the structurizer or the emitter.
func (r *Runner) Run(g *cfg.Graph) Outcome { return r.runWith(g, false) }

// runWith is Run, with the oracle decisive (oracle.Oracle.Decisive) for a
// caller that reads only the outcome's signature.
func (r *Runner) runWith(g *cfg.Graph, decisive bool) Outcome {
	orc := r.Oracle
	if decisive {
		orc = orc.Decisive()
	}
	if r.Timeout <= 0 {
		if r.CheckLimit > 0 {
			return r.runWithin(g, orc)
		}
		return r.run(g, orc)
	}
	done := make(chan Outcome, 1)
	go func() { done <- r.run(g.Clone(), orc) }()
	t := time.NewTimer(r.Timeout)
	defer t.Stop()
	select {
	case o := <-done:
		return o
	case <-t.C:
		if fresh, err := oracle.New(r.oracleOpt); err == nil {
			r.Oracle = fresh
		}
		return failure(SigTimeout, "structurize", fmt.Sprintf("no answer within %v", r.Timeout))
	}
}

// runWithin is run within CheckLimit (Runner.CheckLimit).
func (r *Runner) runWithin(g *cfg.Graph, orc *oracle.Oracle) Outcome {
	if r.abandoned != nil {
		return Outcome{Err: r.abandoned}
	}
	done := make(chan Outcome, 1)
	go func() { done <- r.run(g.Clone(), orc) }()
	t := time.NewTimer(r.CheckLimit)
	defer t.Stop()
	select {
	case o := <-done:
		return o
	case <-t.C:
		r.abandoned = fmt.Errorf("checks: no verdict within %v (--check-timeout)%s", r.CheckLimit, oracle.StillRunning(orc))
		if r.OnAbandon != nil {
			r.OnAbandon()
		}
		return Outcome{Err: r.abandoned}
	}
}

func (r *Runner) run(g *cfg.Graph, orc *oracle.Oracle) (out Outcome) {
	defer func() {
		if p := recover(); p != nil {
			msg := oracle.RecoveredPanic(p)
			out = failure(PanicSignature(msg), "structurize", msg)
		}
	}()
	if r.seamFn != nil {
		return Judge(r.seamFn, g, orc)
	}
	mod, info, st, err := r.structurize(g)
	var ee *emitError
	switch {
	case errors.As(err, &ee):
		f := failure(SigEmit, "emit", err.Error())
		f.Stats = st
		return f
	case err != nil:
		if _, ok := err.(*structurizer.Refusal); ok {
			return failure(SigRefused, "structurize", err.Error())
		}
		return Outcome{Err: err}
	}
	out.Stats, out.Module, out.Took = st, mod, info.Duration
	out.Verdicts = orc.Check(&oracle.Subject{Graph: g, Module: mod, Info: info, Structurize: r.seam})
	if v := oracle.Failed(out.Verdicts); v != nil {
		out.Signature = v.Signature
	} else if v := oracle.Errored(out.Verdicts); v != nil {
		out.Err = fmt.Errorf("%s: %s", v.Check, v.Detail)
	}
	return out
}

// emitError is an emitter failure: a malformed structured function.
type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

// structurize runs the structurizer (timed) and the emitter (with the
// register file of the oracle's walks, Oracle.Walks.Registers), and describes
// the result for the growth, meta and fallback checks as cmd/cfgfuzz check and the
// campaign engine do: every strategy but dispatch claims idempotence.
func (r *Runner) structurize(g *cfg.Graph) ([]byte, oracle.ResultInfo, *structurizer.Stats, error) {
	start := time.Now()
	res, err := structurizer.Structurize(g, r.Options)
	took := time.Since(start)
	if err != nil {
		return nil, oracle.ResultInfo{}, nil, err
	}
	st := res.Stats
	mod, err := emit.Bytes(res.Func, emit.Options{Registers: r.oracleOpt.Walks.Registers}) // the register file the walks check
	if err != nil {
		return nil, oracle.ResultInfo{}, &st, &emitError{err}
	}
	return mod, oracle.ResultInfo{Strategy: st.Strategy, BlocksIn: st.BlocksIn, BlocksOut: st.BlocksOut, WordsIn: st.WordsIn,
		WordsOut: st.WordsOut, Synthetic: st.Synthetic, Duration: took, Idempotent: st.Strategy != "dispatch",
		Fallbacks: st.Fallbacks, Passes: st.PassesUsed}, &st, nil
}

// seam is the oracle's re-run of the structurizer (meta's determinism,
// renumbering and idempotence), a panic contained as an error of that run
// with the signature a first run's panic has (oracle.RerunFailure).
func (r *Runner) seam(g *cfg.Graph) (mod []byte, info oracle.ResultInfo, err error) {
	defer func() {
		if p := recover(); p != nil {
			msg := oracle.RecoveredPanic(p)
			err = &oracle.RerunFailure{Signature: PanicSignature(msg), Detail: msg}
		}
	}()
	mod, info, _, err = r.structurize(g)
	return mod, info, err
}

// Predicate returns the runner as a minimization predicate: the
// signature of Run's outcome, with meta skipped when an earlier check
// failed (oracle.Oracle.Decisive).
func (r *Runner) Predicate() Predicate {
	return func(g *cfg.Graph) (string, error) {
		o := r.runWith(g, true)
		return o.Signature, o.Err
	}
}

// BaselinePredicate returns the runner as a baseline's predicate
// (Options.Baseline): Predicate, but SigUnsupported for a graph the
// structurizer declared it does not serve, which Predicate passes, so that
// the minimizer tells both declines from a pass.
func (r *Runner) BaselinePredicate() Predicate {
	return func(g *cfg.Graph) (string, error) {
		o := r.runWith(g, true)
		if o.Unsupported != "" && o.Signature == "" && o.Err == nil {
			return SigUnsupported, nil
		}
		return o.Signature, o.Err
	}
}

// PanicSignature is the signature of a panic with the given message:
// oracle.HarnessSignature, the campaign engine's rule (package fuzz), so a
// campaign's finding and its minimization agree.
func PanicSignature(msg string) string {
	return oracle.HarnessSignature(oracle.HarnessPanic, msg)
}

func failure(sig, check, detail string) Outcome {
	v := oracle.Verdict{Check: check, Status: oracle.Fail, Signature: sig, Detail: detail}
	return Outcome{Signature: sig, Verdicts: []oracle.Verdict{v}}
}
