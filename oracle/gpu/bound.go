// bound.go: Bound, a rewrite of a module so that an invocation gives up
// its loops after a fixed number of back edges in all, as lavapipe of Mesa
// 22.3 does on its own (65,535 iterations per invocation). On a driver that
// runs loops for ever (lavapipe of Mesa 25, GPU drivers) a wrong module, or
// a walk cut at the step cap, would otherwise keep the device busy until
// the fence times out, and a GPU job cannot be taken back.
//
// The rewrite touches only back-edge blocks, with the forms structured
// control flow allows there (SPIR-V 2.11; rules R3, R5, R6 and R12 of
// oracle/RULES.md):
//
//	OpBranch %header                      (latch, or a one-block loop)
//	  -> count; OpBranchConditional %ok %header %merge
//	OpBranchConditional %c %header %merge (or the arms swapped)
//	  -> the same with %c && %ok (or %c || !%ok)
//
// where count increments a Private counter and %ok is "below the limit";
// count goes before the terminator, or at the start of a block that calls
// a function (a block that reports, by the module convention: a one-block
// loop's header, a back-edge block that is its loop's continue target),
// so that the filler's reading does not take the counter for its sink.
// A continue construct may branch to its loop's merge (R6) and the merge is
// a declared merge block (R12), so the module stays structured. A loop
// whose merge was unreachable (OpUnreachable: the loop only returns)
// makes that merge reachable, and with it maybe more blocks (the merge of
// a selection whose arms were such loops): every block the cut edges make
// reachable moves to the end of its function, in its order, so each still
// follows its new dominator (R14); and every OpUnreachable a cut
// invocation can reach becomes OpReturn (those merges, and ones a branch
// on a route variable's impossible value led to). Returning there skips
// the convention's "returned" and sink stores on purpose: a cut invocation
// did not return in the walk's sense.
//
// Anything else (a back edge from an OpSwitch, a loop in a function that
// returns a value and needs such a return) is left alone and reported as
// ErrUnbounded: the caller then sends only walks that returned, as before.
// Written by hand on package spirv's decoder: SPIRV-Tools' optimizer has
// no pass that bounds loops.

package gpu

import (
	"errors"
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// BackEdgeLimit is the number of back edges an invocation of a bounded
// module may take in all: lavapipe 22.3's own loop limit.
const BackEdgeLimit = 65535

// ErrUnbounded is wrapped by Bound's error when the module has a back edge
// it does not rewrite.
var ErrUnbounded = errors.New("gpu: a loop cannot be bounded")

// Bound returns module rewritten so that every invocation takes at most
// limit back edges in all and then leaves each loop it is in through the
// loop's merge. The input is not modified. A module without loops comes
// back unchanged.
func Bound(module []byte, limit uint32) ([]byte, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	fns, err := splitFunctions(m)
	if err != nil {
		return nil, err
	}
	var edits []backEdge
	for _, f := range fns {
		es, err := f.backEdges()
		if err != nil {
			return nil, err
		}
		if err := f.findWoken(es); err != nil {
			return nil, err
		}
		edits = append(edits, es...)
	}
	if len(edits) == 0 {
		return module, nil
	}
	b := &bounder{m: m, limit: limit}
	b.declare()
	return b.rewrite(fns, edits).Marshal()
}

// fnBlocks is one function of a module, as instruction index ranges.
type fnBlocks struct {
	first, end int   // m.Insts[first] is OpFunction, m.Insts[end-1] OpFunctionEnd
	void       bool  // returns void
	blocks     []blk // in layout order
	byLabel    map[uint32]int
	m          *spirv.Module
	succ       [][]int      // branch targets by block index
	woken      []int        // blocks only the cut edges reach, in layout order
	returns    map[int]bool // OpUnreachable instructions that become OpReturn
}

// blk is a block: m.Insts[start] is its OpLabel, m.Insts[term] its
// terminator.
type blk struct {
	label       uint32
	start, term int
	merge, cont uint32 // OpLoopMerge operands; 0 when not a loop header
}

// splitFunctions finds every function's blocks.
func splitFunctions(m *spirv.Module) ([]*fnBlocks, error) {
	voids := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypeVoid && len(in.Operands) == 1 {
			voids[in.Operands[0]] = true
		}
	}
	var fns []*fnBlocks
	var cur *fnBlocks
	for i, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			if len(in.Operands) < 2 {
				return nil, fmt.Errorf("gpu: bound: OpFunction at instruction %d without a result", i)
			}
			cur = &fnBlocks{first: i, void: voids[in.Operands[0]], byLabel: map[uint32]int{}, m: m}
		case spirv.OpFunctionEnd:
			if cur == nil {
				return nil, fmt.Errorf("gpu: bound: OpFunctionEnd at instruction %d outside a function", i)
			}
			cur.end = i + 1
			fns = append(fns, cur)
			cur = nil
		case spirv.OpLabel:
			if cur == nil || len(in.Operands) != 1 {
				return nil, fmt.Errorf("gpu: bound: OpLabel at instruction %d outside a function", i)
			}
			cur.byLabel[in.Operands[0]] = len(cur.blocks)
			cur.blocks = append(cur.blocks, blk{label: in.Operands[0], start: i, term: -1})
		case spirv.OpLoopMerge:
			if cur != nil && len(cur.blocks) > 0 && len(in.Operands) >= 2 {
				b := &cur.blocks[len(cur.blocks)-1]
				b.merge, b.cont = in.Operands[0], in.Operands[1]
			}
		default:
			if cur != nil && len(cur.blocks) > 0 && spirv.IsTerminator(in.Op) {
				cur.blocks[len(cur.blocks)-1].term = i
			}
		}
	}
	for _, f := range fns {
		for _, b := range f.blocks {
			if b.term < 0 {
				return nil, fmt.Errorf("gpu: bound: block %%%d has no terminator", b.label)
			}
		}
	}
	return fns, nil
}

