// module.go: the module form, SPIR-V laid out here after the module
// convention (emit/CONVENTION.md) with choices of its own: labels take the
// first ids, constants are declared as they are met; the walk's trace base,
// decision base and counts are computed once in the entry block and used
// as SSA values everywhere; decisions are read in line; the append helper
// clamps its slot through an OpPhi; the register file is one Function
// array, its checksum summed at each return; filler multiplies and XORs.

package main

import (
	"encoding/binary"
	"fmt"
)

// SPIR-V numbers (the specification's).
const (
	opName              = 5
	opMemoryModel       = 14
	opEntryPoint        = 15
	opExecutionMode     = 16
	opCapability        = 17
	opTypeVoid          = 19
	opTypeBool          = 20
	opTypeInt           = 21
	opTypeVector        = 23
	opTypeArray         = 28
	opTypeRuntimeArray  = 29
	opTypeStruct        = 30
	opTypePointer       = 32
	opTypeFunction      = 33
	opConstant          = 43
	opFunction          = 54
	opFunctionParameter = 55
	opFunctionEnd       = 56
	opFunctionCall      = 57
	opVariable          = 59
	opLoad              = 61
	opStore             = 62
	opAccessChain       = 65
	opDecorate          = 71
	opMemberDecorate    = 72
	opCompositeExtract  = 81
	opIAdd              = 128
	opISub              = 130
	opIMul              = 132
	opBitwiseXor        = 198
	opSelect            = 169
	opIEqual            = 170
	opINotEqual         = 171
	opULessThan         = 176
	opPhi               = 245
	opLoopMerge         = 246
	opSelectionMerge    = 247
	opLabel             = 248
	opBranch            = 249
	opBranchConditional = 250
	opSwitch            = 251
	opReturn            = 253
	opUnreachable       = 255

	decBlock        = 2
	decArrayStride  = 6
	decBuiltIn      = 11
	decNonWritable  = 24
	decBinding      = 33
	decDescriptor   = 34
	decOffset       = 35
	builtinGlobalID = 28
	builtinLocalIdx = 29

	scInput         = 1
	scPrivate       = 6
	scFunction      = 7
	scStorageBuffer = 12
)

type words []uint32

func (w *words) inst(op uint32, ops ...uint32) {
	*w = append(*w, uint32(len(ops)+1)<<16|op)
	*w = append(*w, ops...)
}

