// Package emit lays a structured function out as a SPIR-V 1.3 compute module
// that follows the module convention (CONVENTION.md beside this file): one
// walk per invocation, every original block (and clone) appending its id to
// the trace on entry and reading its decision once at its end, weights as
// observable filler, synthetic blocks silent.
//
// emit.go defines Module, the section builder and the fixed preamble.
package emit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
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
	// Registers is the size of the register-file workload (CONVENTION.md,
	// version 1.1; registers.go): 0 emits none, the 1.0 module.
	Registers int
}

// Generator is cfgfuzz's generator word in the module header (tool id 0,
// version 1).
const Generator = 0x00000001

// builder collects a module's sections in the order the specification
// requires (2.4: logical layout), each section as its encoding: every
// instruction's word count and opcode, then its operands, little-endian
// words. Bytes joins them behind the header; Module decodes that.
type builder struct {
	bound                                       uint32
	caps, memModel, entry, modes, names, annots []byte
	types, consts, globals, funcs               []byte
	uintConsts                                  map[uint32]uint32 // nil until the first constant of 256 or more
	smallConsts                                 [256]uint32       // uintConsts for v < 256 (filler constants), 0: none yet
	t                                           typeIDs
	v                                           globalIDs
	fn                                          funcIDs
	opt                                         Options
	regs                                        []uint32 // the register file's variables (registers.go)
	regSum                                      uint32   // its running checksum's variable
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

// head is an instruction's first word: its word count and opcode.
func head(op spirv.Op, operands int) uint32 { return uint32(operands+1)<<16 | uint32(op) }

// put appends the instruction op operands to the section sec.
func put(sec *[]byte, op spirv.Op, operands ...uint32) {
	*sec = appendInstruction(*sec, op, 0, 0, 0, operands)
}

// appendInstruction appends an instruction's words to sec: its word count
// and opcode, then, when pre is 1 or 2, the first pre of x0 and x1 (a
// result type and id), then the operands.
func appendInstruction(sec []byte, op spirv.Op, pre int, x0, x1 uint32, operands []uint32) []byte {
	le := binary.LittleEndian
	sec = le.AppendUint32(sec, head(op, pre+len(operands)))
	if pre > 0 {
		sec = le.AppendUint32(sec, x0)
	}
	if pre > 1 {
		sec = le.AppendUint32(sec, x1)
	}
	for _, w := range operands {
		sec = le.AppendUint32(sec, w)
	}
	return sec
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
		if b.uintConsts == nil {
			b.uintConsts = map[uint32]uint32{}
		}
		b.uintConsts[v] = id
	}
	put(&b.consts, spirv.OpConstant, b.t.uint, id, v)
	return id
}

// name adds OpName id s.
func (b *builder) name(id uint32, s string) { nameOf(b, id, s) }

// nameOf is name for a string or the bytes of one (a block's name is
// formatted into a stack buffer, see appendBlockName): the operands are
// the id and s as spirv.String encodes it.
func nameOf[S string | []byte](b *builder, id uint32, s S) {
	b.names = binary.LittleEndian.AppendUint32(b.names, head(spirv.OpName, 1+len(s)/4+1))
	b.names = appendString(binary.LittleEndian.AppendUint32(b.names, id), s)
}

// appendString appends s as a literal string's words: its bytes, then a
// NUL and zeros to the next word (spirv.String, little-endian, without
// its allocations).
func appendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, s...)
	return append(dst, make([]byte, 4-len(s)%4)...)
}

// Module emits f. f must pass Func.Validate.
func Module(f *structurizer.Func, opt Options) (*spirv.Module, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	if err := fillerFits(f); err != nil {
		return nil, err
	}
	b, err := build(f, opt)
	if err != nil {
		return nil, err
	}
	return spirv.Decode(b.bytes())
}

// Bytes emits f and encodes it: the bytes of Module(f, opt).Bytes(),
// the sections joined as they are (emission is on the campaign's hot
// path).
func Bytes(f *structurizer.Func, opt Options) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("emit: %w", err)
	}
	if err := fillerFits(f); err != nil {
		return nil, err
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	b, err := buildInto(f, opt, sc)
	if err != nil {
		return nil, err
	}
	out := b.bytes()
	sc.keep(b)
	return out, nil
}

// bytes encodes the module: the header, then every section, joined by
// bytes.Join, which allocates the module without zeroing it first (every
// byte is copied over).
func (b *builder) bytes() []byte {
	var header [20]byte
	spirv.PutWords(header[:], []uint32{spirv.Magic, spirv.Version13, Generator, b.bound + 1, 0})
	return bytes.Join(append([][]byte{header[:]}, b.sections()...), nil)
}

