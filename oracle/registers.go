// registers.go: the expected register file of the workload (module
// convention 1.1, emit/CONVENTION.md "Register file"): a returned walk's
// checksum, computed from the graph's walk alone by running every entered
// block's step (spirv.StepOf) on a file set from the walk's decision count.
// It is the reference the exec and gpu checks hold a module's checksum
// slot to, whichever structurizer made the module.

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// SigRegisters is the exec signature (after "exec:") of a module that
// records the walk's trace and decisions but not its register file's
// checksum: a dropped, misplaced or wrong register write.
const SigRegisters = "registers-mismatch"

// setChecksums fills each returned walk's expected checksum for a file of
// n registers (n > 0), reusing one file for all walks.
func setChecksums(walks []Walk, n int) {
	r := make([]uint32, n)
	steps := map[int]spirv.RegisterStep{}
	for i := range walks {
		w := &walks[i]
		w.Registers = n
		if !w.Returned {
			continue
		}
		w.Checksum = walkChecksum(w, r, steps)
	}
}

// walkChecksum runs w's trace on the file r (overwritten) and returns
// its checksum; steps caches each block's step.
func walkChecksum(w *Walk, r []uint32, steps map[int]spirv.RegisterStep) uint32 {
	for i := range r {
		r[i] = spirv.RegisterInit(i, uint32(len(w.Decisions)))
	}
	for _, b := range w.Trace {
		s, ok := steps[b]
		if !ok {
			s = spirv.StepOf(b, len(r))
			steps[b] = s
		}
		s.Apply(r)
	}
	return spirv.RegisterChecksum(r)
}

// registersHint is what the detail of a registers-mismatch adds when the
// module (decoded gives it decoded, when not nil) cannot hold a file of n
// registers as the convention lays it out, N 32-bit Function words (or
// one array of them): its Function and Private variables hold fewer
// 32-bit words than n, as a module whose structurizer ignores
// options.registers has. "" when they hold n or more, or the module does
// not decode: the hint is only given where it is certain.
func registersHint(module []byte, decoded func() (*spirv.Module, error), n int) string {
	var m *spirv.Module
	var err error
	if decoded != nil {
		m, err = decoded()
	} else {
		m, err = spirv.Decode(module)
	}
	if err != nil {
		return ""
	}
	words := variableWords(m)
	if words >= n {
		return ""
	}
	return fmt.Sprintf("; the module's Function and Private variables hold %d 32-bit words, fewer than the %d registers asked: it carries no register file, as a module does whose structurizer ignores options.registers (fuzz/PROTOCOL.md; emit/CONVENTION.md, \"Register file\")", words, n)
}

// variableWords counts the 32-bit integer words m's Function and Private
// variables hold: 1 a scalar, L an array of L of them (L a constant).
func variableWords(m *spirv.Module) int {
	ints := map[uint32]bool{}      // 32-bit integer types
	consts := map[uint32]uint32{}  // integer constants' values
	arrays := map[uint32]int{}     // arrays of 32-bit integers: their lengths
	pointee := map[uint32]uint32{} // pointer types: the type pointed to
	words := 0
	for _, in := range m.Insts {
		o := in.Operands
		switch {
		case in.Op == spirv.OpTypeInt && len(o) >= 2 && o[1] == 32:
			ints[o[0]] = true
		case in.Op == spirv.OpConstant && len(o) >= 3:
			consts[o[1]] = o[2]
		case in.Op == spirv.OpTypeArray && len(o) >= 3 && ints[o[1]]:
			arrays[o[0]] = int(consts[o[2]])
		case in.Op == spirv.OpTypePointer && len(o) >= 3:
			pointee[o[0]] = o[2]
		case in.Op == spirv.OpVariable && len(o) >= 3 && (o[2] == spirv.StorageFunction || o[2] == spirv.StoragePrivate):
			t := pointee[o[0]]
			if ints[t] {
				words++
			}
			words += arrays[t]
		}
	}
	return words
}
