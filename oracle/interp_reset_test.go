// interp_reset_test.go: the reset between walks puts back a parameter
// that no instruction of its function names in its first two operands
// (the restore of the entered blocks' ids alone would leave the last
// walk's argument there).
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// hideParam rewrites m's first function of one parameter P: each OpStore
// of P stores a new OpIAdd of 0 and P instead (P now only a third
// operand), and the entry point, right after it reads the invocation id,
// adds 0 to P when that id is not 0, before any call of the walk writes
// P. It returns P.
func hideParam(t *testing.T, m *spirv.Module) uint32 {
	t.Helper()
	var param, uintT, boolT, zero uint32
	next := func() uint32 { m.Bound++; return m.Bound - 1 }
	var out []spirv.Instruction
	read := false
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0 && uintT == 0:
			uintT = in.Operands[0]
		case in.Op == spirv.OpTypeBool:
			boolT = in.Operands[0]
		case in.Op == spirv.OpConstant && in.Operands[0] == uintT && in.Operands[2] == 0 && zero == 0:
			zero = in.Operands[1]
		case in.Op == spirv.OpFunctionParameter && param == 0:
			param = in.Operands[1]
		case in.Op == spirv.OpStore && param != 0 && in.Operands[1] == param:
			id := next()
			out = append(out, spirv.Instruction{Op: spirv.OpIAdd, Operands: []uint32{uintT, id, zero, param}})
			in.Operands = []uint32{in.Operands[0], id}
		}
		out = append(out, in)
		if in.Op == spirv.OpCompositeExtract && !read && param != 0 {
			first, pick := next(), next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpIEqual, Operands: []uint32{boolT, first, in.Operands[1], zero}},
				spirv.Instruction{Op: spirv.OpSelect, Operands: []uint32{uintT, pick, first, zero, param}},
				spirv.Instruction{Op: spirv.OpIAdd, Operands: []uint32{uintT, next(), pick, zero}})
			read = true
		}
	}
	if param == 0 || zero == 0 || boolT == 0 || !read {
		t.Fatal("module without the parameter, the constant 0, the bool type or the invocation id")
	}
	m.Insts = out
	return param
}

func TestResetRestoresParameters(t *testing.T) {
	g, m := diamondModule(t)
	p := hideParam(t, m)
	walks := Walks(g, WalkOptions{Seed: 1})
	if len(walks) < 2 {
		t.Fatal("fewer than two walks")
	}
	// Every walk but the first reads %p before its own call writes it:
	// each must trap, whatever the walk before it passed.
	sameOnBothPaths(t, "parameter read before its call", m, walks)
	decs := make([][]uint32, len(walks))
	for i, w := range walks {
		decs[i] = w.Decisions
	}
	obs, err := Interpreter{}.executeDecoded(m, spirv.NewBatch(decs, 64), len(walks))
	if err == nil {
		t.Fatalf("reading %%%d before any call did not trap", p)
	}
	if len(obs[0].IDs) == 0 {
		t.Fatalf("the first walk, which does not read %%%d, recorded nothing: %v", p, err)
	}
	for i, o := range obs[1:] {
		if len(o.IDs) != 0 {
			t.Fatalf("walk %d ran on the last walk's %%%d: %+v", i+1, p, o)
		}
	}
}
