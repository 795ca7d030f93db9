// exec_slices_test.go: a module that computes its trace capacity wrongly
// writes past its slice on a walk that fills it, and the execution check
// reports exec:trace-overflow (exec_slices.go).
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// capacityPlusOverhead turns the module's stride-minus-overhead
// subtraction into an addition (reports whether it found one).
func capacityPlusOverhead(m *spirv.Module) bool {
	five := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[2] == spirv.TraceOverhead {
			five[in.Operands[1]] = true
		}
	}
	for i, in := range m.Insts {
		if in.Op == spirv.OpISub && len(in.Operands) == 4 && five[in.Operands[3]] {
			m.Insts[i].Op = spirv.OpIAdd
			return true
		}
	}
	return false
}

func TestExecTraceOverflow(t *testing.T) {
	// 0 -> 1, 1 -> 1 or 2, 2 -> 1: no walk returns, each is cut at the
	// step cap, and the batch's capacity is shorter than the walks.
	g := cfg.New(3)
	g.Succs[0] = []int{1}
	g.Succs[1] = []int{1, 2}
	g.Succs[2] = []int{1}
	m := dispatchModule(t, g)
	if v := execVerdict(g, m.Bytes()); v.Signature != "" || v.Harness != nil {
		t.Fatalf("the correct module: %s %s %v", v.Signature, v.Detail, v.Harness)
	}
	bad := clone(m)
	if !capacityPlusOverhead(bad) {
		t.Fatal("no stride - overhead subtraction in the module")
	}
	v := execVerdict(g, bad.Bytes())
	if v.Signature != SigOverflow {
		t.Fatalf("capacity stride+overhead: signature %q (%s), want %q", v.Signature, v.Detail, SigOverflow)
	}
	t.Log(v.Detail)
}
