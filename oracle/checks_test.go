// checks_test.go: the pdom, growth and meta checks and the check table:
// pdom passes on seeded random graphs (every kind: unreachable blocks,
// exit-less cycles, self-loops) and its comparison catches a planted wrong
// dominator; growth and meta fail with their signatures on planted faults
// through fake structurizer seams; --checks resolution.
package oracle

import (
	byteorder "encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestPdomPassesOnRandomGraphs(t *testing.T) {
	r := seededRand(t, 3)
	o := &Oracle{}
	for i := range 300 {
		n := 1 + r.IntN(40)
		if i%50 == 0 {
			n = PdomBruteForceLimit + 10 // gonum only
		}
		g := randomGraph(r, n)
		if v := o.checkPdom(&Subject{Graph: g}); v.Status != Pass {
			t.Fatalf("graph %s: %+v", cfg.FormatCompact(g), v)
		}
	}
}

func TestPdomComparisonCatchesAWrongDominator(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	idom := cfg.Dominators(g).IDom
	if idom[3] != 0 {
		t.Fatalf("idom(3) = %d, want 0", idom[3])
	}
	wrong := slices.Clone(idom)
	wrong[3] = 1
	if _, _, ok := sameIDom(wrong, gonumIDom(g, false)); ok {
		t.Error("a wrong idom(3) = 1 compares equal to gonum")
	}
	if _, _, ok := sameIDom(wrong, cfg.RefIDom(cfg.RefDominates(g), nil)); ok {
		t.Error("a wrong idom(3) = 1 compares equal to the definition")
	}
	pd := gonumIDom(g, true)
	if pd[0] != 3 || pd[3] != cfg.Exit {
		t.Errorf("gonum post-dominators %v: want ipdom(0)=3, ipdom(3)=exit", pd)
	}
}

// dispatchSeam is the real structurizer behind the oracle's seam.
func dispatchSeam(strategy string) StructurizeFunc {
	return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
		start := time.Now()
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
		if err != nil {
			return nil, ResultInfo{}, err
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		return mod, ResultInfo{Strategy: strategy, Synthetic: res.Stats.Synthetic, Duration: time.Since(start), Idempotent: strategy != "dispatch"}, err
	}
}

func subjectOf(t *testing.T, src string, seam StructurizeFunc) *Subject {
	t.Helper()
	g, err := cfg.ParseCompact(src, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	mod, info, err := seam(g)
	if err != nil {
		t.Fatal(err)
	}
	return &Subject{Graph: g, Module: mod, Info: info, Structurize: seam}
}

const loopGraph = "{{1}, {2, 3}, {1, 4}, {4}, {5, 1}, {}}"

func TestMetaPassesOnDispatch(t *testing.T) {
	s := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
	if v := (&Oracle{}).checkMeta(s); v.Status != Pass {
		t.Fatalf("%+v", v)
	}
}

func TestMetaPlantedFaults(t *testing.T) {
	real := dispatchSeam("dispatch")
	calls := 0
	cases := []struct {
		name string
		seam StructurizeFunc
		sig  string
	}{
		{"nondeterministic", func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			calls++
			if calls > 1 {
				g2 := g.Clone()
				g2.Weights[0] += 4 // a different module on the second run
				return real(g2)
			}
			return real(g)
		}, "meta:" + SigNondeterministic},
		{"input-mutated", func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			mod, info, err := real(g)
			calls++
			if calls > 1 {
				g.Weights[0]++
			}
			return mod, info, err
		}, "meta:" + SigInputMutated},
		{"renumbering", func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			calls++
			if calls > 2 { // the renumbered run drops an edge
				g2 := g.Clone()
				for b := range g2.Succs {
					if len(g2.Succs[b]) == 2 {
						g2.Succs[b] = g2.Succs[b][:1]
						break
					}
				}
				return real(g2)
			}
			return real(g)
		}, "meta:" + SigRenumbering},
		{"renumbering-shape", func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			calls++
			if calls > 2 { // the renumbered run: same edges, a block with more filler
				g2 := g.Clone()
				g2.Weights[len(g2.Weights)-1] += 40
				return real(g2)
			}
			return real(g)
		}, "meta:" + SigRenumbering},
		{"not-idempotent", func(g *cfg.Graph) ([]byte, ResultInfo, error) {
			calls++
			mod, info, err := real(g)
			if calls == 4 { // the run on the output's CFG grows it by a chain
				g2 := g.Clone()
				for range 10 {
					g2.Succs[len(g2.Succs)-1] = []int{len(g2.Succs)}
					g2.Succs = append(g2.Succs, nil)
					g2.Weights = append(g2.Weights, 0)
				}
				mod, info, err = real(g2)
			}
			info.Idempotent = true
			return mod, info, err
		}, "meta:" + SigNotIdempotent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls = 0
			s := subjectOf(t, loopGraph, c.seam)
			v := (&Oracle{}).checkMeta(s)
			if v.Status != Fail || v.Signature != c.sig {
				t.Fatalf("want %s, got %+v", c.sig, v)
			}
			if !KnownSignature(v.Signature) {
				t.Errorf("%s not in the table", v.Signature)
			}
		})
	}
}

