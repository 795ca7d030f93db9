// interp_fast_test.go: the fast path against the generic path it
// shortcuts (Machine.generic), the generic path also resetting every value
// for each walk (Machine.fullReset) where the fast one restores only what
// the last walk's blocks wrote, on emitted modules of both strategies with
// filler and on damaged copies: instructions the fast path resolves
// (branches and returns too) pointed at other ids (pointers, undefined
// values, ids past the bound, labels of no block or of another function's),
// two-operand ones given other opcodes (a division by a zero constant) or
// an operand too many, and the structural mutations of mutation_test.go. Both
// paths must record the same traces and sink, consume the same decisions
// and fail with the same error.
package oracle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestFastPathAgainstGeneric(t *testing.T) {
	r := seededRand(t, 17)
	fastRan, chained, damaged := 0, 0, 0
	for i := range 400 {
		g, m := emittedModule(t, r, i, 10)
		if m == nil {
			continue
		}
		walks := Walks(g, WalkOptions{Seed: uint64(i)})
		fastRan += sameOnBothPaths(t, fmt.Sprintf("graph %d %v", i, g), m, walks)
		chained += hasChain(m)
		for k := range 6 {
			d := clone(m)
			what := damage(r, d, k)
			if what == "" {
				continue
			}
			damaged++
			sameOnBothPaths(t, fmt.Sprintf("graph %d %v, %s", i, g, what), d, walks)
		}
	}
	if fastRan == 0 || chained == 0 || damaged < 400 {
		t.Fatalf("the test exercised too little: fast steps in %d modules, chains in %d, %d damaged modules", fastRan, chained, damaged)
	}
	t.Logf("%d modules ran fast steps, %d fused chains, %d damaged modules", fastRan, chained, damaged)
}

// sameOnBothPaths runs the walks on m with and without the fast path and
// fails the test when the observations or errors differ; it returns 1 when
// m has a fast step at all.
func sameOnBothPaths(t *testing.T, what string, m *spirv.Module, walks []Walk) int {
	t.Helper()
	decs := make([][]uint32, len(walks))
	longest := 0
	for i, w := range walks {
		decs[i], longest = w.Decisions, max(longest, len(w.Trace))
	}
	run := func(generic bool) ([]spirv.Observed, string) {
		obs, err := Interpreter{generic: generic, fullReset: generic}.executeDecoded(m, spirv.NewBatch(decs, longest+1), len(walks))
		if err != nil {
			return obs, err.Error()
		}
		return obs, ""
	}
	fastObs, fastErr := run(false)
	refObs, refErr := run(true)
	if fastErr != refErr {
		t.Fatalf("%s: fast path error %q, generic %q", what, fastErr, refErr)
	}
	if len(fastObs) != len(refObs) {
		t.Fatalf("%s: %d observations, generic %d", what, len(fastObs), len(refObs))
	}
	for i := range fastObs {
		f, g := fastObs[i], refObs[i]
		if !slices.Equal(f.IDs, g.IDs) || f.Returned != g.Returned || f.Consumed != g.Consumed || f.Truncated != g.Truncated || f.Sink != g.Sink {
			t.Fatalf("%s: walk %d: fast path %+v, generic %+v", what, i, f, g)
		}
	}
	if p, err := Load(m); err == nil {
		for _, f := range p.funcs {
			for _, b := range f.blocks {
				if slices.ContainsFunc(b.fast, func(s step) bool { return s.kind != stepNone }) {
					return 1
				}
			}
		}
	}
	return 0
}

// hasChain is 1 when Load fuses a chain in m.
func hasChain(m *spirv.Module) int {
	if p, err := Load(m); err == nil {
		for _, f := range p.funcs {
			for _, b := range f.blocks {
				if slices.ContainsFunc(b.fast, func(s step) bool { return s.kind == stepChain }) {
					return 1
				}
			}
		}
	}
	return 0
}

