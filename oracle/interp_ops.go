// interp_ops.go: the interpreter's non-control instructions: memory through
// logical pointers (storage buffers of one runtime-array member, Private and
// Function variables, the invocation id), integer and logical arithmetic,
// OpSelect and calls. Buffer accesses are bounds-checked: an access out of
// bounds is a TrapError, as a robust driver would not promise anything.

package oracle

import (
	"fmt"
	"math"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

const (
	spaceCell    = -1 // Private or Function variable
	spaceBuiltin = -2 // the GlobalInvocationId vector
	spaceBuiltX  = -3 // one component of it
	// spaceLocalIndex is LocalInvocationIndex: 0, the one invocation of a
	// LocalSize 1 workgroup.
	spaceLocalIndex = -4
	// spaceArray is a whole Function or Private array of words: cells
	// index to index+u-1. Only an access chain reads through it.
	spaceArray = -5
)

// maxArrayWords bounds an array variable the interpreter runs.
const maxArrayWords = 1 << 16

// arrayWhat words an array variable the interpreter does not run: empty,
// past maxArrayWords, or initialized.
func arrayWhat(storage string, n uint32, initialized bool) string {
	what := fmt.Sprintf("a %s array variable of %d words", storage, n)
	if initialized {
		what += " with an initializer"
	}
	return what
}

// operandAt is ops[i], 0 when there is none.
func operandAt(ops []uint32, i int) uint32 {
	if i < len(ops) {
		return ops[i]
	}
	return 0
}

func (m *Machine) set(id uint32, v value) error {
	if int(id) >= len(m.vals) {
		return &TrapError{fmt.Sprintf("result id %%%d out of bound", id)}
	}
	m.vals[id] = v
	return nil
}

func scalarV(u uint32) value { return value{kind: vScalar, u: u} }
func boolV(b bool) value     { return value{kind: vBool, u: b2u(b)} }

// need is the trap for an instruction with fewer than n operands.
func need(in *spirv.Instruction, n int) error {
	if len(in.Operands) < n {
		return &TrapError{fmt.Sprintf("%s has %d operands, needs %d", in.Op, len(in.Operands), n)}
	}
	return nil
}

// exec runs one instruction of a block's body, not its terminator, on
// the generic path (fastRun runs resolved steps as this does): too few
// operands is a trap, an instruction outside the subset a harness limit.
func (m *Machine) exec(in *spirv.Instruction) error {
	ops := in.Operands
	switch in.Op {
	case spirv.OpNop, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpLine, spirv.OpNoLine, spirv.OpName:
		return nil
	case spirv.OpUndef:
		if err := need(in, 2); err != nil {
			return err
		}
		return m.set(ops[1], scalarV(0))
	case spirv.OpVariable:
		if err := need(in, 3); err != nil {
			return err
		}
		return m.variable(ops)
	case spirv.OpLoad:
		if err := need(in, 3); err != nil {
			return err
		}
		v, err := m.load(ops[2])
		if err != nil {
			return err
		}
		return m.set(ops[1], v)
	case spirv.OpStore:
		if err := need(in, 2); err != nil {
			return err
		}
		return m.store(ops[0], ops[1])
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		if err := need(in, 3); err != nil {
			return err
		}
		p, err := m.accessChain(ops[2], ops[3:])
		if err != nil {
			return err
		}
		return m.set(ops[1], p)
	case spirv.OpCompositeExtract:
		if err := need(in, 4); err != nil {
			return err
		}
		return m.compositeExtract(ops)
	case spirv.OpSelect:
		if err := need(in, 5); err != nil {
			return err
		}
		return m.selectInst(ops)
	case spirv.OpFunctionCall:
		return m.callInst(ops)
	case spirv.OpAtomicIAdd:
		if err := need(in, 6); err != nil {
			return err
		}
		return m.atomicIAdd(ops)
	case spirv.OpCopyObject:
		if err := need(in, 3); err != nil {
			return err
		}
		v, err := m.ref(ops[2])
		if err != nil {
			return err
		}
		return m.set(ops[1], *v)
	case spirv.OpLogicalNot, spirv.OpNot, spirv.OpSNegate, spirv.OpBitcast:
		if err := need(in, 3); err != nil {
			return err
		}
		return m.unary(in.Op, ops)
	}
	if !isBinary(in.Op) {
		// Unknown to the interpreter whatever its operands: a harness
		// limit, not a module that traps.
		return &UnsupportedError{Op: in.Op}
	}
	if err := need(in, 4); err != nil {
		return err
	}
	return m.binaryInst(in.Op, ops)
}

// variable makes a function-scope variable (ops: type, id, storage class,
// initializer): an array of words its run of cells, undefined, any other
// variable one cell, defined where it has an initializer.
func (m *Machine) variable(ops []uint32) error {
	if n, ok := m.p.arrayLen[ops[0]]; ok {
		if n == 0 || n > maxArrayWords || len(ops) >= 4 {
			return &UnsupportedError{What: arrayWhat("Function", n, len(ops) >= 4)}
		}
		idx := len(m.cells)
		for range n {
			m.cells = append(m.cells, 0)
			m.defined = append(m.defined, false)
		}
		return m.set(ops[1], value{kind: vPtr, space: spaceArray, index: int32(idx), u: n})
	}
	m.cells = append(m.cells, 0)
	m.defined = append(m.defined, len(ops) >= 4)
	idx := len(m.cells) - 1
	if len(ops) >= 4 {
		v, err := m.scalar(ops[3])
		if err != nil {
			return err
		}
		m.cells[idx] = v
	}
	return m.set(ops[1], value{kind: vPtr, space: spaceCell, index: int32(idx)})
}

// compositeExtract reads component ops[3] of the invocation id vector
// ops[2] (its y and z are 0).
func (m *Machine) compositeExtract(ops []uint32) error {
	v, err := m.ref(ops[2])
	if err != nil {
		return err
	}
	if v.kind != vVec || ops[3] > 2 {
		// A valid module extracts from a composite: one the interpreter
		// holds as a word (a null vector's load, say) is its limit.
		return &UnsupportedError{What: "OpCompositeExtract of a composite other than the invocation id"}
	}
	x := uint32(0)
	if ops[3] == 0 {
		x = v.u
	}
	return m.set(ops[1], scalarV(x))
}

// selectInst runs OpSelect: ops[3] where the condition ops[2] holds,
// else ops[4].
func (m *Machine) selectInst(ops []uint32) error {
	c, err := m.scalar(ops[2])
	if err != nil {
		return err
	}
	pick := ops[4]
	if c != 0 {
		pick = ops[3]
	}
	v, err := m.ref(pick)
	if err != nil {
		return err
	}
	return m.set(ops[1], *v)
}

// atomicIAdd adds ops[5] to the word ops[2] points to, the result the
// word before (one invocation at a time: no other runs between).
func (m *Machine) atomicIAdd(ops []uint32) error {
	old, err := m.load(ops[2])
	if err != nil {
		return err
	}
	add, err := m.scalar(ops[5])
	if err != nil {
		return err
	}
	if err := m.storeValue(ops[2], scalarV(old.u+add)); err != nil {
		return err
	}
	return m.set(ops[1], old)
}

// unary runs the one-operand instructions: OpNot, OpSNegate, OpBitcast
// (between 32-bit integer types: the same word) and OpLogicalNot.
func (m *Machine) unary(op spirv.Op, ops []uint32) error {
	a, err := m.scalar(ops[2])
	if err != nil {
		return err
	}
	switch op {
	case spirv.OpNot:
		return m.set(ops[1], scalarV(^a))
	case spirv.OpSNegate:
		return m.set(ops[1], scalarV(-a))
	case spirv.OpBitcast:
		return m.set(ops[1], scalarV(a))
	}
	return m.set(ops[1], boolV(a == 0))
}

// binaryInst runs a two-operand instruction (binary) on ops[2] and
// ops[3].
func (m *Machine) binaryInst(op spirv.Op, ops []uint32) error {
	a, err := m.scalar(ops[2])
	if err != nil {
		return err
	}
	b, err := m.scalar(ops[3])
	if err != nil {
		return err
	}
	u, isBool, err := binary(op, a, b)
	if err != nil {
		return err
	}
	if isBool {
		return m.set(ops[1], value{kind: vBool, u: u})
	}
	return m.set(ops[1], value{kind: vScalar, u: u})
}

// binary evaluates the two-operand integer and logical instructions: the
// result word, and whether it is a bool.
func binary(op spirv.Op, a, b uint32) (u uint32, isBool bool, err error) {
	switch op {
	case spirv.OpIAdd:
		return a + b, false, nil
	case spirv.OpISub:
		return a - b, false, nil
	case spirv.OpIMul:
		return a * b, false, nil
	case spirv.OpUDiv:
		return divide(a, b, false)
	case spirv.OpUMod:
		return divide(a, b, true)
	case spirv.OpSDiv, spirv.OpSRem, spirv.OpSMod:
		return divideSigned(op, int32(a), int32(b))
	case spirv.OpBitwiseOr:
		return a | b, false, nil
	case spirv.OpBitwiseXor:
		return a ^ b, false, nil
	case spirv.OpBitwiseAnd:
		return a & b, false, nil
	case spirv.OpShiftLeftLogical:
		return a << (b & 31), false, nil
	case spirv.OpShiftRightLogical:
		return a >> (b & 31), false, nil
	case spirv.OpShiftRightArithmetic:
		return uint32(int32(a) >> (b & 31)), false, nil
	case spirv.OpIEqual:
		return b2u(a == b), true, nil
	case spirv.OpINotEqual:
		return b2u(a != b), true, nil
	case spirv.OpULessThan:
		return b2u(a < b), true, nil
	case spirv.OpULessThanEqual:
		return b2u(a <= b), true, nil
	case spirv.OpUGreaterThan:
		return b2u(a > b), true, nil
	case spirv.OpUGreaterThanEqual:
		return b2u(a >= b), true, nil
	case spirv.OpSLessThan:
		return b2u(int32(a) < int32(b)), true, nil
	case spirv.OpSLessThanEqual:
		return b2u(int32(a) <= int32(b)), true, nil
	case spirv.OpSGreaterThan:
		return b2u(int32(a) > int32(b)), true, nil
	case spirv.OpSGreaterThanEqual:
		return b2u(int32(a) >= int32(b)), true, nil
	case spirv.OpLogicalAnd:
		return b2u(a != 0 && b != 0), true, nil
	case spirv.OpLogicalOr:
		return b2u(a != 0 || b != 0), true, nil
	case spirv.OpLogicalEqual:
		return b2u((a != 0) == (b != 0)), true, nil
	case spirv.OpLogicalNotEqual:
		return b2u((a != 0) != (b != 0)), true, nil
	}
	return 0, false, &UnsupportedError{Op: op}
}

// divideSigned is OpSDiv, OpSRem (the sign of a) and OpSMod (the sign of
// b); a zero divisor, and the most negative value divided by -1, are
// undefined in SPIR-V: traps.
func divideSigned(op spirv.Op, a, b int32) (uint32, bool, error) {
	if b == 0 {
		return 0, false, &TrapError{"integer division by zero"}
	}
	if b == -1 && a == math.MinInt32 {
		return 0, false, &TrapError{"signed division overflow"}
	}
	switch op {
	case spirv.OpSDiv:
		return uint32(a / b), false, nil
	case spirv.OpSRem:
		return uint32(a % b), false, nil
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return uint32(r), false, nil
}

func divide(a, b uint32, mod bool) (uint32, bool, error) {
	if b == 0 {
		return 0, false, &TrapError{"integer division by zero"}
	}
	if mod {
		return a % b, false, nil
	}
	return a / b, false, nil
}

func (m *Machine) callInst(ops []uint32) error {
	if len(ops) < 3 {
		return &TrapError{"OpFunctionCall without a function"}
	}
	f := m.p.funcs[ops[2]]
	if f == nil {
		return &TrapError{fmt.Sprintf("call of %%%d, not a function", ops[2])}
	}
	// Arguments go straight into the parameters' slots: result ids are
	// unique and SPIR-V has no recursion, so no argument is a parameter
	// of the callee.
	for i, a := range ops[3:] {
		v, err := m.ref(a)
		if err != nil {
			return err
		}
		if i < len(f.params) {
			m.vals[f.params[i]] = *v
		}
	}
	r, err := m.call(f, nil, false)
	if err != nil {
		return err
	}
	return m.set(ops[1], r)
}

func (m *Machine) pointer(id uint32) (*value, error) {
	if int(id) >= len(m.vals) {
		return nil, &TrapError{fmt.Sprintf("id %%%d out of bound", id)}
	}
	p := &m.vals[id]
	if p.kind != vPtr {
		return nil, &TrapError{fmt.Sprintf("%%%d is not a pointer", id)}
	}
	return p, nil
}

func (m *Machine) load(id uint32) (value, error) {
	p, err := m.pointer(id)
	if err != nil {
		return value{}, err
	}
	switch {
	case p.space == spaceCell:
		if !m.defined[p.index] {
			return value{}, undefinedLoad()
		}
		return scalarV(m.cells[p.index]), nil
	case p.space == spaceBuiltin:
		return value{kind: vVec, u: m.gid}, nil
	case p.space == spaceLocalIndex:
		return scalarV(0), nil
	case p.space == spaceBuiltX:
		if p.index == 0 {
			return scalarV(m.gid), nil
		}
		return scalarV(0), nil
	case p.bufPt:
		return value{}, &UnsupportedError{Op: spirv.OpLoad}
	case p.space == spaceArray:
		return value{}, &UnsupportedError{What: "a load of a whole array"}
	}
	buf := m.buffer(p.space)
	if p.index < 0 || int(p.index) >= len(buf) {
		return value{}, &TrapError{fmt.Sprintf("load out of bounds: binding %d word %d of %d", p.space, p.index, len(buf))}
	}
	if m.foreign(p.space, p.index) {
		return value{}, m.foreignError(p.index, false)
	}
	return scalarV(buf[p.index]), nil
}

func (m *Machine) store(ptrID, valID uint32) error {
	v, err := m.ref(valID)
	if err != nil {
		return err
	}
	return m.storeWord(ptrID, v.u)
}

func (m *Machine) storeValue(ptrID uint32, v value) error { return m.storeWord(ptrID, v.u) }

// storeWord stores one word through a pointer: every store the convention
// makes is of a 32-bit scalar.
func (m *Machine) storeWord(ptrID uint32, u uint32) error {
	p, err := m.pointer(ptrID)
	if err != nil {
		return err
	}
	switch {
	case p.space == spaceCell:
		m.cells[p.index], m.defined[p.index] = u, true
		return nil
	case p.space == spaceArray:
		return &UnsupportedError{What: "a store of a whole array"}
	case p.space < 0 || p.bufPt:
		return &TrapError{"store through a read-only or aggregate pointer"}
	}
	buf := m.buffer(p.space)
	if p.index < 0 || int(p.index) >= len(buf) {
		return &TrapError{fmt.Sprintf("store out of bounds: binding %d word %d of %d", p.space, p.index, len(buf))}
	}
	if m.foreign(p.space, p.index) {
		return m.foreignError(p.index, true)
	}
	if m.readOnly(p.space) {
		return m.decisionsStoreError(p.index)
	}
	buf[p.index] = u
	return nil
}

// buffer is the buffer at a binding (nil when none is bound).
func (m *Machine) buffer(binding int32) []uint32 {
	if binding < 0 || int(binding) >= len(m.bufs) {
		return nil
	}
	return m.bufs[binding]
}

// accessChain supports a buffer struct whose member 0 is a runtime array of
// words, an element of a Function or Private array of words, and one
// component of the invocation id.
func (m *Machine) accessChain(base uint32, idx []uint32) (value, error) {
	p, err := m.pointer(base)
	if err != nil {
		return value{}, err
	}
	var small [2]uint32
	vals := small[:0]
	if len(idx) > len(small) {
		vals = make([]uint32, 0, len(idx))
	}
	vals = vals[:len(idx)]
	for i, id := range idx {
		if vals[i], err = m.scalar(id); err != nil {
			return value{}, err
		}
	}
	switch {
	case p.space == spaceArray && len(vals) == 1:
		if vals[0] >= p.u {
			return value{}, &TrapError{fmt.Sprintf("array index %d out of bounds of %d words", vals[0], p.u)}
		}
		return value{kind: vPtr, space: spaceCell, index: p.index + int32(vals[0])}, nil
	case p.space == spaceBuiltin && len(vals) == 1:
		return value{kind: vPtr, space: spaceBuiltX, index: int32(vals[0])}, nil
	case p.bufPt && len(vals) == 2 && vals[0] == 0:
		if vals[1] > 1<<30 {
			return value{}, &TrapError{fmt.Sprintf("buffer index %d out of range", vals[1])}
		}
		return value{kind: vPtr, space: p.space, index: int32(vals[1])}, nil
	}
	return value{}, &UnsupportedError{Op: spirv.OpAccessChain}
}
