// interp.go: a SPIR-V interpreter for the logical-addressing subset the
// module convention uses (and a little more: OpPhi, every integer compare,
// bitwise ops, the signed divisions and shifts the convention allows in
// filler, OpCopyObject, OpBitcast between 32-bit integers), independent of
// the emitter. An instruction outside the subset is an UnsupportedError
// (a harness limit), never a trap. It runs one invocation at a
// time over real buffers, so the oracle reads traces exactly as a driver run
// would leave them.
//
// Functions cannot recurse in SPIR-V, and result ids are unique in a module,
// so one value table indexed by id serves every call frame.

package oracle

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// TrapError is a module that did something undefined while running:
// reached OpUnreachable or OpKill, accessed a buffer out of bounds, or used
// an undefined value. It is a finding about the module.
type TrapError struct{ Msg string }

func (e *TrapError) Error() string { return "trap: " + e.Msg }

// cellInit is a module-scope variable's initializer (set: it has one).
type cellInit struct {
	set bool
	u   uint32
}

// UndefinedLoadError is a load from a variable nothing stored to and that
// has no initializer: SPIR-V leaves its value undefined (a driver may read
// anything), so a module whose run reads it is wrong even where a zero
// would happen to give the right walk.
type UndefinedLoadError struct{}

func (*UndefinedLoadError) Error() string {
	return "load of a variable never stored to and without an initializer: its value is undefined"
}

func undefinedLoad() error { return &UndefinedLoadError{} }

// UnsupportedError is an instruction the interpreter does not implement,
// or (What) another shape of module it does not run: a harness limit, not
// a finding.
type UnsupportedError struct {
	Op   spirv.Op
	What string // what it does not run, when not the instruction Op
}

func (e *UnsupportedError) Error() string {
	if e.What != "" {
		return "interpreter does not support " + e.What
	}
	return fmt.Sprintf("interpreter does not support %s", e.Op)
}

type valKind uint8

const (
	vUndef valKind = iota
	vScalar
	vBool
	vVec
	vPtr
)

// value is a runtime value, 16 bytes. Pointers name a storage cell: a
// buffer (by binding) and word index, or a variable's private cell. The
// only vector is GlobalInvocationId, whose y and z are 0 (one dispatch row
// of walks), so a vVec keeps its x in u.
type value struct {
	kind  valKind
	bufPt bool // vPtr: points at a whole buffer struct
	u     uint32
	space int32 // vPtr: >= 0 buffer binding; -1 cell; -5 an array of cells (u its length)
	index int32 // vPtr: word index in the buffer, or cell index (an array's first)
}

type block struct {
	label uint32
	insts []spirv.Instruction // body, terminator last (the module's own, see blockBody)
	// n is the block's index among the program's blocks; undo the ids a
	// run of it may write (every instruction's first two operands within
	// the bound, a superset of its results): what Machine.reset restores.
	n    int32
	undo []uint32
	// fast has a resolved step for each instruction that can take the
	// fast path (kind not stepNone), by index into insts.
	fast []step
	// cases maps the literals of an OpSwitch terminator of at least
	// switchIndexMin cases to their labels (the first for a repeated
	// literal, as the scan finds it); nil for other blocks, which scan.
	cases map[uint32]uint32
}

// switchIndexMin is the case count from which a switch's cases are looked
// up in a map instead of scanned: a dispatch loop's switch has a case per
// block of the graph, and a scan per step makes its walks quadratic.
const switchIndexMin = 16

// switchCases is the cases map of b's terminator, nil when it is not an
// OpSwitch of at least switchIndexMin cases.
func switchCases(b *block) map[uint32]uint32 {
	if len(b.insts) == 0 {
		return nil
	}
	in := &b.insts[len(b.insts)-1]
	if in.Op != spirv.OpSwitch || (len(in.Operands)-2)/2 < switchIndexMin {
		return nil
	}
	cases := make(map[uint32]uint32, (len(in.Operands)-2)/2)
	for i := 2; i+1 < len(in.Operands); i += 2 {
		if _, ok := cases[in.Operands[i]]; !ok {
			cases[in.Operands[i]] = in.Operands[i+1]
		}
	}
	return cases
}

type function struct {
	id     uint32
	params []uint32
	blocks []block
	// at is the block index by label id, -1 for none. Functions share one
	// table (Program.at) unless a label id labels two blocks; a label found
	// there is the function's own only if its block there has it.
	at []int32
	// own is the function's own block index by label id, used instead of
	// at when a label id labels two blocks: a map the size of the
	// function, where a table by id for every function would grow with
	// the functions times the ids.
	own map[uint32]int32
	// straight: one block, every instruction resolved, a return last; the
	// fast path runs a call of it in line (fastRun).
	straight bool
}