// damage changes m: k 0 repoints an operand of an instruction the fast
// path resolves (repoint), k 1 gives a two-operand instruction another
// opcode (a division, a shift, a compare) or an operand too many, k 2 is a
// structural mutation, k 3 makes a branch condition read a result in the
// middle of a filler chain (which a fused chain never writes), k 4 gives an
// access chain a word index past 2^30 (hugeIndex), k 5 makes a compare of
// the entry point read a value of another function (readForeign). It
// returns what it did,
// "" when nothing applied.
func damage(r *rand.Rand, m *spirv.Module, k int) string {
	if k == 5 {
		return readForeign(r, m)
	}
	if k == 4 {
		return hugeIndex(r, m)
	}
	if k == 3 {
		return readChainMiddle(r, m)
	}
	if k == 2 {
		kind := mutationKinds[r.IntN(len(mutationKinds))]
		if mutate(r, m, kind) {
			return kind
		}
		return ""
	}
	if k == 0 {
		return repoint(r, m)
	}
	i, in := pickInst(r, m, func(in spirv.Instruction) bool { return isBinary(in.Op) && len(in.Operands) == 4 })
	if in == nil {
		return ""
	}
	switch r.IntN(3) {
	case 0:
		in.Op = []spirv.Op{spirv.OpUDiv, spirv.OpUMod, spirv.OpShiftLeftLogical, spirv.OpSLessThan, spirv.OpLogicalAnd}[r.IntN(5)]
		return fmt.Sprintf("instruction %d now %s", i, in.Op)
	case 1:
		in.Operands = append(in.Operands, in.Operands[3])
		return fmt.Sprintf("instruction %d with 5 operands", i)
	}
	in.Operands = in.Operands[:3]
	return fmt.Sprintf("instruction %d with 3 operands", i)
}

// pickInst picks one of m's instructions that ok accepts, at random, and
// gives it operands of its own to change; nil when ok accepts none.
func pickInst(r *rand.Rand, m *spirv.Module, ok func(spirv.Instruction) bool) (int, *spirv.Instruction) {
	var at []int
	for i, in := range m.Insts {
		if ok(in) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return -1, nil
	}
	i := at[r.IntN(len(at))]
	in := &m.Insts[i]
	in.Operands = slices.Clone(in.Operands)
	return i, in
}

// emittedModule is graph i of a test's stream: an arbitrary graph of 1 to
// maxBlocks blocks structurized by strategy i (mod the strategies), and its
// module; nil when the strategy refused it.
func emittedModule(t *testing.T, r *rand.Rand, i, maxBlocks int) (*cfg.Graph, *spirv.Module) {
	t.Helper()
	strategies := structurizer.Strategies()
	g := anyGraph(r, 1+r.IntN(maxBlocks))
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategies[i%len(strategies)]})
	if err != nil {
		return g, nil
	}
	m, err := emit.Module(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

// repointed are the opcodes whose operands repoint changes: every kind the
// fast path resolves but the no-ops and OpReturn.
var repointed = append([]spirv.Op{spirv.OpLoad, spirv.OpStore, spirv.OpAccessChain, spirv.OpSelect, spirv.OpFunctionCall,
	spirv.OpBranch, spirv.OpBranchConditional, spirv.OpReturnValue}, binaryOps...)

// repoint points one operand of an instruction the fast path resolves at
// another id (any id up to past the bound), or drops the last operand of
// one that is not a terminator (the generic path indexes a terminator's
// operands unchecked).
func repoint(r *rand.Rand, m *spirv.Module) string {
	i, in := pickInst(r, m, func(in spirv.Instruction) bool { return slices.Contains(repointed, in.Op) && len(in.Operands) > 0 })
	if in == nil {
		return ""
	}
	if r.IntN(8) == 0 && !spirv.IsTerminator(in.Op) && len(in.Operands) > 1 {
		in.Operands = in.Operands[:len(in.Operands)-1]
		return fmt.Sprintf("instruction %d (%s) without its last operand", i, in.Op)
	}
	slot := r.IntN(len(in.Operands))
	id := uint32(r.IntN(int(m.Bound) + 3))
	in.Operands[slot] = id
	return fmt.Sprintf("instruction %d (%s) operand %d -> %%%d", i, in.Op, slot, id)
}

// hugeIndex declares a constant past 2^30 (or a boolean, or 2^30 itself)
// and makes it the word index of one access chain into a buffer.
func hugeIndex(r *rand.Rand, m *spirv.Module) string {
	i, in := pickInst(r, m, func(in spirv.Instruction) bool { return in.Op == spirv.OpAccessChain && len(in.Operands) == 5 })
	fn := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpFunction })
	uintType := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpConstant })
	if in == nil || fn < 0 || uintType < 0 {
		return ""
	}
	id := m.Bound
	m.Bound++
	value := []uint32{1 << 30, 1<<30 + 1, 0xffffffff}[r.IntN(3)]
	in.Operands[4] = id
	m.Insts = slices.Insert(m.Insts, fn, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{m.Insts[uintType].Operands[0], id, value}})
	return fmt.Sprintf("instruction %d indexes word %d", i, value)
}

