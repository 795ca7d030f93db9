// interp_bound.go: the id bound the interpreter sizes its tables by. The
// header's bound is a claim (SPIR-V specification 2.3: every id is below
// it) that a damaged module can make up to 2^32-1: tables of that size
// would take tens of gigabytes. Past a few ids per instruction the
// interpreter takes one more than the largest result id instead: an id
// above it is defined nowhere, which the interpreter already treats as an
// id out of bound.

package oracle

import "github.com/cfgfuzz/cfgfuzz/emit/spirv"

// idsPerInstruction is how many ids per instruction a module may claim
// before its bound is recomputed: emitted modules have about one.
const idsPerInstruction = 4

// tableBound is m.Bound, or one more than m's largest result id when the
// bound is larger than idsPerInstruction per instruction (and 64) allows.
func tableBound(m *spirv.Module) uint32 {
	if uint64(m.Bound) <= uint64(idsPerInstruction*len(m.Insts)+64) {
		return m.Bound
	}
	largest := m.LargestResultID()
	if largest >= m.Bound {
		return m.Bound
	}
	return largest + 1
}
