// worker.go defines a worker: it owns its sides (current, and baseline when
// comparing) and its oracle, turns a graph index into a Record, and keeps
// its own harness failures (a side that cannot start, an oracle that cannot
// be built) apart from findings, as Go's internal/fuzz does.

package fuzz

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/cfgfuzz/cfgfuzz/draw"
	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

type worker struct {
	set      *Settings
	escalate SideFactory
	src      Source
	cur      Side
	base     Side // nil without a baseline
	orc      *oracle.Oracle
	gpuOrc   *oracle.Oracle // the gpu check alone; nil without GPUEvery
	orcOpt   oracle.Options // how orc was made (a new one after abandon)
	// curNew and baseNew make the sides again (abandon); checkLimit
	// bounds one side's checks of a graph (checklimit.go), which run on
	// checks (nil: not started yet).
	curNew, baseNew func() (Side, error)
	checkLimit      time.Duration
	checks          checkRunner
	gpuNow          bool // the graph being judged also runs on the driver
	curOpt          proto.Options
	baseOpt         proto.Options
	timeout         time.Duration
	keepFunc        bool
	// seen is the state's filter of graphs checked on earlier nights
	// (read-only); nil without a state.
	seen *Bloom
	// oneBlock is each side's answer on the one-block graph per strategy,
	// which the meta check asks for on every graph (the strategy's fixed
	// overhead): asked once per side and strategy. Only a strategy that
	// claims idempotence asks for it on other graphs; the one-block graph
	// itself is re-run by the determinism check on any strategy.
	oneBlock map[oneBlockKey]seamAnswer
	declared *declaredSink // where close notes the sides' v2 declarations
	// lastStats and lastModule are the last judged answer's stats and
	// module (nil when it gave none), for its features.
	lastStats  *structurizer.Stats
	lastModule []byte
	lastTook   time.Duration // the last judge's wait for the side's answer
	// answered, when not nil, sums the sides' waits for their answers to
	// the campaign's graphs and to meta's re-runs of them (Throughput's
	// current and baseline seconds, and their meta seconds).
	answered *sideTimes
	// keptModules counts the divergent graphs per class whose modules
	// this worker kept (keepModules).
	keptModules map[string]int
	// fly is where the worker notes its graph in flight (flight.go);
	// nil notes nothing.
	fly *flights
	// stop is the campaign's stop (its context's Done), which a side's
	// server still starting hears on a graph's first request (judge);
	// nil: never. With cut (Config.CutOnStop) every request of the graph
	// hears it, its meta re-runs' too, whether the server has spoken or
	// not, and no side is asked once it has come. halted says the graph
	// being judged was stopped so; rerunCut that one of its re-runs was.
	stop     <-chan struct{}
	cut      bool
	halted   bool
	rerunCut bool
}

// oneBlockKey keys the one-block answers: a side on one strategy (the
// dispatch share's graphs run another than the campaign's).
type oneBlockKey struct {
	side     Side
	strategy string
}

// seamAnswer is a module the seam returned.
type seamAnswer struct {
	mod  []byte
	info oracle.ResultInfo
}