func str(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

type emitter struct {
	next      uint32
	consts    map[uint32]uint32
	constList words
	tUint     uint32
}

func (e *emitter) id() uint32 {
	e.next++
	return e.next
}

func (e *emitter) c(v uint32) uint32 {
	if id, ok := e.consts[v]; ok {
		return id
	}
	id := e.id()
	e.consts[v] = id
	e.constList.inst(opConstant, e.tUint, id, v)
	return id
}

// emitModule lays f out as a module of the convention, with a register
// file of registers words when registers > 0: one Function variable a
// register, or with regArray one Function array of them.
func emitModule(f *fn, registers int, regArray bool) ([]byte, error) {
	if len(f.Blocks) > 1<<20 {
		return nil, fmt.Errorf("%d blocks", len(f.Blocks))
	}
	mw := newModuleWriter(f, registers, regArray)
	app := mw.appendHelper()
	mw.entry()
	for i := range f.Blocks {
		if err := mw.block(i); err != nil {
			return nil, err
		}
	}
	mw.body.inst(opFunctionEnd)
	return mw.assemble(app)
}

// moduleIDs are the ids every module declares: types, globals, functions.
type moduleIDs struct {
	tVoid, tBool, tV3, tRA, tStruct, tPtrSSBO, tPtrSBUint      uint32 // and the emitter's tUint
	tPtrInV3, tPtrInUint, tPtrPriv, tPtrFn, tFnVoid, tFnAppend uint32
	vDec, vTrace, vGID, vLocal, vSink, fMain, fAppend          uint32
	tArr, tPtrArr                                              uint32 // the register array's, with regArray
}

// moduleWriter is one module under construction: the ids, and the main
// function's body with the values its entry computes for every block.
type moduleWriter struct {
	*emitter
	moduleIDs
	f         *fn
	registers int
	regArray  bool
	labels    []uint32 // block i's label
	slack     uint32   // trace words past the appended ids
	zero      uint32
	vars      []uint32 // the route variables
	regs      uint32   // the register array, with regArray
	regVars   []uint32 // the registers, without it
	// The walk's values, computed once in the start block.
	tBase, tStride, dBase, nDec uint32
	body                        words
}

// newModuleWriter takes the labels' ids first, then the module's.
func newModuleWriter(f *fn, registers int, regArray bool) *moduleWriter {
	e := &emitter{consts: map[uint32]uint32{}}
	mw := &moduleWriter{emitter: e, f: f, registers: registers, regArray: regArray, slack: 5}
	mw.labels = make([]uint32, len(f.Blocks))
	for i := range mw.labels {
		mw.labels[i] = e.id()
	}
	m := &mw.moduleIDs
	m.tVoid, m.tBool, e.tUint, m.tV3 = e.id(), e.id(), e.id(), e.id()
	m.tRA, m.tStruct, m.tPtrSSBO, m.tPtrSBUint = e.id(), e.id(), e.id(), e.id()
	m.tPtrInV3, m.tPtrInUint, m.tPtrPriv, m.tPtrFn = e.id(), e.id(), e.id(), e.id()
	m.tFnVoid, m.tFnAppend = e.id(), e.id()
	m.vDec, m.vTrace, m.vGID, m.vLocal, m.vSink = e.id(), e.id(), e.id(), e.id(), e.id()
	m.fMain, m.fAppend = e.id(), e.id()
	if registers > 0 && regArray {
		m.tArr, m.tPtrArr = e.id(), e.id()
	}
	if registers > 0 {
		mw.slack = 6
	}
	mw.zero = e.c(0)
	return mw
}

// appendHelper is the append function: one argument, the id; its slot
// clamped by a phi.
func (mw *moduleWriter) appendHelper() words {
	var app words
	p := mw.id()
	app.inst(opFunction, mw.tVoid, mw.fAppend, 0, mw.tFnAppend)
	app.inst(opFunctionParameter, mw.tUint, p)
	l0, lIn, lOut, lJoin := mw.id(), mw.id(), mw.id(), mw.id()
	app.inst(opLabel, l0)
	gx, tp, t, base, cp, cnt, cnt1, capa, lt := mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id()
	ptrX := mw.id()
	app.inst(opAccessChain, mw.tPtrInUint, ptrX, mw.vGID, mw.zero)
	app.inst(opLoad, mw.tUint, gx, ptrX)
	app.inst(opAccessChain, mw.tPtrSBUint, tp, mw.vDec, mw.zero, mw.c(1))
	app.inst(opLoad, mw.tUint, t, tp)
	app.inst(opIMul, mw.tUint, base, gx, t)
	app.inst(opAccessChain, mw.tPtrSBUint, cp, mw.vTrace, mw.zero, base)
	app.inst(opLoad, mw.tUint, cnt, cp)
	app.inst(opIAdd, mw.tUint, cnt1, cnt, mw.c(1))
	app.inst(opStore, cp, cnt1)
	app.inst(opISub, mw.tUint, capa, t, mw.c(mw.slack))
	app.inst(opULessThan, mw.tBool, lt, cnt, capa)
	app.inst(opSelectionMerge, lJoin, 0)
	app.inst(opBranchConditional, lt, lIn, lOut)
	app.inst(opLabel, lIn)
	app.inst(opBranch, lJoin)
	app.inst(opLabel, lOut)
	app.inst(opBranch, lJoin)
	app.inst(opLabel, lJoin)
	idx, s1, s2, sp := mw.id(), mw.id(), mw.id(), mw.id()
	app.inst(opPhi, mw.tUint, idx, cnt, lIn, capa, lOut)
	app.inst(opIAdd, mw.tUint, s1, base, mw.c(4))
	app.inst(opIAdd, mw.tUint, s2, s1, idx)
	app.inst(opAccessChain, mw.tPtrSBUint, sp, mw.vTrace, mw.zero, s2)
	app.inst(opStore, sp, p)
	app.inst(opReturn)
	app.inst(opFunctionEnd)
	return app
}

// entry opens the main function: the guard block, where lanes past the
// workgroup return at once, and the start block, which computes the
// walk's bases, sets the variables and the registers, and branches to
// the first block.
func (mw *moduleWriter) entry() {
	body := &mw.body
	body.inst(opFunction, mw.tVoid, mw.fMain, 0, mw.tFnVoid)
	lGuard, lStart, lEarly := mw.id(), mw.id(), mw.id()
	body.inst(opLabel, lGuard)
	mw.declareVariables()
	li, ne := mw.id(), mw.id()
	body.inst(opLoad, mw.tUint, li, mw.vLocal)
	body.inst(opINotEqual, mw.tBool, ne, li, mw.zero)
	body.inst(opSelectionMerge, lStart, 0)
	body.inst(opBranchConditional, ne, lEarly, lStart)
	body.inst(opLabel, lEarly)
	body.inst(opReturn)
	body.inst(opLabel, lStart)
	mw.walkBases()
	for i, v := range mw.f.Vars {
		body.inst(opStore, mw.vars[i], mw.c(v.Init))
	}
	for i := range mw.registers {
		v := mw.id()
		body.inst(opIAdd, mw.tUint, v, mw.nDec, mw.c(uint32(i)*0x9E3779B9+0x7F4A7C15))
		body.inst(opStore, mw.regPtr(body, i), v)
	}
	body.inst(opBranch, mw.labels[0])
}

// declareVariables declares the route variables and the register file.
func (mw *moduleWriter) declareVariables() {
	mw.vars = make([]uint32, len(mw.f.Vars))
	for i := range mw.vars {
		mw.vars[i] = mw.id()
		mw.body.inst(opVariable, mw.tPtrFn, mw.vars[i], scFunction)
	}
	switch {
	case mw.registers > 0 && mw.regArray:
		mw.regs = mw.id()
		mw.body.inst(opVariable, mw.tPtrArr, mw.regs, scFunction)
	case mw.registers > 0:
		for range mw.registers {
			mw.regVars = append(mw.regVars, mw.id())
			mw.body.inst(opVariable, mw.tPtrFn, mw.regVars[len(mw.regVars)-1], scFunction)
		}
	}
}

// walkBases computes the invocation's trace base and stride, its
// decisions' base and their count.
func (mw *moduleWriter) walkBases() {
	body := &mw.body
	gx, ptrX, dStride, tStride, dp, tp := mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id()
	body.inst(opAccessChain, mw.tPtrInUint, ptrX, mw.vGID, mw.zero)
	body.inst(opLoad, mw.tUint, gx, ptrX)
	body.inst(opAccessChain, mw.tPtrSBUint, dp, mw.vDec, mw.zero, mw.zero)
	body.inst(opLoad, mw.tUint, dStride, dp)
	body.inst(opAccessChain, mw.tPtrSBUint, tp, mw.vDec, mw.zero, mw.c(1))
	body.inst(opLoad, mw.tUint, tStride, tp)
	tBase, dBase0, dBase, nPtr, nDec := mw.id(), mw.id(), mw.id(), mw.id(), mw.id()
	body.inst(opIMul, mw.tUint, tBase, gx, tStride)
	body.inst(opIMul, mw.tUint, dBase0, gx, dStride)
	body.inst(opIAdd, mw.tUint, dBase, dBase0, mw.c(2))
	body.inst(opAccessChain, mw.tPtrSBUint, nPtr, mw.vDec, mw.zero, dBase)
	body.inst(opLoad, mw.tUint, nDec, nPtr)
	mw.tBase, mw.tStride, mw.dBase, mw.nDec = tBase, tStride, dBase, nDec
}

// regPtr is a pointer to register i: its variable, or an access chain
// into the array written to w.
func (mw *moduleWriter) regPtr(w *words, i int) uint32 {
	if !mw.regArray {
		return mw.regVars[i]
	}
	p := mw.id()
	w.inst(opAccessChain, mw.tPtrFn, p, mw.regs, mw.c(uint32(i)))
	return p
}

// traceSlot is a pointer to the trace's word off (an id) of this
// invocation, written to w.
func (mw *moduleWriter) traceSlot(w *words, off uint32) uint32 {
	a, p := mw.id(), mw.id()
	w.inst(opIAdd, mw.tUint, a, mw.tBase, off)
	w.inst(opAccessChain, mw.tPtrSBUint, p, mw.vTrace, mw.zero, a)
	return p
}

// block lays out block i: an original's trace append, filler and
// register step, its decision, its stores, its merge and terminator.
func (mw *moduleWriter) block(i int) error {
	b := &mw.f.Blocks[i]
	body := &mw.body
	body.inst(opLabel, mw.labels[i])
	if b.Kind != "synthetic" {
		call := mw.id()
		body.inst(opFunctionCall, mw.tVoid, call, mw.fAppend, mw.c(uint32(b.Orig)))
		fillerWords(mw.emitter, body, mw.vSink, b.Weight)
		if mw.registers > 0 {
			step(mw.emitter, body, mw.regPtr, uint32(b.Orig), uint32(mw.registers))
		}
	}
	var decision uint32
	if b.Arity >= 2 {
		decision = mw.decision()
	}
	for _, s := range b.Stores {
		if s.PerChoice != nil {
			return fmt.Errorf("per_choice stores are not laid out here")
		}
		body.inst(opStore, mw.vars[s.Var], mw.c(s.Value))
	}
	return mw.terminator(b, decision)
}

// decision reads the walk's next decision: decision k is consumed and
// counted, read when k < n, else 0.
func (mw *moduleWriter) decision() uint32 {
	body := &mw.body
	k, k1, lt, a0, a1, a, dptr, raw := mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id(), mw.id()
	decision := mw.id()
	kp := mw.traceSlot(body, mw.c(1))
	body.inst(opLoad, mw.tUint, k, kp)
	body.inst(opIAdd, mw.tUint, k1, k, mw.c(1))
	body.inst(opStore, kp, k1)
	body.inst(opULessThan, mw.tBool, lt, k, mw.nDec)
	body.inst(opIAdd, mw.tUint, a0, mw.dBase, mw.c(1))
	body.inst(opIAdd, mw.tUint, a1, a0, k)
	body.inst(opSelect, mw.tUint, a, lt, a1, mw.dBase)
	body.inst(opAccessChain, mw.tPtrSBUint, dptr, mw.vDec, mw.zero, a)
	body.inst(opLoad, mw.tUint, raw, dptr)
	body.inst(opSelect, mw.tUint, decision, lt, raw, mw.zero)
	return decision
}

// mergeInst declares b's merge, right before its terminator and after
// what the terminator reads.
func (mw *moduleWriter) mergeInst(b *fblock) {
	switch b.Merge.Kind {
	case "selection":
		mw.body.inst(opSelectionMerge, mw.labels[b.Merge.Merge], 0)
	case "loop":
		mw.body.inst(opLoopMerge, mw.labels[b.Merge.Merge], mw.labels[b.Merge.Continue], 0)
	}
}

// terminator ends block b, whose decision (for a choose) is decision.
func (mw *moduleWriter) terminator(b *fblock, decision uint32) error {
	body := &mw.body
	to := func(i int) uint32 { return mw.labels[b.Term.To[i]] }
	switch b.Term.Kind {
	case "return":
		mw.returnTrace()
		mw.mergeInst(b)
		body.inst(opReturn)
	case "unreachable":
		mw.mergeInst(b)
		body.inst(opUnreachable)
	case "branch":
		mw.mergeInst(b)
		body.inst(opBranch, to(0))
	case "choose":
		mw.choose(b, decision)
	case "test":
		v, c := mw.id(), mw.id()
		body.inst(opLoad, mw.tUint, v, mw.vars[b.Term.Var])
		body.inst(opIEqual, mw.tBool, c, v, mw.c(b.Term.Values[0]))
		mw.mergeInst(b)
		body.inst(opBranchConditional, c, to(0), to(1))
	case "route":
		v := mw.id()
		body.inst(opLoad, mw.tUint, v, mw.vars[b.Term.Var])
		ops := []uint32{v, to(0)}
		for k, val := range b.Term.Values {
			ops = append(ops, val, to(k+1))
		}
		mw.mergeInst(b)
		body.inst(opSwitch, ops...)
	default:
		return fmt.Errorf("terminator %q", b.Term.Kind)
	}
	return nil
}

// choose branches on an original block's decision: a conditional on a
// nonzero decision, or a switch whose cases are grouped by target (a
// validator rule), a case going where the default goes left out.
func (mw *moduleWriter) choose(b *fblock, decision uint32) {
	to := func(i int) uint32 { return mw.labels[b.Term.To[i]] }
	if b.Arity == 2 {
		c := mw.id()
		mw.body.inst(opINotEqual, mw.tBool, c, decision, mw.zero)
		mw.mergeInst(b)
		mw.body.inst(opBranchConditional, c, to(0), to(1))
		return
	}
	ops := []uint32{decision, to(0)}
	done := make([]bool, len(b.Term.To))
	for k := 1; k < len(b.Term.To); k++ {
		if done[k] || b.Term.To[k] == b.Term.To[0] {
			continue
		}
		for j := k; j < len(b.Term.To); j++ {
			if b.Term.To[j] == b.Term.To[k] {
				ops = append(ops, uint32(j), to(j))
				done[j] = true
			}
		}
	}
	mw.mergeInst(b)
	mw.body.inst(opSwitch, ops...)
}

// returnTrace writes a returning run's end to the trace: the returned
// flag, the sink, and with a register file its checksum in the last word.
func (mw *moduleWriter) returnTrace() {
	body := &mw.body
	body.inst(opStore, mw.traceSlot(body, mw.c(2)), mw.c(1))
	sv := mw.id()
	body.inst(opLoad, mw.tUint, sv, mw.vSink)
	body.inst(opStore, mw.traceSlot(body, mw.c(3)), sv)
	if mw.registers == 0 {
		return
	}
	sum := mw.zero
	for i := range mw.registers {
		r, m, s := mw.id(), mw.id(), mw.id()
		body.inst(opLoad, mw.tUint, r, mw.regPtr(body, i))
		body.inst(opIMul, mw.tUint, m, r, mw.c(uint32(2*i+1)))
		body.inst(opIAdd, mw.tUint, s, sum, m)
		sum = s
	}
	last, p := mw.id(), mw.id()
	body.inst(opISub, mw.tUint, last, mw.tStride, mw.c(1))
	body.inst(opIAdd, mw.tUint, p, mw.tBase, last)
	ptr := mw.id()
	body.inst(opAccessChain, mw.tPtrSBUint, ptr, mw.vTrace, mw.zero, p)
	body.inst(opStore, ptr, sum)
}

// assemble puts the module together: header, preamble, types,
// constants, globals, then the append helper app and the main function.
func (mw *moduleWriter) assemble(app words) ([]byte, error) {
	m := mw.preamble()
	if mw.registers > 0 && mw.regArray {
		mw.c(uint32(mw.registers))
	}
	m = append(m, mw.constList...)
	if mw.registers > 0 && mw.regArray {
		m.inst(opTypeArray, mw.tArr, mw.tUint, mw.c(uint32(mw.registers)))
		m.inst(opTypePointer, mw.tPtrArr, scFunction, mw.tArr)
	}
	m.inst(opVariable, mw.tPtrSSBO, mw.vDec, scStorageBuffer)
	m.inst(opVariable, mw.tPtrSSBO, mw.vTrace, scStorageBuffer)
	m.inst(opVariable, mw.tPtrInV3, mw.vGID, scInput)
	m.inst(opVariable, mw.tPtrInUint, mw.vLocal, scInput)
	m.inst(opVariable, mw.tPtrPriv, mw.vSink, scPrivate, mw.zero)
	m = append(m, app...)
	m = append(m, mw.body...)
	if mw.next >= 1<<22 {
		return nil, fmt.Errorf("id bound %d", mw.next+1)
	}
	m[3] = mw.next + 1
	out := make([]byte, 4*len(m))
	for i, w := range m {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out, nil
}

// preamble is the module's header (its bound set last), capabilities,
// entry point, names, decorations and types.
func (mw *moduleWriter) preamble() words {
	var m words
	m = append(m, 0x07230203, 0x00010300, 0, 0, 0)
	m.inst(opCapability, 1)
	m.inst(opMemoryModel, 0, 1)
	m.inst(opEntryPoint, append(append([]uint32{5, mw.fMain}, str("main")...), mw.vGID, mw.vLocal)...)
	m.inst(opExecutionMode, mw.fMain, 17, 1, 1, 1)
	m.inst(opName, append([]uint32{mw.fAppend}, str("trace_append")...)...)
	m.inst(opName, append([]uint32{mw.vSink}, str("sink")...)...)
	m.inst(opDecorate, mw.vGID, decBuiltIn, builtinGlobalID)
	m.inst(opDecorate, mw.vLocal, decBuiltIn, builtinLocalIdx)
	m.inst(opDecorate, mw.tRA, decArrayStride, 4)
	m.inst(opDecorate, mw.tStruct, decBlock)
	m.inst(opMemberDecorate, mw.tStruct, 0, decOffset, 0)
	m.inst(opDecorate, mw.vDec, decDescriptor, 0)
	m.inst(opDecorate, mw.vDec, decBinding, 0)
	m.inst(opDecorate, mw.vDec, decNonWritable)
	m.inst(opDecorate, mw.vTrace, decDescriptor, 0)
	m.inst(opDecorate, mw.vTrace, decBinding, 1)
	m.inst(opTypeVoid, mw.tVoid)
	m.inst(opTypeBool, mw.tBool)
	m.inst(opTypeInt, mw.tUint, 32, 0)
	m.inst(opTypeVector, mw.tV3, mw.tUint, 3)
	m.inst(opTypeRuntimeArray, mw.tRA, mw.tUint)
	m.inst(opTypeStruct, mw.tStruct, mw.tRA)
	m.inst(opTypePointer, mw.tPtrSSBO, scStorageBuffer, mw.tStruct)
	m.inst(opTypePointer, mw.tPtrSBUint, scStorageBuffer, mw.tUint)
	m.inst(opTypePointer, mw.tPtrInV3, scInput, mw.tV3)
	m.inst(opTypePointer, mw.tPtrInUint, scInput, mw.tUint)
	m.inst(opTypePointer, mw.tPtrPriv, scPrivate, mw.tUint)
	m.inst(opTypePointer, mw.tPtrFn, scFunction, mw.tUint)
	m.inst(opTypeFunction, mw.tFnVoid, mw.tVoid)
	m.inst(opTypeFunction, mw.tFnAppend, mw.tVoid, mw.tUint)
	return m
}

// fillerWords puts w words' worth of filler on the sink: a load, a chain
// of multiplications and XORs, a store (at least max(12, w-4) words).
func fillerWords(e *emitter, w *words, sink uint32, weight int) {
	if weight <= 0 {
		return
	}
	need := max(12, weight-4)
	v := e.id()
	w.inst(opLoad, e.tUint, v, sink)
	words := 4 + 3
	for k := uint32(0); words < need; k++ {
		n := e.id()
		if k%2 == 0 {
			w.inst(opIMul, e.tUint, n, v, e.c(2*k+3))
		} else {
			w.inst(opBitwiseXor, e.tUint, n, v, e.c(k*0x9E37+1))
		}
		v = n
		words += 5
	}
	w.inst(opStore, sink, v)
}

// step is block b's register step (emit/CONVENTION.md, "Register file").
func step(e *emitter, w *words, regPtr func(*words, int) uint32, b, n uint32) {
	s1, s2, d1, d2 := (3*b)%n, (5*b+1)%n, (7*b+2)%n, (11*b+3)%n
	mul := (b*2654435761 + 0x632BE5AB) | 1
	add := b*0x85EBCA6B + 1
	r, x, v := e.id(), e.id(), e.id()
	w.inst(opLoad, e.tUint, r, regPtr(w, int(s1)))
	w.inst(opIMul, e.tUint, x, r, e.c(mul))
	w.inst(opIAdd, e.tUint, v, x, e.c(add))
	w.inst(opStore, regPtr(w, int(d1)), v)
	r2, v2 := e.id(), e.id()
	w.inst(opLoad, e.tUint, r2, regPtr(w, int(s2)))
	w.inst(opBitwiseXor, e.tUint, v2, v, r2)
	w.inst(opStore, regPtr(w, int(d2)), v2)
}
