// Package oracle judges one structurization result with independent checks:
// exact dominators and post-dominators of the input graph (pdom), the
// project's own structured control-flow rules (rules), SPIRV-Tools'
// validator (spirv-val), the module's execution against the original
// graph's walks (exec), the filler that stands for the weights (filler),
// size, copy and time limits (growth), metamorphic properties (meta) and
// the structurizer's own report of a fallback to the dispatch loop
// (fallback). Each check has a name, and each failure a stable signature
// "check:reason" for deduplication (SIGNATURES.md); a module
// that rules and spirv-val judge differently gets a "disagree:" signature
// of its own (DISAGREEMENTS.md).
//
// The oracle never imports the structurizer: it judges any module that
// follows the module convention, including another revision's or another
// project's. It imports only the graph (structurizer/cfg) and the binary
// encoding (emit/spirv).
//
// oracle.go defines the check table, verdicts and the runner.
package oracle

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Subject is what the checks judge: the original graph and the module a
// structurizer made of it. Info and Structurize are filled by the caller
// (cmd/cfgfuzz, the campaign engine): growth reads Info.Duration, meta
// calls Structurize (nil skips meta).
type Subject struct {
	Graph       *cfg.Graph
	Module      []byte
	Info        ResultInfo
	Structurize StructurizeFunc

	// Module decoded once per Check for every check that reads it (exec,
	// rules, growth, meta), and parsed into functions and blocks with each
	// function's graphs once for rules and meta; reset at the start of
	// each Check.
	decodedModule *spirv.Module
	decodeErr     error
	decodeDone    bool
	parse         *parsedModule
	// decoder is the memory the module is decoded into: the checking
	// oracle's own during its Check (Oracle.decoder), nil (fresh memory)
	// outside one.
	decoder *spirv.Decoder
	// The entry point's blocks, counted once for growth and meta (see
	// entryBlocks); reset with the rest.
	entryCount int
	entryErr   error
	entryDone  bool
	// The entry point's blocks with their reported ids and filler, read
	// once per Check for filler and growth (filler.go); reset with the rest.
	fillList []blockFill
	fillErr  error
	fillDone bool
	// The validator's answer, once per Check for spirv-val and the checks
	// that must not run an invalid module (Oracle.Validate); reset with
	// the rest.
	valOK   bool
	valMsg  string
	valErr  error
	valDone bool

	// Copied is what the module copied of the graph's blocks, measured by
	// growth (the clone budget); CopiedKnown is false when growth did not
	// run or could not read the module. Cleared when Check starts, kept
	// after it: callers read it then.
	Copied      Copies
	CopiedKnown bool
	// size is the module's size as Size measures it, measured by growth
	// (sizeKnown); cleared when Check starts and kept after it, like
	// Copied, for the caller's Size.
	size      moduleSize
	sizeKnown bool
}

// moduleSize is Size's answer: entry-point blocks and words less debug
// information.
type moduleSize struct{ blocks, words int }

// parsedModule is a decoded module split into blocks (parseRuleModule) and
// the graphs of its functions, each built on first use: its edges
// (newFuncEdges), then, when asked, its trees (analyse).
type parsedModule struct {
	rm       *ruleModule
	err      error
	graphs   []*funcGraph
	errs     []error
	built    []bool // edges built (or failed)
	analysed []bool
}

// edges is function i's graph with its edges; its trees may be missing.
func (p *parsedModule) edges(i int) (*funcGraph, error) {
	if !p.built[i] {
		p.graphs[i], p.errs[i] = newFuncEdges(&p.rm.funcs[i])
		p.built[i] = true
	}
	return p.graphs[i], p.errs[i]
}

// graph is function i's graphs, trees included.
func (p *parsedModule) graph(i int) (*funcGraph, error) {
	g, err := p.edges(i)
	if err == nil && !p.analysed[i] {
		g.analyse()
		p.analysed[i] = true
	}
	return g, err
}

// parseModule splits m into blocks; nothing is built yet.
func parseModule(m *spirv.Module) *parsedModule {
	p := &parsedModule{}
	if p.rm, p.err = parseRuleModule(m); p.err == nil {
		n := len(p.rm.funcs)
		p.graphs, p.errs, p.built, p.analysed = make([]*funcGraph, n), make([]error, n), make([]bool, n), make([]bool, n)
	}
	return p
}

