// exec_test.go: the execution check accepts correct modules and catches
// wrong ones. Correct modules come from the dispatch strategy on seeded
// random graphs of every shape; wrong ones are made by mutating them: two
// case targets swapped, a trace append dropped, a decision read twice.
package oracle

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// anyGraph is an arbitrary graph: any edges, out-degree 0-4, weights.
func anyGraph(r *rand.Rand, n int) *cfg.Graph {
	g := gen.Arbitrary(r, n)
	for b := range n {
		g.Weights[b] = []int{0, 0, 16, 40}[r.IntN(4)]
	}
	return g
}

func dispatchModule(t testing.TB, g *cfg.Graph) *spirv.Module {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
	if err != nil {
		t.Fatalf("%v: %v", g, err)
	}
	m, err := emit.Module(res.Func, emit.Options{})
	if err != nil {
		t.Fatalf("%v: %v", g, err)
	}
	return m
}

func execVerdict(g *cfg.Graph, module []byte) ExecResult {
	return CompareWalks(Interpreter{}, module, Walks(g, WalkOptions{Seed: 7}))
}

func TestExecAcceptsDispatchModules(t *testing.T) {
	const seed = 11
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range 400 {
		g := anyGraph(r, 1+r.IntN(12))
		m := dispatchModule(t, g)
		if v := execVerdict(g, m.Bytes()); v.Signature != "" || v.Harness != nil {
			t.Fatalf("graph %d %v: %s %s %v", i, g, v.Signature, v.Detail, v.Harness)
		}
	}
}

// funcID finds a function by its OpName.
func funcID(t testing.TB, m *spirv.Module, name string) uint32 {
	for id, n := range m.Names() {
		if n == name {
			return id
		}
	}
	t.Fatalf("module has no function %q", name)
	return 0
}

// callSites lists the instruction indices of calls to fn.
func callSites(m *spirv.Module, fn uint32) []int {
	var at []int
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunctionCall && len(in.Operands) >= 3 && in.Operands[2] == fn {
			at = append(at, i)
		}
	}
	return at
}

func clone(m *spirv.Module) *spirv.Module {
	c := *m
	c.Insts = make([]spirv.Instruction, len(m.Insts))
	for i, in := range m.Insts {
		c.Insts[i] = spirv.Instruction{Op: in.Op, Operands: append([]uint32(nil), in.Operands...)}
	}
	return &c
}

// mutation makes a wrong module from a correct one, or reports it cannot.
type mutation struct {
	name  string
	apply func(t testing.TB, r *rand.Rand, m *spirv.Module) bool
}

var mutations = []mutation{
	{"swap-case-targets", func(t testing.TB, r *rand.Rand, m *spirv.Module) bool {
		// The dispatch switch: swap the labels of two cases.
		for i, in := range m.Insts {
			if in.Op != spirv.OpSwitch || len(in.Operands) < 6 {
				continue
			}
			cases := (len(in.Operands) - 2) / 2
			a, b := r.IntN(cases), r.IntN(cases-1)
			if b >= a {
				b++
			}
			ops := m.Insts[i].Operands
			ops[3+2*a], ops[3+2*b] = ops[3+2*b], ops[3+2*a]
			return true
		}
		return false
	}},
	{"drop-trace-append", func(t testing.TB, r *rand.Rand, m *spirv.Module) bool {
		sites := callSites(m, funcID(t, m, "append"))
		if len(sites) == 0 {
			return false
		}
		i := sites[r.IntN(len(sites))]
		m.Insts = append(m.Insts[:i], m.Insts[i+1:]...)
		return true
	}},
	{"read-decision-twice", func(t testing.TB, r *rand.Rand, m *spirv.Module) bool {
		// Insert a second call of next() right after a block's trace append.
		next := funcID(t, m, "next")
		sites := callSites(m, funcID(t, m, "append"))
		if len(sites) == 0 {
			return false
		}
		i := sites[r.IntN(len(sites))]
		var uintType uint32
		for _, in := range m.Insts {
			if in.Op == spirv.OpFunction && in.Operands[1] == next {
				uintType = in.Operands[0]
			}
		}
		call := spirv.Instruction{Op: spirv.OpFunctionCall, Operands: []uint32{uintType, m.Bound, next}}
		m.Bound++
		m.Insts = append(m.Insts[:i+1], append([]spirv.Instruction{call}, m.Insts[i+1:]...)...)
		return true
	}},
}

