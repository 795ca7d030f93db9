// selftest_registers_test.go: the registers case's graph and file size
// exercise the order a block's step prescribes (emit/CONVENTION.md,
// "Register file"), so that a module answer getting it wrong fails the case.
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestSelfTestRegistersSeeTheStepOrder: on the registers case's graph and
// file, a module whose steps read both sources before writing (r[s2] read
// before the write to d1), or write d2 before d1, stores a checksum other
// than the walks' in some walk. With an even file no step aliases a source
// with a destination or its two destinations, and neither shows.
func TestSelfTestRegistersSeeTheStepOrder(t *testing.T) {
	g, err := cfg.ParseCompact(selfTestRegistersGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	walks := oracle.Walks(g, oracle.WalkOptions{Registers: selfTestRegisters})
	for _, c := range []struct {
		name  string
		apply func(s spirv.RegisterStep, r []uint32)
	}{
		{"sources read first", func(s spirv.RegisterStep, r []uint32) {
			v := r[s.Src1]*s.Mul + s.Add
			w := v ^ r[s.Src2]
			r[s.Dst1], r[s.Dst2] = v, w
		}},
		{"d2 written first", func(s spirv.RegisterStep, r []uint32) {
			v := r[s.Src1]*s.Mul + s.Add
			r[s.Dst2] = v ^ r[s.Src2]
			r[s.Dst1] = v
		}},
	} {
		seen := false
		for _, w := range walks {
			if !w.Returned {
				continue
			}
			r := make([]uint32, selfTestRegisters)
			for i := range r {
				r[i] = spirv.RegisterInit(i, uint32(len(w.Decisions)))
			}
			for _, b := range w.Trace {
				c.apply(spirv.StepOf(b, len(r)), r)
			}
			if spirv.RegisterChecksum(r) != w.Checksum {
				seen = true
			}
		}
		if !seen {
			t.Errorf("graph %s with %d registers: a module whose steps have their %s stores every walk's checksum right", selfTestRegistersGraph, selfTestRegisters, c.name)
		}
	}
}
