// Package regmutant makes the register-file workload's mutants the exec
// and gpu tests hold the checksum check to (emit/CONVENTION.md, "Register
// file"): a module emitted with a register file, with one block's step
// changed. The register file is recognised as emit lays it out: main's
// Function variables without an OpName (route variables are named).
package regmutant

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// Mutate returns mod with the register step of the first block
// reporting original id orig changed: "drop-write" removes its second
// register store, "wrong-constant" gives its multiplication a new constant
// (the old one plus 2).
func Mutate(mod []byte, orig int, kind string) ([]byte, error) {
	m, err := spirv.Decode(mod)
	if err != nil {
		return nil, err
	}
	consts, named := map[uint32]uint32{}, map[uint32]bool{}
	vars := map[uint32]bool{} // the register file: main's unnamed Function variables
	appendFn := uint32(0)
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpConstant:
			consts[in.Operands[1]] = in.Operands[2]
		case spirv.OpName:
			if s, _ := spirv.ReadString(in.Operands[1:]); s == "append" {
				appendFn = in.Operands[0]
			}
			named[in.Operands[0]] = true
		case spirv.OpVariable:
			if in.Operands[2] == spirv.StorageFunction && !named[in.Operands[1]] {
				vars[in.Operands[1]] = true
			}
		}
	}
	in := -1 // inside the block of orig: -1 before, 0 inside
	loaded := map[uint32]bool{}
	for k, ins := range m.Insts {
		switch {
		case ins.Op == spirv.OpLabel:
			in = -1
		case ins.Op == spirv.OpFunctionCall && ins.Operands[2] == appendFn:
			if c, ok := consts[ins.Operands[3]]; ok && c == uint32(orig) {
				in = 0
			}
		case in < 0:
		case ins.Op == spirv.OpLoad && vars[ins.Operands[2]]:
			loaded[ins.Operands[1]] = true
		case kind == "wrong-constant" && ins.Op == spirv.OpIMul && loaded[ins.Operands[2]]:
			id := m.Bound
			m.Bound++
			c := spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{m.Insts[firstConst(m)].Operands[0], id, consts[ins.Operands[3]] + 2}}
			m.Insts[k].Operands = []uint32{ins.Operands[0], ins.Operands[1], ins.Operands[2], id}
			at := firstConst(m)
			m.Insts = append(m.Insts[:at], append([]spirv.Instruction{c}, m.Insts[at:]...)...)
			return m.Bytes(), nil
		case kind == "drop-write" && ins.Op == spirv.OpStore && vars[ins.Operands[0]]:
			in++
			if in == 2 {
				m.Insts = append(m.Insts[:k], m.Insts[k+1:]...)
				return m.Bytes(), nil
			}
		}
	}
	return nil, fmt.Errorf("no register step %s for block %d", kind, orig)
}

// firstConst is the index of the module's first OpConstant.
func firstConst(m *spirv.Module) int {
	for k, in := range m.Insts {
		if in.Op == spirv.OpConstant {
			return k
		}
	}
	return -1
}
