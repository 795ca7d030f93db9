// Package emit lays a structured function out as a SPIR-V 1.3 compute module
// that follows the module convention (CONVENTION.md beside this file): one
// walk per invocation, every original block (and clone) appending its id to
// the trace on entry and reading its decision once at its end, weights as
// observable filler, synthetic blocks silent.
//
// emit.go defines Module, the section builder and the fixed preamble.
package emit

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"cfgfuzz/emit/spirv"
	"cfgfuzz/structurizer"
)

// Options configures emission. The zero value names every block (OpName),
// which costs words but makes disassembly readable.
type Options struct {
	// NoNames omits OpName for blocks.
	NoNames bool
	// Salt, when non-zero, is folded into the filler seed so otherwise
	// identical modules differ (for cold driver compiles).
	Salt uint32
	// NoLaneGuard leaves out the prologue's return for invocations whose
	// LocalInvocationIndex is not 0, and the built-in itself (see
	// laneGuard): only to show, on lavapipe before Mesa 23, what the guard
	// prevents, and to test gpu.Guard, which adds it back.
	NoLaneGuard bool
}

// Generator is cfgfuzz's generator word in the module header (tool id 0,
// version 1).
const Generator = 0x00000001

// builder collects a module's sections in the order the specification
// requires (2.4: logical layout).
type builder struct {
	bound                                       uint32
	caps, memModel, entry, modes, names, annots []spirv.Instruction
	types, consts, globals, funcs               []spirv.Instruction
	uintConsts                                  map[uint32]uint32
	smallConsts                                 [256]uint32         // uintConsts for v < 256 (filler constants), 0: none yet
	chunk                                       []uint32            // operand storage, see fnBody.words
	funcsBuf                                    []spirv.Instruction // storage for funcs with main, see mainFunc
	t                                           typeIDs
	v                                           globalIDs
	fn                                          funcIDs
	opt                                         Options
	// reference builds main the slow, obvious way (block names through
	// fmt and spirv.String, filler through val): buildFresh sets it, so
	// TestPrefixCacheMatchesFreshBuild holds the fast paths to it.
	reference bool
}

type typeIDs struct {
	void, boolean, uint, int, v3, ptrInV3, arr, bufStruct, ptrSBStruct, ptrSBUint,
	ptrPrivUint, ptrFuncUint, fnVoid, fnUint, fnVoidUint, ptrInUint uint32
}

type globalIDs struct{ decisions, trace, gid, lidx, tbase, dbase, tcap, sink uint32 }

type funcIDs struct{ main, appendID, next uint32 }

func (b *builder) id() uint32 { b.bound++; return b.bound }

func inst(op spirv.Op, operands ...uint32) spirv.Instruction {
	return spirv.Instruction{Op: op, Operands: operands}
}

// u returns the id of a uint constant, creating it on first use.
func (b *builder) u(v uint32) uint32 {
	if v < uint32(len(b.smallConsts)) {
		if id := b.smallConsts[v]; id != 0 {
			return id
		}
	} else if id, ok := b.uintConsts[v]; ok {
		return id
	}
	id := b.id()
	if v < uint32(len(b.smallConsts)) {
		b.smallConsts[v] = id
	} else {
		b.uintConsts[v] = id
	}
	ops := b.words(3)
	ops[0], ops[1], ops[2] = b.t.uint, id, v
	b.consts = append(b.consts, spirv.Instruction{Op: spirv.OpConstant, Operands: ops})
	return id
}

// name adds OpName id s, its operands in the builder's chunk (see words).
func (b *builder) name(id uint32, s string) { nameOf(b, id, s) }

// nameOf is name for a string or the bytes of one (a block's name is
// formatted into a stack buffer, see appendBlockName): the operands are
// the id and s as spirv.String encodes it.
func nameOf[S string | []byte](b *builder, id uint32, s S) {
	ops := b.words(1 + len(s)/4 + 1)
	ops[0] = id
	packString(ops[1:], s)
	b.names = append(b.names, spirv.Instruction{Op: spirv.OpName, Operands: ops})
}