// blockOf is the index of f's block labelled label, false when f has none
// (Machine.call's trap).
func (f *function) blockOf(label uint32) (int, bool) {
	if f.own != nil {
		idx, ok := f.own[label]
		return int(idx), ok
	}
	if int(label) >= len(f.at) {
		return 0, false
	}
	idx := f.at[label]
	if idx < 0 || int(idx) >= len(f.blocks) || f.blocks[idx].label != label {
		return 0, false
	}
	return int(idx), true
}

// Program is a decoded module ready to run.
type Program struct {
	funcs     map[uint32]*function
	entry     *function
	consts    []value        // constant values by id (module scope)
	globals   map[uint32]int // OpVariable id -> storage: buffer binding (>=0) or -1-cell
	bindings  map[uint32]uint32
	builtinID uint32 // GlobalInvocationId variable
	localID   uint32 // LocalInvocationIndex variable (always 0: LocalSize is 1)
	bound     uint32
	nCells    int
	cellInit  []cellInit // per module-scope cell: its initializer, if any
	// arrayLen is, for a pointer type to an array of 32-bit words (a
	// register file held as one Function or Private array), the array's
	// length; nil when the module declares none.
	arrayLen map[uint32]uint32
	// globalLen is the length of each module-scope array variable.
	globalLen map[uint32]uint32
	labels    int
	at        []int32     // block index by label id, for every function (function.at)
	callees   []*function // the fast path's stepCall targets
	chains    []chain     // the fast path's fused chains
	segs      []chainSeg  // their folded segments
	steps     []step      // every block's steps (block.fast is its part)
	undo      []uint32    // every block's undo list (block.undo is its part)
	params    []uint32    // every function's parameters, within the bound
	blocks    int         // the blocks of every function (block.n)
}

// Labels is the number of blocks in the entry point.
func (p *Program) Labels() int { return p.labels }

// Load prepares a decoded module. It fails on structure it cannot run
// (missing entry point, unknown decorations are ignored).
func Load(m *spirv.Module) (*Program, error) {
	return loadWith(m, new(interpScratch))
}

// loadWith is Load making its tables in the memory of s (interpScratch).
func loadWith(m *spirv.Module, s *interpScratch) (*Program, error) {
	p, uses, err := scanModule(m, s)
	if err != nil {
		return nil, err
	}
	resolveProgram(p, uses, s)
	return p, nil
}

// scanModule is Load's reading of the module: its functions, blocks,
// constants, variables and label tables, and every id's uses (idUse).
func scanModule(m *spirv.Module, s *interpScratch) (*Program, idUse, error) {
	sc, err := newProgramScan(m, s)
	if err != nil {
		return nil, idUse{}, err
	}
	for k := range m.Insts {
		if err := sc.inst(k); err != nil {
			return nil, idUse{}, err
		}
	}
	sc.body.close(m.Insts)
	if err := sc.bindGlobals(); err != nil {
		return nil, idUse{}, err
	}
	if err := sc.finish(); err != nil {
		return nil, idUse{}, err
	}
	return sc.p, sc.uses, nil
}

// programScan is the state of one scanModule: the program it fills, the
// uses it counts, the word and array types seen so far, and the function
// and block being read.
type programScan struct {
	m     *spirv.Module
	s     *interpScratch
	p     *Program
	uses  idUse
	words map[uint32]bool // 32-bit integer types
	// opaque holds the module-scope values the scan does not read (a
	// composite, an undef, a specialization op, a constant wider than a
	// word or of another type than a 32-bit integer, a variable
	// initialized with one), by id, each with what it
	// is; a function that uses one is not run (finish). nil while there
	// is none.
	opaque map[uint32]string
	// wide holds the numeric types other than 32-bit integers (the
	// interpreter computes every value as one word); a function
	// instruction whose result has one is not run (unsupported). nil
	// while there is none.
	wide map[uint32]bool
	// vectors holds the vector types: the interpreter holds one vector,
	// the invocation id a load of GlobalInvocationId gives, so a
	// function instruction other than a load whose result is a vector is
	// not run (unsupported). nil while there is none.
	vectors      map[uint32]bool
	unsupported  error             // the first such instruction
	arrays       map[uint32]uint32 // array types of words: their length
	sharedLabels bool              // a label id seen twice: each function gets its own table
	entryID      uint32
	cur          *function // nil outside a function
	body         blockBody // the block being read
}