// newWorker builds one worker's sides and oracle.
func newWorker(c *Config) (*worker, error) {
	w := &worker{set: &c.Settings, src: c.Source, escalate: c.Escalate, timeout: time.Duration(c.Timeout), keepFunc: true, oneBlock: map[oneBlockKey]seamAnswer{},
		curOpt:  proto.Options{Strategy: c.Strategy, Inject: c.Inject, Registers: c.Registers},
		baseOpt: proto.Options{Strategy: cmp.Or(c.BaselineStrategy, c.Strategy), Registers: c.Registers}, declared: c.declared}
	if w.timeout == 0 {
		w.timeout = DefaultTimeout
	}
	if c.State != nil {
		w.seen = c.State.Seen
	}
	opt := c.oracleOptions()
	orc, err := oracle.New(opt)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	w.orc, w.orcOpt = orc, opt
	w.curNew, w.baseNew = c.Current.New, c.Baseline.New
	w.checkLimit = time.Duration(c.CheckTimeout)
	if w.checkLimit <= 0 {
		w.checkLimit = DefaultCheckTimeout
	}
	if c.GPUEvery > 0 {
		gopt := opt
		gopt.Checks = []string{"gpu"}
		if w.gpuOrc, err = oracle.New(gopt); err != nil {
			return nil, fmt.Errorf("gpu oracle: %w", err)
		}
	}
	if w.cur, err = c.Current.New(); err != nil {
		if c.Baseline.New == nil { // one side: nothing to tell it from
			return nil, err
		}
		return nil, fmt.Errorf("current side: %w", err)
	}
	if c.Baseline.New != nil {
		if w.base, err = c.Baseline.New(); err != nil {
			w.cur.Close()
			return nil, fmt.Errorf("baseline side: %w", err)
		}
	}
	return w, nil
}

func (w *worker) close() {
	if w.checks != nil {
		w.checks.stop()
		w.checks = nil
	}
	w.declared.note("current", w.cur, w.curOpt)
	if w.base != nil {
		w.declared.note("baseline", w.base, w.baseOpt)
	}
	w.cur.Close()
	if w.base != nil {
		w.base.Close()
	}
}

// escalateIfLeaked swaps an in-process side that abandoned a hung call for
// the Escalate side (see Config.Escalate).
func (w *worker) escalateIfLeaked() {
	p, ok := w.cur.(*InProcess)
	if !ok || p.Leaked == 0 || w.escalate.New == nil {
		return
	}
	if s, err := w.escalate.New(); err == nil {
		w.cur.Close()
		for k := range w.oneBlock {
			if k.side == w.cur {
				delete(w.oneBlock, k)
			}
		}
		w.cur = s
	}
}

// job is one graph index as the coordinator hands it to a worker, its
// graph generated (in index order, for the skip decision: distinct.go).
type job struct {
	i      int
	stream int
	it     Item
	err    error
	// mutant describes a guided campaign's mutant (Record.Mutant); ""
	// a fresh graph.
	mutant string
}

// makeJob generates graph index i: a guided campaign's mutant (guide.go)
// when gd draws one (gd nil: none), else the source's graph; a panic of
// the source is contained (generate.go).
func makeJob(src Source, set *Settings, gd *guide, i int) job {
	s, j := set.Place(i)
	it, err := generate(src, set.Streams[s], set.runSeed(s), j)
	if gd != nil && !keepFresh(it, err) {
		fresh := it.Graph
		if err != nil {
			fresh = nil
		}
		if mt, desc, ok, merr := gd.mutant(i, fresh); ok {
			return job{i: i, stream: s, it: mt, err: merr, mutant: desc}
		}
	}
	return job{i: i, stream: s, it: it, err: err}
}

// keepFresh says whether a guided campaign keeps index i's fresh graph
// whatever the mutant share draws: a large one (gen.CampaignBlocks: the
// one draw in 16 a campaign makes larger on purpose to reach shapes that small
// graphs cannot) is never traded for a mutant, so the faults only such
// graphs show are found no later than by pure generation.
func keepFresh(it Item, err error) bool {
	return err == nil && it.Graph != nil && it.Graph.Len() >= gen.CampaignLargeMin
}