// parsed is s.Module decoded and parsed, shared by the checks of one Check
// call: they only read it.
func (s *Subject) parsed() (*parsedModule, error) {
	if s.parse == nil {
		m, err := s.decoded()
		if err != nil {
			return nil, err
		}
		s.parse = parseModule(m)
	}
	return s.parse, s.parse.err
}

// decoded is s.Module decoded, shared by the checks of one Check call: they
// only read it.
func (s *Subject) decoded() (*spirv.Module, error) {
	if !s.decodeDone {
		if s.decoder != nil {
			s.decodedModule, s.decodeErr = s.decoder.Decode(s.Module)
		} else {
			s.decodedModule, s.decodeErr = spirv.Decode(s.Module)
		}
		s.decodeDone = true
	}
	return s.decodedModule, s.decodeErr
}

// reset forgets what the checks of one Check call shared.
func (s *Subject) reset() {
	s.decodedModule, s.decodeErr, s.decodeDone, s.parse = nil, nil, false, nil
	s.entryCount, s.entryErr, s.entryDone = 0, nil, false
	s.fillList, s.fillErr, s.fillDone = nil, nil, false
	s.valOK, s.valMsg, s.valErr, s.valDone = false, "", nil, false
}

// Status of one check on one subject.
type Status string

const (
	Pass  Status = "pass"
	Fail  Status = "fail"  // a finding
	Skip  Status = "skip"  // not applicable
	Error Status = "error" // the harness failed (not a finding)
)

// Verdict is one check's judgement.
type Verdict struct {
	Check     string `json:"check"`
	Status    Status `json:"status"`
	Signature string `json:"signature,omitempty"` // "check:reason", stable, no ids
	Detail    string `json:"detail,omitempty"`
	// Unchecked names the part of a check that passed on the rest but
	// could not judge this module (growth's PartClones); the detail says
	// why. A check that could judge nothing is Skip instead.
	Unchecked string `json:"unchecked,omitempty"`
}

// Options configures an Oracle. The zero value runs DefaultChecks with
// SPIRV-Tools' validator for vulkan1.1 (in-process with cgo:
// LookupValidator) and the interpreter.
type Options struct {
	Checks    []string      // check names; nil means DefaultChecks
	Walks     WalkOptions   // walk selection for exec
	Validator Validator     // nil: LookupValidator(Env), in-process with cgo
	Env       string        // validator target environment; "" vulkan1.1
	Executor  Executor      // nil: Interpreter{}
	Growth    GrowthOptions // limits of the growth check
	Seed      uint64        // meta's renumbering permutations
	// RulesCompat is RulesOptions.Compat for the rules check: "" follows
	// the specification (disagreements with an older spirv-val are then
	// reported as such).
	RulesCompat string
	// GPUDevice is the Vulkan device of the `gpu` check, in oracle/gpu's
	// names (cpu, gpu, any); "" means the CPU device (lavapipe).
	GPUDevice string
	// GPUTimeout bounds one module's run on the driver (its compile and
	// dispatch) in the `gpu` check: past it the driver's process is
	// killed and the verdict is error. 0 means oracle/gpu's
	// DefaultTimeout.
	GPUTimeout time.Duration
}

// check is one entry of the check table. Every entry says what its
// verdict depends on (depends; see Depends): New refuses a check that does
// not.
type check struct {
	name    string
	doc     string
	depends Depends
	run     func(o *Oracle, s *Subject) Verdict
	probe   func(Options) error // nil: always available; else New refuses the check when it fails
}

// checkTable lists the checks in the order they run.
var checkTable = []check{
	{"pdom", "the graph package's dominators and post-dominators against the definition and gonum", OnModule, (*Oracle).checkPdom, nil},
	{"rules", "the structured control-flow rules R1-R17 (the lint checker)", OnModule, (*Oracle).checkRules, nil},
	{"spirv-val", "SPIRV-Tools' validator (in-process with cgo, else the executable)", OnModule, (*Oracle).checkValidator, nil},
	{"exec", "the module's execution against the original graph's walks (interpreter)", OnModule, (*Oracle).checkExec, nil},
	{"filler", "every block carries the filler its original's weight promises", OnModule, (*Oracle).checkFiller, nil},
	{"growth", "output blocks and words within factors of the input, copied words within the clone budget, time within a limit", OnSide, (*Oracle).checkGrowth, nil},
	{"meta", "determinism, renumbering invariance, idempotence, input unchanged", OnSide, (*Oracle).checkMeta, nil},
	{"fallback", "the structurizer reported no fallback to the dispatch loop (its answer's fallbacks count)", OnSide, (*Oracle).checkFallback, nil},
}

