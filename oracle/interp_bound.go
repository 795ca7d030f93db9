// interp_bound.go: the id bound the interpreter sizes its tables by. The
// header's bound is a claim (SPIR-V specification 2.3: every id is below
// it) that a damaged module can make up to 2^32-1: tables of that size
// would take tens of gigabytes. Past a few ids per instruction the
// interpreter takes one more than the largest result id instead: an id
// above it is defined nowhere, which the interpreter already treats as an
// id out of bound. A module whose defined ids themselves run that far past
// its size (valid SPIR-V: ids need not be dense) is one the interpreter
// does not run, a harness limit rather than a finding, once its tables
// would pass maxSparseTable ids.

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// idsPerInstruction is how many ids per instruction a module may claim
// before its bound is recomputed: emitted modules have about one.
const idsPerInstruction = 4

// maxSparseTable is the most ids the interpreter's tables take for a
// module whose ids are sparser than idsPerInstruction per instruction:
// 2^22 ids, some 170 MB of tables. It is one more than the largest id
// bound SPIRV-Tools' validator accepts by default (0x3FFFFF), so every
// module spirv-val passes runs.
const maxSparseTable = 1 << 22

// tableBound is m.Bound, or one more than m's largest result id when the
// bound is larger than idsPerInstruction per instruction (and 64) allows;
// an *UnsupportedError when that is still more than those and
// maxSparseTable allow.
func tableBound(m *spirv.Module) (uint32, error) {
	room := uint64(idsPerInstruction*len(m.Insts) + 64)
	if uint64(m.Bound) <= room {
		return m.Bound, nil
	}
	n := uint64(m.Bound)
	if largest := m.LargestResultID(); uint64(largest) < n {
		n = uint64(largest) + 1
	}
	if n > max(room, maxSparseTable) {
		return 0, &UnsupportedError{Op: spirv.OpNop, What: fmt.Sprintf("ids up to %%%d in a module of %d instructions (its tables are indexed by id: at most %d ids per instruction, or %d ids)", n-1, len(m.Insts), idsPerInstruction, maxSparseTable)}
	}
	return uint32(n), nil
}