// run produces job j's record.
func (w *worker) run(j job) Record {
	i, s, it, err := j.i, j.stream, j.it, j.err
	rec := Record{Index: i, Stream: s, Seed: it.Seed, Mutant: j.mutant}
	if err != nil {
		rec.Current = generateFailure(err)
		return rec
	}
	rec.Graph, rec.Weights = cfg.FormatCompact(it.Graph), it.Graph.WeightList()
	if w.seenBefore(i, it.Graph) {
		rec.Seen = true
		return rec
	}
	w.fly.start(w, i, streamOf(w.set, &rec), it.Graph.Len())
	defer w.fly.land(w)
	curOpt, baseOpt := w.curOpt, w.baseOpt
	if st := w.set.GraphStrategy(i); st != w.set.Strategy {
		rec.Strategy, curOpt.Strategy, baseOpt.Strategy = st, st, st
	}
	w.gpuNow = w.gpuOrc != nil && i%w.set.GPUEvery == 0
	var shared *oracle.Shared
	noteGraph(w.cur, fmt.Sprintf("graph %d", i))
	rec.Current, shared = w.judge(w.cur, it.Graph, curOpt, nil)
	if w.halted {
		return w.unjudged(rec)
	}
	w.answered.add(false, w.lastTook)
	if w.set.Guided {
		rec.Features = answerFeatures(w.lastStats, w.lastModule, rec.Current.Outcome, rec.Current.Signature)
	}
	w.gpuNow = false
	w.escalateIfLeaked()
	if w.base != nil {
		noteGraph(w.base, fmt.Sprintf("graph %d", i))
		b, _ := w.judge(w.base, it.Graph, baseOpt, shared)
		if w.halted {
			return w.unjudged(rec)
		}
		w.answered.add(true, w.lastTook)
		b.Func = nil
		rec.Baseline = &b
		rec.Class = Classify(rec.Current, b)
	}
	w.keepModules(&rec)
	if isFailure(rec.Current.Outcome) {
		rec.Program = it.Program
		rec.Current.boundFunc()
	} else {
		rec.Current.Func = nil
	}
	return rec
}

// unjudged is the record of rec's graph, which the stop ended while a
// side's server was starting (w.halted): no verdict, not to be logged.
func (w *worker) unjudged(rec Record) Record {
	w.halted = false
	return Record{Index: rec.Index, Stream: rec.Stream, Seed: rec.Seed, Mutant: rec.Mutant, stopped: true}
}

// judge structurizes g on one side and checks the module; the checks that
// depend on the side (oracle.OnSide: meta re-runs the structurizer through
// this side's seam, growth reads this side's time) always run against
// this side. shared, the other side's checks of the same graph, lends
// the verdicts of the checks that depend on the graph and the module alone
// (oracle.OnModule) when that side's module is byte-identical
// (oracle.CheckShared decides). judge returns its own checks for the next
// side, nil when it checked nothing.
func (w *worker) judge(side Side, g *cfg.Graph, opt proto.Options, shared *oracle.Shared) (SideResult, *oracle.Shared) {
	w.fly.stage(w, w.sideLabel(side), false)
	if w.cut && w.stopping() {
		w.halted = true
		return SideResult{}, nil
	}
	start := time.Now()
	hearStop(side, stopEar{stop: w.stop, spoken: w.cut})
	if w.cut {
		defer hearStop(side, stopEar{}) // its re-runs are cut too
	}
	a := side.Structurize(g.Clone(), opt, w.timeout)
	if !w.cut {
		hearStop(side, stopEar{}) // only the graph's first request: its re-runs are judged to their end
	}
	took := time.Since(start)
	if a.Stopped {
		w.halted = true
		return SideResult{}, nil
	}
	w.lastStats, w.lastModule, w.lastTook = a.Stats, nil, took
	r, module := answerResult(a)
	if !module {
		return r, nil
	}
	mod, err := ModuleFor(a, opt)
	if err != nil {
		r.Outcome, r.Signature, r.Detail = emitOutcome(err)
		return r, nil
	}
	w.lastModule = mod
	sum := sha256.Sum256(mod)
	r.Hash = hex.EncodeToString(sum[:12])
	r.Module = mod
	// The subject's own copy of g: meta hands it to this side's re-runs,
	// which must not change the other side's graph.
	sub := &oracle.Subject{Graph: g.Clone(), Module: mod, Info: InfoOf(a, opt, took), Structurize: w.seam(side, opt)}
	r, checked := w.checkModule(r, side, sub, g, opt, shared)
	if w.rerunCut {
		w.rerunCut, w.halted = false, true
		return SideResult{}, nil
	}
	return r, checked
}