// packString writes s NUL-terminated and zero-padded into dst, little-endian
// words (len(s)/4 + 1 of them): spirv.String without its allocations.
func packString[S string | []byte](dst []uint32, s S) {
	for i := range dst {
		var w uint32
		for k := range 4 {
			if j := 4*i + k; j < len(s) {
				w |= uint32(s[j]) << (8 * k)
			}
		}
		dst[i] = w
	}
}

// Module emits f. f must pass Func.Validate.
func Module(f *structurizer.Func, opt Options) (*spirv.Module, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	b, err := build(f, opt)
	if err != nil {
		return nil, err
	}
	m := &spirv.Module{Version: spirv.Version13, Generator: Generator, Bound: b.bound + 1}
	n := 0
	for _, sec := range b.sections() {
		n += len(sec)
	}
	m.Insts = make([]spirv.Instruction, 0, n)
	for _, sec := range b.sections() {
		m.Insts = append(m.Insts, sec...)
	}
	return m, nil
}

// Bytes emits f and encodes it: the bytes of Module(f, opt).Bytes(),
// written straight from the sections (emission is on the campaign's hot
// path).
func Bytes(f *structurizer.Func, opt Options) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	b, err := buildInto(f, opt, sc)
	if err != nil {
		return nil, err
	}
	out := spirv.EncodeBytes(spirv.Version13, Generator, b.bound+1, 0, b.sections()...)
	sc.keep(b)
	return out, nil
}