// readChainMiddle points the first operand of a compare that feeds a
// branch at the result of a two-operand instruction whose result the next
// instruction takes (the middle of a chain): the chain must then run step
// by step.
func readChainMiddle(r *rand.Rand, m *spirv.Module) string {
	var mids []uint32
	var cmps []int
	for i, in := range m.Insts {
		if isBinary(in.Op) && len(in.Operands) == 4 && i+1 < len(m.Insts) {
			if next := m.Insts[i+1]; isBinary(next.Op) && len(next.Operands) == 4 && next.Operands[2] == in.Operands[1] {
				mids = append(mids, in.Operands[1])
			}
		}
		if in.Op == spirv.OpINotEqual && len(in.Operands) == 4 {
			cmps = append(cmps, i)
		}
	}
	if len(mids) == 0 || len(cmps) == 0 {
		return ""
	}
	i, id := cmps[r.IntN(len(cmps))], mids[r.IntN(len(mids))]
	in := &m.Insts[i]
	in.Operands = slices.Clone(in.Operands)
	in.Operands[2] = id
	return fmt.Sprintf("instruction %d compares %%%d, a chain's middle", i, id)
}

// readForeign points the first operand of a compare in the entry point at
// a parameter or a result of another function: a value a walk reads
// before its own call writes it, which the walk before it did write (the
// machine's reset must put it back).
func readForeign(r *rand.Rand, m *spirv.Module) string {
	var entry, fn uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint && len(in.Operands) > 1 {
			entry = in.Operands[1]
		}
	}
	var foreign []uint32
	var cmps []int
	for i, in := range m.Insts {
		switch {
		case in.Op == spirv.OpFunction && len(in.Operands) > 1:
			fn = in.Operands[1]
		case fn == entry && in.Op == spirv.OpINotEqual && len(in.Operands) == 4:
			cmps = append(cmps, i)
		case fn != entry && fn != 0 && in.Op != spirv.OpFunctionEnd:
			if id, ok := in.ResultID(); ok {
				foreign = append(foreign, id)
			}
		}
	}
	if len(foreign) == 0 || len(cmps) == 0 {
		return ""
	}
	i, id := cmps[r.IntN(len(cmps))], foreign[r.IntN(len(foreign))]
	in := &m.Insts[i]
	in.Operands = slices.Clone(in.Operands)
	in.Operands[2] = id
	return fmt.Sprintf("instruction %d compares %%%d, another function's", i, id)
}

// TestLoadLabelTables: a branch to a label of another function traps, and
// a label id that labels a block of two functions leaves each function
// its own blocks (Load's per-function tables): a function defined after
// main that reuses a label main branches to changes nothing.
func TestLoadLabelTables(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	m := dispatchModule(t, g)
	want := execVerdict(g, m.Bytes())
	if want.Signature != "" {
		t.Fatalf("undamaged module: %s %s", want.Signature, want.Detail)
	}
	names := m.Names()
	fn, helperLabel, mainTarget := uint32(0), -1, -1
	for i, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			fn = in.Operands[1]
		case spirv.OpLabel:
			if names[fn] == "next" && helperLabel < 0 {
				helperLabel = i
			}
		case spirv.OpBranch:
			if names[fn] == "main" {
				mainTarget = i
			}
		}
	}
	if helperLabel < 0 || mainTarget < 0 {
		t.Fatal("no label of next or no branch in main")
	}
	// main branches into next.
	d := clone(m)
	d.Insts[mainTarget].Operands = []uint32{m.Insts[helperLabel].Operands[0]}
	if v := execVerdict(g, d.Bytes()); v.Signature != SigTrap || !strings.Contains(v.Detail, "not a block of the function") {
		t.Fatalf("branch into another function: %q %s", v.Signature, v.Detail)
	}
	// A copy of next, never called, defined after main, whose block has
	// the label of a block main branches to.
	d = clone(m)
	first, last := -1, -1
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction && names[in.Operands[1]] == "next" {
			first = i
		}
		if first >= 0 && last < 0 && in.Op == spirv.OpFunctionEnd {
			last = i
		}
	}
	copied := slices.Clone(m.Insts[first : last+1])
	copied[0].Operands = []uint32{copied[0].Operands[0], d.Bound, copied[0].Operands[2], copied[0].Operands[3]}
	d.Bound++
	copied[helperLabel-first].Operands = []uint32{m.Insts[mainTarget].Operands[0]}
	d.Insts = append(d.Insts, copied...)
	if v := execVerdict(g, d.Bytes()); v != want {
		t.Fatalf("a label shared by main and a later function: %q %s, want %q", v.Signature, v.Detail, want.Signature)
	}
}