// stopping says whether the campaign's stop has come.
func (w *worker) stopping() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

// sideLabel names side as the in-flight lines do.
func (w *worker) sideLabel(side Side) string {
	if side != w.cur {
		return "baseline"
	}
	return "current"
}

// answerResult is the result an answer gives before its module is
// checked: its declared stats and, unless the answer is a module to check
// (module true), its outcome.
func answerResult(a Answer) (r SideResult, module bool) {
	if a.Stats != nil {
		r.BlocksOut, r.RouteVars, r.Clones, r.Fallbacks = a.Stats.BlocksOut, a.Stats.RouteVars, a.Stats.Clones, a.Stats.Fallbacks
	}
	switch out, sig, detail := classifyAnswer(a); out {
	case OutOK:
		r.Func = a.Func // a func sent with another outcome is ignored (PROTOCOL.md)
		return r, true
	case OutRefused, OutUnsupported:
		r.Outcome, r.Detail = out, a.Reason
	case OutError:
		r.Outcome, r.Detail, r.NotStarted = OutError, detail, a.NotStarted
	default: // panic, timeout, crash, or an error on a valid graph
		r.Outcome, r.Signature, r.Detail = out, sig, detail
	}
	return r, false
}

// checkModule runs the oracle's checks on sub, side's module of g, into
// r, and returns r and this side's checks (judge).
func (w *worker) checkModule(r SideResult, side Side, sub *oracle.Subject, g *cfg.Graph, opt proto.Options, shared *oracle.Shared) (SideResult, *oracle.Shared) {
	label := w.sideLabel(side)
	if w.gpuNow {
		w.fly.stage(w, label, true, w.orc, w.gpuOrc)
	} else {
		w.fly.stage(w, label, true, w.orc)
	}
	ck, ok := w.checkWithin(sub, shared, side, opt, g)
	if !ok {
		r.Outcome, r.Detail = OutError, ck.detail
		return r, nil
	}
	r.GPU = ck.gpu
	if sub.CopiedKnown {
		r.CopiedWords = sub.Copied.Words
	}
	if blocks, words, err := sub.Size(); err == nil {
		r.ModuleBlocks, r.ModuleWords = blocks, words
	}
	verdictInto(&r, ck.verdicts, sub.Module)
	return r, ck.mine
}

// verdictInto sets r's outcome from the verdicts vs of its module mod: the
// first failure (a finding), else the first check that could not judge
// (no verdict), else ok with the checks left unjudged named.
func verdictInto(r *SideResult, vs []oracle.Verdict, mod []byte) {
	if v := oracle.Failed(vs); v != nil {
		r.Outcome, r.Signature, r.Detail = OutInvalid, v.Signature, firstLine(v.Detail)
		r.Also = otherFailures(vs, v)
		if r.Func == nil {
			r.Func, _ = draw.ModuleFunc(mod) // the module's own control flow, for the report's picture
		}
		return
	}
	if v := oracle.Errored(vs); v != nil {
		r.Outcome, r.Detail = OutError, firstLine(v.Check+": "+v.Detail)
		return
	}
	r.Outcome = OutOK
	// A graph that failed is a finding whatever a check could not judge;
	// one that passed passed only what was judged.
	if r.Unchecked = oracle.Unchecked(vs); len(r.Unchecked) > 0 {
		r.Detail = firstLine(oracle.UncheckedDetail(vs)) // why, for the report's example
	}
}