func TestMetaIdempotenceOfStructured(t *testing.T) {
	if !slices.Contains(structurizer.Strategies(), "structured") {
		t.Skip("no structured strategy")
	}
	s := subjectOf(t, "{{1, 2}, {3}, {3}, {}}", dispatchSeam("structured"))
	v := (&Oracle{}).checkMeta(s)
	t.Logf("structured on an if/else diamond: %+v", v)
	if v.Status != Pass {
		t.Errorf("%+v", v)
	}
}

func TestGrowthLimits(t *testing.T) {
	s := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
	if v := (&Oracle{}).checkGrowth(s); v.Status != Pass {
		t.Fatalf("default limits: %+v", v)
	}
	for _, c := range []struct {
		opt GrowthOptions
		sig string
	}{
		{GrowthOptions{BlockFactor: 0.5, BlockSlack: -1}, SigGrowthBlocks},
		{GrowthOptions{WordFactor: 0.01}, SigGrowthWords},
		{GrowthOptions{TimeLimit: time.Nanosecond, TimePerBlock: -1}, SigGrowthTime},
	} {
		s.Info.Duration = time.Millisecond
		o := &Oracle{opt: Options{Growth: c.opt}}
		if v := o.checkGrowth(s); v.Signature != "growth:"+c.sig {
			t.Errorf("%+v: want growth:%s, got %+v", c.opt, c.sig, v)
		}
	}
}

// TestGrowthTimeLimitIsTheOption: an answer of 20 s fails growth:time
// under the default limit, the detail naming the limit and --growth-time,
// the flag that raises it, and passes under a TimeLimit of 30 s.
func TestGrowthTimeLimitIsTheOption(t *testing.T) {
	s := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
	s.Info.Duration = 20 * time.Second
	v := (&Oracle{}).checkGrowth(s)
	if v.Signature != "growth:"+SigGrowthTime || !strings.Contains(v.Detail, "--growth-time raises the 1s") {
		t.Errorf("default limit: %+v, want growth:%s naming --growth-time", v, SigGrowthTime)
	}
	if v := (&Oracle{opt: Options{Growth: GrowthOptions{TimeLimit: 30 * time.Second}}}).checkGrowth(s); v.Status != Pass {
		t.Errorf("TimeLimit 30s: %+v, want a pass", v)
	}
}

// TestGrowthAllowsABlockPerCase: each successor of a switch block adds one
// block to the limit (a layout may give each case a block), and
// PerCaseBlocks < 0 takes the allowance away.
func TestGrowthAllowsABlockPerCase(t *testing.T) {
	wide := "{{1" + strings.Repeat(", 1", 39) + "}, {}}" // a switch of 40 cases, all to block 1
	s := subjectOf(t, wide, dispatchSeam("dispatch"))
	blocks, err := s.entryBlocks()
	if err != nil || blocks > 40 {
		t.Fatalf("the dispatch layout of %s: %d blocks (%v), want at most 40", wide, blocks, err)
	}
	tight := GrowthOptions{BlockFactor: 0.5, BlockSlack: -1} // 0 blocks for 2 blocks in, but for the cases
	if v := (&Oracle{opt: Options{Growth: tight}}).checkGrowth(s); v.Status != Pass {
		t.Errorf("%d blocks out, 40 cases: %+v", blocks, v)
	}
	tight.PerCaseBlocks = -1
	if v := (&Oracle{opt: Options{Growth: tight}}).checkGrowth(s); v.Signature != "growth:"+SigGrowthBlocks {
		t.Errorf("without the allowance: want growth:%s, got %+v", SigGrowthBlocks, v)
	}
}