// DefaultChecks are the checks run when Options.Checks is nil: every check
// of the table. meta costs two or three more structurizations per graph and
// skips itself when the caller gives no Structurize seam. fallback comes
// last: a module that fails another check reports that failure.
var DefaultChecks = []string{"pdom", "rules", "spirv-val", "exec", "filler", "growth", "meta", "fallback"}

// ResolveChecks reads a --checks value: "a,b" selects exactly a and b;
// entries "+x" add x to the defaults and "-x" remove it ("+gpu" is the
// defaults plus gpu). Spaces around an entry, and between its + or - and
// its name, are not part of the name (" exec", "+ gpu"). "" means the
// defaults. A "-x" naming no check is kept as it is, so that New refuses
// it as it refuses an unknown check selected: a misspelt removal would
// otherwise remove nothing in silence.
func ResolveChecks(spec string) []string {
	var exact, add, del []string
	for _, x := range strings.Split(spec, ",") {
		switch x = strings.TrimSpace(x); {
		case x == "":
		case strings.HasPrefix(x, "+"):
			add = append(add, strings.TrimSpace(x[1:]))
		case strings.HasPrefix(x, "-"):
			del = append(del, strings.TrimSpace(x[1:]))
		default:
			exact = append(exact, x)
		}
	}
	var base []string // each check once, in the order named: exec,exec runs exec once
	for _, x := range exact {
		if !slices.Contains(base, x) {
			base = append(base, x)
		}
	}
	if len(exact) == 0 {
		base = slices.Clone(DefaultChecks)
	}
	for _, a := range add {
		if !slices.Contains(base, a) {
			base = append(base, a)
		}
	}
	base = slices.DeleteFunc(base, func(x string) bool { return slices.Contains(del, x) })
	for _, d := range del {
		if !slices.ContainsFunc(checkTable, func(c check) bool { return c.name == d }) {
			base = append(base, "-"+d)
		}
	}
	return base
}

// CheckNameMissing says what is wrong with a --checks value that has a +
// or a - no name follows ("+", "exec,-", "+ "): "the name after + is
// missing (+NAME adds a check to the defaults, as in +gpu)"; "" when every
// + and - has its name. Without the name the entry would select a check
// named "".
func CheckNameMissing(spec string) string {
	for _, x := range strings.Split(spec, ",") {
		x = strings.TrimSpace(x)
		if x == "" || x[0] != '+' && x[0] != '-' || strings.TrimSpace(x[1:]) != "" {
			continue
		}
		if x == "+" {
			return "the name after + is missing (+NAME adds a check to the defaults, as in +gpu)"
		}
		return "the name after - is missing (-NAME removes one, as in -fallback)"
	}
	return ""
}

// RegisterCheck adds a check to the table (a driver check such as gpu,
// added from outside through the Executor seam). It is not in
// DefaultChecks: select it with "+name". depends says what the check's
// verdict depends on (OnModule or OnSide; see Depends). probe, when not
// nil, says whether the check's tool is there (a Vulkan device, say): New
// refuses the check when it fails, as for a missing validator, so callers
// that run "every check that can run here" leave it out.
func RegisterCheck(name, doc string, depends Depends, run func(o *Oracle, s *Subject) Verdict, probe func(Options) error) {
	checkTable = append(checkTable, check{name: name, doc: doc, depends: depends, run: run, probe: probe})
}

// Opt returns the oracle's options (for checks registered from outside).
func (o *Oracle) Opt() Options { return o.opt }

// CheckNames lists every check with its description.
func CheckNames() map[string]string {
	m := map[string]string{}
	for _, c := range checkTable {
		m[c.name] = c.doc
	}
	return m
}

