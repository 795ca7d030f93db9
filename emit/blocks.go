// blocks.go: the entry point's body. A prologue block declares the route
// variables and locates the invocation's slices; then every block of the
// structured function follows in its layout order:
//
//	label; [append(orig id); filler; d = next()]; stores; [test operands];
//	[merge instruction]; terminator
//
// so the merge instruction is always second to last (rule R13) and a
// decision is read exactly once, at the end of the block's own code.

package emit

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// mainFunc emits the entry point.
func (b *builder) mainFunc(f *structurizer.Func) error {
	t, v := &b.t, &b.v
	labels := make([]uint32, len(f.Blocks))
	for i := range labels {
		labels[i] = b.id()
	}
	vars := make([]uint32, len(f.Vars))
	// After the helpers (buildInto gives them room for main).
	fb := &fnBody{b: b, w: b.funcs}
	fb.add(spirv.OpFunction, t.void, b.fn.main, spirv.FunctionControlNone, t.fnVoid)
	prologue := b.id()
	fb.add(spirv.OpLabel, prologue)
	b.name(prologue, "prologue")
	for i, rv := range f.Vars {
		vars[i] = b.id()
		fb.add(spirv.OpVariable, t.ptrFuncUint, vars[i], spirv.StorageFunction)
		b.name(vars[i], rv.Name)
	}
	fb.declareRegisters()
	if !b.opt.NoLaneGuard {
		fb.laneGuard()
	}
	gid := fb.val(spirv.OpLoad, t.v3, v.gid)
	x := fb.val(spirv.OpCompositeExtract, t.uint, gid, 0)
	dStride := fb.load(fb.slot(v.decisions, b.u(0), 0))
	tStride := fb.load(fb.slot(v.decisions, b.u(1), 0))
	dbase := fb.val(spirv.OpIAdd, t.uint, fb.val(spirv.OpIMul, t.uint, x, dStride), b.u(spirv.DecisionHeader))
	fb.add(spirv.OpStore, v.dbase, dbase)
	fb.add(spirv.OpStore, v.tbase, fb.val(spirv.OpIMul, t.uint, x, tStride))
	fb.add(spirv.OpStore, v.tcap, fb.val(spirv.OpISub, t.uint, tStride, b.u(b.traceOverhead())))
	fb.add(spirv.OpStore, v.sink, b.u(0))
	fb.initRegisters(dbase)
	for i, rv := range f.Vars {
		fb.add(spirv.OpStore, vars[i], b.u(rv.Init))
	}
	fb.add(spirv.OpBranch, labels[0])
	clones := map[int]int{}
	var nameBuf [64]byte
	for i := range f.Blocks {
		blk := &f.Blocks[i]
		if !b.opt.NoNames {
			if b.reference {
				put(&b.names, spirv.OpName, append([]uint32{labels[i]}, spirv.String(blockName(blk, i, clones))...)...)
			} else {
				nameOf(b, labels[i], appendBlockName(nameBuf[:0], blk, i, clones))
			}
		}
		if err := fb.block(i, blk, labels, vars); err != nil {
			return fmt.Errorf("emit: block %d: %w", i, err)
		}
	}
	fb.add(spirv.OpFunctionEnd)
	b.funcs = fb.w
	return nil
}