// TestGrowthTimeScalesWithTheGraph: the time limit is 1 s and 1 ms for
// each reachable block, so 1.5 s passes a graph of 1,000 blocks and fails
// one of a few blocks.
func TestGrowthTimeScalesWithTheGraph(t *testing.T) {
	small := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
	succs := make([][]int, 1000)
	for b := range 999 {
		succs[b] = []int{b + 1}
	}
	large := subjectOf(t, cfg.FormatCompact(cfg.FromSuccs(succs)), dispatchSeam("dispatch"))
	for _, c := range []struct {
		s    *Subject
		pass bool
	}{{small, false}, {large, true}} {
		c.s.Info.Duration = 1500 * time.Millisecond
		v := (&Oracle{}).checkGrowth(c.s)
		if (v.Status == Pass) != c.pass || !c.pass && v.Signature != "growth:"+SigGrowthTime {
			t.Errorf("%d blocks in 1.5 s: %+v, want pass %v", c.s.Graph.Len(), v, c.pass)
		}
	}
}

func TestResolveChecks(t *testing.T) {
	for spec, want := range map[string][]string{
		"":                   DefaultChecks,
		"rules,exec":         {"rules", "exec"},
		"+gpu":               append(slices.Clone(DefaultChecks), "gpu"),
		"-meta,+gpu":         append(slices.DeleteFunc(slices.Clone(DefaultChecks), func(s string) bool { return s == "meta" }), "gpu"),
		" rules , +pdom ":    {"rules", "pdom"},
		"rules,-everything":  {"rules", "-everything"}, // kept, for New to refuse
		"exec,rules,exec":    {"exec", "rules"},
		" exec":              {"exec"},
		"+ gpu":              append(slices.Clone(DefaultChecks), "gpu"),
		" + gpu , - meta ":   append(slices.DeleteFunc(slices.Clone(DefaultChecks), func(s string) bool { return s == "meta" }), "gpu"),
		"rules,- everything": {"rules", "-everything"},
	} {
		if got := ResolveChecks(spec); !slices.Equal(got, want) {
			t.Errorf("ResolveChecks(%q) = %v, want %v", spec, got, want)
		}
	}
}

// TestNewRefusesNoCheck: a selection naming a removal of no check, or
// removing every check, is refused: a graph would pass unjudged.
func TestNewRefusesNoCheck(t *testing.T) {
	for spec, want := range map[string]string{
		"-everything":                           `unknown check "-everything"`,
		"rules,-rules":                          "no check selected",
		"-" + strings.Join(DefaultChecks, ",-"): "no check selected",
	} {
		if _, err := New(Options{Checks: ResolveChecks(spec)}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(--checks %s): %v, want %q", spec, err, want)
		}
	}
}

func TestDisagreementVerdictComesFirst(t *testing.T) {
	body := "%entry = OpLabel\nOpSelectionMerge %m None\nOpBranchConditional %t %a %b\n%a = OpLabel\nOpBranchConditional %t %b %x\n%x = OpLabel\nOpBranch %m\n%b = OpLabel\nOpBranch %m\n%m = OpLabel\nOpReturn\n"
	mod := assemble(t, []byte(body), "")
	o, err := New(Options{Checks: []string{"rules", "spirv-val"}})
	if err != nil {
		t.Skip(err)
	}
	vs := o.Check(&Subject{Module: mod})
	f := Failed(vs)
	if f == nil || f.Signature != "disagree:rules-only:R12" || !strings.Contains(f.Detail, "spirv-val: pass") {
		t.Fatalf("want disagree:rules-only:R12 first, got %+v", vs)
	}
}

// TestCheckPanicIsHarnessError: a check that panics gets an Error verdict
// naming it and the panic, and the checks after it still run.
func TestCheckPanicIsHarnessError(t *testing.T) {
	o, err := New(Options{Checks: []string{"growth"}})
	if err != nil {
		t.Fatal(err)
	}
	boom := check{name: "boom", run: func(*Oracle, *Subject) Verdict { panic("index out of range") }}
	o.checks = append([]check{boom}, o.checks...)
	vs := o.Check(subjectOf(t, loopGraph, dispatchSeam("structured")))
	if len(vs) != 2 || vs[0].Status != Error || vs[0].Check != "boom" || !strings.Contains(vs[0].Detail, "check boom panicked: index out of range") {
		t.Fatalf("want boom's harness error first, got %+v", vs)
	}
	if vs[1].Check != "growth" || vs[1].Status != Pass {
		t.Fatalf("growth after the panic: %+v", vs[1])
	}
	if e := Errored(vs); e == nil || Failed(vs) != nil {
		t.Fatalf("a panic is a harness error, not a finding: %+v", vs)
	}
}

