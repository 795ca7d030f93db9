// interp_ops_test.go: the interpreter's two-operand instructions, each
// against its definition in the SPIR-V specification (3.49.13-14: integer
// arithmetic wraps modulo 2^32, shifts by Shift mod 32 as the interpreter
// documents, signed compares read the words as two's complement), with
// operands at the edges of the word; and a fused chain's folded segments
// against its operations one by one, its memoized value against its run.
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestBinaryOps(t *testing.T) {
	const neg1, min32 = 0xffffffff, 0x80000000
	for _, c := range []struct {
		op     spirv.Op
		a, b   uint32
		want   uint32
		isBool bool
	}{
		{spirv.OpIAdd, neg1, 2, 1, false},
		{spirv.OpISub, 1, 2, neg1, false},
		{spirv.OpIMul, min32, 2, 0, false},
		{spirv.OpUDiv, 7, 2, 3, false},
		{spirv.OpUMod, 7, 2, 1, false},
		{spirv.OpBitwiseOr, 0b1010, 0b0110, 0b1110, false},
		{spirv.OpBitwiseXor, 0b1010, 0b0110, 0b1100, false},
		{spirv.OpBitwiseAnd, 0b1010, 0b0110, 0b0010, false},
		{spirv.OpShiftLeftLogical, 1, 33, 2, false},
		{spirv.OpShiftRightLogical, min32, 31, 1, false},
		{spirv.OpIEqual, 5, 5, 1, true},
		{spirv.OpINotEqual, 5, 5, 0, true},
		{spirv.OpULessThan, 1, neg1, 1, true},
		{spirv.OpULessThanEqual, neg1, neg1, 1, true},
		{spirv.OpUGreaterThan, 1, neg1, 0, true},
		{spirv.OpUGreaterThanEqual, 0, 1, 0, true},
		{spirv.OpSLessThan, neg1, 1, 1, true}, // -1 < 1
		{spirv.OpSLessThanEqual, min32, neg1, 1, true},
		{spirv.OpSGreaterThan, 1, neg1, 1, true},
		{spirv.OpSGreaterThanEqual, min32, 0, 0, true},
		{spirv.OpLogicalAnd, 1, 0, 0, true},
		{spirv.OpLogicalOr, 1, 0, 1, true},
		{spirv.OpLogicalEqual, 0, 0, 1, true},
		{spirv.OpLogicalNotEqual, 1, 0, 1, true},
	} {
		got, isBool, err := binary(c.op, c.a, c.b)
		if err != nil || got != c.want || isBool != c.isBool {
			t.Errorf("%s %#x %#x = %#x bool %v err %v, want %#x bool %v", c.op, c.a, c.b, got, isBool, err, c.want, c.isBool)
		}
	}
	for _, op := range []spirv.Op{spirv.OpUDiv, spirv.OpUMod} {
		if _, _, err := binary(op, 1, 0); err == nil {
			t.Errorf("%s by zero: no trap", op)
		}
	}
	if _, _, err := binary(spirv.OpNop, 1, 2); err == nil {
		t.Error("OpNop as a binary op: no error")
	}
}

// TestFastBinaryAgainstBinary: the fast path's arithmetic equals binary's
// for every opcode binary knows and one it does not, on edge words; and
// isBinary names exactly the opcodes binary supports (below 1024).
func TestFastBinaryAgainstBinary(t *testing.T) {
	words := []uint32{0, 1, 2, 31, 32, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678}
	for _, op := range append([]spirv.Op{spirv.OpNop}, binaryOps...) {
		for _, a := range words {
			for _, b := range words {
				u1, b1, e1 := fastBinary(op, a, b)
				u2, b2, e2 := binary(op, a, b)
				if u1 != u2 || b1 != b2 || (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
					t.Fatalf("%s %#x %#x: fast %#x %v %v, binary %#x %v %v", op, a, b, u1, b1, e1, u2, b2, e2)
				}
			}
		}
	}
	for op := spirv.Op(0); op < 1024; op++ {
		_, _, err := binary(op, 1, 1)
		_, unsupported := err.(*UnsupportedError)
		if isBinary(op) == unsupported {
			t.Errorf("%s: isBinary %v, binary supports it: %v", op, isBinary(op), !unsupported)
		}
	}
}

// TestFoldChain: runChain on foldChain's segments equals binary applied
// operation by operation, on random chains of OpIMul, OpIAdd and
// OpBitwiseXor (runs of each, the filler's order, an xor first or last)
// and random inputs.
func TestFoldChain(t *testing.T) {
	r := seededRand(t, 41)
	ops := []spirv.Op{spirv.OpIMul, spirv.OpIAdd, spirv.OpBitwiseXor}
	words := []uint32{0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff}
	for range 2000 {
		chain := make([]chainOp, 1+r.IntN(40))
		for i := range chain {
			c := words[r.IntN(len(words))]
			if r.IntN(2) == 0 {
				c = r.Uint32()
			}
			chain[i] = chainOp{op: ops[r.IntN(len(ops))], c: c}
		}
		segs := foldChain(nil, chain)
		for range 8 {
			x := r.Uint32()
			want := x
			for _, o := range chain {
				want, _, _ = binary(o.op, want, o.c)
			}
			if got := runChain(segs, x); got != want {
				t.Fatalf("chain %v on %#x: folded %#x, one by one %#x", chain, x, got, want)
			}
		}
	}
}

// TestChainMemo: chainValue, with its memo, equals runChain on random
// chains of every length and inputs that repeat (hits) and collide (the
// table is far smaller than the pairs drawn).
func TestChainMemo(t *testing.T) {
	r := seededRand(t, 53)
	ops := []spirv.Op{spirv.OpIMul, spirv.OpIAdd, spirv.OpBitwiseXor}
	p := &Program{}
	for range 40 {
		chainOps := make([]chainOp, 1+r.IntN(60))
		for i := range chainOps {
			chainOps[i] = chainOp{op: ops[r.IntN(len(ops))], c: r.Uint32()}
		}
		from := len(p.segs)
		p.segs = foldChain(p.segs, chainOps)
		p.chains = append(p.chains, chain{from: uint32(from), to: uint32(len(p.segs)), insts: len(chainOps)})
	}
	m := &Machine{p: p}
	inputs := make([]uint32, 3000)
	for i := range inputs {
		inputs[i] = r.Uint32()
	}
	for range 50000 {
		ci, x := uint32(r.IntN(len(p.chains))), inputs[r.IntN(len(inputs))]
		c := p.chains[ci]
		if got, want := m.chainValue(ci, x), runChain(p.segs[c.from:c.to], x); got != want {
			t.Fatalf("chain %d on %#x: %#x, runChain %#x", ci, x, got, want)
		}
	}
}