// laneGuard returns at once from an invocation whose LocalInvocationIndex
// is not 0. With LocalSize 1 there is no such invocation, so the guard
// changes nothing by the specification. Lavapipe before Mesa 23 runs each
// workgroup on a SIMD vector (8 lanes at 256 bits) and the lanes past the
// workgroup run the control flow too, with their loads reading 0 and their
// stores dropped: they follow the all-zero walk, and where that walk loops
// they spin until the driver's 65,535-iteration limit, which all lanes and
// all loops share, so the real invocation's next loop is cut after one
// iteration (oracle/gpu/README.md, "Correctness on the driver"). Returning
// those lanes takes them out of every loop's mask. LocalInvocationId.x
// would not do: Mesa folds it to 0 for a dimension of size 1.
func (fb *fnBody) laneGuard() {
	b := fb.b
	live, lane := b.id(), b.id()
	b.name(lane, "lane_past_workgroup")
	b.name(live, "live")
	idx := fb.val(spirv.OpLoad, b.t.uint, b.v.lidx)
	past := fb.val(spirv.OpINotEqual, b.t.boolean, idx, b.u(0))
	fb.add(spirv.OpSelectionMerge, live, spirv.SelectionControlNone)
	fb.add(spirv.OpBranchConditional, past, lane, live)
	fb.add(spirv.OpLabel, lane)
	fb.add(spirv.OpReturn)
	fb.add(spirv.OpLabel, live)
}

// appendBlockName appends blockName(blk, i, clones) to dst (and counts the
// clone as blockName does) without formatting through fmt: every block of
// every module is named.
func appendBlockName(dst []byte, blk *structurizer.Block, i int, clones map[int]int) []byte {
	switch {
	case blk.Kind == structurizer.Clone:
		clones[blk.Orig]++
		dst = strconv.AppendInt(append(dst, 'b'), int64(blk.Orig), 10)
		return strconv.AppendInt(append(dst, "_clone"...), int64(clones[blk.Orig]), 10)
	case blk.Name != "" && blk.Kind == structurizer.Synthetic:
		return append(dst, opName(blk.Name)...)
	case blk.Kind == structurizer.Original:
		return strconv.AppendInt(append(dst, 'b'), int64(blk.Orig), 10)
	}
	return strconv.AppendInt(append(dst, 's'), int64(i), 10)
}

// maxName is the longest block name emitted, in bytes.
const maxName = 256

