// interp_fast.go: the interpreter's fast path. Load resolves each
// instruction of the common kinds (two-operand integer and logical
// instructions, the bulk of what a weighted module runs; loads, stores,
// access chains, OpSelect, calls and no-ops, what the convention's helpers
// run; branches to blocks of the function and returns) whose operand count
// is right and whose ids are within the bound into a step, so running it
// skips exec's dispatch, the label lookup and the checks Load already made;
// the kind checks, the arithmetic (binary), the memory accesses and every
// error stay those of the generic path, which Machine.generic selects
// and TestFastPathAgainstGeneric holds the fast path to. Filler chains are
// fused further (resolveChains), folded (foldChain) and their values kept
// in a memo (chainValue); an access word and the load or store through it
// run as a pair (resolvePairs); a call of a straight function runs in line.

package oracle

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// stepKind is what a resolved step does.
type stepKind uint8

const (
	stepNone        stepKind = iota // not resolved: the generic path runs it
	stepBinary                      // res = op(a, b), binary's opcodes
	stepChain                       // res = a through Program.chains[b] (resolveChains)
	stepNop                         // OpNop, merges, debug lines
	stepLoad                        // res = *a
	stepStore                       // *a = b
	stepAccess                      // res = a's element at the instruction's operands from 3 on
	stepSelect                      // res = c ? a : b (c the condition)
	stepCall                        // res = Program.callees[b](the instruction's operands from 3 on)
	stepLoadCell                    // res = cells[a]: OpLoad of a module-scope Private variable
	stepStoreCell                   // cells[a] = b: OpStore to one
	stepAccessWord                  // res = word (id b) of storage buffer binding a: OpAccessChain base, 0, b
	stepBranch                      // go to the function's block a
	stepBranchCond                  // go to block a if c is not 0, else to block b
	stepReturn                      // return
	stepReturnValue                 // return a
	// Two-operand steps of the convention's most common opcodes, each
	// evaluated in line (ownKind).
	stepIAdd
	stepIEqual
	stepINotEqual
	stepULessThan
	// An access word whose result the next step, a load or a store, takes
	// as its pointer: both run in one dispatch (resolvePairs).
	stepAccessLoad
	stepAccessStore
)

// ownKind is the step kind of its own of an opcode of binaryOps, stepBinary
// for the rest; Load gives it to a stepBinary once chains are fused.
var ownKind = func() (t [256]stepKind) {
	for _, op := range binaryOps {
		t[op] = stepBinary
	}
	t[spirv.OpIAdd], t[spirv.OpIEqual], t[spirv.OpINotEqual], t[spirv.OpULessThan] = stepIAdd, stepIEqual, stepINotEqual, stepULessThan
	return t
}()

// What fastRun did besides running its steps: a block index (>= 0) is a
// branch taken to that block of the function.
const (
	ranOn     = -1 // stopped at a step it does not run, or at the end
	ranReturn = -2 // returned Machine.ret
)

// step is one resolved instruction, 20 bytes; kind says which operands it
// uses. Index and argument lists stay in the instruction, which the run
// loop has beside the step.
type step struct {
	kind         stepKind
	op           spirv.Op
	res, a, b, c uint32
}

// chainOp is one operation of a fused chain: x = op(x, c), c a constant's
// value resolved at Load.
type chainOp struct {
	op spirv.Op
	c  uint32
}

// chainSeg is a run of a fused chain's operations folded into one:
// x = (x*mul + add) ^ xor (foldChain).
type chainSeg struct{ mul, add, xor uint32 }

// chain is a fused chain: its segments, Program.segs[from:to], and the
// number of instructions it stands for.
type chain struct {
	from, to uint32
	insts    int
}

// binaryOps are the opcodes binary evaluates (all below 256).
var binaryOps = []spirv.Op{
	spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv, spirv.OpUMod,
	spirv.OpSDiv, spirv.OpSRem, spirv.OpSMod,
	spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd,
	spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic,
	spirv.OpIEqual, spirv.OpINotEqual,
	spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpUGreaterThan, spirv.OpUGreaterThanEqual,
	spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual,
	spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual,
}