func TestExecCatchesMutatedModules(t *testing.T) {
	const seed = 12
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for _, mu := range mutations {
		caught, tried := 0, 0
		for tried < 200 {
			// Graphs where every block is reachable and reads nothing odd:
			// a chain through a switch so every case is a distinct block.
			g := anyGraph(r, 2+r.IntN(10))
			h, _ := g.DropUnreachable()
			if h.Len() < 2 || !allReturn(h) {
				// Past the step cap only the trace is compared, so an extra
				// decision read in a block that never returns can hide.
				continue
			}
			m := clone(dispatchModule(t, h))
			if !mu.apply(t, r, m) {
				continue
			}
			tried++
			v := execVerdict(h, m.Bytes())
			if v.Harness != nil {
				t.Fatalf("%s on %v: harness error %v", mu.name, h, v.Harness)
			}
			if v.Signature != "" {
				caught++
			} else if mu.name != "swap-case-targets" {
				// Dropping an append or reading twice is always visible:
				// covering walks enter every block.
				t.Fatalf("%s on %v not caught", mu.name, h)
			}
		}
		// Swapping two cases is invisible only when both blocks behave
		// identically; that is rare.
		if caught < tried*9/10 {
			t.Fatalf("%s: caught %d of %d", mu.name, caught, tried)
		}
		t.Logf("%s: caught %d of %d mutants", mu.name, caught, tried)
	}
}

func allReturn(g *cfg.Graph) bool {
	for _, ok := range cfg.RefReachesExit(g) {
		if !ok {
			return false
		}
	}
	return true
}

func TestExecSignatures(t *testing.T) {
	// A graph that returns at once against a module that never returns.
	g := cfg.FromSuccs([][]int{{}})
	loop := cfg.FromSuccs([][]int{{0}})
	m := dispatchModule(t, loop)
	if v := execVerdict(g, m.Bytes()); v.Signature != SigTrace && v.Signature != SigNoReturn {
		t.Fatalf("endless module for a returning graph: %q %s", v.Signature, v.Detail)
	}
	// The walks of an endless graph against a module that returns.
	m = dispatchModule(t, g)
	if v := execVerdict(loop, m.Bytes()); v.Signature != SigEarlyReturn {
		t.Fatalf("returning module for an endless graph: %q %s", v.Signature, v.Detail)
	}
	// Garbage is not loadable.
	if v := execVerdict(g, []byte{1, 2, 3, 4}); v.Signature != SigLoad {
		t.Fatalf("garbage: %q", v.Signature)
	}
}

func TestWalksCoverEveryEdge(t *testing.T) {
	const seed = 13
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range 1000 {
		g := anyGraph(r, 1+r.IntN(14))
		walks := Walks(g, WalkOptions{Random: -1})
		covered := map[[2]int]bool{}
		for _, w := range walks {
			k := 0
			for j := 0; j+1 < len(w.Trace); j++ {
				b := w.Trace[j]
				var d uint32
				if g.Decides(b) {
					if k < len(w.Decisions) {
						d = w.Decisions[k]
					}
					k++
				}
				covered[[2]int{b, cfg.Choice(len(g.Succs[b]), d)}] = true
			}
		}
		reach := g.Reachable()
		for b, s := range g.Succs {
			for c := range s {
				if reach[b] && !covered[[2]int{b, c}] {
					t.Fatalf("graph %d %v: edge %d#%d not covered by %d walks", i, g, b, c, len(walks))
				}
			}
		}
	}
}