// newProgramScan sizes the program's id tables by m's bound, in the memory
// of s.
func newProgramScan(m *spirv.Module, s *interpScratch) (*programScan, error) {
	bound, err := tableBound(m)
	if err != nil {
		return nil, err
	}
	p := s.program(bound)
	p.consts = zeroed(s.consts, int(bound)+1)
	p.at = zeroed(s.at, int(bound)+1)
	p.segs, p.chains, p.callees = s.segs[:0], s.chains[:0], s.callees[:0]
	for i := range p.at {
		p.at[i] = -1
	}
	uses := idUse{count: zeroed(s.count, int(bound)+1), written: zeroed(s.written, int(bound)+1)}
	s.count, s.written = uses.count, uses.written
	return &programScan{m: m, s: s, p: p, uses: uses, words: map[uint32]bool{}, arrays: map[uint32]uint32{}}, nil
}

// inst reads instruction k of the module.
func (sc *programScan) inst(k int) error {
	in := &sc.m.Insts[k]
	switch in.Op {
	case spirv.OpEntryPoint, spirv.OpDecorate:
		sc.annotation(in)
	case spirv.OpConstant, spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpConstantNull,
		spirv.OpSpecConstant, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		sc.constant(in)
	case spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeArray, spirv.OpTypePointer, spirv.OpTypeVector:
		sc.typeDecl(in)
	case spirv.OpUndef, spirv.OpConstantComposite, spirv.OpConstantSampler, spirv.OpSpecConstantComposite, spirv.OpSpecConstantOp:
		if sc.cur == nil {
			sc.opaqueValue(in)
			return nil
		}
		sc.bodyInst(k)
	case spirv.OpVariable:
		if sc.cur == nil && len(in.Operands) >= 3 {
			return sc.globalVariable(in.Operands)
		}
		sc.bodyInst(k)
	case spirv.OpFunction, spirv.OpFunctionParameter, spirv.OpFunctionEnd:
		return sc.function(in)
	case spirv.OpLabel:
		return sc.label(k)
	default:
		sc.bodyInst(k)
	}
	return nil
}

// annotation reads the entry point's id, and the bindings and built-ins
// decorations give.
func (sc *programScan) annotation(in *spirv.Instruction) {
	ops, p := in.Operands, sc.p
	if in.Op == spirv.OpEntryPoint {
		if len(ops) >= 2 {
			sc.entryID = ops[1]
		}
		return
	}
	if len(ops) < 3 {
		return
	}
	switch {
	case ops[1] == spirv.DecorationBinding:
		p.bindings[ops[0]] = ops[2]
	case ops[1] == spirv.DecorationBuiltIn && ops[2] == spirv.BuiltInGlobalInvocationID:
		p.builtinID = ops[0]
	case ops[1] == spirv.DecorationBuiltIn && ops[2] == spirv.BuiltInLocalInvocationIndex:
		p.localID = ops[0]
	}
}

// constant reads a scalar, boolean or null constant into the program's
// module-scope values; a specialization constant is its default, the
// value a driver gives it when the pipeline specializes nothing (as the
// gpu check's does).
func (sc *programScan) constant(in *spirv.Instruction) {
	ops, consts := in.Operands, sc.p.consts
	if len(ops) < 2 || ops[1] >= uint32(len(consts)) {
		return
	}
	switch in.Op {
	case spirv.OpConstant, spirv.OpSpecConstant:
		switch {
		case len(ops) > 3: // a value wider than a word
			sc.opaqueValue(in)
		case sc.wide[ops[0]]: // a word the interpreter would read as a 32-bit integer
			sc.opaqueAs(ops[1], fmt.Sprintf("%s %%%d of a type other than a 32-bit integer (%%%d)", in.Op, ops[1], ops[0]))
		case len(ops) == 3:
			consts[ops[1]] = value{kind: vScalar, u: ops[2]}
		}
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		consts[ops[1]] = value{kind: vBool, u: b2u(in.Op == spirv.OpConstantTrue || in.Op == spirv.OpSpecConstantTrue)}
	case spirv.OpConstantNull:
		consts[ops[1]] = value{kind: vScalar}
	}
}

// opaqueValue notes a module-scope value the scan does not read.
func (sc *programScan) opaqueValue(in *spirv.Instruction) {
	ops := in.Operands
	if len(ops) < 2 {
		return
	}
	what := fmt.Sprintf("%s %%%d", in.Op, ops[1])
	if in.Op == spirv.OpConstant || in.Op == spirv.OpSpecConstant {
		what = fmt.Sprintf("%d-bit %s", 32*(len(ops)-2), what)
	}
	sc.opaqueAs(ops[1], what)
}

// opaqueAs notes id as a module-scope value the scan does not read, what
// saying which.
func (sc *programScan) opaqueAs(id uint32, what string) {
	if sc.opaque == nil {
		sc.opaque = map[uint32]string{}
	}
	sc.opaque[id] = what
}