// otherFailures is the signatures of the failing verdicts of vs after
// first, in order; nil when there are none.
func otherFailures(vs []oracle.Verdict, first *oracle.Verdict) []string {
	var out []string
	for i := range vs {
		if v := &vs[i]; v.Status == oracle.Fail && v != first && !slices.Contains(out, v.Signature) && v.Signature != first.Signature {
			out = append(out, v.Signature)
		}
	}
	return out
}

// seam lets the oracle re-run a side (meta: determinism, renumbering,
// idempotence) under the same time limit. The side's answer on the
// one-block graph is kept per strategy once it gave a module (w.oneBlock):
// the side and its other options are fixed, and meta asks for it on every
// graph.
func (w *worker) seam(side Side, opt proto.Options) oracle.StructurizeFunc {
	return func(g *cfg.Graph) ([]byte, oracle.ResultInfo, error) {
		if !isOneBlock(g) {
			return w.structurizeForSeam(side, opt, g)
		}
		key := oneBlockKey{side, opt.Strategy}
		if a, ok := w.oneBlock[key]; ok {
			return a.mod, a.info, nil
		}
		mod, info, err := w.structurizeForSeam(side, opt, g)
		if err == nil { // a failure is asked again next time
			w.oneBlock[key] = seamAnswer{mod: mod, info: info}
		}
		return mod, info, err
	}
}

// isOneBlock says whether g is the one-block graph: one returning block of
// no weight.
func isOneBlock(g *cfg.Graph) bool {
	return g.Len() == 1 && len(g.Succs[0]) == 0 && g.Weight(0) == 0
}

// structurizeForSeam is one re-run for the oracle.
func (w *worker) structurizeForSeam(side Side, opt proto.Options, g *cfg.Graph) ([]byte, oracle.ResultInfo, error) {
	start := time.Now()
	a := side.Structurize(g, opt, w.timeout)
	took := time.Since(start)
	w.answered.addMeta(w.base != nil && side == w.base, took)
	if a.Stopped { // the stop cut it (w.cut): the graph has no verdict
		w.rerunCut = true
		return nil, oracle.ResultInfo{}, &oracle.RerunHarnessError{Detail: a.Reason}
	}
	switch a.Outcome {
	case proto.OK:
		mod, err := ModuleFor(a, opt)
		return mod, InfoOf(a, opt, took), err
	case OutUnsupported:
		return nil, oracle.ResultInfo{}, oracle.Unsupported(a.Reason)
	}
	out, sig, detail := classifyAnswer(a)
	if out == OutError { // a harness error, as on a first run (judge)
		return nil, oracle.ResultInfo{}, &oracle.RerunHarnessError{Detail: detail}
	}
	return nil, oracle.ResultInfo{}, &oracle.RerunFailure{Signature: sig, Detail: detail}
}

// ModuleOf is the answer's module, emitted here when the side gave a
// structured function.
func ModuleOf(a Answer) ([]byte, error) { return ModuleFor(a, proto.Options{}) }

// ModuleFor is ModuleOf for an answer to a request with opt: a structured
// function is emitted with opt's register file.
func ModuleFor(a Answer, opt proto.Options) ([]byte, error) {
	if a.Module != nil {
		return a.Module, nil
	}
	if a.Func == nil {
		return nil, fmt.Errorf("ok response without module or func")
	}
	return emitSafely(a, opt.Registers)
}

// InfoOf describes a structurization for the growth, meta and fallback
// checks.
func InfoOf(a Answer, opt proto.Options, took time.Duration) oracle.ResultInfo {
	info := oracle.ResultInfo{Duration: took, Strategy: opt.Strategy}
	if st := a.Stats; st != nil {
		info.Strategy = st.Strategy
		info.BlocksIn, info.BlocksOut, info.WordsIn, info.WordsOut, info.Synthetic = st.BlocksIn, st.BlocksOut, st.WordsIn, st.WordsOut, st.Synthetic
		info.Fallbacks, info.Passes = st.Fallbacks, st.PassesUsed
	}
	if info.Strategy == "" {
		info.Strategy = structurizer.DefaultStrategy
	}
	// A structurizer that declared nothing (protocol v1) is held to
	// determinism and renumbering invariance, not to idempotence: a
	// correct structurizer may add blocks each time it runs (a continue
	// block, a preheader of its own), and only a declaration claims
	// otherwise.
	if d := a.Declared; d != nil { // meta checks only what is claimed
		info.Idempotent = d.Idempotent
		info.NotDeterministic, info.NotRenumberingInvariant = !d.Deterministic, !d.RenumberingInvariant
		info.CloneMaxWords = d.MaxCloneWords
	}
	return info
}

