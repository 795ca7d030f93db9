// sinks_shift_test.go: which shifts may give a driver's bits, not the
// interpreter's.
package gpu

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestShiftsPastWidth(t *testing.T) {
	const uint, amount, base = 1, 2, 3
	konst := func(id, v uint32) spirv.Instruction {
		return spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{uint, id, v}}
	}
	shift := func(op spirv.Op, by uint32) spirv.Instruction {
		return spirv.Instruction{Op: op, Operands: []uint32{uint, 9, base, by}}
	}
	for _, c := range []struct {
		name  string
		insts []spirv.Instruction
		want  bool
	}{
		{"no shift", []spirv.Instruction{konst(amount, 40)}, false},
		{"by a constant below 32", []spirv.Instruction{konst(amount, 31), shift(spirv.OpShiftLeftLogical, amount)}, false},
		{"by the constant 32", []spirv.Instruction{konst(amount, 32), shift(spirv.OpShiftRightLogical, amount)}, true},
		{"by a computed amount", []spirv.Instruction{konst(amount, 3), shift(spirv.OpShiftRightArithmetic, 7)}, true},
		{"by a 64-bit constant", []spirv.Instruction{{Op: spirv.OpConstant, Operands: []uint32{uint, amount, 3, 0}}, shift(spirv.OpShiftLeftLogical, amount)}, true},
	} {
		got := shiftsPastWidth(&spirv.Module{Insts: c.insts})
		if (len(got) > 0) != c.want || (c.want && got[0] != 9) {
			t.Errorf("%s: shiftsPastWidth = %v, want the shift's result %%9 listed: %t", c.name, got, c.want)
		}
	}
}