// succs are a block's branch targets, as block indices.
func (f *fnBlocks) succs(b blk) []int {
	in := f.m.Insts[b.term]
	var labels []uint32
	switch in.Op {
	case spirv.OpBranch:
		labels = in.Operands[:min(1, len(in.Operands))]
	case spirv.OpBranchConditional:
		if len(in.Operands) >= 3 {
			labels = in.Operands[1:3]
		}
	case spirv.OpSwitch:
		if len(in.Operands) >= 2 {
			labels = append(labels, in.Operands[1])
			for i := 3; i < len(in.Operands); i += 2 {
				labels = append(labels, in.Operands[i])
			}
		}
	}
	var out []int
	for _, l := range labels {
		if j, ok := f.byLabel[l]; ok {
			out = append(out, j)
		}
	}
	return out
}

// backEdge is one rewrite: the back-edge block of the loop whose header
// and merge are given (block indices in fn).
type backEdge struct {
	fn                   *fnBlocks
	latch, header, merge int
}

// findWoken records the blocks that only the cut edges (latch to merge)
// make reachable, and the OpUnreachable blocks reachable once the cuts are
// in: a cut invocation can get there (a merge that was unreachable, or one
// that only a route variable's impossible value led to), so each will
// return instead, which a function that returns a value cannot do.
func (f *fnBlocks) findWoken(es []backEdge) error {
	if len(es) == 0 {
		return nil
	}
	before := reachable(f.succ, nil)
	after := reachable(f.succ, es)
	f.returns = map[int]bool{}
	for i, b := range f.blocks {
		if !after[i] {
			continue
		}
		if !before[i] {
			f.woken = append(f.woken, i)
		}
		if f.m.Insts[b.term].Op == spirv.OpUnreachable {
			if !f.void {
				return fmt.Errorf("%w: block %%%d would return from a function that returns a value", ErrUnbounded, b.label)
			}
			f.returns[b.term] = true
		}
	}
	return nil
}

