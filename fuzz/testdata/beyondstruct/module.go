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
	e := &emitter{consts: map[uint32]uint32{}}
	labels := make([]uint32, len(f.Blocks))
	for i := range labels {
		labels[i] = e.id()
	}
	tVoid, tBool, tUint, tV3 := e.id(), e.id(), e.id(), e.id()
	e.tUint = tUint
	tRA, tStruct, tPtrSSBO, tPtrSBUint := e.id(), e.id(), e.id(), e.id()
	tPtrInV3, tPtrInUint, tPtrPriv, tPtrFn := e.id(), e.id(), e.id(), e.id()
	tFnVoid, tFnAppend := e.id(), e.id()
	vDec, vTrace, vGID, vLocal, vSink := e.id(), e.id(), e.id(), e.id(), e.id()
	fMain, fAppend := e.id(), e.id()
	var tArr, tPtrArr uint32
	if registers > 0 && regArray {
		tArr, tPtrArr = e.id(), e.id()
	}
	slack := uint32(5)
	if registers > 0 {
		slack = 6
	}
	zero := e.c(0)

	// The append helper: one argument, the id; its slot clamped by a phi.
	var app words
	{
		p := e.id()
		app.inst(opFunction, tVoid, fAppend, 0, tFnAppend)
		app.inst(opFunctionParameter, tUint, p)
		l0, lIn, lOut, lJoin := e.id(), e.id(), e.id(), e.id()
		app.inst(opLabel, l0)
		gx, tp, t, base, cp, cnt, cnt1, capa, lt := e.id(), e.id(), e.id(), e.id(), e.id(), e.id(), e.id(), e.id(), e.id()
		ptrX := e.id()
		app.inst(opAccessChain, tPtrInUint, ptrX, vGID, zero)
		app.inst(opLoad, tUint, gx, ptrX)
		app.inst(opAccessChain, tPtrSBUint, tp, vDec, zero, e.c(1))
		app.inst(opLoad, tUint, t, tp)
		app.inst(opIMul, tUint, base, gx, t)
		app.inst(opAccessChain, tPtrSBUint, cp, vTrace, zero, base)
		app.inst(opLoad, tUint, cnt, cp)
		app.inst(opIAdd, tUint, cnt1, cnt, e.c(1))
		app.inst(opStore, cp, cnt1)
		app.inst(opISub, tUint, capa, t, e.c(slack))
		app.inst(opULessThan, tBool, lt, cnt, capa)
		app.inst(opSelectionMerge, lJoin, 0)
		app.inst(opBranchConditional, lt, lIn, lOut)
		app.inst(opLabel, lIn)
		app.inst(opBranch, lJoin)
		app.inst(opLabel, lOut)
		app.inst(opBranch, lJoin)
		app.inst(opLabel, lJoin)
		idx, s1, s2, sp := e.id(), e.id(), e.id(), e.id()
		app.inst(opPhi, tUint, idx, cnt, lIn, capa, lOut)
		app.inst(opIAdd, tUint, s1, base, e.c(4))
		app.inst(opIAdd, tUint, s2, s1, idx)
		app.inst(opAccessChain, tPtrSBUint, sp, vTrace, zero, s2)
		app.inst(opStore, sp, p)
		app.inst(opReturn)
		app.inst(opFunctionEnd)
	}

	var body words
	body.inst(opFunction, tVoid, fMain, 0, tFnVoid)
	// The guard block: lanes past the workgroup return at once.
	lGuard, lStart, lEarly := e.id(), e.id(), e.id()
	body.inst(opLabel, lGuard)
	vars := make([]uint32, len(f.Vars))
	for i := range vars {
		vars[i] = e.id()
		body.inst(opVariable, tPtrFn, vars[i], scFunction)
	}
	var regs uint32
	var regVars []uint32
	switch {
	case registers > 0 && regArray:
		regs = e.id()
		body.inst(opVariable, tPtrArr, regs, scFunction)
	case registers > 0:
		for range registers {
			regVars = append(regVars, e.id())
			body.inst(opVariable, tPtrFn, regVars[len(regVars)-1], scFunction)
		}
	}
	li, ne := e.id(), e.id()
	body.inst(opLoad, tUint, li, vLocal)
	body.inst(opINotEqual, tBool, ne, li, zero)
	body.inst(opSelectionMerge, lStart, 0)
	body.inst(opBranchConditional, ne, lEarly, lStart)
	body.inst(opLabel, lEarly)
	body.inst(opReturn)
	// The start block: the walk's bases, the variables, the registers.
	body.inst(opLabel, lStart)
	gx, ptrX, dStride, tStride, dp, tp := e.id(), e.id(), e.id(), e.id(), e.id(), e.id()
	body.inst(opAccessChain, tPtrInUint, ptrX, vGID, zero)
	body.inst(opLoad, tUint, gx, ptrX)
	body.inst(opAccessChain, tPtrSBUint, dp, vDec, zero, zero)
	body.inst(opLoad, tUint, dStride, dp)
	body.inst(opAccessChain, tPtrSBUint, tp, vDec, zero, e.c(1))
	body.inst(opLoad, tUint, tStride, tp)
	tBase, dBase0, dBase, nPtr, nDec := e.id(), e.id(), e.id(), e.id(), e.id()
	body.inst(opIMul, tUint, tBase, gx, tStride)
	body.inst(opIMul, tUint, dBase0, gx, dStride)
	body.inst(opIAdd, tUint, dBase, dBase0, e.c(2))
	body.inst(opAccessChain, tPtrSBUint, nPtr, vDec, zero, dBase)
	body.inst(opLoad, tUint, nDec, nPtr)
	for i, v := range f.Vars {
		body.inst(opStore, vars[i], e.c(v.Init))
	}
	regPtr := func(w *words, i int) uint32 {
		if !regArray {
			return regVars[i]
		}
		p := e.id()
		w.inst(opAccessChain, tPtrFn, p, regs, e.c(uint32(i)))
		return p
	}
	for i := range registers {
		v := e.id()
		body.inst(opIAdd, tUint, v, nDec, e.c(uint32(i)*0x9E3779B9+0x7F4A7C15))
		body.inst(opStore, regPtr(&body, i), v)
	}
	traceSlot := func(w *words, off uint32) uint32 {
		a, p := e.id(), e.id()
		w.inst(opIAdd, tUint, a, tBase, off)
		w.inst(opAccessChain, tPtrSBUint, p, vTrace, zero, a)
		return p
	}
	body.inst(opBranch, labels[0])
	for i, b := range f.Blocks {
		body.inst(opLabel, labels[i])
		if b.Kind != "synthetic" {
			call := e.id()
			body.inst(opFunctionCall, tVoid, call, fAppend, e.c(uint32(b.Orig)))
			fillerWords(e, &body, vSink, b.Weight)
			if registers > 0 {
				step(e, &body, regPtr, uint32(b.Orig), uint32(registers))
			}
		}
		var decision uint32
		if b.Arity >= 2 {
			// Decision k = consumed, counted, read when k < n, else 0.
			k, k1, lt, a0, a1, a, dptr, raw := e.id(), e.id(), e.id(), e.id(), e.id(), e.id(), e.id(), e.id()
			decision = e.id()
			kp := traceSlot(&body, e.c(1))
			body.inst(opLoad, tUint, k, kp)
			body.inst(opIAdd, tUint, k1, k, e.c(1))
			body.inst(opStore, kp, k1)
			body.inst(opULessThan, tBool, lt, k, nDec)
			body.inst(opIAdd, tUint, a0, dBase, e.c(1))
			body.inst(opIAdd, tUint, a1, a0, k)
			body.inst(opSelect, tUint, a, lt, a1, dBase)
			body.inst(opAccessChain, tPtrSBUint, dptr, vDec, zero, a)
			body.inst(opLoad, tUint, raw, dptr)
			body.inst(opSelect, tUint, decision, lt, raw, zero)
		}
		for _, s := range b.Stores {
			if s.PerChoice != nil {
				return nil, fmt.Errorf("per_choice stores are not laid out here")
			}
			body.inst(opStore, vars[s.Var], e.c(s.Value))
		}
		// The merge instruction goes right before the terminator, after
		// what the terminator reads.
		mergeInst := func() {
			switch b.Merge.Kind {
			case "selection":
				body.inst(opSelectionMerge, labels[b.Merge.Merge], 0)
			case "loop":
				body.inst(opLoopMerge, labels[b.Merge.Merge], labels[b.Merge.Continue], 0)
			}
		}
		to := func(i int) uint32 { return labels[b.Term.To[i]] }
		switch b.Term.Kind {
		case "return":
			body.inst(opStore, traceSlot(&body, e.c(2)), e.c(1))
			sv := e.id()
			body.inst(opLoad, tUint, sv, vSink)
			body.inst(opStore, traceSlot(&body, e.c(3)), sv)
			if registers > 0 {
				sum := zero
				for i := range registers {
					r, m, s := e.id(), e.id(), e.id()
					body.inst(opLoad, tUint, r, regPtr(&body, i))
					body.inst(opIMul, tUint, m, r, e.c(uint32(2*i+1)))
					body.inst(opIAdd, tUint, s, sum, m)
					sum = s
				}
				last, p := e.id(), e.id()
				body.inst(opISub, tUint, last, tStride, e.c(1))
				body.inst(opIAdd, tUint, p, tBase, last)
				ptr := e.id()
				body.inst(opAccessChain, tPtrSBUint, ptr, vTrace, zero, p)
				body.inst(opStore, ptr, sum)
			}
			mergeInst()
			body.inst(opReturn)
		case "unreachable":
			mergeInst()
			body.inst(opUnreachable)
		case "branch":
			mergeInst()
			body.inst(opBranch, to(0))
		case "choose":
			if b.Arity == 2 {
				c := e.id()
				body.inst(opINotEqual, tBool, c, decision, zero)
				mergeInst()
				body.inst(opBranchConditional, c, to(0), to(1))
				break
			}
			ops := []uint32{decision, to(0)}
			// Cases grouped by target (a validator rule), a case going
			// where the default goes left out.
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
			mergeInst()
			body.inst(opSwitch, ops...)
		case "test":
			v, c := e.id(), e.id()
			body.inst(opLoad, tUint, v, vars[b.Term.Var])
			body.inst(opIEqual, tBool, c, v, e.c(b.Term.Values[0]))
			mergeInst()
			body.inst(opBranchConditional, c, to(0), to(1))
		case "route":
			v := e.id()
			body.inst(opLoad, tUint, v, vars[b.Term.Var])
			ops := []uint32{v, to(0)}
			for k, val := range b.Term.Values {
				ops = append(ops, val, to(k+1))
			}
			mergeInst()
			body.inst(opSwitch, ops...)
		default:
			return nil, fmt.Errorf("terminator %q", b.Term.Kind)
		}
	}
	body.inst(opFunctionEnd)

	// The module: header, preamble, types, constants, globals, functions.
	var m words
	m = append(m, 0x07230203, 0x00010300, 0, 0, 0)
	m.inst(opCapability, 1)
	m.inst(opMemoryModel, 0, 1)
	m.inst(opEntryPoint, append(append([]uint32{5, fMain}, str("main")...), vGID, vLocal)...)
	m.inst(opExecutionMode, fMain, 17, 1, 1, 1)
	m.inst(opName, append([]uint32{fAppend}, str("trace_append")...)...)
	m.inst(opName, append([]uint32{vSink}, str("sink")...)...)
	m.inst(opDecorate, vGID, decBuiltIn, builtinGlobalID)
	m.inst(opDecorate, vLocal, decBuiltIn, builtinLocalIdx)
	m.inst(opDecorate, tRA, decArrayStride, 4)
	m.inst(opDecorate, tStruct, decBlock)
	m.inst(opMemberDecorate, tStruct, 0, decOffset, 0)
	m.inst(opDecorate, vDec, decDescriptor, 0)
	m.inst(opDecorate, vDec, decBinding, 0)
	m.inst(opDecorate, vDec, decNonWritable)
	m.inst(opDecorate, vTrace, decDescriptor, 0)
	m.inst(opDecorate, vTrace, decBinding, 1)
	m.inst(opTypeVoid, tVoid)
	m.inst(opTypeBool, tBool)
	m.inst(opTypeInt, tUint, 32, 0)
	m.inst(opTypeVector, tV3, tUint, 3)
	m.inst(opTypeRuntimeArray, tRA, tUint)
	m.inst(opTypeStruct, tStruct, tRA)
	m.inst(opTypePointer, tPtrSSBO, scStorageBuffer, tStruct)
	m.inst(opTypePointer, tPtrSBUint, scStorageBuffer, tUint)
	m.inst(opTypePointer, tPtrInV3, scInput, tV3)
	m.inst(opTypePointer, tPtrInUint, scInput, tUint)
	m.inst(opTypePointer, tPtrPriv, scPrivate, tUint)
	m.inst(opTypePointer, tPtrFn, scFunction, tUint)
	m.inst(opTypeFunction, tFnVoid, tVoid)
	m.inst(opTypeFunction, tFnAppend, tVoid, tUint)
	if registers > 0 && regArray {
		e.c(uint32(registers))
	}
	m = append(m, e.constList...)
	if registers > 0 && regArray {
		m.inst(opTypeArray, tArr, tUint, e.c(uint32(registers)))
		m.inst(opTypePointer, tPtrArr, scFunction, tArr)
	}
	m.inst(opVariable, tPtrSSBO, vDec, scStorageBuffer)
	m.inst(opVariable, tPtrSSBO, vTrace, scStorageBuffer)
	m.inst(opVariable, tPtrInV3, vGID, scInput)
	m.inst(opVariable, tPtrInUint, vLocal, scInput)
	m.inst(opVariable, tPtrPriv, vSink, scPrivate, zero)
	m = append(m, app...)
	m = append(m, body...)
	if e.next >= 1<<22 {
		return nil, fmt.Errorf("id bound %d", e.next+1)
	}
	m[3] = e.next + 1
	out := make([]byte, 4*len(m))
	for i, w := range m {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out, nil
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
