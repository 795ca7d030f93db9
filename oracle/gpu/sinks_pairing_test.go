// sinks_pairing_test.go: the sink comparison runs each walk where the
// driver ran it, so a filler that reads the invocation's place in the
// batch is judged on the same input on both sides.
package gpu_test

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// interpDriver is a driver without faults: the interpreter running the
// module it is handed (the bounded one, as Check sends it).
type interpDriver struct{}

func (interpDriver) Name() string { return "vulkan:interp-fake" }

func (interpDriver) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	return oracle.Interpreter{}.Execute(module, batch, walks)
}

// seededByInvocation is g's module whose sink starts at the invocation's
// GlobalInvocationId.x, not 0: a filler of its own shape, defined on
// every walk.
func seededByInvocation(t *testing.T, g *cfg.Graph) []byte {
	t.Helper()
	return sinkStartsAt(t, g, func(m *spirv.Module, _, _ uint32) ([]spirv.Instruction, uint32) {
		for _, in := range m.Insts {
			if in.Op == spirv.OpCompositeExtract { // the entry's gid.x
				return nil, in.Operands[1]
			}
		}
		t.Fatal("no invocation id read")
		return nil, 0
	})
}

// TestCheckSinksInvocationSeeded: a walk cut at the step cap before the
// walks that return, on a driver without faults, and a sink that starts
// at the invocation id: the check passes with the sinks compared.
func TestCheckSinksInvocationSeeded(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g.Weights = []int{40, 25, 33}
	m := seededByInvocation(t, g)
	walks := oracle.Walks(g, oracle.WalkOptions{})
	if len(walks) < 2 || walks[0].Returned {
		t.Fatalf("want a capped walk first, then others; got %d walks, the first returned %t", len(walks), walks[0].Returned)
	}
	v := gpu.Check(interpDriver{}, g, m, oracle.WalkOptions{})
	if v.Status != oracle.Pass || !strings.Contains(v.Detail, "sinks compared") {
		t.Fatalf("a driver without faults: %+v", v)
	}
}