// TestRandomWalksSkipRepeats: no two walks share their decisions (compared
// pairwise, not through Walks' keys), the covering walks come first and
// unchanged, one more random walk drawn only ever adds at the end, and a
// graph of one block gets one walk however many are drawn.
func TestRandomWalksSkipRepeats(t *testing.T) {
	const seed = 29
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	dropped := 0
	for i := range 500 {
		g := anyGraph(r, 1+r.IntN(8))
		covering := Walks(g, WalkOptions{Random: -1, Seed: uint64(i)})
		walks := Walks(g, WalkOptions{Random: 16, Seed: uint64(i)})
		for a := range walks {
			for b := range a {
				if slices.Equal(walks[a].Decisions, walks[b].Decisions) {
					t.Fatalf("graph %d %v: walks %d and %d both decide %v", i, g, b, a, walks[a].Decisions)
				}
			}
		}
		if len(walks) < len(covering) || !sameWalks(walks[:len(covering)], covering) {
			t.Fatalf("graph %d %v: the covering walks changed", i, g)
		}
		if more := Walks(g, WalkOptions{Random: 17, Seed: uint64(i)}); len(more) < len(walks) || !sameWalks(more[:len(walks)], walks) {
			t.Fatalf("graph %d %v: drawing one more random walk changed the first ones", i, g)
		}
		dropped += len(covering) + 16 - len(walks)
	}
	if one := Walks(cfg.FromSuccs([][]int{{}}), WalkOptions{}); len(one) != 1 {
		t.Fatalf("one-block graph: %d walks, want 1", len(one))
	}
	if dropped == 0 {
		t.Fatal("no random walk repeated another: the test exercised nothing")
	}
	t.Logf("%d repeated random walks dropped over 500 graphs", dropped)
}

func sameWalks(a, b []Walk) bool {
	return slices.EqualFunc(a, b, func(x, y Walk) bool {
		return slices.Equal(x.Decisions, y.Decisions) && slices.Equal(x.Trace, y.Trace) && x.Returned == y.Returned && x.Consumed == y.Consumed
	})
}

func BenchmarkExecDispatch(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 0))
	var gs []*cfg.Graph
	var mods [][]byte
	for range 64 {
		g := anyGraph(r, 5+r.IntN(5))
		gs = append(gs, g)
		mods = append(mods, dispatchModule(b, g).Bytes())
	}
	i := 0
	for b.Loop() {
		execVerdict(gs[i%len(gs)], mods[i%len(gs)])
		i++
	}
}

// TestExecStopsRunawayModules: two modules no hang counter sees end, each
// must come back with a verdict. In the first, append toggles the trace
// count (count ^ 1 for count + 1), so a loop keeps "recording"; in the
// second, next() loops in itself, where OnBlock never runs. Before the
// step caps (Interpreter's entry-point steps, Machine.MaxBlocks) both ran
// forever.
func TestExecStopsRunawayModules(t *testing.T) {
	loop := cfg.FromSuccs([][]int{{1}, {1, 2}, {}})
	toggling := dispatchModule(t, loop)
	appendID, one := funcID(t, toggling, "append"), uint32(0)
	for _, in := range toggling.Insts {
		if in.Op == spirv.OpConstant && in.Operands[2] == 1 {
			one = in.Operands[1]
		}
	}
	changed, inAppend := false, false
	for i, in := range toggling.Insts {
		switch {
		case in.Op == spirv.OpFunction:
			inAppend = in.Operands[1] == appendID
		case inAppend && in.Op == spirv.OpIAdd && in.Operands[3] == one:
			toggling.Insts[i].Op, changed = spirv.OpBitwiseXor, true
		}
	}
	looping := dispatchModule(t, loop)
	nextID, inNext, label := funcID(t, looping, "next"), false, uint32(0)
	for i, in := range looping.Insts {
		switch {
		case in.Op == spirv.OpFunction:
			inNext = in.Operands[1] == nextID
		case inNext && in.Op == spirv.OpLabel:
			label = in.Operands[0]
		case inNext && in.Op == spirv.OpReturnValue:
			looping.Insts[i] = spirv.Instruction{Op: spirv.OpBranch, Operands: []uint32{label}}
		}
	}
	if !changed || label == 0 {
		t.Fatal("the modules' helpers are not as the test expects")
	}
	for name, m := range map[string]*spirv.Module{"append toggles the count": toggling, "next loops": looping} {
		done := make(chan ExecResult, 1)
		go func() { done <- execVerdict(loop, m.Bytes()) }()
		select {
		case v := <-done:
			if v.Signature == "" || v.Harness != nil {
				t.Errorf("%s: %q %v, want a finding", name, v.Signature, v.Harness)
			}
			t.Logf("%s: %s", name, v.Signature)
		case <-time.After(time.Minute):
			t.Fatalf("%s: no verdict after a minute", name)
		}
	}
}

