// interp_fast.go: the interpreter's fast path for two-operand integer and
// logical instructions (the bulk of what a weighted module runs: the
// convention's filler is a chain of them). Load resolves each such
// instruction whose operand count is right and whose ids are within the
// bound into a binStep, so running it skips exec's dispatch and the checks
// Load already made; the kind checks, the arithmetic (binary) and every
// error stay those of the generic path, which Machine.generic selects and
// TestFastPathAgainstGeneric holds the fast path to.
package oracle

import (
	"fmt"

	"cfgfuzz/emit/spirv"
)

// binStep is one resolved two-operand instruction: result = op(a, b).
type binStep struct {
	ok        bool
	op        spirv.Op
	res, a, b uint32
}

// binaryOps are the opcodes binary evaluates (all below 256).
var binaryOps = []spirv.Op{
	spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv, spirv.OpUMod,
	spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd,
	spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical,
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

// resolveBinary returns a block's steps: ok for each instruction of
// binaryOps with exactly result type, result and two operands, all ids at
// most bound (the value table's last index).
func resolveBinary(insts []spirv.Instruction, bound uint32) []binStep {
	steps := make([]binStep, len(insts))
	for i, in := range insts {
		ops := in.Operands
		if !isBinary(in.Op) || len(ops) != 4 || ops[1] > bound || ops[2] > bound || ops[3] > bound {
			continue
		}
		steps[i] = binStep{ok: true, op: in.Op, res: ops[1], a: ops[2], b: ops[3]}
	}
	return steps
}

// binaryRun runs the resolved steps at the start of steps, up to the first
// that is not ok, each as exec would: operand a's kind, then b's, then the
// arithmetic, then the result. It returns how many it ran (all of them,
// unless one failed).
func (m *Machine) binaryRun(steps []binStep) (int, error) {
	vals := m.vals
	for i := range steps {
		s := &steps[i]
		if !s.ok {
			return i, nil
		}
		va, vb := &vals[s.a], &vals[s.b]
		if va.kind != vScalar && va.kind != vBool {
			return i, &TrapError{fmt.Sprintf("%%%d is not a scalar", s.a)}
		}
		if vb.kind != vScalar && vb.kind != vBool {
			return i, &TrapError{fmt.Sprintf("%%%d is not a scalar", s.b)}
		}
		u, isBool, err := fastBinary(s.op, va.u, vb.u)
		if err != nil {
			return i, err
		}
		kind := vScalar
		if isBool {
			kind = vBool
		}
		vals[s.res] = value{kind: kind, u: u}
	}
	return len(steps), nil
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