// reachable marks the blocks reachable from block 0 over succ plus the cut
// edges of es.
func reachable(succ [][]int, es []backEdge) []bool {
	extra := map[int][]int{}
	for _, e := range es {
		extra[e.latch] = append(extra[e.latch], e.merge)
	}
	seen := make([]bool, len(succ))
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ts := range [][]int{succ[b], extra[b]} {
			for _, t := range ts {
				if !seen[t] {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	return seen
}

// backEdges finds every edge into a loop header from a block the header
// dominates, and checks that it has a form Bound rewrites.
func (f *fnBlocks) backEdges() ([]backEdge, error) {
	if len(f.blocks) == 0 {
		return nil, nil
	}
	succs := make([][]int, len(f.blocks))
	for i, b := range f.blocks {
		succs[i] = f.succs(b)
	}
	f.succ = succs
	g := cfg.FromSuccs(succs)
	dom := cfg.Dominators(g)
	var out []backEdge
	for i, b := range f.blocks {
		if !dom.InTree(i) {
			continue
		}
		seen := map[int]bool{}
		for _, h := range succs[i] {
			hb := f.blocks[h]
			if hb.merge == 0 || seen[h] || !dom.Dominates(h, i) {
				continue
			}
			seen[h] = true
			merge, ok := f.byLabel[hb.merge]
			if !ok {
				return nil, fmt.Errorf("%w: loop %%%d names merge %%%d, not a block of its function", ErrUnbounded, hb.label, hb.merge)
			}
			if err := f.checkLatch(b, hb.label, hb.merge); err != nil {
				return nil, err
			}
			out = append(out, backEdge{fn: f, latch: i, header: h, merge: merge})
		}
	}
	return out, nil
}

// checkLatch accepts the back-edge terminators Bound rewrites.
func (f *fnBlocks) checkLatch(b blk, header, merge uint32) error {
	in := f.m.Insts[b.term]
	switch {
	case in.Op == spirv.OpBranch:
		return nil
	case in.Op == spirv.OpBranchConditional && len(in.Operands) >= 3:
		t, e := in.Operands[1], in.Operands[2]
		if (t == header || t == merge) && (e == header || e == merge) {
			return nil
		}
	}
	return fmt.Errorf("%w: back edge %%%d -> %%%d by %s", ErrUnbounded, b.label, header, in.Op)
}

// bounder holds the ids the rewrite declares.
type bounder struct {
	m                      *spirv.Module
	limit                  uint32
	uint, boolean, ptrPriv uint32
	zero, one, max, steps  uint32
	decls                  []spirv.Instruction // placed before the first function
}

func (b *bounder) id() uint32 { b.m.Bound++; return b.m.Bound - 1 }

// findTypes finds the module's uint, bool and Private uint pointer types.
// A second OpTypeInt 32 0, OpTypeBool or pointer type would be invalid,
// so existing ones are reused.
func (b *bounder) findTypes() {
	for _, in := range b.m.Insts {
		ops := in.Operands
		switch {
		case in.Op == spirv.OpTypeInt && len(ops) == 3 && ops[1] == 32 && ops[2] == 0:
			b.uint = ops[0]
		case in.Op == spirv.OpTypeBool && len(ops) == 1:
			b.boolean = ops[0]
		}
	}
	for _, in := range b.m.Insts {
		ops := in.Operands
		if in.Op == spirv.OpTypePointer && len(ops) == 3 && ops[1] == spirv.StoragePrivate && ops[2] == b.uint && b.uint != 0 {
			b.ptrPriv = ops[0]
		}
	}
}

// ensureScalarTypes declares uint and bool where the module has none.
func (b *bounder) ensureScalarTypes() {
	if b.uint == 0 {
		b.uint = b.id()
		b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpTypeInt, Operands: []uint32{b.uint, 32, 0}})
	}
	if b.boolean == 0 {
		b.boolean = b.id()
		b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpTypeBool, Operands: []uint32{b.boolean}})
	}
}

// declare finds or adds the types, and adds the constants and the counter.
func (b *bounder) declare() {
	b.findTypes()
	b.ensureScalarTypes()
	if b.ptrPriv == 0 {
		b.ptrPriv = b.id()
		b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpTypePointer, Operands: []uint32{b.ptrPriv, spirv.StoragePrivate, b.uint}})
	}
	b.zero, b.one, b.max, b.steps = b.id(), b.id(), b.id(), b.id()
	b.decls = append(b.decls,
		spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{b.uint, b.zero, 0}},
		spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{b.uint, b.one, 1}},
		spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{b.uint, b.max, b.limit}},
		spirv.Instruction{Op: spirv.OpVariable, Operands: []uint32{b.ptrPriv, b.steps, spirv.StoragePrivate, b.zero}},
	)
}

// rewrite builds the new instruction list: declarations before the first
// function, every back edge counted, the woken blocks at their function's
// end. From SPIR-V 1.4 the entry points'
// interfaces list every global they use, so the counter joins them.
func (b *bounder) rewrite(fns []*fnBlocks, edits []backEdge) *spirv.Module {
	byTerm := map[int]backEdge{} // latch terminator index -> edit
	moved := map[int]bool{}      // instruction indices of woken blocks
	tail := map[*fnBlocks][]spirv.Instruction{}
	returns := map[int]bool{}
	for _, f := range fns {
		for i := range f.returns {
			returns[i] = true
		}
	}
	early := map[int]int{}      // where a latch counts at its start -> its terminator
	counted := map[int]uint32{} // a latch's terminator -> the %ok its start counted
	for _, e := range edits {
		byTerm[e.fn.blocks[e.latch].term] = e
		if at, ok := b.countsEarly(e); ok {
			early[at] = e.fn.blocks[e.latch].term
		}
	}
	for _, f := range fns {
		for _, w := range f.woken {
			wb := f.blocks[w]
			for i := wb.start; i <= wb.term; i++ {
				moved[i] = true
				in := b.m.Insts[i]
				if returns[i] {
					in = spirv.Instruction{Op: spirv.OpReturn}
				}
				tail[f] = append(tail[f], in)
			}
		}
	}
	firstFn := len(b.m.Insts)
	if len(fns) > 0 {
		firstFn = fns[0].first
	}
	ends := map[int]*fnBlocks{}
	for _, f := range fns {
		ends[f.end-1] = f
	}
	out := make([]spirv.Instruction, 0, len(b.m.Insts)+len(b.decls)+6*len(edits))
	for i, in := range b.m.Insts {
		if i == firstFn {
			out = append(out, b.decls...)
		}
		if moved[i] {
			continue
		}
		if in.Op == spirv.OpEntryPoint && b.m.Version >= 0x00010400 {
			in = spirv.Instruction{Op: in.Op, Operands: append(append([]uint32(nil), in.Operands...), b.steps)}
		}
		if term, found := early[i]; found {
			out, counted[term] = b.count(out)
		}
		if e, found := byTerm[i]; found {
			out = b.countedBranch(out, e, in, counted[i])
			continue
		}
		if returns[i] {
			in = spirv.Instruction{Op: spirv.OpReturn}
		}
		if f, ok := ends[i]; ok {
			out = append(out, tail[f]...)
		}
		out = append(out, in)
	}
	return &spirv.Module{Version: b.m.Version, Generator: b.m.Generator, Bound: b.m.Bound, Schema: b.m.Schema, Insts: out}
}

