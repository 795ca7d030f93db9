// registers.go: the register-file workload of the module convention,
// version 1.1 (emit/CONVENTION.md, "Register file"): N 32-bit values in
// Function-storage variables, the shape a recompiler gives a guest's
// registers. Every original block (and clone) reads two of them and writes
// two, so a value one block defines is live across the blocks after it,
// and main publishes a checksum of the whole file in the trace before it
// returns. The steps are defined on the graph (a block's id and N), so the
// oracle computes the expected checksum from a walk's trace alone.

package spirv

// RegisterStep is what original block b does to a file of n registers, in
// this order:
//
//	v = r[Src1]*Mul + Add; r[Dst1] = v
//	r[Dst2] = v ^ r[Src2]     (r[Src2] read after the first write)
type RegisterStep struct {
	Src1, Src2, Dst1, Dst2 uint32
	Mul, Add               uint32
}

// StepOf is block b's step on a file of n > 0 registers.
func StepOf(b, n int) RegisterStep {
	u, m := uint32(b), uint32(n)
	return RegisterStep{
		Src1: (3 * u) % m, Src2: (5*u + 1) % m,
		Dst1: (7*u + 2) % m, Dst2: (11*u + 3) % m,
		Mul: (u*2654435761 + 0x632be5ab) | 1, Add: u*0x85ebca6b + 1,
	}
}

// Apply runs the step on r.
func (s RegisterStep) Apply(r []uint32) {
	v := r[s.Src1]*s.Mul + s.Add
	r[s.Dst1] = v
	r[s.Dst2] = v ^ r[s.Src2]
}

// RegisterInit is register i's value when main starts: the walk's decision
// count n (decisions word 2 + i*D) plus RegisterBase(i), so no compiler can
// fold the file to constants.
func RegisterInit(i int, n uint32) uint32 { return n + RegisterBase(i) }

// RegisterBase is register i's constant part: i*0x9e3779b9 + 0x7f4a7c15.
func RegisterBase(i int) uint32 { return uint32(i)*0x9e3779b9 + 0x7f4a7c15 }

// RegisterChecksum is the word main stores in the checksum slot before
// every OpReturn: the sum of r[i] * (2i+1), modulo 2^32. Every multiplier
// is odd, so a change to any one register changes the sum.
func RegisterChecksum(r []uint32) uint32 {
	var h uint32
	for i, v := range r {
		h += v * uint32(2*i+1)
	}
	return h
}

// TraceRegisterSlots is the slots the workload adds to a trace slice: the
// checksum, the slice's last slot (after the overflow slot).
const TraceRegisterSlots = 1