// binaryTable is binaryOps as a table by opcode: Load asks it of every
// instruction of every module.
var binaryTable = func() (t [256]bool) {
	for _, op := range binaryOps {
		t[op] = true
	}
	return t
}()

// isBinary says whether binary evaluates op.
func isBinary(op spirv.Op) bool { return int(op) < len(binaryTable) && binaryTable[op] }

// resolveSteps fills a block's steps: a resolved one for each instruction
// of the kinds above with the operands exec needs, every id among them at
// most p.bound (the value table's last index), and for a call, a callee
// that is a function of p; stepNone for the rest.
func resolveSteps(steps []step, insts []spirv.Instruction, p *Program, f *function, u idUse) {
	for i := range insts {
		in := &insts[i]
		if ops := in.Operands; isBinary(in.Op) && len(ops) == 4 && ops[1] <= p.bound && ops[2] <= p.bound && ops[3] <= p.bound {
			// resolveStep's first case, the bulk of a module, in line.
			steps[i] = step{kind: stepBinary, op: in.Op, res: ops[1], a: ops[2], b: ops[3]}
			continue
		}
		s := resolveStep(in, p)
		switch s.kind {
		case stepNone:
			s = resolveTerminator(&insts[i], p, f)
		case stepLoad, stepStore, stepAccess:
			s = specialize(s, &insts[i], p, u)
		}
		steps[i] = s
	}
}

// resolveTerminator resolves OpBranch and OpBranchConditional whose targets
// are blocks of f (as target finds them) and whose condition is an id
// within the bound, OpReturn, and OpReturnValue of an id within the bound;
// stepNone for the rest, which the generic path runs (or traps on).
func resolveTerminator(in *spirv.Instruction, p *Program, f *function) step {
	ops := in.Operands
	switch in.Op {
	case spirv.OpBranch:
		if len(ops) >= 1 {
			if to, ok := f.blockOf(ops[0]); ok {
				return step{kind: stepBranch, a: uint32(to)}
			}
		}
	case spirv.OpBranchConditional:
		if len(ops) >= 3 && ops[0] <= p.bound {
			t, okT := f.blockOf(ops[1])
			e, okE := f.blockOf(ops[2])
			if okT && okE {
				return step{kind: stepBranchCond, c: ops[0], a: uint32(t), b: uint32(e)}
			}
		}
	case spirv.OpReturn:
		return step{kind: stepReturn}
	case spirv.OpReturnValue:
		if len(ops) >= 1 && ops[0] <= p.bound {
			return step{kind: stepReturnValue, a: ops[0]}
		}
	}
	return step{}
}

// specialize turns a load or store whose pointer is a module-scope Private
// variable, and an access chain to word x of a storage buffer (indices: a
// constant 0, then x), into the kinds that skip the pointer's lookup. The
// variable, the buffer and the constant must be ids no instruction writes
// (idUses), so their values are the ones every run starts from.
func specialize(s step, in *spirv.Instruction, p *Program, u idUse) step {
	fixed := func(id uint32) *value {
		if u.written[id] {
			return nil
		}
		return &p.consts[id]
	}
	switch s.kind {
	case stepLoad, stepStore:
		if v := fixed(s.a); v != nil && v.kind == vPtr && v.space == spaceCell {
			if s.kind == stepLoad {
				return step{kind: stepLoadCell, res: s.res, a: uint32(v.index)}
			}
			return step{kind: stepStoreCell, a: uint32(v.index), b: s.b}
		}
	case stepAccess:
		ops := in.Operands
		base, zero := fixed(s.a), (*value)(nil)
		if len(ops) == 5 {
			zero = fixed(ops[3])
		}
		if base != nil && base.kind == vPtr && base.bufPt && base.space >= 0 && zero != nil && zero.kind == vScalar && zero.u == 0 {
			return step{kind: stepAccessWord, res: s.res, a: uint32(base.space), b: ops[4]}
		}
	}
	return s
}