// TestCheckDecodesEachModuleAfresh: the checks share one decoding of the
// subject's module within a Check; a Subject checked again after its Module
// changed is judged on the new bytes, not on the old decoding.
func TestCheckDecodesEachModuleAfresh(t *testing.T) {
	o, err := New(Options{Checks: []string{"rules", "exec", "growth", "meta"}})
	if err != nil {
		t.Fatal(err)
	}
	s := subjectOf(t, loopGraph, dispatchSeam("structured"))
	for _, v := range o.Check(s) {
		if v.Status != Pass {
			t.Fatalf("good module: %+v", v)
		}
	}
	good := s.Module
	s.Module = good[:len(good)-4] // the last instruction cut short
	failed := Failed(o.Check(s))
	if failed == nil || failed.Signature != "rules:"+SigRulesMalformed {
		t.Fatalf("cut module: first failure %+v, want rules:%s", failed, SigRulesMalformed)
	}
	s.Module = good
	if f := Failed(o.Check(s)); f != nil {
		t.Fatalf("good module again: %+v", f)
	}
}

// TestScanEntryBlocksAgainstDecode holds the word scan behind entryBlocks to
// the decoder's count on emitted modules of both strategies and on damaged
// copies (a word overwritten, bytes cut off, the other byte order, the
// entry point after the functions or none and main's id 0): the
// scan reads a module exactly when the decoder does (little-endian), and
// then counts the same blocks; so does entryBlocksOf on the decoded module.
func TestScanEntryBlocksAgainstDecode(t *testing.T) {
	r := seededRand(t, 9)
	check := func(what string, mod []byte, littleEndian bool) {
		t.Helper()
		n, ok := scanEntryBlocks(mod)
		want, err := decodeEntryBlocks(mod)
		if littleEndian && ok != (err == nil) || ok && n != want {
			t.Fatalf("%s: scan %d %v, decode %d %v", what, n, ok, want, err)
		}
		got, gerr := entryBlocks(mod)
		if got != want || (gerr == nil) != (err == nil) {
			t.Fatalf("%s: entryBlocks %d %v, decode %d %v", what, got, gerr, want, err)
		}
		if m, err := spirv.Decode(mod); err == nil {
			if got := entryBlocksOf(m); got != want {
				t.Fatalf("%s: entryBlocksOf %d, two passes %d", what, got, want)
			}
		}
	}
	for i := range 300 {
		g := randomGraph(r, 1+r.IntN(12))
		mod, _, err := dispatchSeam([]string{"dispatch", "structured"}[i%2])(g)
		if err != nil {
			continue
		}
		check("module", mod, true)
		bad := slices.Clone(mod)
		w := 5 + r.IntN(len(bad)/4-5)
		byteorder.LittleEndian.PutUint32(bad[4*w:], r.Uint32()>>uint(r.IntN(32)))
		check(fmt.Sprintf("word %d overwritten", w), bad, true)
		check("cut", mod[:len(mod)-1-r.IntN(min(len(mod), 40))], true)
		be := slices.Clone(mod)
		for k := 0; k+4 <= len(be); k += 4 {
			byteorder.BigEndian.PutUint32(be[k:], byteorder.LittleEndian.Uint32(mod[k:]))
		}
		check("big-endian", be, false)
		m, err := spirv.Decode(mod)
		if err != nil {
			t.Fatal(err)
		}
		ep := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpEntryPoint })
		last := slices.Clone(m.Insts)
		last = append(slices.Delete(last, ep, ep+1), m.Insts[ep])
		check("entry point last", (&spirv.Module{Version: m.Version, Bound: m.Bound, Insts: last}).Bytes(), true)
		none := slices.Clone(m.Insts)
		none[ep] = spirv.Instruction{Op: spirv.OpNop}
		for k, in := range none {
			if in.Op == spirv.OpFunction && in.Operands[1] == m.Insts[ep].Operands[1] {
				none[k].Operands = []uint32{in.Operands[0], 0, in.Operands[2], in.Operands[3]}
			}
		}
		check("no entry point, main's id 0", (&spirv.Module{Version: m.Version, Bound: m.Bound, Insts: none}).Bytes(), true)
	}
}