// emitSafely emits a structured function that came from outside; a panic
// in the emitter on a malformed function is that function's fault.
func emitSafely(a Answer, registers int) (mod []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("emit panicked: %v", p)
		}
	}()
	return emit.Bytes(a.Func, emit.Options{Registers: registers})
}

// keepModules keeps both sides' modules on the first sideBySide
// divergent graphs of each class this worker meets (a worker takes its
// graphs in index order, so the first sideBySide of a class overall are
// among them) and drops them everywhere else, so results.jsonl stays
// small.
func (w *worker) keepModules(rec *Record) {
	if rec.Baseline != nil && rec.Class != ClassSame && w.keptModules[rec.Class] < sideBySide {
		if w.keptModules == nil {
			w.keptModules = map[string]int{}
		}
		w.keptModules[rec.Class]++
		return
	}
	rec.Current.Module = nil
	if rec.Baseline != nil {
		rec.Baseline.Module = nil
	}
}

// oracleOptions are the options of every worker's oracle: Config.Oracle
// under the settings that override it (checks, walks, the growth check's
// time limit, target environment).
func (c *Config) oracleOptions() oracle.Options {
	opt := c.Oracle
	if c.Checks != nil {
		opt.Checks = c.Checks
	}
	opt.Walks.Random, opt.Walks.Seed, opt.Walks.Registers = c.Walks, c.Seed, c.Registers
	if c.GPUDevice != "" {
		opt.GPUDevice = c.GPUDevice
	}
	// A driver's run never outlives the checks' limit: one the limit
	// abandons has its process killed by it.
	opt.GPUTimeout = time.Duration(c.CheckTimeout)
	if opt.GPUTimeout <= 0 {
		opt.GPUTimeout = DefaultCheckTimeout
	}
	if c.GrowthTime > 0 {
		opt.Growth.TimeLimit = time.Duration(c.GrowthTime)
	}
	if c.TargetEnv != "" {
		opt.Env = c.TargetEnv
	}
	if c.RulesCompat != "" {
		opt.RulesCompat = c.RulesCompat
	}
	if c.Walks == 0 {
		opt.Walks.Random = -1
	}
	if opt.Seed == 0 {
		opt.Seed = c.Seed
	}
	return opt
}

// sideTimes sums, over a campaign's workers, how long each side took to
// answer the graphs (the wait for the answer to the first structurization
// of each graph) and meta's re-runs of them (the waits for the answers to
// the re-runs through the seam; a one-block answer kept costs nothing).
type sideTimes struct{ current, baseline, currentMeta, baselineMeta atomic.Int64 }

// add adds d to the baseline's sum, or the current side's; a nil t sums
// nothing.
func (t *sideTimes) add(baseline bool, d time.Duration) {
	switch {
	case t == nil:
	case baseline:
		t.baseline.Add(int64(d))
	default:
		t.current.Add(int64(d))
	}
}

// addMeta adds d, the wait for a re-run's answer, to the baseline's meta
// sum, or the current side's; a nil t sums nothing.
func (t *sideTimes) addMeta(baseline bool, d time.Duration) {
	switch {
	case t == nil:
	case baseline:
		t.baselineMeta.Add(int64(d))
	default:
		t.currentMeta.Add(int64(d))
	}
}