// countAt is the index of the first instruction of latch e's block past
// its OpLabel and OpPhis.
func (b *bounder) countAt(e backEdge) int {
	bl := e.fn.blocks[e.latch]
	at := bl.start + 1
	for at < bl.term && (b.m.Insts[at].Op == spirv.OpPhi || b.m.Insts[at].Op == spirv.OpLine || b.m.Insts[at].Op == spirv.OpNoLine) {
		at++
	}
	return at
}

// countsEarly reports whether latch e's block counts at its start (at
// countAt) rather than before its terminator: where it calls a function.
// By the module convention a block's report is a call, and the filler's
// reading takes a Private variable stored after it for the filler's sink
// (oracle's fillerSinks), so the count goes before anything the block
// calls. Nothing else in an emitted block touches the counter, so the
// count's value is the same there; in a module whose called functions
// have loops of their own, the block's back edge is then judged on the
// count before their back edges.
func (b *bounder) countsEarly(e backEdge) (at int, ok bool) {
	bl := e.fn.blocks[e.latch]
	for i := bl.start; i < bl.term; i++ {
		if b.m.Insts[i].Op == spirv.OpFunctionCall {
			return b.countAt(e), true
		}
	}
	return 0, false
}

// count appends the counting code: the counter goes up by one, and ok
// says whether it was below the limit.
func (b *bounder) count(out []spirv.Instruction) (_ []spirv.Instruction, ok uint32) {
	old, next, ok := b.id(), b.id(), b.id()
	return append(out,
		spirv.Instruction{Op: spirv.OpLoad, Operands: []uint32{b.uint, old, b.steps}},
		spirv.Instruction{Op: spirv.OpIAdd, Operands: []uint32{b.uint, next, old, b.one}},
		spirv.Instruction{Op: spirv.OpStore, Operands: []uint32{b.steps, next}},
		spirv.Instruction{Op: spirv.OpULessThan, Operands: []uint32{b.boolean, ok, old, b.max}},
	), ok
}

// countedBranch appends the counting code (unless the block counted at
// its start: ok, nonzero) and the bounded branch that replace the latch's
// terminator. The merge instruction of a one-block loop must stay second
// to last (R13), so the code goes before it.
func (b *bounder) countedBranch(out []spirv.Instruction, e backEdge, term spirv.Instruction, ok uint32) []spirv.Instruction {
	var mergeInst []spirv.Instruction
	if n := len(out); n > 0 && (out[n-1].Op == spirv.OpLoopMerge || out[n-1].Op == spirv.OpSelectionMerge) {
		mergeInst, out = []spirv.Instruction{out[n-1]}, out[:n-1]
	}
	header, merge := e.fn.blocks[e.header].label, e.fn.blocks[e.merge].label
	if ok == 0 {
		out, ok = b.count(out)
	}
	branch := spirv.Instruction{Op: spirv.OpBranchConditional, Operands: []uint32{ok, header, merge}}
	if term.Op == spirv.OpBranchConditional && term.Operands[1] != term.Operands[2] {
		c, t := term.Operands[0], term.Operands[1]
		both := b.id()
		if t == header { // go round only while c holds and the count allows
			out = append(out, spirv.Instruction{Op: spirv.OpLogicalAnd, Operands: []uint32{b.boolean, both, c, ok}})
			branch = spirv.Instruction{Op: spirv.OpBranchConditional, Operands: []uint32{both, header, merge}}
		} else { // leave when c holds or the count is spent
			spent := b.id()
			out = append(out,
				spirv.Instruction{Op: spirv.OpLogicalNot, Operands: []uint32{b.boolean, spent, ok}},
				spirv.Instruction{Op: spirv.OpLogicalOr, Operands: []uint32{b.boolean, both, c, spent}})
			branch = spirv.Instruction{Op: spirv.OpBranchConditional, Operands: []uint32{both, merge, header}}
		}
	}
	out = append(out, mergeInst...)
	return append(out, branch)
}