// scratch is storage Bytes lends a build and takes back once the bytes are
// written: the functions, the names and the constants, the bulk of what
// emitting a module allocates.
type scratch struct {
	funcs, names, consts []byte
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// keep takes the build's storage back.
func (sc *scratch) keep(b *builder) {
	sc.funcs, sc.names, sc.consts = b.funcs[:0], b.names[:0], b.consts[:0]
}

// build runs the builder over f (which passed Validate), from the cached
// prefix for opt.
func build(f *structurizer.Func, opt Options) (*builder, error) {
	return buildInto(f, opt, &scratch{})
}

// buildInto is build on sc's storage: the sections main adds to live
// there (after a copy of the prefix's) until sc is used again.
func buildInto(f *structurizer.Func, opt Options, sc *scratch) (*builder, error) {
	if err := checkRegisters(opt.Registers); err != nil {
		return nil, err
	}
	b := cachedPrefix(opt)
	b.funcs = slices.Grow(append(sc.funcs[:0], b.funcs...), 4*estimateWords(f))
	b.names = append(sc.names[:0], b.names...)
	b.consts = append(sc.consts[:0], b.consts...)
	if err := b.mainFunc(f); err != nil {
		return nil, err
	}
	return b, idsFit(b)
}

// buildFresh is build with the prefix built anew and main built by the
// reference paths: what TestPrefixCacheMatchesFreshBuild holds the cache,
// the block names and the filler to.
func buildFresh(f *structurizer.Func, opt Options) (*builder, error) {
	if err := checkRegisters(opt.Registers); err != nil {
		return nil, err
	}
	b := newPrefix(opt)
	b.reference = true
	if err := b.mainFunc(f); err != nil {
		return nil, err
	}
	return b, idsFit(b)
}

// newPrefix builds everything before main: the preamble, the lane guard's
// built-in, the helpers. It depends on nothing but opt.NoLaneGuard.
func newPrefix(opt Options) *builder {
	b := &builder{opt: opt}
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
// sections are only ever read.
func cachedPrefix(opt Options) *builder {
	k := 0
	if opt.NoLaneGuard {
		k = 1
	}
	b := *prefixes[k]()
	b.opt = opt
	if b.uintConsts != nil {
		b.uintConsts = maps.Clone(b.uintConsts)
	}
	for _, sec := range []*[]byte{&b.caps, &b.memModel, &b.entry, &b.modes, &b.names, &b.annots, &b.types, &b.consts, &b.globals, &b.funcs} {
		*sec = slices.Clip(*sec)
	}
	return &b
}

// sections are the module's sections in layout order.
func (b *builder) sections() [][]byte {
	return [][]byte{b.caps, b.memModel, b.entry, b.modes, b.names, b.annots, b.types, b.consts, b.globals, b.funcs}
}

// estimateWords is about the words the functions of f take: the helpers,
// a few dozen per block, and the filler of the weights. It only sizes the
// first allocation of the functions' section.
func estimateWords(f *structurizer.Func) int {
	n := 320
	for i := range f.Blocks {
		n += 60 + 5*fillerOps(f.Blocks[i].Weight)
	}
	return n
}

// preamble declares capabilities, types, buffers and the invocation id.
func (b *builder) preamble() {
	t, v := &b.t, &b.v
	put(&b.caps, spirv.OpCapability, spirv.CapabilityShader)
	put(&b.memModel, spirv.OpMemoryModel, spirv.AddressingLogical, spirv.MemoryGLSL450)
	b.fn.main, b.fn.appendID, b.fn.next = b.id(), b.id(), b.id()
	t.void, t.boolean, t.uint, t.int = b.id(), b.id(), b.id(), b.id()
	t.v3, t.ptrInV3, t.arr, t.bufStruct = b.id(), b.id(), b.id(), b.id()
	t.ptrSBStruct, t.ptrSBUint, t.ptrPrivUint, t.ptrFuncUint = b.id(), b.id(), b.id(), b.id()
	t.fnVoid, t.fnUint, t.fnVoidUint = b.id(), b.id(), b.id()
	put(&b.types, spirv.OpTypeVoid, t.void)
	put(&b.types, spirv.OpTypeBool, t.boolean)
	put(&b.types, spirv.OpTypeInt, t.uint, 32, 0)
	put(&b.types, spirv.OpTypeInt, t.int, 32, 1)
	put(&b.types, spirv.OpTypeVector, t.v3, t.uint, 3)
	put(&b.types, spirv.OpTypePointer, t.ptrInV3, spirv.StorageInput, t.v3)
	put(&b.types, spirv.OpTypeRuntimeArray, t.arr, t.uint)
	put(&b.types, spirv.OpTypeStruct, t.bufStruct, t.arr)
	put(&b.types, spirv.OpTypePointer, t.ptrSBStruct, spirv.StorageStorageBuffer, t.bufStruct)
	put(&b.types, spirv.OpTypePointer, t.ptrSBUint, spirv.StorageStorageBuffer, t.uint)
	put(&b.types, spirv.OpTypePointer, t.ptrPrivUint, spirv.StoragePrivate, t.uint)
	put(&b.types, spirv.OpTypePointer, t.ptrFuncUint, spirv.StorageFunction, t.uint)
	put(&b.types, spirv.OpTypeFunction, t.fnVoid, t.void)
	put(&b.types, spirv.OpTypeFunction, t.fnUint, t.uint)
	put(&b.types, spirv.OpTypeFunction, t.fnVoidUint, t.void, t.uint)
	v.decisions, v.trace, v.gid = b.id(), b.id(), b.id()
	v.tbase, v.dbase, v.tcap, v.sink = b.id(), b.id(), b.id(), b.id()
	put(&b.globals, spirv.OpVariable, t.ptrSBStruct, v.decisions, spirv.StorageStorageBuffer)
	put(&b.globals, spirv.OpVariable, t.ptrSBStruct, v.trace, spirv.StorageStorageBuffer)
	put(&b.globals, spirv.OpVariable, t.ptrInV3, v.gid, spirv.StorageInput)
	put(&b.globals, spirv.OpVariable, t.ptrPrivUint, v.tbase, spirv.StoragePrivate)
	put(&b.globals, spirv.OpVariable, t.ptrPrivUint, v.dbase, spirv.StoragePrivate)
	put(&b.globals, spirv.OpVariable, t.ptrPrivUint, v.tcap, spirv.StoragePrivate)
	put(&b.globals, spirv.OpVariable, t.ptrPrivUint, v.sink, spirv.StoragePrivate)
	put(&b.entry, spirv.OpEntryPoint, append(append([]uint32{spirv.ExecutionModelGLCompute, b.fn.main}, spirv.String("main")...), v.gid)...)
	put(&b.modes, spirv.OpExecutionMode, b.fn.main, spirv.ExecutionModeLocalSize, 1, 1, 1)
	put(&b.annots, spirv.OpDecorate, v.gid, spirv.DecorationBuiltIn, spirv.BuiltInGlobalInvocationID)
	put(&b.annots, spirv.OpDecorate, t.arr, spirv.DecorationArrayStride, 4)
	put(&b.annots, spirv.OpDecorate, t.bufStruct, spirv.DecorationBlock)
	put(&b.annots, spirv.OpMemberDecorate, t.bufStruct, 0, spirv.DecorationOffset, 0)
	put(&b.annots, spirv.OpDecorate, v.decisions, spirv.DecorationDescriptorSet, 0)
	put(&b.annots, spirv.OpDecorate, v.decisions, spirv.DecorationBinding, spirv.BindingDecisions)
	put(&b.annots, spirv.OpDecorate, v.trace, spirv.DecorationDescriptorSet, 0)
	put(&b.annots, spirv.OpDecorate, v.trace, spirv.DecorationBinding, spirv.BindingTrace)
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
	put(&b.types, spirv.OpTypePointer, b.t.ptrInUint, spirv.StorageInput, b.t.uint)
	put(&b.globals, spirv.OpVariable, b.t.ptrInUint, b.v.lidx, spirv.StorageInput)
	put(&b.annots, spirv.OpDecorate, b.v.lidx, spirv.DecorationBuiltIn, spirv.BuiltInLocalInvocationIndex)
	// The entry section is the one OpEntryPoint: one more operand.
	b.entry = binary.LittleEndian.AppendUint32(b.entry, b.v.lidx)
	binary.LittleEndian.PutUint32(b.entry, binary.LittleEndian.Uint32(b.entry)+1<<16)
	b.name(b.v.lidx, "lidx")
}

// fnBody accumulates one function's encoding.
type fnBody struct {
	b *builder
	w []byte
}

func (fb *fnBody) add(op spirv.Op, operands ...uint32) {
	fb.w = appendInstruction(fb.w, op, 0, 0, 0, operands)
}

// val emits an instruction with a result type and returns its result id.
func (fb *fnBody) val(op spirv.Op, typ uint32, operands ...uint32) uint32 {
	r := fb.b.id()
	fb.w = appendInstruction(fb.w, op, 2, typ, r, operands)
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
	fb := &fnBody{b: b, w: b.funcs}
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

	// next(): the walk's next decision, 0 past its end; consumed++.
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
	b.funcs = fb.w
}