// Oracle runs checks. One Oracle per worker goroutine: it holds the
// validator's state.
type Oracle struct {
	opt    Options
	checks []check
	// decisive skips meta once a verdict failed (Decisive).
	decisive bool
	// decoder is the memory each Check decodes its subject's module into,
	// reused from subject to subject (Subject.decoded); walks is the
	// memory of the execution check's walks, and interp that of the
	// interpreter's tables and trace buffer, reused likewise.
	decoder *spirv.Decoder
	walks   *walkArena
	interp  *interpScratch
	// vulkan validates for a driver when Options.Env is no Vulkan
	// environment (ValidateForDriver), made on first use.
	vulkan Validator
	// running names the check a Check runs (Running), nil between
	// checks; shared with the oracle's Decisive copies.
	running *atomic.Pointer[string]
}

// Running is the name of the check o runs now: one of its checks, or
// growth while RetimeSlow times the structurizer again for it; "" when
// none runs. It may be read from any goroutine: a caller that stopped
// waiting for o's checks (a check limit) reads which one it left running.
func (o *Oracle) Running() string {
	if o.running == nil {
		return ""
	}
	if n := o.running.Load(); n != nil {
		return *n
	}
	return ""
}

// StillRunning is what the detail of a graph whose checks ran past a
// check limit adds to name the checks orcs (nil ones left out) run when
// the caller stopped waiting: ": gpu still running", "" when none runs.
// It names checks only, nothing of the graph, so the details of graphs
// left in one check read alike (HarnessSignature).
func StillRunning(orcs ...*Oracle) string {
	var names []string
	for _, o := range orcs {
		if o == nil {
			continue
		}
		if n := o.Running(); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return ": " + strings.Join(names, ", ") + " still running"
}

// setRunning records the check o runs now (name nil: none).
func (o *Oracle) setRunning(name *string) {
	if o.running != nil {
		o.running.Store(name)
	}
}

// Decisive is o for a caller that reads only the signature (Failed, a
// minimizer's predicate): once a check has failed, meta, which runs after
// every other check but fallback and calls the structurizer again for
// each property, is skipped; its verdict could not be the first failure.
// It shares o's validator and its decoding, walk and interpreter memory:
// use it on o's goroutine.
func (o *Oracle) Decisive() *Oracle {
	d := *o
	d.decisive = true
	return &d
}

// New prepares an oracle; it fails on unknown check names and when a
// selected check's tool is missing.
func New(opt Options) (*Oracle, error) {
	names := opt.Checks
	if names == nil {
		names = DefaultChecks
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no check selected (every one removed): a graph would pass unjudged")
	}
	o := &Oracle{opt: opt, decoder: new(spirv.Decoder), walks: new(walkArena), interp: new(interpScratch), running: new(atomic.Pointer[string])}
	for _, n := range names {
		i := slices.IndexFunc(checkTable, func(c check) bool { return c.name == n })
		if i < 0 {
			var all []string
			for _, c := range checkTable {
				all = append(all, c.name)
			}
			return nil, fmt.Errorf("unknown check %q (have %s)", n, strings.Join(all, ", "))
		}
		if err := checkTable[i].depends.valid(); err != nil {
			return nil, fmt.Errorf("check %s: %w", n, err)
		}
		if p := checkTable[i].probe; p != nil {
			if err := p(opt); err != nil {
				return nil, fmt.Errorf("check %s cannot run here: %w", n, err)
			}
		}
		o.checks = append(o.checks, checkTable[i])
	}
	if o.opt.Executor == nil {
		o.opt.Executor = Interpreter{}
	}
	if o.opt.Validator == nil && slices.Contains(names, "spirv-val") {
		// One validator (one SPIRV-Tools context) per Oracle.
		v, err := LookupValidator(opt.Env)
		if err != nil {
			return nil, err
		}
		o.opt.Validator = v
	}
	return o, nil
}

// Checks lists the names of the checks this oracle runs.
func (o *Oracle) Checks() []string {
	var n []string
	for _, c := range o.checks {
		n = append(n, c.name)
	}
	return n
}

// Check runs every selected check on s. When both rules and spirv-val ran
// and one failed where the other passed, a "disagree" verdict comes first,
// so Failed reports the disagreement's signature.
func (o *Oracle) Check(s *Subject) []Verdict {
	return o.CheckShared(s, nil)
}

// runRecovered runs the check; a panic in it (a bug of the oracle's on
// some module, or of a registered check) is the check's harness error, so
// the caller's campaign goes on and reports it apart from findings.
func (c check) runRecovered(o *Oracle, s *Subject) (v Verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = Verdict{Status: Error, Detail: fmt.Sprintf("check %s panicked: %v", c.name, p)}
		}
	}()
	return c.run(o, s)
}