// resolveStep resolves one instruction (see resolveSteps).
func resolveStep(in *spirv.Instruction, p *Program) step {
	ops, bound := in.Operands, p.bound
	switch {
	case isBinary(in.Op):
		if len(ops) == 4 && ops[1] <= bound && ops[2] <= bound && ops[3] <= bound {
			return step{kind: stepBinary, op: in.Op, res: ops[1], a: ops[2], b: ops[3]}
		}
	case in.Op == spirv.OpNop, in.Op == spirv.OpSelectionMerge, in.Op == spirv.OpLoopMerge,
		in.Op == spirv.OpLine, in.Op == spirv.OpNoLine, in.Op == spirv.OpName:
		return step{kind: stepNop}
	case in.Op == spirv.OpLoad:
		if len(ops) >= 3 && ops[1] <= bound && ops[2] <= bound {
			return step{kind: stepLoad, res: ops[1], a: ops[2]}
		}
	case in.Op == spirv.OpStore:
		if len(ops) >= 2 && ops[0] <= bound && ops[1] <= bound {
			return step{kind: stepStore, a: ops[0], b: ops[1]}
		}
	case in.Op == spirv.OpAccessChain, in.Op == spirv.OpInBoundsAccessChain:
		if len(ops) >= 3 && inBound(ops[1:], bound) {
			return step{kind: stepAccess, res: ops[1], a: ops[2]}
		}
	case in.Op == spirv.OpSelect:
		if len(ops) >= 5 && inBound(ops[1:5], bound) {
			return step{kind: stepSelect, res: ops[1], c: ops[2], a: ops[3], b: ops[4]}
		}
	case in.Op == spirv.OpFunctionCall:
		if len(ops) < 3 || ops[1] > bound || !inBound(ops[3:], bound) {
			break
		}
		if f := p.funcs[ops[2]]; f != nil {
			p.callees = append(p.callees, f)
			return step{kind: stepCall, res: ops[1], b: uint32(len(p.callees) - 1)}
		}
	}
	return step{}
}

// inBound says whether every id is at most bound.
func inBound(ids []uint32, bound uint32) bool {
	for _, id := range ids {
		if id > bound {
			return false
		}
	}
	return true
}

