// interp_signed_test.go: the filler the module convention allows (signed
// divisions and remainders, OpSNegate, arithmetic shifts) and the copies a
// compiler emits (OpCopyObject, OpBitcast) run on the interpreter: a valid
// module using them passes exec and filler, and an instruction the
// interpreter does not know is a harness limit, never a trap.
package oracle

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestSignedArithmetic(t *testing.T) {
	neg := func(x int32) uint32 { return uint32(x) }
	for _, c := range []struct {
		op   spirv.Op
		a, b uint32
		want uint32
	}{
		{spirv.OpSDiv, neg(-7), 2, neg(-3)},
		{spirv.OpSDiv, 7, neg(-2), neg(-3)},
		{spirv.OpSRem, neg(-7), 2, neg(-1)},
		{spirv.OpSRem, 7, neg(-2), 1},
		{spirv.OpSMod, neg(-7), 2, 1},
		{spirv.OpSMod, 7, neg(-2), neg(-1)},
		{spirv.OpSMod, neg(-8), 2, 0},
		{spirv.OpShiftRightArithmetic, 0x8000_0000, 4, 0xf800_0000},
		{spirv.OpShiftRightArithmetic, 0x4000_0000, 4, 0x0400_0000},
	} {
		got, isBool, err := binary(c.op, c.a, c.b)
		if err != nil || isBool || got != c.want {
			t.Errorf("%s %#x %#x = %#x (bool %v, %v), want %#x", c.op, c.a, c.b, got, isBool, err, c.want)
		}
	}
	for _, op := range []spirv.Op{spirv.OpSDiv, spirv.OpSRem, spirv.OpSMod} {
		var trap *TrapError
		if _, _, err := binary(op, 5, 0); !errors.As(err, &trap) {
			t.Errorf("%s by zero: %v, want a trap", op, err)
		}
		if _, _, err := binary(op, uint32(math.MaxInt32)+1, neg(-1)); !errors.As(err, &trap) {
			t.Errorf("%s of the most negative value by -1: %v, want a trap", op, err)
		}
	}
}

// signedFiller rewrites every filler operation of m on a constant into
// one that computes the same value through the instructions under test:
// x + k as x - (-k) (OpSNegate), x ^ k as (x >> 0 arithmetic) ^ k, x * k
// as (x * k) / 1 signed, and the sink's loads through OpCopyObject and
// OpBitcast.
func signedFiller(t *testing.T, m *spirv.Module) {
	t.Helper()
	uintT, zero, one := uint32(0), uint32(0), uint32(0)
	consts := map[uint32]uint32{}
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0:
			uintT = in.Operands[0]
		case in.Op == spirv.OpConstant && len(in.Operands) == 3:
			consts[in.Operands[1]] = in.Operands[2]
		}
	}
	for id, v := range consts {
		if v == 0 && zero == 0 {
			zero = id
		}
		if v == 1 && one == 0 {
			one = id
		}
	}
	sinks := fillerSinks(m)
	if uintT == 0 || zero == 0 || one == 0 || len(sinks) != 1 {
		t.Fatal("module without a uint type, constants 0 and 1 or one sink")
	}
	next := func() uint32 { m.Bound++; return m.Bound - 1 }
	var out []spirv.Instruction
	for _, in := range m.Insts {
		ops := in.Operands
		_, kConst := consts[ops3(ops)]
		switch {
		case in.Op == spirv.OpLoad && len(ops) == 3 && ops[2] == sinks[0]:
			a, b := next(), next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpLoad, Operands: []uint32{uintT, a, ops[2]}},
				spirv.Instruction{Op: spirv.OpCopyObject, Operands: []uint32{uintT, b, a}},
				spirv.Instruction{Op: spirv.OpBitcast, Operands: []uint32{uintT, ops[1], b}})
		case len(ops) != 4 || ops[0] != uintT || !kConst:
			out = append(out, in)
		case in.Op == spirv.OpIAdd:
			n := next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpSNegate, Operands: []uint32{uintT, n, ops[3]}},
				spirv.Instruction{Op: spirv.OpISub, Operands: []uint32{uintT, ops[1], ops[2], n}})
		case in.Op == spirv.OpBitwiseXor:
			n := next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpShiftRightArithmetic, Operands: []uint32{uintT, n, ops[2], zero}},
				spirv.Instruction{Op: spirv.OpBitwiseXor, Operands: []uint32{uintT, ops[1], n, ops[3]}})
		case in.Op == spirv.OpIMul:
			n := next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpIMul, Operands: []uint32{uintT, n, ops[2], ops[3]}},
				spirv.Instruction{Op: spirv.OpSDiv, Operands: []uint32{uintT, ops[1], n, one}})
		default:
			out = append(out, in)
		}
	}
	m.Insts = out
}

func ops3(ops []uint32) uint32 {
	if len(ops) < 4 {
		return 0
	}
	return ops[3]
}

func TestSignedFillerRuns(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {4, 1}, {}})
	for b := range g.Weights {
		g.Weights[b] = 20 + 15*b
	}
	m := dispatchModule(t, g)
	signedFiller(t, m)
	used := map[spirv.Op]bool{}
	for _, in := range m.Insts {
		used[in.Op] = true
	}
	for _, op := range []spirv.Op{spirv.OpSNegate, spirv.OpSDiv, spirv.OpShiftRightArithmetic, spirv.OpCopyObject, spirv.OpBitcast} {
		if !used[op] {
			t.Fatalf("the rewritten module has no %s", op)
		}
	}
	o, err := New(Options{Checks: []string{"spirv-val", "exec", "filler"}, Walks: WalkOptions{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range o.Check(&Subject{Graph: g, Module: m.Bytes()}) {
		if v.Status != Pass {
			t.Errorf("%s: %s %s %s", v.Check, v.Status, v.Signature, v.Detail)
		}
	}
}

// TestUnknownInstructionIsNoTrap: an instruction the interpreter does not
// implement (OpBitReverse, three operands) is an UnsupportedError, which
// exec reports as a harness error, not a finding.
func TestUnknownInstructionIsNoTrap(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {}, {}})
	m := dispatchModule(t, g)
	const opBitReverse spirv.Op = 204
	uintT := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0 {
			uintT = in.Operands[0]
		}
	}
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunctionCall && len(in.Operands) == 4 {
			in2 := spirv.Instruction{Op: opBitReverse, Operands: []uint32{uintT, m.Bound, in.Operands[3]}}
			m.Bound++
			m.Insts = slices.Insert(m.Insts, i+1, in2)
			break
		}
	}
	r := execVerdict(g, m.Bytes())
	var unsupported *UnsupportedError
	if r.Signature != "" || !errors.As(r.Harness, &unsupported) {
		t.Fatalf("signature %q, harness %v: want a harness error naming the instruction", r.Signature, r.Harness)
	}
}