// BenchmarkExecWeighted is the execution check where campaigns spend it:
// modules of the default strategy whose blocks carry up to 1,000 words of
// filler, with the covering and 16 random walks.
func BenchmarkExecWeighted(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 0))
	var gs []*cfg.Graph
	var mods [][]byte
	for len(gs) < 64 {
		g := anyGraph(r, 5+r.IntN(5))
		for k := range g.Weights {
			g.Weights[k] = []int{0, 16, 1000}[r.IntN(3)]
		}
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			continue
		}
		m, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		gs, mods = append(gs, g), append(mods, m)
	}
	i := 0
	for b.Loop() {
		execVerdict(gs[i%len(gs)], mods[i%len(gs)])
		i++
	}
}

// TestExecCatchesUndefinedLoads: a module that loads a variable before
// anything stored to it reads an undefined value in SPIR-V. The dispatch
// loop's state variable, its first store at the entry dropped, is such a
// module: exec reports exec:undefined-load on both interpreter paths,
// although the zero a careless interpreter would read gives the right walks
// (the dispatch loop starts at case 0).
func TestExecCatchesUndefinedLoads(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	m := dispatchModule(t, g)
	if v := execVerdict(g, m.Bytes()); v.Signature != "" {
		t.Fatalf("the intact module: %s %s", v.Signature, v.Detail)
	}
	vars := map[uint32]bool{}
	drop := -1
	for i, in := range m.Insts {
		if in.Op == spirv.OpVariable && len(in.Operands) == 3 && in.Operands[2] == spirv.StorageFunction {
			vars[in.Operands[1]] = true
		}
		if in.Op == spirv.OpStore && vars[in.Operands[0]] {
			drop = i
			break
		}
	}
	if drop < 0 {
		t.Fatal("the dispatch module stores to no Function variable")
	}
	c := clone(m)
	c.Insts = slices.Delete(c.Insts, drop, drop+1)
	if v := execVerdict(g, c.Bytes()); v.Signature != SigUndefined {
		t.Errorf("its first store dropped: %q %s, want %q", v.Signature, v.Detail, SigUndefined)
	}
	if v := CompareWalks(Interpreter{generic: true}, c.Bytes(), Walks(g, WalkOptions{Seed: 7})); v.Signature != SigUndefined {
		t.Errorf("the generic path, its first store dropped: %q %s, want %q", v.Signature, v.Detail, SigUndefined)
	}
}