// fastRun runs the resolved steps at the start of steps (insts are their
// instructions), up to the first that is not resolved or a terminator, each
// as the generic path would (for a two-operand one: operand a's kind, then
// b's, then the arithmetic, then the result). It returns how many it ran
// (all of them up to there, unless one failed) and what it did: ranOn,
// ranReturn, or the index of the block a branch goes to.
func (m *Machine) fastRun(steps []step, insts []spirv.Instruction) (int, int, error) {
	vals := m.vals
	for i := 0; i < len(steps); i++ {
		s := &steps[i]
		switch s.kind {
		case stepNone:
			return i, ranOn, nil
		case stepNop:
		case stepBinary:
			va, vb := &vals[s.a], &vals[s.b]
			if va.kind != vScalar && va.kind != vBool {
				return i, ranOn, notScalar(s.a)
			}
			if vb.kind != vScalar && vb.kind != vBool {
				return i, ranOn, notScalar(s.b)
			}
			u, isBool, err := fastBinary(s.op, va.u, vb.u)
			if err != nil {
				return i, ranOn, err
			}
			kind := vScalar
			if isBool {
				kind = vBool
			}
			vals[s.res] = value{kind: kind, u: u}
		case stepIAdd:
			va, vb := &vals[s.a], &vals[s.b]
			if !bothScalars(va, vb) {
				return i, ranOn, notScalars(va, s)
			}
			vals[s.res] = value{kind: vScalar, u: va.u + vb.u}
		case stepIEqual:
			va, vb := &vals[s.a], &vals[s.b]
			if !bothScalars(va, vb) {
				return i, ranOn, notScalars(va, s)
			}
			vals[s.res] = value{kind: vBool, u: b2u(va.u == vb.u)}
		case stepINotEqual:
			va, vb := &vals[s.a], &vals[s.b]
			if !bothScalars(va, vb) {
				return i, ranOn, notScalars(va, s)
			}
			vals[s.res] = value{kind: vBool, u: b2u(va.u != vb.u)}
		case stepULessThan:
			va, vb := &vals[s.a], &vals[s.b]
			if !bothScalars(va, vb) {
				return i, ranOn, notScalars(va, s)
			}
			vals[s.res] = value{kind: vBool, u: b2u(va.u < vb.u)}
		case stepChain:
			va := &vals[s.a]
			if va.kind != vScalar && va.kind != vBool {
				return i, ranOn, notScalar(s.a)
			}
			vals[s.res] = value{kind: vScalar, u: m.chainValue(s.b, va.u)}
			i += m.p.chains[s.b].insts - 1
		case stepLoadCell:
			if !m.defined[s.a] {
				return i, ranOn, undefinedLoad()
			}
			vals[s.res] = value{kind: vScalar, u: m.cells[s.a]}
		case stepStoreCell:
			m.cells[s.a], m.defined[s.a] = vals[s.b].u, true
		case stepAccessWord:
			if !accessWord(vals, s) {
				return i, ranOn, accessTrap(vals, s)
			}
		case stepAccessLoad:
			if !accessWord(vals, s) {
				return i, ranOn, accessTrap(vals, s)
			}
			w := m.bufferWord(s.a, vals[s.res].index)
			i++
			s = &steps[i]
			if w != nil {
				vals[s.res] = value{kind: vScalar, u: *w}
				continue
			}
			fallthrough
		case stepLoad:
			if p := &vals[s.a]; p.kind == vPtr && p.space == spaceCell {
				if !m.defined[p.index] {
					return i, ranOn, undefinedLoad()
				}
				vals[s.res] = value{kind: vScalar, u: m.cells[p.index]}
				continue
			}
			if w := m.word(&vals[s.a]); w != nil {
				vals[s.res] = value{kind: vScalar, u: *w}
				continue
			}
			v, err := m.load(s.a)
			if err != nil {
				return i, ranOn, err
			}
			vals[s.res] = v
		case stepAccessStore:
			if !accessWord(vals, s) {
				return i, ranOn, accessTrap(vals, s)
			}
			w := m.bufferWord(s.a, vals[s.res].index)
			if m.readOnly(int32(s.a)) {
				w = nil // storeWord stops the walk
			}
			i++
			s = &steps[i]
			if w != nil {
				*w = vals[s.b].u
				continue
			}
			fallthrough
		case stepStore:
			if p := &vals[s.a]; p.kind == vPtr && p.space == spaceCell {
				m.cells[p.index], m.defined[p.index] = vals[s.b].u, true
				continue
			}
			if w := m.word(&vals[s.a]); w != nil && !m.readOnly(vals[s.a].space) {
				*w = vals[s.b].u
				continue
			}
			if err := m.storeWord(s.a, vals[s.b].u); err != nil {
				return i, ranOn, err
			}
		case stepSelect:
			c := &vals[s.c]
			if c.kind != vScalar && c.kind != vBool {
				return i, ranOn, notScalar(s.c)
			}
			pick := s.b
			if c.u != 0 {
				pick = s.a
			}
			vals[s.res] = vals[pick]
		case stepCall:
			fn := m.p.callees[s.b]
			if !fn.straight {
				if err := m.fastCall(s, &insts[i]); err != nil {
					return i, ranOn, err
				}
				continue
			}
			// A straight callee in line: call would check the depth,
			// count its one block, then run its steps to its return, all
			// on the fast path.
			if err := m.callDepth(); err != nil {
				return i, ranOn, err
			}
			m.passArgs(fn, insts[i].Operands[3:])
			if m.blocks++; m.MaxBlocks > 0 && m.blocks > m.MaxBlocks {
				return i, ranOn, ErrStopped
			}
			b := &fn.blocks[0]
			m.enter(b)
			m.depth++
			_, _, err := m.fastRun(b.fast, b.insts)
			m.depth--
			if err != nil {
				return i, ranOn, err
			}
			vals[s.res] = m.ret
		case stepAccess:
			p, err := m.accessChain(s.a, insts[i].Operands[3:])
			if err != nil {
				return i, ranOn, err
			}
			vals[s.res] = p
		case stepBranch:
			return i + 1, int(s.a), nil
		case stepBranchCond:
			c := &vals[s.c]
			if c.kind != vScalar && c.kind != vBool {
				return i, ranOn, notScalar(s.c)
			}
			if c.u != 0 {
				return i + 1, int(s.a), nil
			}
			return i + 1, int(s.b), nil
		case stepReturn:
			m.ret = value{}
			return i + 1, ranReturn, nil
		case stepReturnValue:
			m.ret = vals[s.a]
			return i + 1, ranReturn, nil
		}
	}
	return len(steps), ranOn, nil
}