// wideType notes a numeric type other than a 32-bit integer.
func (sc *programScan) wideType(id uint32) {
	if sc.wide == nil {
		sc.wide = map[uint32]bool{}
	}
	sc.wide[id] = true
}

// typeDecl notes the 32-bit integer types, the other numeric types (wide), the arrays of them whose length
// is a constant already read, and the pointers to those arrays.
func (sc *programScan) typeDecl(in *spirv.Instruction) {
	ops, p := in.Operands, sc.p
	switch in.Op {
	case spirv.OpTypeInt:
		if len(ops) >= 2 && ops[1] == 32 {
			sc.words[ops[0]] = true
		} else if len(ops) >= 1 {
			sc.wideType(ops[0])
		}
	case spirv.OpTypeFloat:
		if len(ops) >= 1 {
			sc.wideType(ops[0])
		}
	case spirv.OpTypeVector:
		if len(ops) >= 1 {
			if sc.vectors == nil {
				sc.vectors = map[uint32]bool{}
			}
			sc.vectors[ops[0]] = true
		}
	case spirv.OpTypeArray:
		if len(ops) >= 3 && sc.words[ops[1]] && ops[2] < uint32(len(p.consts)) && p.consts[ops[2]].kind == vScalar {
			sc.arrays[ops[0]] = p.consts[ops[2]].u
		}
	case spirv.OpTypePointer:
		if n, ok := sc.arrays[operandAt(ops, 2)]; ok && len(ops) >= 3 {
			if p.arrayLen == nil {
				p.arrayLen = map[uint32]uint32{}
			}
			p.arrayLen[ops[0]] = n
		}
	}
}

// globalVariable gives a module-scope variable (ops: type, id, storage
// class, initializer) its place: a storage buffer a binding (filled in by
// bindGlobals), an array of words its run of private cells, any other
// variable one cell with its initializer.
func (sc *programScan) globalVariable(ops []uint32) error {
	p := sc.p
	if ops[2] == spirv.StorageStorageBuffer {
		p.globals[ops[1]] = 0 // binding filled in by bindGlobals
		return nil
	}
	if n, ok := p.arrayLen[ops[0]]; ok {
		if n == 0 || n > maxArrayWords || len(ops) >= 4 {
			return &UnsupportedError{What: arrayWhat("Private", n, len(ops) >= 4)}
		}
		if p.globalLen == nil {
			p.globalLen = map[uint32]uint32{}
		}
		p.globals[ops[1]] = -1 - p.nCells
		p.globalLen[ops[1]] = n
		p.nCells += int(n)
		for range n {
			p.cellInit = append(p.cellInit, cellInit{})
		}
		return nil
	}
	if ops[2] == spirv.StorageInput && ops[1] != p.builtinID && ops[1] != p.localID {
		// A built-in it does not give (WorkgroupId, NumWorkgroups, ...),
		// or one decorated through a group: not an undefined value.
		sc.opaqueAs(ops[1], fmt.Sprintf("Input variable %%%d, a built-in other than GlobalInvocationId and LocalInvocationIndex", ops[1]))
	}
	if what, ok := sc.opaque[operandAt(ops, 3)]; ok && len(ops) >= 4 {
		sc.opaqueAs(ops[1], fmt.Sprintf("OpVariable %%%d, initialized with the %s", ops[1], what))
	}
	p.globals[ops[1]] = -1 - p.nCells
	p.nCells++
	var ci cellInit
	if len(ops) >= 4 && ops[3] < uint32(len(p.consts)) {
		ci = cellInit{set: true, u: p.consts[ops[3]].u}
	}
	p.cellInit = append(p.cellInit, ci)
	return nil
}

// function reads OpFunction (opening a function), OpFunctionParameter and
// OpFunctionEnd (closing it and its last block).
func (sc *programScan) function(in *spirv.Instruction) error {
	ops := in.Operands
	switch in.Op {
	case spirv.OpFunction:
		if len(ops) < 2 {
			return fmt.Errorf("OpFunction without a result id")
		}
		sc.cur = sc.s.function(ops[1])
		sc.p.funcs[sc.cur.id] = sc.cur
	case spirv.OpFunctionParameter:
		if sc.cur != nil && len(ops) >= 2 {
			if ops[1] >= uint32(len(sc.p.consts)) {
				return fmt.Errorf("parameter %%%d of function %%%d beyond the id bound %d", ops[1], sc.cur.id, sc.p.bound)
			}
			sc.cur.params = append(sc.cur.params, ops[1])
			sc.uses.param(ops[1])
		}
	case spirv.OpFunctionEnd:
		sc.cur = nil
		sc.body.close(sc.m.Insts)
	}
	return nil
}