// opName is a synthetic block's name as its OpName holds it: without NUL
// bytes, which would end the literal string early and leave the
// instruction's word count wrong, and cut at maxName bytes (at a UTF-8
// boundary), so that a name from a structurizer's answer cannot overflow
// an instruction's word count either.
func opName(name string) string {
	if len(name) > maxName {
		cut := maxName
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	return strings.ReplaceAll(name, "\x00", "")
}

// blockName is the OpName of block i: the reference appendBlockName is
// tested against.
func blockName(blk *structurizer.Block, i int, clones map[int]int) string {
	switch {
	case blk.Kind == structurizer.Clone:
		clones[blk.Orig]++
		return fmt.Sprintf("b%d_clone%d", blk.Orig, clones[blk.Orig])
	case blk.Name != "" && blk.Kind == structurizer.Synthetic:
		return opName(blk.Name)
	case blk.Kind == structurizer.Original:
		return fmt.Sprintf("b%d", blk.Orig)
	}
	return fmt.Sprintf("s%d", i)
}

// block emits one block of the structured function.
func (fb *fnBody) block(i int, blk *structurizer.Block, labels, vars []uint32) error {
	b := fb.b
	t := &b.t
	fb.add(spirv.OpLabel, labels[i])
	var decision, cond uint32
	if blk.Kind != structurizer.Synthetic {
		fb.val(spirv.OpFunctionCall, t.void, b.fn.appendID, b.u(uint32(blk.Orig)))
		fb.filler(blk)
		fb.registerStep(blk.Orig)
		if blk.Arity >= 2 {
			decision = fb.val(spirv.OpFunctionCall, t.uint, b.fn.next)
			if blk.Arity == 2 {
				cond = fb.val(spirv.OpINotEqual, t.boolean, decision, b.u(0))
			}
		}
	}
	for _, s := range blk.Stores {
		fb.add(spirv.OpStore, vars[s.Var], fb.storeValue(s, blk.Arity, decision, cond))
	}
	term := blk.Term
	var testCond, routeVal uint32
	switch term.Kind {
	case structurizer.Test:
		testCond = fb.val(spirv.OpIEqual, t.boolean, fb.load(vars[term.Var]), b.u(term.Values[0]))
	case structurizer.Route:
		routeVal = fb.load(vars[term.Var])
	}
	switch m := blk.Merge; m.Kind {
	case structurizer.SelectionMerge:
		fb.add(spirv.OpSelectionMerge, labels[m.Merge], spirv.SelectionControlNone)
	case structurizer.LoopMerge:
		fb.add(spirv.OpLoopMerge, labels[m.Merge], labels[m.Continue], spirv.LoopControlNone)
	}
	to := func(i int) uint32 { return labels[term.To[i]] }
	switch term.Kind {
	case structurizer.Return:
		fb.returnSeq()
	case structurizer.Unreachable:
		fb.add(spirv.OpUnreachable)
	case structurizer.Branch:
		fb.add(spirv.OpBranch, to(0))
	case structurizer.Choose:
		if blk.Arity == 2 {
			fb.add(spirv.OpBranchConditional, cond, to(0), to(1))
			break
		}
		ops := []uint32{decision, to(0)}
		for _, k := range caseOrder(term) {
			ops = append(ops, uint32(k), to(k))
		}
		ops = withoutDefaultCases(ops)
		if err := switchFits(ops); err != nil {
			return err
		}
		fb.add(spirv.OpSwitch, ops...)
	case structurizer.Test:
		fb.add(spirv.OpBranchConditional, testCond, to(0), to(1))
	case structurizer.Route:
		ops := []uint32{routeVal, to(0)}
		for _, k := range caseOrder(term) {
			ops = append(ops, term.Values[k-1], to(k))
		}
		ops = withoutDefaultCases(ops)
		if err := switchFits(ops); err != nil {
			return err
		}
		fb.add(spirv.OpSwitch, ops...)
	default:
		return fmt.Errorf("unknown terminator %v", term.Kind)
	}
	return nil
}

// withoutDefaultCases is an OpSwitch's operands (selector, default, then
// the (literal, label) pairs), without the pairs whose label is the
// default's when the switch holds more than MaxSwitchCases pairs: the
// default takes their literals all the same, and only the pairs written
// count against the limit. A switch within the limit keeps every pair, so
// the module's branch graph has an edge for each of the function's cases
// (the meta check's second structurization reads the module's graph, and
// a layout read back without those edges is not always one the first run
// lays out as it is: corpus/testdata/regressions holds one). A case that
// falls into the default needs no pair: R11 reads a fall into a default
// that no case lists as a fall into the target the default falls into,
// as SPIR-V does (oracle/RULES.md).
func withoutDefaultCases(ops []uint32) []uint32 {
	if (len(ops)-2)/2 <= MaxSwitchCases {
		return ops
	}
	out := ops[:2]
	for i := 2; i+1 < len(ops); i += 2 {
		if ops[i+1] != ops[1] {
			out = append(out, ops[i], ops[i+1])
		}
	}
	return out
}

// storeValue computes a store's value: a constant, or the per-choice value
// selected by the decision (nested OpSelect, so the arm adds no blocks).
func (fb *fnBody) storeValue(s structurizer.Store, arity int, decision, cond uint32) uint32 {
	b := fb.b
	if s.PerChoice == nil {
		return b.u(s.Value)
	}
	if arity == 2 {
		return fb.val(spirv.OpSelect, b.t.uint, cond, b.u(s.PerChoice[0]), b.u(s.PerChoice[1]))
	}
	v := b.u(s.PerChoice[0])
	for k := 1; k < arity; k++ {
		eq := fb.val(spirv.OpIEqual, b.t.boolean, decision, b.u(uint32(k)))
		v = fb.val(spirv.OpSelect, b.t.uint, eq, b.u(s.PerChoice[k]), v)
	}
	return v
}

// returnSeq marks the walk returned, publishes the filler's sink (and the
// register file's checksum) and returns.
func (fb *fnBody) returnSeq() {
	b := fb.b
	tb := fb.load(b.v.tbase)
	fb.add(spirv.OpStore, fb.slot(b.v.trace, tb, spirv.TraceReturned), b.u(1))
	fb.add(spirv.OpStore, fb.slot(b.v.trace, tb, spirv.TraceSink), fb.load(b.v.sink))
	fb.storeChecksum(tb)
	fb.add(spirv.OpReturn)
}

// fillerOps is the number of arithmetic instructions standing for a block
// of w words: the load and store around them cost 7 words, each op 5.
func fillerOps(w int) int {
	if w <= 0 {
		return 0
	}
	return max(1, (w-7+2)/5)
}

// filler emits the block's weight as a chain of arithmetic on the private
// sink, stored back so no compiler may drop it (the sink reaches the trace
// buffer at return).
func (fb *fnBody) filler(blk *structurizer.Block) {
	k := fillerOps(blk.Weight)
	if k == 0 {
		return
	}
	b := fb.b
	seed := uint32(blk.Orig)*2654435761 ^ b.opt.Salt
	x := fb.load(b.v.sink)
	ops := [...]spirv.Op{spirv.OpIMul, spirv.OpIAdd, spirv.OpBitwiseXor}
	if b.reference {
		for i := range k {
			c := (seed>>uint(i%24))&0xff | 1
			x = fb.val(ops[i%len(ops)], b.t.uint, x, b.u(c))
		}
		fb.add(spirv.OpStore, b.v.sink, x)
		return
	}
	// fb.val(ops[i%3], uint, x, b.u(c)) for each op, written in place:
	// the filler is most of a heavy module. The constants repeat every 24
	// ops, so only the first 24 may create one (and take its id before
	// the op's result, as val does); the rest run without a call. Ops and
	// constants both repeat every 24 (a multiple of 3): each later run of
	// 24 is a copy of the first with its result and operand ids renewed.
	at := len(fb.w)
	fb.w = slices.Grow(fb.w, 20*k)[:at+20*k]
	out := fb.w[at:]
	var cids [fillerPeriod]uint32
	first := min(k, len(cids))
	for i := range first {
		c := (seed>>uint(i))&0xff | 1
		if cids[i] = b.smallConsts[c]; cids[i] == 0 {
			cids[i] = b.u(c)
		}
		x = putFiller(out[20*i:20*i+20:20*i+20], ops[i%len(ops)], b.t.uint, b.id(), x, cids[i])
	}
	period := out[:20*first]
	out = out[20*first:]
	bound := b.bound
	for len(out) > 0 {
		run := out[:min(len(out), len(period))]
		copy(run, period)
		bound = renumberFiller(run, bound)
		out = out[len(run):]
	}
	if k > first {
		x = bound
	}
	b.bound = bound
	fb.add(spirv.OpStore, b.v.sink, x)
}

// renumberFiller gives the ops of run (a copy of the filler's first ops)
// the results bound+1, bound+2, ..., each op's operand the result before
// it, and returns the last result.
func renumberFiller(run []byte, bound uint32) uint32 {
	for at := 8; at <= len(run)-8; at += 20 { // an op's result and operand
		bound++
		binary.LittleEndian.PutUint64(run[at:at+8], uint64(bound)|uint64(bound-1)<<32)
	}
	return bound
}

// fillerPeriod is the filler's period: its constants' (the seed's 24
// shifts) and its three ops'.
const fillerPeriod = 24

// putFiller writes the filler op "r = op x c" (of type typ) into d and
// returns r.
func putFiller(d []byte, op spirv.Op, typ, r, x, c uint32) uint32 {
	le := binary.LittleEndian
	le.PutUint64(d[0:8], uint64(head(op, 4))|uint64(typ)<<32)
	le.PutUint64(d[8:16], uint64(r)|uint64(x)<<32)
	le.PutUint32(d[16:20], c)
	return r
}

// caseOrder is the order in which a switch lists its cases: the term's own
// (a layout with fall-through) or the default grouping of equal targets.
func caseOrder(term structurizer.Term) []int {
	if term.Order != nil {
		return term.Order
	}
	return structurizer.CaseOrder(term.To)
}