// bothScalars says whether the operands of a two-operand step are scalars.
func bothScalars(va, vb *value) bool {
	return (va.kind == vScalar || va.kind == vBool) && (vb.kind == vScalar || vb.kind == vBool)
}

// notScalars is the trap of a two-operand step whose operands are not both
// scalars: operand a's when it is not one, else b's (binary's order).
func notScalars(va *value, s *step) error {
	if va.kind != vScalar && va.kind != vBool {
		return notScalar(s.a)
	}
	return notScalar(s.b)
}

// accessWord runs a stepAccessWord (the first half of a pair too); false
// when it traps (accessTrap), having written nothing.
func accessWord(vals []value, s *step) bool {
	x := &vals[s.b]
	if x.kind != vScalar && x.kind != vBool || x.u > 1<<30 {
		return false
	}
	vals[s.res] = value{kind: vPtr, space: int32(s.a), index: int32(x.u)}
	return true
}

// accessTrap is the trap of a stepAccessWord whose index is not a scalar
// or is past 2^30.
func accessTrap(vals []value, s *step) error {
	if x := &vals[s.b]; x.kind == vScalar || x.kind == vBool {
		return &TrapError{fmt.Sprintf("buffer index %d out of range", x.u)}
	}
	return notScalar(s.b)
}

// notScalar is the trap of an operand that must be a scalar.
func notScalar(id uint32) error { return &TrapError{fmt.Sprintf("%%%d is not a scalar", id)} }

// word is the word a pointer to a storage buffer word points at, as load
// and storeWord find it; nil for every other pointer (a variable's cell
// included: the steps read and write a cell themselves, keeping track of
// whether it holds a value), a buffer word out of bounds or outside the
// invocation's trace slice (Machine.own) and a value that is no pointer
// (load and storeWord then run, and trap or stop, as the generic path).
func (m *Machine) word(p *value) *uint32 {
	if p.kind != vPtr || p.space == spaceCell {
		return nil
	}
	if p.space < 0 || p.bufPt || int(p.space) >= len(m.bufs) {
		return nil
	}
	buf := m.bufs[p.space]
	if p.index < 0 || int(p.index) >= len(buf) || m.foreign(p.space, p.index) {
		return nil
	}
	return &buf[p.index]
}

// bufferWord is word of the pointer an access word step writes (binding,
// index, as accessWord makes it: binding below 2^31, index 0 to 2^30): the
// word there, nil when it is out of bounds or outside the invocation's
// trace slice (word's nil too).
func (m *Machine) bufferWord(binding uint32, index int32) *uint32 {
	if int(binding) >= len(m.bufs) {
		return nil
	}
	buf := m.bufs[binding]
	if int(index) >= len(buf) || m.foreign(int32(binding), index) {
		return nil
	}
	return &buf[index]
}

// fastCall runs a resolved call step of a callee that is not straight
// (fastRun runs those in line) as callInst does, its callee and the bounds
// of its ids already checked; in is its instruction.
func (m *Machine) fastCall(s *step, in *spirv.Instruction) error {
	fn := m.p.callees[s.b]
	m.passArgs(fn, in.Operands[3:])
	r, err := m.call(fn, nil, false)
	if err != nil {
		return err
	}
	m.vals[s.res] = r
	return nil
}

// passArgs writes a call's arguments (ids) to fn's parameters, as callInst
// does.
func (m *Machine) passArgs(fn *function, args []uint32) {
	for i, a := range args {
		if i < len(fn.params) {
			m.vals[fn.params[i]] = m.vals[a]
		}
	}
}

// straight says whether f is one block whose every instruction is resolved
// and whose last is a return step (its only terminator, as Load ends a
// block at the first).
func straight(f *function) bool {
	if len(f.blocks) != 1 {
		return false
	}
	fast := f.blocks[0].fast
	if len(fast) == 0 || slices.ContainsFunc(fast, func(s step) bool { return s.kind == stepNone }) {
		return false
	}
	last := fast[len(fast)-1].kind
	return last == stepReturn || last == stepReturnValue
}

// chainMemo is one entry of Machine.memo: chain c's value on in (c is the
// chain's index + 1; 0 marks an empty entry).
type chainMemo struct{ c, in, out uint32 }