// TestExecOnTheOraclesMemory runs one oracle's exec check over graphs of
// the campaign's kinds and sizes, the modules of some with a planted
// fault, and holds each verdict to a fresh oracle's: the interpreter's
// tables and trace buffer, which the oracle keeps from module to module
// (Oracle.interp), leave nothing of one module to the next. The oracle's
// own memory is the one used.
func TestExecOnTheOraclesMemory(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	o, err := New(Options{Checks: []string{"exec"}, Walks: WalkOptions{Seed: seed}})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for i := range 60 {
		kind := gen.Kinds()[i%len(gen.Kinds())]
		c := gen.Config{Kind: kind, Words: 16}
		if i%5 == 0 {
			c.MinBlocks, c.MaxBlocks = 40, 90
		}
		it, err := gen.Generate(c, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		opt := structurizer.Options{}
		if i%3 == 0 {
			opt.Inject = []string{"swap-arms"}
		}
		res, err := structurizer.Structurize(it.Graph, opt)
		if err != nil {
			continue
		}
		mod, err := emit.Bytes(res.Func, emit.Options{Registers: 4 * (i % 2)})
		if err != nil {
			t.Fatal(err)
		}
		o.opt.Walks.Registers = 4 * (i % 2)
		fresh, err := New(o.opt)
		if err != nil {
			t.Fatal(err)
		}
		got, want := o.Check(&Subject{Graph: it.Graph, Module: mod}), fresh.Check(&Subject{Graph: it.Graph, Module: mod})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d (%s) %s: the oracle's verdicts %+v, a fresh oracle's %+v", i, kind, cfg.FormatCompact(it.Graph), got, want)
		}
		if got[0].Status == Fail {
			failed++
		}
	}
	if failed == 0 {
		t.Error("no module failed: the planted faults were not judged")
	}
	if cap(o.interp.trace) == 0 {
		t.Error("the exec check ran without the oracle's own memory")
	}
}

// TestCappedWalkJudgedWithoutCopy holds compareOne on walks cut at the
// step cap to judgeOne, the reference judgement, over random traces and
// observations (the same ids or one changed, shorter, longer, run past
// the capacity, returned or not), and requires a capped walk the module
// matched to be judged without allocating.
func TestCappedWalkJudgedWithoutCopy(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	passed := 0
	for range 20000 {
		trace := make([]int, 1+r.IntN(12))
		for i := range trace {
			trace[i] = r.IntN(4)
		}
		w := Walk{Trace: trace, Returned: false, Consumed: r.IntN(5)}
		n := max(0, len(trace)+r.IntN(7)-3)
		ids := make([]uint32, n)
		for i := range ids {
			if i < len(trace) {
				ids[i] = uint32(trace[i])
			} else {
				ids[i] = uint32(r.IntN(4))
			}
		}
		if n > 0 && r.IntN(4) == 0 {
			ids[r.IntN(n)] ^= 1
		}
		o := spirv.Observed{IDs: ids, Count: uint32(n), Returned: r.IntN(3) == 0, Consumed: uint32(r.IntN(5))}
		if r.IntN(3) == 0 {
			o.Truncated, o.Count = true, uint32(n+r.IntN(4))
		}
		gotSig, gotDetail := compareOne(w, o)
		wantSig, wantDetail := judgeOne(w, o)
		if gotSig != wantSig || gotDetail != wantDetail {
			t.Fatalf("walk %v, observed %+v: compareOne %q %q, judgeOne %q %q", w.Trace, o, gotSig, gotDetail, wantSig, wantDetail)
		}
		if gotSig == "" {
			passed++
		}
	}
	if passed == 0 {
		t.Fatal("no capped walk matched")
	}
	w := Walk{Trace: []int{0, 1, 2, 1, 2}}
	o := spirv.Observed{IDs: []uint32{0, 1, 2, 1, 2, 1}, Count: 9, Truncated: true}
	if allocs := testing.AllocsPerRun(100, func() {
		if sig, _ := compareOne(w, o); sig != "" {
			t.Fatalf("matching capped walk: %s", sig)
		}
	}); allocs != 0 {
		t.Errorf("a matching capped walk took %v allocations, want 0", allocs)
	}
}
