// registers.go: the register-file workload (CONVENTION.md, "Register file",
// version 1.1; the steps are spirv.StepOf): Options.Registers
// Function-storage words declared in main's prologue and set from the
// walk's decision count, two reads and two writes in every original block
// and clone after its filler, and the file's checksum stored in the trace
// slice's last slot before every OpReturn of main.
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

// declareRegisters declares the file's variables (in the prologue, with
// the other Function variables) and keeps their ids in b.regs.
func (fb *fnBody) declareRegisters() {
	b := fb.b
	b.regs = make([]uint32, b.opt.Registers)
	for i := range b.regs {
		b.regs[i] = b.id()
		fb.add(spirv.OpVariable, b.t.ptrFuncUint, b.regs[i], spirv.StorageFunction)
	}
}

// initRegisters sets r[i] = n + spirv.RegisterBase(i) (spirv.RegisterInit),
// n the walk's decision count, read at dbase.
func (fb *fnBody) initRegisters(dbase uint32) {
	if len(fb.b.regs) == 0 {
		return
	}
	b := fb.b
	n := fb.load(fb.slot(b.v.decisions, dbase, 0))
	for i, r := range b.regs {
		fb.add(spirv.OpStore, r, fb.val(spirv.OpIAdd, b.t.uint, n, b.u(spirv.RegisterBase(i))))
	}
}

// registerStep emits original block orig's step.
func (fb *fnBody) registerStep(orig int) {
	b := fb.b
	if len(b.regs) == 0 {
		return
	}
	s := spirv.StepOf(orig, len(b.regs))
	v := fb.val(spirv.OpIMul, b.t.uint, fb.load(b.regs[s.Src1]), b.u(s.Mul))
	v = fb.val(spirv.OpIAdd, b.t.uint, v, b.u(s.Add))
	fb.add(spirv.OpStore, b.regs[s.Dst1], v)
	w := fb.val(spirv.OpBitwiseXor, b.t.uint, v, fb.load(b.regs[s.Src2]))
	fb.add(spirv.OpStore, b.regs[s.Dst2], w)
}

// storeChecksum stores spirv.RegisterChecksum of the file in the last slot
// of the invocation's trace slice, tbase + tcap + TraceOverhead.
func (fb *fnBody) storeChecksum(tb uint32) {
	b := fb.b
	if len(b.regs) == 0 {
		return
	}
	var h uint32
	for i, r := range b.regs {
		x := fb.load(r)
		if i > 0 {
			x = fb.val(spirv.OpIMul, b.t.uint, x, b.u(uint32(2*i+1)))
			x = fb.val(spirv.OpIAdd, b.t.uint, h, x)
		}
		h = x
	}
	at := fb.val(spirv.OpIAdd, b.t.uint, tb, fb.load(b.v.tcap))
	fb.add(spirv.OpStore, fb.slot(b.v.trace, at, spirv.TraceOverhead), h)
}

// traceOverhead is the slots of a trace slice that hold no id.
func (b *builder) traceOverhead() uint32 {
	if b.opt.Registers > 0 {
		return spirv.TraceOverhead + spirv.TraceRegisterSlots
	}
	return spirv.TraceOverhead
}