// label opens the block instruction k labels, closing the one before.
func (sc *programScan) label(k int) error {
	ops, p, cur := sc.m.Insts[k].Operands, sc.p, sc.cur
	if cur == nil || len(ops) < 1 {
		return fmt.Errorf("OpLabel outside a function")
	}
	if ops[0] < uint32(len(p.at)) {
		sc.sharedLabels = sc.sharedLabels || p.at[ops[0]] >= 0
		p.at[ops[0]] = int32(len(cur.blocks))
	}
	sc.body.close(sc.m.Insts)
	cur.blocks = append(cur.blocks, block{label: ops[0]})
	sc.body = blockBody{b: &cur.blocks[len(cur.blocks)-1], start: k + 1}
	return nil
}

// bodyInst adds instruction k to the open block, if any, closing the
// block at a terminator.
func (sc *programScan) bodyInst(k int) {
	if sc.body.b == nil {
		return
	}
	in := &sc.m.Insts[k]
	if sc.wide != nil && len(in.Operands) > 0 && sc.wide[in.Operands[0]] && sc.unsupported == nil {
		// Operand 0 is the result type of every instruction that has
		// one; no other instruction's first operand is a type.
		sc.unsupported = &UnsupportedError{What: fmt.Sprintf("%s of a type other than a 32-bit integer (%%%d)", in.Op, in.Operands[0])}
	}
	if sc.vectors != nil && len(in.Operands) > 0 && sc.vectors[in.Operands[0]] && in.Op != spirv.OpLoad && sc.unsupported == nil {
		sc.unsupported = &UnsupportedError{What: fmt.Sprintf("%s of a vector type (%%%d)", in.Op, in.Operands[0])}
	}
	sc.body.add(sc.m.Insts, k)
	sc.uses.note(in)
	if spirv.IsTerminator(in.Op) {
		sc.body.close(sc.m.Insts)
	}
}

// bindGlobals gives each storage buffer its binding, and every global
// variable its module-scope pointer value, so that a lookup is one slice
// index.
func (sc *programScan) bindGlobals() error {
	p := sc.p
	for id := range p.globals {
		if p.globals[id] >= 0 {
			b, ok := p.bindings[id]
			if !ok {
				return fmt.Errorf("storage buffer %%%d has no binding", id)
			}
			p.globals[id] = int(b)
		}
	}
	for id, g := range p.globals {
		if int(id) >= len(p.consts) {
			return fmt.Errorf("variable %%%d beyond the id bound %d", id, p.bound)
		}
		switch {
		case id == p.builtinID:
			p.consts[id] = value{kind: vPtr, space: spaceBuiltin}
		case id == p.localID:
			p.consts[id] = value{kind: vPtr, space: spaceLocalIndex}
		case g >= 0:
			p.consts[id] = value{kind: vPtr, space: int32(g), bufPt: true}
		case p.globalLen[id] > 0:
			p.consts[id] = value{kind: vPtr, space: spaceArray, index: int32(-1 - g), u: p.globalLen[id]}
		default:
			p.consts[id] = value{kind: vPtr, space: spaceCell, index: int32(-1 - g)}
		}
	}
	return nil
}

// finish checks the entry point and every block's terminator, and gives
// each function its label table (its own where labels are shared).
func (sc *programScan) finish() error {
	p := sc.p
	if sc.unsupported != nil {
		return sc.unsupported
	}
	read := uint32(0) // the least opaque id a function reads, 0 for none
	for id := range sc.opaque {
		if int(id) < len(sc.uses.count) && sc.uses.count[id] > 0 && (read == 0 || id < read) {
			read = id
		}
	}
	if read != 0 {
		return &UnsupportedError{What: "a function reading the module-scope " + sc.opaque[read]}
	}
	p.entry = p.funcs[sc.entryID]
	if p.entry == nil || len(p.entry.blocks) == 0 {
		return fmt.Errorf("module has no entry point function")
	}
	for _, f := range p.funcs {
		for _, b := range f.blocks {
			if len(b.insts) == 0 || !spirv.IsTerminator(b.insts[len(b.insts)-1].Op) {
				return fmt.Errorf("block %%%d does not end in a terminator", b.label)
			}
		}
	}
	for _, f := range p.funcs {
		f.at = p.at
		if sc.sharedLabels {
			f.own = make(map[uint32]int32, len(f.blocks))
			for i, b := range f.blocks {
				if b.label < uint32(len(p.at)) {
					f.own[b.label] = int32(i)
				}
			}
		}
	}
	p.labels = len(p.entry.blocks)
	return nil
}