// TestIDUsesAgainstLoad: the uses Load counts while it reads a module are
// those idUses counts over the loaded Program, on emitted modules and on
// damaged copies (which keep their function ids unique).
func TestIDUsesAgainstLoad(t *testing.T) {
	r := seededRand(t, 23)
	checked := 0
	for i := range 200 {
		_, m := emittedModule(t, r, i, 10)
		if m == nil {
			continue
		}
		for k := range 3 {
			d := m
			if k > 0 {
				d = clone(m)
				damage(r, d, k)
			}
			p, got, err := scanModule(d, new(interpScratch))
			if err != nil {
				continue
			}
			want := idUses(p)
			if !slices.Equal(got.count, want.count) || !slices.Equal(got.written, want.written) {
				t.Fatalf("graph %d damage %d: Load's uses differ from idUses'", i, k)
			}
			checked++
		}
	}
	if checked < 200 {
		t.Fatalf("only %d modules checked", checked)
	}
}

// TestScratchReuse: a module's observations do not depend on the modules
// run before it, whose tables the execution check reuses (interpScratch):
// emitted and damaged modules run in one order, then in reverse, then each
// on tables of its own (Load), give the same observations and errors.
func TestScratchReuse(t *testing.T) {
	r := seededRand(t, 29)
	type run struct {
		m     *spirv.Module
		walks []Walk
	}
	var runs []run
	for i := range 60 {
		g, m := emittedModule(t, r, i, 12)
		if m == nil {
			continue
		}
		walks := Walks(g, WalkOptions{Seed: uint64(i)})
		runs = append(runs, run{m, walks})
		d := clone(m)
		if damage(r, d, i%5) != "" {
			runs = append(runs, run{d, walks})
		}
	}
	observe := func(x run, fresh bool) string {
		decs := make([][]uint32, len(x.walks))
		longest := 0
		for i, w := range x.walks {
			decs[i], longest = w.Decisions, max(longest, len(w.Trace))
		}
		batch := spirv.NewBatch(decs, longest+1)
		var obs []spirv.Observed
		var err error
		if fresh {
			obs, err = Interpreter{}.executeWith(x.m, batch, len(x.walks), new(interpScratch))
		} else {
			obs, err = Interpreter{}.executeDecoded(x.m, batch, len(x.walks))
		}
		return fmt.Sprintf("%+v %v", obs, err)
	}
	forward := make([]string, len(runs))
	for i, x := range runs {
		forward[i] = observe(x, false)
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if got := observe(runs[i], false); got != forward[i] {
			t.Fatalf("module %d: run after module %d: %s, after module %d: %s", i, i+1, got, i-1, forward[i])
		}
		if got := observe(runs[i], true); got != forward[i] {
			t.Fatalf("module %d: on fresh tables: %s, after module %d: %s", i, got, i-1, forward[i])
		}
	}
}

// TestSwitchIndexAgainstScan: a dispatch loop's switch has a case per
// block, looked up in the block's cases map (switchCases) from
// switchIndexMin cases on; the generic path, the reference, scans them.
// On dispatch modules of 16 to 150 blocks both give the same observations.
func TestSwitchIndexAgainstScan(t *testing.T) {
	r := seededRand(t, 18)
	indexed := 0
	for i := range 40 {
		g := anyGraph(r, switchIndexMin+r.IntN(135))
		res, err := structurizer.Dispatch(g, structurizer.Options{})
		if err != nil {
			t.Fatalf("graph %d: %v", i, err)
		}
		m, err := emit.Module(res.Func, emit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := Load(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range p.funcs {
			for _, b := range f.blocks {
				if b.cases != nil {
					indexed++
				}
			}
		}
		sameOnBothPaths(t, fmt.Sprintf("graph %d %v", i, g), m, Walks(g, WalkOptions{Seed: uint64(i)}))
	}
	if indexed < 20 {
		t.Fatalf("only %d switches of 40 dispatch modules were indexed", indexed)
	}
}