// Failed returns the first failing verdict, or nil.
func Failed(vs []Verdict) *Verdict {
	for i := range vs {
		if vs[i].Status == Fail {
			return &vs[i]
		}
	}
	return nil
}

// Unchecked lists what of the checks that ran could not judge the module:
// each skipped check's name, and CHECK:PART for a check that judged all
// but PART (Verdict.Unchecked); nil when every check judged all of it.
func Unchecked(vs []Verdict) []string {
	var out []string
	for _, v := range vs {
		switch {
		case v.Status == Skip:
			out = append(out, v.Check)
		case v.Unchecked != "":
			out = append(out, v.Check+":"+v.Unchecked)
		}
	}
	return out
}

// UncheckedDetail is "CHECK: DETAIL" of the first verdict that could not
// judge all of its module (Unchecked), "" none.
func UncheckedDetail(vs []Verdict) string {
	for _, v := range vs {
		if v.Status == Skip || v.Unchecked != "" {
			return v.Check + ": " + v.Detail
		}
	}
	return ""
}

// Errored returns the first harness error, or nil.
func Errored(vs []Verdict) *Verdict {
	for i := range vs {
		if vs[i].Status == Error {
			return &vs[i]
		}
	}
	return nil
}

func (o *Oracle) checkExec(s *Subject) Verdict {
	arena := o.walks
	if arena == nil { // an Oracle not made by New
		arena = new(walkArena)
	}
	walks, cut := walksIn(arena, s.Graph, o.opt.Walks)
	r := compareWalks(o.opt.Executor, s.Module, s.decoded, s.fills, o.interp, walks)
	switch {
	case r.Harness != nil:
		return Verdict{Status: Error, Detail: r.Harness.Error()}
	case r.Signature == "" && cut:
		return Verdict{Status: Pass, Detail: fmt.Sprintf("%d walks, stopped at the step budget (WalkOptions.MaxTotalSteps) with edges of the graph left untaken", len(walks))}
	case r.Signature == "":
		return Verdict{Status: Pass, Detail: fmt.Sprintf("%d walks", len(walks))}
	}
	return Verdict{Status: Fail, Signature: "exec:" + r.Signature, Detail: r.Detail}
}

func (o *Oracle) checkValidator(s *Subject) Verdict {
	ok, msg, err := o.Validate(s)
	switch {
	case err != nil:
		return Verdict{Status: Error, Detail: err.Error()}
	case ok:
		return Verdict{Status: Pass}
	}
	return Verdict{Status: Fail, Signature: "spirv-val:" + NormalizeValidatorMessage(msg), Detail: msg}
}

// Validate is the validator's answer on s's module (valid, its message,
// or an error when it could not judge), asked once per Check: the
// spirv-val check reports it, and a check that hands the module to a
// driver (gpu) asks it first, since a driver may crash on an invalid
// module.
func (o *Oracle) Validate(s *Subject) (bool, string, error) {
	if !s.valDone {
		if o.opt.Validator == nil { // spirv-val is not among the checks: made on first use
			v, err := LookupValidator(o.opt.Env)
			if err != nil {
				return false, "", err
			}
			o.opt.Validator = v
		}
		s.valOK, s.valMsg, s.valErr = o.opt.Validator.Validate(s.Module)
		s.valDone = true
	}
	return s.valOK, s.valMsg, s.valErr
}

// ValidateForDriver is Validate under a Vulkan target environment, what a
// check that hands the module to a Vulkan driver must ask: Options.Env
// when it is one (vulkan1.1, vulkan1.3, the answer spirv-val gives too),
// else DefaultTargetEnv, since a module valid for a plain SPIR-V
// environment (spv1.3: physical addressing, kernels) may still crash a
// driver.
func (o *Oracle) ValidateForDriver(s *Subject) (bool, string, error) {
	if env := cmp.Or(o.opt.Env, DefaultTargetEnv); strings.HasPrefix(env, "vulkan") {
		return o.Validate(s)
	}
	if o.vulkan == nil {
		v, err := LookupValidator(DefaultTargetEnv)
		if err != nil {
			return false, "", err
		}
		o.vulkan = v
	}
	return o.vulkan.Validate(s.Module)
}