// resolveProgram gives every block its resolved steps (resolveSteps,
// resolveChains, resolvePairs) and every function its straight mark.
func resolveProgram(p *Program, uses idUse, s *interpScratch) {
	total := 0
	for _, f := range p.funcs {
		for _, b := range f.blocks {
			total += len(b.insts)
		}
	}
	steps := zeroed(s.steps, total)
	p.steps = steps
	p.undo, p.params, p.blocks = s.undo[:0], s.params[:0], 0
	for _, f := range p.funcs {
		for i := range f.blocks {
			b := &f.blocks[i]
			b.fast, steps = steps[:len(b.insts):len(b.insts)], steps[len(b.insts):]
			resolveSteps(b.fast, b.insts, p, f, uses)
			resolveChains(b.fast, p, uses)
			resolvePairs(b.fast)
			b.n, b.undo = int32(p.blocks), p.undoOf(b)
			b.cases = switchCases(b)
			p.blocks++
		}
		f.straight = straight(f)
		for _, id := range f.params {
			if id <= p.bound {
				p.params = append(p.params, id)
			}
		}
	}
}

// undoOf appends block b's undo list to p.undo and returns it: the first
// two operands of each instruction that lie within the bound, which hold
// every id the block's run writes (a result id is the first operand, or
// the second after its type).
func (p *Program) undoOf(b *block) []uint32 {
	start := len(p.undo)
	for _, in := range b.insts {
		for _, id := range in.Operands[:min(2, len(in.Operands))] {
			if id <= p.bound {
				p.undo = append(p.undo, id)
			}
		}
	}
	return p.undo[start:len(p.undo):len(p.undo)]
}

// blockBody collects a block's body while Load reads the module: the
// module's own instructions while they run on uninterrupted (the block then
// shares them, read-only), a copy once one that is no part of the body
// (a constant, a decoration, a function header) interrupts them.
type blockBody struct {
	b        *block // nil: no block is open
	start, n int    // the body so far, uninterrupted: insts[start:start+n]
	copied   bool   // b.insts holds the body so far
}

// add appends instruction k of insts to the body.
func (s *blockBody) add(insts []spirv.Instruction, k int) {
	switch {
	case s.copied:
		s.b.insts = append(s.b.insts, insts[k])
	case k == s.start+s.n:
		s.n++
	default:
		s.b.insts = append(slices.Clip(insts[s.start:s.start+s.n]), insts[k])
		s.copied = true
	}
}

