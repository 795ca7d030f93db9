// registers.go: the expected register file of the workload (module
// convention 1.1, emit/CONVENTION.md "Register file"): a returned walk's
// checksum, computed from the graph's walk alone by running every entered
// block's step (spirv.StepOf) on a file set from the walk's decision count.
// It is the reference the exec and gpu checks hold a module's checksum
// slot to, whichever structurizer made the module.

package oracle

import "github.com/cfgfuzz/cfgfuzz/emit/spirv"

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