// checkRules runs the structured rules checker. The signature names the
// lowest-numbered broken rule.
func (o *Oracle) checkRules(s *Subject) Verdict {
	p, err := s.parsed()
	var vs []Violation
	if err == nil {
		vs, err = checkRulesParsed(p, RulesOptions{Compat: o.opt.RulesCompat})
	}
	var malformed *MalformedError
	var undecodable *spirv.DecodeError
	if err != nil && !errors.As(err, &malformed) && !errors.As(err, &undecodable) {
		return Verdict{Status: Error, Detail: err.Error()}
	}
	if err != nil {
		return Verdict{Status: Fail, Signature: "rules:" + SigRulesMalformed, Detail: err.Error()}
	}
	if len(vs) == 0 {
		return Verdict{Status: Pass}
	}
	return rulesFailure(vs)
}

// rulesFailure is the failing verdict of violations vs (at least one):
// the lowest-numbered rule names the finding, and its violation leads the
// detail, whose first line is what a summary shows; the rest follow in
// rule order, each rule's in the order found.
func rulesFailure(vs []Violation) Verdict {
	vs = slices.Clone(vs)
	slices.SortStableFunc(vs, func(a, b Violation) int { return ruleNumber(a.Rule) - ruleNumber(b.Rule) })
	lines := make([]string, len(vs))
	for i, v := range vs {
		lines[i] = v.String()
	}
	return Verdict{Status: Fail, Signature: "rules:" + vs[0].Rule, Detail: strings.Join(lines, "\n")}
}

// SigRulesMalformed: the module cannot be decoded or split into blocks.
const SigRulesMalformed = "malformed"

func ruleNumber(r string) int {
	n := 0
	for _, c := range strings.TrimPrefix(r, "R") {
		n = n*10 + int(c-'0')
	}
	return n
}

// Disagreement compares the rules and spirv-val verdicts: when one failed
// and the other passed it returns a verdict with signature
// "disagree:rules-only:<rule>" or "disagree:val-only:<normalized message>"
// and both verdicts in the detail. spirv-val failing for a reason outside
// structured control flow (ControlFlowRule: a type, an id, a limit) is no
// disagreement: the validator did not judge what rules judges.
func Disagreement(vs []Verdict) (Verdict, bool) {
	var rules, val *Verdict
	for i := range vs {
		switch vs[i].Check {
		case "rules":
			rules = &vs[i]
		case "spirv-val":
			val = &vs[i]
		}
	}
	if rules == nil || val == nil {
		return Verdict{}, false
	}
	switch {
	case rules.Status == Fail && val.Status == Pass:
		return Verdict{Check: "disagree", Status: Fail, Signature: "disagree:rules-only:" + strings.TrimPrefix(rules.Signature, "rules:"),
			Detail: "the structured rules reject what spirv-val accepts; oracle/DISAGREEMENTS.md says which side the specification takes for the kinds seen so far\n" + bothVerdicts(rules, val)}, true
	case rules.Status == Pass && val.Status == Fail && valJudgedStructure(val):
		return Verdict{Check: "disagree", Status: Fail, Signature: "disagree:val-only:" + strings.TrimPrefix(val.Signature, "spirv-val:"),
			Detail: "spirv-val rejects what the structured rules accept; oracle/DISAGREEMENTS.md lists the validator's readings the specification does not take, by SPIRV-Tools version\n" + bothVerdicts(rules, val)}, true
	}
	return Verdict{}, false
}

// bothVerdicts is a disagreement's detail: each verdict's status,
// signature and detail. Only a disagreement spells it out: Disagreement
// runs on every graph, and nearly every graph's two verdicts agree.
func bothVerdicts(rules, val *Verdict) string {
	return fmt.Sprintf("rules: %s %s\n%s\nspirv-val: %s %s\n%s", rules.Status, rules.Signature, rules.Detail, val.Status, val.Signature, val.Detail)
}

// valJudgedStructure reports whether a failing spirv-val verdict is about
// structured control flow (valscope.go).
func valJudgedStructure(val *Verdict) bool {
	_, ok := ControlFlowRule(strings.TrimPrefix(val.Signature, "spirv-val:"))
	return ok
}