// memoBits is the log2 of the number of entries of Machine.memo.
const memoBits = 10

// memoSegs is the fewest segments of a chain whose values Machine.memo
// keeps: a shorter one costs less to run than to look up.
const memoSegs = 4

// chainValue is fused chain ci's value on x. A chain is a function of x
// alone (its other operands are constants), and walks that share a prefix
// run the same chains on the same values, so a long chain's value is
// looked up in Machine.memo (direct-mapped: an entry holds the last value
// computed at its slot) before it is run.
func (m *Machine) chainValue(ci, x uint32) uint32 {
	c := &m.p.chains[ci]
	if c.to-c.from < memoSegs {
		return runChain(m.p.segs[c.from:c.to], x)
	}
	if m.memo == nil {
		m.memo = make([]chainMemo, 1<<memoBits)
	}
	e := &m.memo[(x*0x9e3779b1^ci*0x85ebca77)>>(32-memoBits)]
	if e.c == ci+1 && e.in == x {
		return e.out
	}
	out := runChain(m.p.segs[c.from:c.to], x)
	*e = chainMemo{c: ci + 1, in: x, out: out}
	return out
}

// runChain computes a fused chain, folded into segments, on x.
func runChain(segs []chainSeg, x uint32) uint32 {
	for _, s := range segs {
		x = (x*s.mul + s.add) ^ s.xor
	}
	return x
}

// foldChain appends a chain's operations to segs folded into segments:
// products and sums compose into one x*mul + add (modulo 2^32, as the
// instructions compute: (x*m + a)*n = x*mn + an), an xor closes a segment.
// TestFoldChain holds runChain on the segments to the operations one by
// one.
func foldChain(segs []chainSeg, ops []chainOp) []chainSeg {
	f := newFolder()
	for _, o := range ops {
		segs = f.add(segs, o)
	}
	return f.end(segs)
}

// chainFolder is foldChain one operation at a time: the segment open.
type chainFolder struct {
	cur  chainSeg
	open bool // cur holds an operation
}

func newFolder() chainFolder { return chainFolder{cur: chainSeg{mul: 1}} }

// add folds o into the open segment, appending it to segs when o closes it.
func (f *chainFolder) add(segs []chainSeg, o chainOp) []chainSeg {
	switch o.op {
	case spirv.OpIMul:
		f.cur.mul *= o.c
		f.cur.add *= o.c
		f.open = true
	case spirv.OpIAdd:
		f.cur.add += o.c
		f.open = true
	default: // OpBitwiseXor
		f.cur.xor = o.c
		segs = append(segs, f.cur)
		*f = newFolder()
	}
	return segs
}

// end appends the open segment, if any.
func (f *chainFolder) end(segs []chainSeg) []chainSeg {
	if f.open {
		segs = append(segs, f.cur)
	}
	return segs
}

// chainable are the opcodes a fused chain may hold: integer results that
// cannot trap.
func chainable(op spirv.Op) bool {
	return op == spirv.OpIAdd || op == spirv.OpIMul || op == spirv.OpBitwiseXor
}

// idUse is what resolveChains needs to know of every id over the bodies
// of all functions: how many times it appears as an operand word (result
// positions included), and whether an instruction may write it. Load
// counts while it reads the module (newIDUse, note, param); idUses is the
// reference, counting a loaded Program's bodies again.
type idUse struct {
	count   []uint32
	written []bool
}

// newIDUse is an idUse with nothing counted, for ids up to bound.
func newIDUse(bound uint32) idUse {
	return idUse{count: make([]uint32, bound+1), written: make([]bool, bound+1)}
}

// note counts the operand words of one block instruction; it writes its
// second operand unless it is an OpStore (every instruction the
// interpreter gives a result writes ops[1]; the rest there are labels and
// literals, which only make this conservative).
func (u idUse) note(in *spirv.Instruction) {
	count := u.count
	for _, w := range in.Operands {
		if int(w) < len(count) {
			count[w]++
		}
	}
	if in.Op != spirv.OpStore && len(in.Operands) > 1 && int(in.Operands[1]) < len(u.written) {
		u.written[in.Operands[1]] = true
	}
}