// close ends the open block, if any: its body is complete.
func (s *blockBody) close(insts []spirv.Instruction) {
	if s.b != nil && !s.copied {
		s.b.insts = slices.Clip(insts[s.start : s.start+s.n])
	}
	s.b = nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// Machine runs invocations of a Program over a set of buffers.
type Machine struct {
	p       *Program
	Buffers map[uint32][]uint32 // by binding
	bufs    [][]uint32          // Buffers as a slice by binding, taken at Run
	vals    []value
	cells   []uint32
	defined []bool // per cell: stored to, or initialized, since the invocation began
	gid     uint32
	// OnBlock, when set, is called on every block entry of the entry point
	// with the label id; returning false stops the invocation (Run returns
	// ErrStopped).
	OnBlock func(label uint32) bool
	// watch, when set, sees every block entry of the entry point before
	// OnBlock, as OnBlock would: the execution check's own (traceWatch).
	watch *traceWatch
	// own, when set, is the running invocation's slice of the trace
	// buffer: a load or store of another word of it stops the invocation
	// with a ForeignTraceError (exec_slices.go).
	own traceSlice
	// MaxBlocks, when > 0, stops an invocation (ErrStopped) after that
	// many blocks of any function: OnBlock sees only the entry point's, and
	// a loop inside a called function would otherwise never end.
	MaxBlocks int
	blocks    int // blocks of any function this invocation
	depth     int // calls in progress this invocation, the entry point's not counted
	// ran lists the blocks this invocation entered, once each (seen[b.n]
	// == gen), for the next one's reset; primed says vals holds the
	// constants but for what those blocks wrote.
	ran    []*block
	seen   []uint32
	gen    uint32
	primed bool
	// fullReset puts back every constant for each invocation: the obvious
	// reset that reset's restoring of the entered blocks' ids is tested
	// against.
	fullReset bool
	steps     int
	ret       value       // what the fast path's return steps return
	memo      []chainMemo // long chains' values (chainValue), made at first use
	// generic runs every instruction through exec, the fast path off: the
	// reference the fast path is tested against.
	generic bool
}

// ErrStopped is returned when OnBlock stopped an invocation.
var ErrStopped = fmt.Errorf("stopped by the caller")

// NewMachine prepares a machine over the buffers (by binding).
func NewMachine(p *Program, buffers map[uint32][]uint32) *Machine {
	return &Machine{p: p, Buffers: buffers, vals: make([]value, p.bound+1), seen: make([]uint32, p.blocks)}
}

// Run executes the entry point for one invocation.
func (m *Machine) Run(invocation uint32) error {
	m.bindBuffers()
	return m.run(invocation)
}

// bindBuffers takes Buffers as a slice by binding (Machine.bufs).
func (m *Machine) bindBuffers() {
	m.bufs = m.bufs[:0]
	for b, buf := range m.Buffers {
		for int(b) >= len(m.bufs) {
			m.bufs = append(m.bufs, nil)
		}
		m.bufs[b] = buf
	}
}

// run is Run on the buffers bindBuffers took.
func (m *Machine) run(invocation uint32) error {
	m.reset()
	m.cells = append(m.cells[:0], make([]uint32, m.p.nCells)...)
	m.defined = append(m.defined[:0], make([]bool, m.p.nCells)...)
	for i, ci := range m.p.cellInit {
		m.cells[i], m.defined[i] = ci.u, ci.set
	}
	m.gid = invocation
	m.blocks, m.depth = 0, 0
	_, err := m.call(m.p.entry, nil, true)
	return err
}

// reset puts the constants back in vals for a new invocation: all of them
// the first time, after that only the ids the blocks the last invocation
// entered may have written, so that an invocation costs what it runs, not
// the module's size. Every write of an invocation is to a result of an
// instruction of a block it entered (Machine.enter, on every block entry
// of call and of the fast path's calls in line), or to a parameter, which
// a call writes before it enters a block (and a call of a function with no
// blocks enters none): every function's parameters are put back too.
func (m *Machine) reset() {
	consts := m.p.consts
	if !m.primed || m.fullReset {
		copy(m.vals, consts)
		m.primed = true
	} else {
		for _, b := range m.ran {
			for _, id := range b.undo {
				m.vals[id] = consts[id]
			}
		}
		for _, id := range m.p.params {
			m.vals[id] = consts[id]
		}
	}
	m.ran = m.ran[:0]
	if m.gen++; m.gen == 0 {
		clear(m.seen)
		m.gen = 1
	}
}

// enter notes that the invocation entered block b (reset's list).
func (m *Machine) enter(b *block) {
	if m.seen[b.n] != m.gen {
		m.seen[b.n] = m.gen
		m.ran = append(m.ran, b)
	}
}

func (m *Machine) get(id uint32) (value, error) {
	r, err := m.ref(id)
	if err != nil {
		return value{}, err
	}
	return *r, nil
}

// ref is get without the copy, for the hot paths; the pointer is valid
// until the next set of the same id.
func (m *Machine) ref(id uint32) (*value, error) {
	if int(id) >= len(m.vals) {
		return nil, &TrapError{fmt.Sprintf("id %%%d out of bound", id)}
	}
	return &m.vals[id], nil
}

func (m *Machine) scalar(id uint32) (uint32, error) {
	if int(id) < len(m.vals) {
		if v := &m.vals[id]; v.kind == vScalar || v.kind == vBool {
			return v.u, nil
		}
		return 0, &TrapError{fmt.Sprintf("%%%d is not a scalar", id)}
	}
	return 0, &TrapError{fmt.Sprintf("id %%%d out of bound", id)}
}

// call runs f with arguments and returns its return value. A call nested
// deeper than the module has functions is a recursive one, which SPIR-V
// forbids (2.16.1): it traps (callDepth) rather than grow the stack.
func (m *Machine) call(f *function, args []value, isEntry bool) (value, error) {
	if !isEntry {
		if err := m.callDepth(); err != nil {
			return value{}, err
		}
		m.depth++
		v, err := m.callBody(f, args, false)
		m.depth--
		return v, err
	}
	return m.callBody(f, args, true)
}

// callDepth is the trap for a call that would nest deeper than the
// module's number of functions, nil for any other.
func (m *Machine) callDepth() error {
	if m.depth >= len(m.p.funcs) {
		return &TrapError{fmt.Sprintf("calls nested %d deep in a module of %d functions: a recursive call", m.depth+1, len(m.p.funcs))}
	}
	return nil
}

// callBody is call without the depth count.
func (m *Machine) callBody(f *function, args []value, isEntry bool) (value, error) {
	for i, p := range f.params {
		if i < len(args) {
			m.vals[p] = args[i]
		}
	}
	if len(f.blocks) == 0 {
		return value{}, &TrapError{fmt.Sprintf("call of function %%%d, which has no blocks", f.id)}
	}
	bi, prev := 0, uint32(0)
	for {
		b := &f.blocks[bi]
		m.enter(b)
		if m.blocks++; m.MaxBlocks > 0 && m.blocks > m.MaxBlocks {
			return value{}, ErrStopped
		}
		if isEntry {
			m.steps++
			if m.watch != nil && !m.watch.goOn() || m.OnBlock != nil && !m.OnBlock(b.label) {
				return value{}, ErrStopped
			}
		}
		start := 0
		if !m.generic && b.fast[0].kind != stepNone {
			// The fast path's run from the block's start, in line: most
			// blocks end in it.
			n, ran, err := m.fastRun(b.fast, b.insts)
			switch {
			case err != nil:
				return value{}, err
			case ran >= 0:
				prev, bi = b.label, ran
				continue
			case ran == ranReturn:
				return m.ret, nil
			}
			start = n
		}
		next, ret, done, err := m.block(f, b, prev, start)
		if err != nil {
			return value{}, err
		}
		if done {
			return ret, nil
		}
		prev, bi = b.label, next
	}
}

// block runs one block from its instruction start on; it returns the index
// of the next block, or done with the return value.
func (m *Machine) block(f *function, b *block, prev uint32, start int) (next int, ret value, done bool, err error) {
	for i := start; i < len(b.insts); {
		if b.fast[i].kind != stepNone && !m.generic {
			n, ran, err := m.fastRun(b.fast[i:], b.insts[i:])
			switch {
			case err != nil:
				return 0, value{}, false, err
			case ran >= 0:
				return ran, value{}, false, nil
			case ran == ranReturn:
				return 0, m.ret, true, nil
			}
			i += n
			continue
		}
		in := &b.insts[i]
		i++
		ops := in.Operands
		if err := needTerminator(in); err != nil {
			return 0, value{}, false, err
		}
		switch in.Op {
		case spirv.OpBranch:
			return target(f, ops[0])
		case spirv.OpBranchConditional:
			c, err := m.scalar(ops[0])
			if err != nil {
				return 0, value{}, false, err
			}
			if c != 0 {
				return target(f, ops[1])
			}
			return target(f, ops[2])
		case spirv.OpSwitch:
			sel, err := m.scalar(ops[0])
			if err != nil {
				return 0, value{}, false, err
			}
			if b.cases != nil && i == len(b.insts) && !m.generic { // the terminator switchCases read; the reference scans
				if l, ok := b.cases[sel]; ok {
					return target(f, l)
				}
				return target(f, ops[1])
			}
			for i := 2; i+1 < len(ops); i += 2 {
				if ops[i] == sel {
					return target(f, ops[i+1])
				}
			}
			return target(f, ops[1])
		case spirv.OpReturn:
			return 0, value{}, true, nil
		case spirv.OpReturnValue:
			v, err := m.get(ops[0])
			return 0, v, true, err
		case spirv.OpUnreachable:
			return 0, value{}, false, &TrapError{fmt.Sprintf("reached OpUnreachable in block %%%d", b.label)}
		case spirv.OpKill, spirv.OpTerminateInvocation:
			return 0, value{}, false, &TrapError{fmt.Sprintf("%s in a compute shader (block %%%d)", in.Op, b.label)}
		case spirv.OpPhi:
			if err := m.phi(ops, prev); err != nil {
				return 0, value{}, false, err
			}
		default:
			if err := m.exec(in); err != nil {
				return 0, value{}, false, err
			}
		}
	}
	return 0, value{}, false, &TrapError{fmt.Sprintf("block %%%d fell off its end", b.label)}
}

// needTerminator is the trap for an instruction whose operands block reads
// itself (the rest check theirs in exec) with too few of them, as in a
// damaged module; nil for every other instruction.
func needTerminator(in *spirv.Instruction) error {
	switch in.Op {
	case spirv.OpBranch, spirv.OpReturnValue:
		return need(in, 1)
	case spirv.OpSwitch, spirv.OpPhi:
		return need(in, 2)
	case spirv.OpBranchConditional:
		return need(in, 3)
	}
	return nil
}

// target is block's result for a branch to label: the index of f's block
// with that label, or the trap when f has none.
func target(f *function, label uint32) (int, value, bool, error) {
	idx, ok := f.blockOf(label)
	if !ok {
		return 0, value{}, false, &TrapError{fmt.Sprintf("branch to %%%d, not a block of the function", label)}
	}
	return idx, value{}, false, nil
}

func (m *Machine) phi(ops []uint32, prev uint32) error {
	for i := 2; i+1 < len(ops); i += 2 {
		if ops[i+1] == prev {
			v, err := m.get(ops[i])
			if err != nil {
				return err
			}
			m.vals[ops[1]] = v
			return nil
		}
	}
	return &TrapError{fmt.Sprintf("OpPhi %%%d has no entry for predecessor %%%d", ops[1], prev)}
}
