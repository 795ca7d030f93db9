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
	// chain, when not nil, fuses this step and the len(chain)-1 after it:
	// a filler chain (see resolveChains), computed in a register from a,
	// only the last result (chainRes) written.
	chain    []chainOp
	chainRes uint32
}

// chainOp is one operation of a fused chain: x = op(x, c), c a constant's
// value resolved at Load.
type chainOp struct {
	op spirv.Op
	c  uint32
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
	for i := 0; i < len(steps); i++ {
		s := &steps[i]
		if !s.ok {
			return i, nil
		}
		if s.chain != nil {
			va := &vals[s.a]
			if va.kind != vScalar && va.kind != vBool {
				return i, &TrapError{fmt.Sprintf("%%%d is not a scalar", s.a)}
			}
			vals[s.chainRes] = value{kind: vScalar, u: runChain(s.chain, va.u)}
			i += len(s.chain) - 1
			continue
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

// runChain computes a fused chain on x.
func runChain(chain []chainOp, x uint32) uint32 {
	for _, c := range chain {
		switch c.op {
		case spirv.OpIAdd:
			x += c.c
		case spirv.OpIMul:
			x *= c.c
		default: // OpBitwiseXor
			x ^= c.c
		}
	}
	return x
}

// chainable are the opcodes a fused chain may hold: integer results that
// cannot trap.
func chainable(op spirv.Op) bool {
	return op == spirv.OpIAdd || op == spirv.OpIMul || op == spirv.OpBitwiseXor
}

// idUse is what resolveChains needs to know of every id over the bodies
// of all functions: how many times it appears as an operand word (result
// positions included, saturating), and whether an instruction may write it.
type idUse struct {
	count   []uint8
	written []bool
}

// idUses counts the operand words of every block instruction; an id is
// written when it is the second operand of any instruction but OpStore
// (every instruction the interpreter gives a result writes ops[1]; the
// rest there are labels and literals, which only make this conservative),
// or a function parameter.
func idUses(p *Program) idUse {
	u := idUse{count: make([]uint8, p.bound+1), written: make([]bool, p.bound+1)}
	for _, f := range p.funcs {
		for _, id := range f.params {
			if id <= p.bound {
				u.written[id] = true
			}
		}
		for i := range f.blocks {
			for _, in := range f.blocks[i].insts {
				for _, w := range in.Operands {
					if w <= p.bound && u.count[w] < 255 {
						u.count[w]++
					}
				}
				if in.Op != spirv.OpStore && len(in.Operands) > 1 && in.Operands[1] <= p.bound {
					u.written[in.Operands[1]] = true
				}
			}
		}
	}
	return u
}

// resolveChains fuses runs of a block's resolved steps that form a chain:
// each step an OpIAdd, OpIMul or OpBitwiseXor whose operand b is a
// constant no instruction writes, and each step after the first taking as
// operand a the previous step's result, which nothing else mentions (the
// id appears twice in all function bodies: defined, then used there). The
// convention's filler is such a chain. Only the chain's first operand can
// fail (its kind, checked as the step would), so running it in a register
// and writing only the last result observes the same as running every
// step: the results skipped are read by nothing.
func resolveChains(steps []binStep, p *Program, u idUse) {
	link := func(s *binStep) bool {
		return s.ok && chainable(s.op) && !u.written[s.b] && p.consts[s.b].kind == vScalar
	}
	for i := 0; i < len(steps); {
		if !link(&steps[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(steps) && link(&steps[j]) && steps[j].a == steps[j-1].res && u.count[steps[j-1].res] == 2 {
			j++
		}
		if j-i >= 2 {
			chain := make([]chainOp, j-i)
			for k := i; k < j; k++ {
				chain[k-i] = chainOp{op: steps[k].op, c: p.consts[steps[k].b].u}
			}
			steps[i].chain, steps[i].chainRes = chain, steps[j-1].res
		}
		i = j
	}
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