// param marks a function parameter written.
func (u idUse) param(id uint32) {
	if int(id) < len(u.written) {
		u.written[id] = true
	}
}

// idUses counts the operand words of every block instruction of p's
// functions, and marks their parameters written, as Load's counting does
// (which also counts a function whose id a later one took over, never run:
// only more uses, which fuse fewer chains); TestIDUsesAgainstLoad holds
// Load's to it.
func idUses(p *Program) idUse {
	u := newIDUse(p.bound)
	for _, f := range p.funcs {
		for _, id := range f.params {
			u.param(id)
		}
		for i := range f.blocks {
			for k := range f.blocks[i].insts {
				u.note(&f.blocks[i].insts[k])
			}
		}
	}
	return u
}

// resolveChains fuses runs of a block's resolved steps that form a chain
// (and then gives the remaining two-operand steps their ownKind):
// each step an OpIAdd, OpIMul or OpBitwiseXor whose operand b is a
// constant no instruction writes, and each step after the first taking as
// operand a the previous step's result, which nothing else mentions (the
// id appears twice in all function bodies: defined, then used there). The
// convention's filler is such a chain. Only the chain's first operand can
// fail (its kind, checked as the step would), so running it in a register
// and writing only the last result observes the same as running every
// step: the results skipped are read by nothing.
func resolveChains(steps []step, p *Program, u idUse) {
	segs := p.segs // a local slice: no write barrier for each append
	for i := 0; i < len(steps); {
		if !chainLink(&steps[i], p, u) {
			steps[i].kind = ownKindOf(steps[i])
			i++
			continue
		}
		from := len(segs)
		f := newFolder()
		segs = f.add(segs, chainOp{op: steps[i].op, c: p.consts[steps[i].b].u})
		j := i + 1
		for j < len(steps) && chainLink(&steps[j], p, u) && steps[j].a == steps[j-1].res && u.count[steps[j-1].res] == 2 {
			segs = f.add(segs, chainOp{op: steps[j].op, c: p.consts[steps[j].b].u})
			j++
		}
		if j-i == 1 {
			segs = segs[:from]
			steps[i].kind = ownKindOf(steps[i])
		} else {
			segs = f.end(segs)
			p.chains = append(p.chains, chain{from: uint32(from), to: uint32(len(segs)), insts: j - i})
			steps[i] = step{kind: stepChain, res: steps[j-1].res, a: steps[i].a, b: uint32(len(p.chains) - 1)}
		}
		i = j
	}
	p.segs = segs
}

// chainLink says whether s may be a link of a fused chain: a chainable
// two-operand step whose operand b is a constant no instruction writes.
func chainLink(s *step, p *Program, u idUse) bool {
	return s.kind == stepBinary && chainable(s.op) && !u.written[s.b] && p.consts[s.b].kind == vScalar
}

// resolvePairs marks each stepAccessWord whose result the next step, a
// load or a store, takes as its pointer: fastRun runs the pair in one
// dispatch, each half as its own kind (the second is never where a run
// starts: fastRun starts at a block's start or after an unresolved step).
func resolvePairs(steps []step) {
	for i := 0; i+1 < len(steps); i++ {
		if steps[i].kind != stepAccessWord || steps[i+1].a != steps[i].res {
			continue
		}
		switch steps[i+1].kind {
		case stepLoad:
			steps[i].kind = stepAccessLoad
			i++
		case stepStore:
			steps[i].kind = stepAccessStore
			i++
		}
	}
}

// ownKindOf is a step's kind, its opcode's ownKind for a stepBinary.
func ownKindOf(s step) stepKind {
	if s.kind == stepBinary {
		return ownKind[s.op]
	}
	return s.kind
}

// fastBinary is binary with the filler's three operations (emit's filler
// is a chain of OpIMul, OpIAdd and OpBitwiseXor) evaluated in line;
// TestFastBinaryAgainstBinary holds it to binary.
func fastBinary(op spirv.Op, a, b uint32) (uint32, bool, error) {
	switch op {
	case spirv.OpIAdd:
		return a + b, false, nil
	case spirv.OpIMul:
		return a * b, false, nil
	case spirv.OpBitwiseXor:
		return a ^ b, false, nil
	}
	return binary(op, a, b)
}
