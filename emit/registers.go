// registers.go: the register-file workload (CONVENTION.md, "Register file",
// version 1.1; the steps are spirv.StepOf): Options.Registers
// Function-storage words declared in main's prologue and set from the
// walk's decision count, two reads and two writes in every original block
// and clone after its filler, and the file's checksum, kept as it changes,
// stored in the trace slice's last slot before every OpReturn of main.

package emit

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// MaxRegisters is the largest register file Options.Registers may ask for.
const MaxRegisters = 1 << 16

// checkRegisters reports a register count emission refuses.
func checkRegisters(n int) error {
	if n < 0 || n > MaxRegisters {
		return fmt.Errorf("emit: registers %d out of range 0..%d", n, MaxRegisters)
	}
	return nil
}

// declareRegisters declares the file's variables and its running
// checksum (in the prologue, with the other Function variables) and keeps
// their ids in b.regs and b.regSum.
func (fb *fnBody) declareRegisters() {
	b := fb.b
	if b.opt.Registers == 0 {
		return
	}
	b.regs = make([]uint32, b.opt.Registers)
	for i := range b.regs {
		b.regs[i] = b.id()
		fb.add(spirv.OpVariable, b.t.ptrFuncUint, b.regs[i], spirv.StorageFunction)
	}
	b.regSum = b.id()
	fb.add(spirv.OpVariable, b.t.ptrFuncUint, b.regSum, spirv.StorageFunction)
	b.name(b.regSum, "register_sum")
}

// The checksum (spirv.RegisterChecksum, the sum of r[i]*(2i+1)) is kept
// in a running variable, so a return stores one word instead of reading
// the whole file: every write of v over old adds (v-old)*(2i+1). The
// file's registers stay live from their first use to their last, which
// is the shape the workload is for; the stored word is the same.

// initRegisters sets r[i] = n + spirv.RegisterBase(i) (spirv.RegisterInit),
// n the walk's decision count, read at dbase, and the running checksum to
// the file's: n*N^2 + the sum of RegisterBase(i)*(2i+1).
func (fb *fnBody) initRegisters(dbase uint32) {
	if len(fb.b.regs) == 0 {
		return
	}
	b := fb.b
	n := fb.load(fb.slot(b.v.decisions, dbase, 0))
	var base uint32
	for i, r := range b.regs {
		base += spirv.RegisterBase(i) * uint32(2*i+1)
		fb.add(spirv.OpStore, r, fb.val(spirv.OpIAdd, b.t.uint, n, b.u(spirv.RegisterBase(i))))
	}
	nn := uint32(len(b.regs)) * uint32(len(b.regs))
	sum := fb.val(spirv.OpIAdd, b.t.uint, fb.val(spirv.OpIMul, b.t.uint, n, b.u(nn)), b.u(base))
	fb.add(spirv.OpStore, b.regSum, sum)
}

// registerStep emits original block orig's step, with the running
// checksum's two updates.
func (fb *fnBody) registerStep(orig int) {
	b := fb.b
	if len(b.regs) == 0 {
		return
	}
	s := spirv.StepOf(orig, len(b.regs))
	v := fb.val(spirv.OpIMul, b.t.uint, fb.load(b.regs[s.Src1]), b.u(s.Mul))
	v = fb.val(spirv.OpIAdd, b.t.uint, v, b.u(s.Add))
	sum := fb.write(s.Dst1, v, fb.load(b.regSum))
	w := fb.val(spirv.OpBitwiseXor, b.t.uint, v, fb.load(b.regs[s.Src2]))
	fb.add(spirv.OpStore, b.regSum, fb.write(s.Dst2, w, sum))
}

// write stores v in register d and returns the running checksum sum
// updated for it.
func (fb *fnBody) write(d, v, sum uint32) uint32 {
	b := fb.b
	old := fb.load(b.regs[d])
	fb.add(spirv.OpStore, b.regs[d], v)
	// The multiply stays for d = 0 too: every step has the same opcodes,
	// so renumbering the graph leaves each block's shape (meta).
	delta := fb.val(spirv.OpIMul, b.t.uint, fb.val(spirv.OpISub, b.t.uint, v, old), b.u(2*d+1))
	return fb.val(spirv.OpIAdd, b.t.uint, sum, delta)
}

// storeChecksum stores the running checksum in the last slot of the
// invocation's trace slice, tbase + tcap + TraceOverhead.
func (fb *fnBody) storeChecksum(tb uint32) {
	b := fb.b
	if len(b.regs) == 0 {
		return
	}
	at := fb.val(spirv.OpIAdd, b.t.uint, tb, fb.load(b.v.tcap))
	fb.add(spirv.OpStore, fb.slot(b.v.trace, at, spirv.TraceOverhead), fb.load(b.regSum))
}

// traceOverhead is the slots of a trace slice that hold no id.
func (b *builder) traceOverhead() uint32 {
	if b.opt.Registers > 0 {
		return spirv.TraceOverhead + spirv.TraceRegisterSlots
	}
	return spirv.TraceOverhead
}
