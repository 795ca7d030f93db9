// Package appendedit rewrites how an emitted module appends its blocks'
// ids (emit/CONVENTION.md, "Blocks"), for tests and test structurizers
// that need a module the checks read another way: the append helper
// inlined into every block that calls it, or called with a computed id.
// It edits emit's own layout and nothing else: the append helper is the
// function of exactly one parameter.
package appendedit

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// Func is the id of m's append helper, the function whose only parameter
// is the id (emit's other helper has none); 0 when m has none.
func Func(m *spirv.Module) uint32 {
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction && i+2 < len(m.Insts) && m.Insts[i+1].Op == spirv.OpFunctionParameter && m.Insts[i+2].Op != spirv.OpFunctionParameter {
			return in.Operands[1]
		}
	}
	return 0
}

// Inline replaces every call of m's append helper by a copy of its body
// (between its label and its return) with fresh result ids, and returns
// how many calls it replaced.
func Inline(m *spirv.Module) int {
	fn := Func(m)
	if fn == 0 {
		return 0
	}
	var param uint32
	var body []spirv.Instruction
	in := false
	for _, x := range m.Insts {
		switch {
		case x.Op == spirv.OpFunction:
			in = x.Operands[1] == fn
		case !in:
		case x.Op == spirv.OpFunctionParameter:
			param = x.Operands[1]
		case x.Op == spirv.OpLabel, x.Op == spirv.OpReturn, x.Op == spirv.OpFunctionEnd:
		default:
			body = append(body, x)
		}
	}
	var out []spirv.Instruction
	calls := 0
	for _, x := range m.Insts {
		if x.Op != spirv.OpFunctionCall || x.Operands[2] != fn {
			out = append(out, x)
			continue
		}
		calls++
		sub := map[uint32]uint32{param: x.Operands[3]}
		for _, b := range body {
			c := spirv.Instruction{Op: b.Op, Operands: slices.Clone(b.Operands)}
			if b.Op != spirv.OpStore {
				sub[c.Operands[1]] = m.Bound
				m.Bound++
			}
			for k, id := range c.Operands {
				if y, ok := sub[id]; ok && (b.Op == spirv.OpStore || k > 0) {
					c.Operands[k] = y
				}
			}
			out = append(out, c)
		}
	}
	m.Insts = out
	return calls
}

// ComputeIDs makes every call of m's append helper pass its id as an
// OpIAdd of the constant and 0 (a computed id), and returns how many calls
// it changed: 0 when m has no append helper, uint type or 0 constant.
func ComputeIDs(m *spirv.Module) int {
	fn := Func(m)
	var uintT, zero uint32
	for _, x := range m.Insts {
		if x.Op == spirv.OpTypeInt && x.Operands[1] == 32 && x.Operands[2] == 0 && uintT == 0 {
			uintT = x.Operands[0]
		}
		if x.Op == spirv.OpConstant && uintT != 0 && x.Operands[0] == uintT && x.Operands[2] == 0 && zero == 0 {
			zero = x.Operands[1]
		}
	}
	if fn == 0 || zero == 0 {
		return 0
	}
	var out []spirv.Instruction
	calls := 0
	for _, x := range m.Insts {
		if x.Op == spirv.OpFunctionCall && x.Operands[2] == fn {
			calls++
			id := m.Bound
			m.Bound++
			out = append(out, spirv.Instruction{Op: spirv.OpIAdd, Operands: []uint32{uintT, id, x.Operands[3], zero}})
			x = spirv.Instruction{Op: x.Op, Operands: []uint32{x.Operands[0], x.Operands[1], fn, id}}
		}
		out = append(out, x)
	}
	m.Insts = out
	return calls
}