// TestSharedParseAgainstFresh: the rules check on the parse a Subject
// shares (with the entry point's graphs built first by meta's module CFG)
// finds exactly what CheckRulesModule finds parsing afresh, on emitted
// modules of both strategies and on mutated copies; so does the module CFG.
func TestSharedParseAgainstFresh(t *testing.T) {
	r := seededRand(t, 31)
	compared := 0
	for i := range 300 {
		g, m := emittedModule(t, r, i, 9)
		if m == nil {
			continue
		}
		if i%2 == 1 {
			kind := mutationKinds[r.IntN(len(mutationKinds))]
			mutate(r, m, kind)
		}
		s := &Subject{Graph: g, Module: m.Bytes()}
		mc, mcErr := s.parsedModuleCFG()
		p, perr := s.parsed()
		var got []Violation
		if perr == nil {
			got, perr = checkRulesParsed(p, RulesOptions{})
		}
		fresh, ferr := spirv.Decode(s.Module)
		if ferr != nil {
			t.Fatal(ferr)
		}
		want, werr := CheckRulesModule(fresh, RulesOptions{})
		if fmt.Sprint(perr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d %v: shared parse %v %v, fresh %v %v", i, g, got, perr, want, werr)
		}
		wantMC, wantErr := decodeModuleCFG(s.Module)
		if fmt.Sprint(mcErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(mc, wantMC) {
			t.Fatalf("graph %d %v: module CFG from the shared parse differs from a fresh read", i, g)
		}
		compared++
	}
	if compared < 200 {
		t.Fatalf("only %d modules compared", compared)
	}
}

// TestRulesDetailLeadsWithTheSignaturesRule: the violation of the rule
// the signature names is the detail's first line (what a summary shows),
// whichever the checker found first; the rest follow in rule order.
func TestRulesDetailLeadsWithTheSignaturesRule(t *testing.T) {
	vs := []Violation{{Rule: "R4", Msg: "continue target and merge block are the same block"}, {Rule: "R12", Msg: "no merge"},
		{Rule: "R2", Msg: "header declares itself as its merge block"}, {Rule: "R4", Msg: "another"}}
	v := rulesFailure(vs)
	var rules []string
	for _, line := range strings.Split(v.Detail, "\n") {
		rules = append(rules, strings.TrimSuffix(strings.Fields(line)[0], ":"))
	}
	if v.Signature != "rules:R2" || strings.Join(rules, ",") != "R2,R4,R4,R12" || !strings.Contains(v.Detail, "R4: "+vs[0].Msg) {
		t.Errorf("signature %s, detail:\n%s\nwant rules:R2 and R2,R4,R4,R12", v.Signature, v.Detail)
	}
	if vs[0].Rule != "R4" {
		t.Error("rulesFailure reordered its argument")
	}
}

// heldExecutor is the interpreter, each call waiting until release is
// closed.
type heldExecutor struct{ release chan struct{} }

func (heldExecutor) Name() string { return "held" }

func (h heldExecutor) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	<-h.release
	return Interpreter{}.Execute(module, batch, walks)
}

// TestRunningNamesTheCheck: while a Check waits in exec, Running says
// exec (of the oracle and of its Decisive copy, read from another
// goroutine) and StillRunning names it; before and after, none runs.
func TestRunningNamesTheCheck(t *testing.T) {
	release := make(chan struct{})
	o, err := New(Options{Checks: []string{"pdom", "exec", "filler"}, Executor: heldExecutor{release}})
	if err != nil {
		t.Fatal(err)
	}
	d := o.Decisive()
	if o.Running() != "" || StillRunning(o, nil) != "" {
		t.Fatalf("before Check: running %q", o.Running())
	}
	g, m := diamondModule(t)
	mod := m.Bytes()
	done := make(chan []Verdict)
	go func() { done <- d.Check(&Subject{Graph: g, Module: mod}) }()
	deadline := time.Now().Add(10 * time.Second)
	for o.Running() != "exec" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := StillRunning(nil, o, d); got != ": exec still running" {
		t.Errorf("in exec: StillRunning %q, running %q", got, o.Running())
	}
	close(release)
	<-done
	if o.Running() != "" || StillRunning(o) != "" {
		t.Errorf("after Check: running %q", o.Running())
	}
}