// scratch is storage Bytes lends a build and takes back once the bytes are
// written: the entry point's instruction list and the operand words, the
// bulk of what emitting a module allocates.
type scratch struct {
	insts []spirv.Instruction
	chunk []uint32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// keep takes the build's storage back (the largest operand chunk it had).
func (sc *scratch) keep(b *builder) {
	sc.insts = b.funcs[:0]
	if cap(b.chunk) > cap(sc.chunk) {
		sc.chunk = b.chunk[:0]
	}
}

// build runs the builder over f (which passed Validate), from the cached
// prefix for opt.
func build(f *structurizer.Func, opt Options) (*builder, error) {
	return buildInto(f, opt, &scratch{})
}

// buildInto is build on sc's storage: the module's instructions and
// operands live there until sc is used again.
func buildInto(f *structurizer.Func, opt Options, sc *scratch) (*builder, error) {
	b := cachedPrefix(opt)
	if n := estimateWords(f); cap(sc.chunk) >= n {
		b.chunk = sc.chunk[:0]
	} else {
		b.chunk = make([]uint32, 0, n)
	}
	b.funcsBuf = sc.insts[:0]
	if err := b.mainFunc(f); err != nil {
		return nil, err
	}
	return b, nil
}

// buildFresh is build with the prefix built anew and main built by the
// reference paths: what TestPrefixCacheMatchesFreshBuild holds the cache,
// the block names and the filler to.
func buildFresh(f *structurizer.Func, opt Options) (*builder, error) {
	b := newPrefix(opt)
	b.reference = true
	b.chunk = make([]uint32, 0, estimateWords(f))
	if err := b.mainFunc(f); err != nil {
		return nil, err
	}
	return b, nil
}

// newPrefix builds everything before main: the preamble, the lane guard's
// built-in, the helpers. It depends on nothing but opt.NoLaneGuard.
func newPrefix(opt Options) *builder {
	b := &builder{uintConsts: map[uint32]uint32{}, opt: opt}
	b.preamble()
	if !opt.NoLaneGuard {
		b.laneIndex()
	}
	b.helpers()
	return b
}

// prefixes are newPrefix's results, made once each (with and without the
// lane guard).
var prefixes = [2]func() *builder{
	sync.OnceValue(func() *builder { return newPrefix(Options{}) }),
	sync.OnceValue(func() *builder { return newPrefix(Options{NoLaneGuard: true}) }),
}

// cachedPrefix is a copy of the prefix for opt that main can be added to:
// its sections are clipped, so appending copies them instead of writing
// into the shared ones, and its constant map is its own. The shared
// instructions are only ever read.
func cachedPrefix(opt Options) *builder {
	k := 0
	if opt.NoLaneGuard {
		k = 1
	}
	b := *prefixes[k]()
	b.opt = opt
	b.uintConsts = maps.Clone(b.uintConsts)
	for _, sec := range []*[]spirv.Instruction{&b.caps, &b.memModel, &b.entry, &b.modes, &b.names, &b.annots, &b.types, &b.consts, &b.globals, &b.funcs} {
		*sec = slices.Clip(*sec)
	}
	b.chunk = nil
	return &b
}

// sections are the module's sections in layout order.
func (b *builder) sections() [][]spirv.Instruction {
	return [][]spirv.Instruction{b.caps, b.memModel, b.entry, b.modes, b.names, b.annots, b.types, b.consts, b.globals, b.funcs}
}

// estimateWords is about the operand words the functions of f take: the
// helpers, a few dozen per block, and the filler of the weights. It only
// sizes the first chunk of operand storage.
func estimateWords(f *structurizer.Func) int {
	n := 256
	for i := range f.Blocks {
		n += 48 + 4*fillerOps(f.Blocks[i].Weight)
	}
	return n
}

// preamble declares capabilities, types, buffers and the invocation id.
func (b *builder) preamble() {
	t, v := &b.t, &b.v
	b.caps = append(b.caps, inst(spirv.OpCapability, spirv.CapabilityShader))
	b.memModel = append(b.memModel, inst(spirv.OpMemoryModel, spirv.AddressingLogical, spirv.MemoryGLSL450))
	b.fn.main, b.fn.appendID, b.fn.next = b.id(), b.id(), b.id()
	t.void, t.boolean, t.uint, t.int = b.id(), b.id(), b.id(), b.id()
	t.v3, t.ptrInV3, t.arr, t.bufStruct = b.id(), b.id(), b.id(), b.id()
	t.ptrSBStruct, t.ptrSBUint, t.ptrPrivUint, t.ptrFuncUint = b.id(), b.id(), b.id(), b.id()
	t.fnVoid, t.fnUint, t.fnVoidUint = b.id(), b.id(), b.id()
	b.types = append(b.types,
		inst(spirv.OpTypeVoid, t.void), inst(spirv.OpTypeBool, t.boolean),
		inst(spirv.OpTypeInt, t.uint, 32, 0), inst(spirv.OpTypeInt, t.int, 32, 1),
		inst(spirv.OpTypeVector, t.v3, t.uint, 3), inst(spirv.OpTypePointer, t.ptrInV3, spirv.StorageInput, t.v3),
		inst(spirv.OpTypeRuntimeArray, t.arr, t.uint), inst(spirv.OpTypeStruct, t.bufStruct, t.arr),
		inst(spirv.OpTypePointer, t.ptrSBStruct, spirv.StorageStorageBuffer, t.bufStruct),
		inst(spirv.OpTypePointer, t.ptrSBUint, spirv.StorageStorageBuffer, t.uint),
		inst(spirv.OpTypePointer, t.ptrPrivUint, spirv.StoragePrivate, t.uint),
		inst(spirv.OpTypePointer, t.ptrFuncUint, spirv.StorageFunction, t.uint),
		inst(spirv.OpTypeFunction, t.fnVoid, t.void), inst(spirv.OpTypeFunction, t.fnUint, t.uint),
		inst(spirv.OpTypeFunction, t.fnVoidUint, t.void, t.uint),
	)
	v.decisions, v.trace, v.gid = b.id(), b.id(), b.id()
	v.tbase, v.dbase, v.tcap, v.sink = b.id(), b.id(), b.id(), b.id()
	b.globals = append(b.globals,
		inst(spirv.OpVariable, t.ptrSBStruct, v.decisions, spirv.StorageStorageBuffer),
		inst(spirv.OpVariable, t.ptrSBStruct, v.trace, spirv.StorageStorageBuffer),
		inst(spirv.OpVariable, t.ptrInV3, v.gid, spirv.StorageInput),
		inst(spirv.OpVariable, t.ptrPrivUint, v.tbase, spirv.StoragePrivate),
		inst(spirv.OpVariable, t.ptrPrivUint, v.dbase, spirv.StoragePrivate),
		inst(spirv.OpVariable, t.ptrPrivUint, v.tcap, spirv.StoragePrivate),
		inst(spirv.OpVariable, t.ptrPrivUint, v.sink, spirv.StoragePrivate),
	)
	b.entry = append(b.entry, inst(spirv.OpEntryPoint, append(append([]uint32{spirv.ExecutionModelGLCompute, b.fn.main}, spirv.String("main")...), v.gid)...))
	b.modes = append(b.modes, inst(spirv.OpExecutionMode, b.fn.main, spirv.ExecutionModeLocalSize, 1, 1, 1))
	b.annots = append(b.annots,
		inst(spirv.OpDecorate, v.gid, spirv.DecorationBuiltIn, spirv.BuiltInGlobalInvocationID),
		inst(spirv.OpDecorate, t.arr, spirv.DecorationArrayStride, 4),
		inst(spirv.OpDecorate, t.bufStruct, spirv.DecorationBlock),
		inst(spirv.OpMemberDecorate, t.bufStruct, 0, spirv.DecorationOffset, 0),
		inst(spirv.OpDecorate, v.decisions, spirv.DecorationDescriptorSet, 0),
		inst(spirv.OpDecorate, v.decisions, spirv.DecorationBinding, spirv.BindingDecisions),
		inst(spirv.OpDecorate, v.trace, spirv.DecorationDescriptorSet, 0),
		inst(spirv.OpDecorate, v.trace, spirv.DecorationBinding, spirv.BindingTrace),
	)
	for _, n := range []struct {
		id uint32
		s  string
	}{{b.fn.main, "main"}, {b.fn.appendID, "append"}, {b.fn.next, "next"}, {v.decisions, "decisions"},
		{v.trace, "trace"}, {v.gid, "gid"}, {v.tbase, "tbase"}, {v.dbase, "dbase"}, {v.tcap, "tcap"}, {v.sink, "sink"}} {
		b.name(n.id, n.s)
	}
}

// laneIndex declares LocalInvocationIndex for the prologue's lane guard
// (laneGuard), in the entry point's interface.
func (b *builder) laneIndex() {
	b.t.ptrInUint, b.v.lidx = b.id(), b.id()
	b.types = append(b.types, inst(spirv.OpTypePointer, b.t.ptrInUint, spirv.StorageInput, b.t.uint))
	b.globals = append(b.globals, inst(spirv.OpVariable, b.t.ptrInUint, b.v.lidx, spirv.StorageInput))
	b.annots = append(b.annots, inst(spirv.OpDecorate, b.v.lidx, spirv.DecorationBuiltIn, spirv.BuiltInLocalInvocationIndex))
	b.entry[0].Operands = append(b.entry[0].Operands, b.v.lidx)
	b.name(b.v.lidx, "lidx")
}

// fnBody accumulates one function's instructions.
type fnBody struct {
	b     *builder
	insts []spirv.Instruction
}

// words returns storage for n operands, cut from the builder's shared chunk
// so that an instruction costs no allocation of its own (emission is on the
// campaign's hot path). The slice's capacity is its length: appending to it
// copies.
func (fb *fnBody) words(n int) []uint32 { return fb.b.words(n) }

// words is fnBody.words on the builder (for names).
func (b *builder) words(n int) []uint32 {
	if len(b.chunk)+n > cap(b.chunk) {
		b.chunk = make([]uint32, 0, max(1024, n, cap(b.chunk)))
	}
	k := len(b.chunk)
	b.chunk = b.chunk[:k+n]
	return b.chunk[k : k+n : k+n]
}

func (fb *fnBody) add(op spirv.Op, operands ...uint32) {
	ops := fb.words(len(operands))
	copy(ops, operands)
	fb.insts = append(fb.insts, spirv.Instruction{Op: op, Operands: ops})
}

// val emits an instruction with a result type and returns its result id.
func (fb *fnBody) val(op spirv.Op, typ uint32, operands ...uint32) uint32 {
	r := fb.b.id()
	ops := fb.words(2 + len(operands))
	ops[0], ops[1] = typ, r
	copy(ops[2:], operands)
	fb.insts = append(fb.insts, spirv.Instruction{Op: op, Operands: ops})
	return r
}

// load reads a uint from a Private or Function variable.
func (fb *fnBody) load(ptr uint32) uint32 { return fb.val(spirv.OpLoad, fb.b.t.uint, ptr) }

// slot returns a pointer to buffer[base + off].
func (fb *fnBody) slot(buffer, base uint32, off uint32) uint32 {
	b := fb.b
	idx := base
	if off != 0 {
		idx = fb.val(spirv.OpIAdd, b.t.uint, base, b.u(off))
	}
	return fb.val(spirv.OpAccessChain, b.t.ptrSBUint, buffer, b.u(0), idx)
}

// helpers emits append(id) and next(), the convention's two calls.
func (b *builder) helpers() {
	t, v := &b.t, &b.v
	// append(id): trace[tbase + 4 + min(count, cap)] = id; count++.
	fb := &fnBody{b: b}
	param := b.id()
	fb.add(spirv.OpFunction, t.void, b.fn.appendID, spirv.FunctionControlNone, t.fnVoidUint)
	fb.add(spirv.OpFunctionParameter, t.uint, param)
	fb.add(spirv.OpLabel, b.id())
	tb := fb.load(v.tbase)
	pc := fb.slot(v.trace, tb, spirv.TraceCount)
	c := fb.load(pc)
	capacity := fb.load(v.tcap)
	lt := fb.val(spirv.OpULessThan, t.boolean, c, capacity)
	at := fb.val(spirv.OpSelect, t.uint, lt, c, capacity)
	ids := fb.val(spirv.OpIAdd, t.uint, tb, b.u(spirv.TraceIDs))
	dst := fb.slot(v.trace, fb.val(spirv.OpIAdd, t.uint, ids, at), 0)
	fb.add(spirv.OpStore, dst, param)
	fb.add(spirv.OpStore, pc, fb.val(spirv.OpIAdd, t.uint, c, b.u(1)))
	fb.add(spirv.OpReturn)
	fb.add(spirv.OpFunctionEnd)
	b.funcs = append(b.funcs, fb.insts...)

	// next(): the walk's next decision, 0 past its end; consumed++.
	fb = &fnBody{b: b}
	fb.add(spirv.OpFunction, t.uint, b.fn.next, spirv.FunctionControlNone, t.fnUint)
	fb.add(spirv.OpLabel, b.id())
	tb = fb.load(v.tbase)
	pp := fb.slot(v.trace, tb, spirv.TraceConsumed)
	pos := fb.load(pp)
	db := fb.load(v.dbase)
	n := fb.load(fb.slot(v.decisions, db, 0))
	in := fb.val(spirv.OpULessThan, t.boolean, pos, n)
	off := fb.val(spirv.OpSelect, t.uint, in, pos, b.u(0))
	first := fb.val(spirv.OpIAdd, t.uint, db, b.u(1))
	d := fb.load(fb.slot(v.decisions, fb.val(spirv.OpIAdd, t.uint, first, off), 0))
	r := fb.val(spirv.OpSelect, t.uint, in, d, b.u(0))
	fb.add(spirv.OpStore, pp, fb.val(spirv.OpIAdd, t.uint, pos, b.u(1)))
	fb.add(spirv.OpReturnValue, r)
	fb.add(spirv.OpFunctionEnd)
	b.funcs = append(b.funcs, fb.insts...)
}
