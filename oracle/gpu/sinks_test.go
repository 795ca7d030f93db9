// sinks_test.go: the gpu check's sink comparison against drivers that
// miscompile the filler, played by the interpreter with one sink changed
// (any build: no Vulkan needed). The real driver's agreement is
// TestAgreesWithInterpreter and TestCheckGenerated, which run Check.
package gpu_test

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// fillerDriver runs module (whatever module it is handed) in the
// interpreter and then adds delta to the sink of walk spoil (-1: none),
// as a driver that miscompiles one block's filler would.
type fillerDriver struct {
	module []byte
	spoil  int
	delta  uint32
}

func (fillerDriver) Name() string { return "vulkan:filler-fake" }

func (d fillerDriver) Execute(_ []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	obs, err := oracle.Interpreter{}.Execute(d.module, batch, walks)
	if err == nil && d.spoil >= 0 && d.spoil < len(obs) {
		obs[d.spoil].Sink += d.delta
	}
	return obs, err
}

// weighted is a three-way graph whose every block carries filler.
func weighted(t *testing.T) (*cfg.Graph, []byte) {
	t.Helper()
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g.Weights = []int{40, 25, 33, 17}
	return g, module(t, g, structurizer.Options{})
}

func TestCheckComparesSinks(t *testing.T) {
	g, m := weighted(t)
	walks := oracle.Walks(g, oracle.WalkOptions{})
	if len(walks) < 2 {
		t.Fatalf("want at least two walks, got %d", len(walks))
	}
	if v := gpu.Check(fillerDriver{module: m, spoil: -1}, g, m, oracle.WalkOptions{}); v.Status != oracle.Pass || !strings.Contains(v.Detail, "sinks compared") {
		t.Fatalf("a driver that agrees: %+v", v)
	}
	for spoil := range walks {
		v := gpu.Check(fillerDriver{module: m, spoil: spoil, delta: 1 << 7}, g, m, oracle.WalkOptions{})
		if v.Status != oracle.Fail || v.Signature != "gpu:"+gpu.SigSinkDiffers {
			t.Fatalf("walk %d's sink changed: %+v", spoil, v)
		}
		if want := "on the driver"; !strings.Contains(v.Detail, want) {
			t.Errorf("walk %d: detail %q lacks %q", spoil, v.Detail, want)
		}
	}
}

// TestCheckSinksNotComparedSaysSo: where the interpreter cannot run the
// module handed to Check, the traces still judge it and the verdict says
// the sinks went unjudged.
func TestCheckSinksNotComparedSaysSo(t *testing.T) {
	g, m := weighted(t)
	garbled := append([]byte(nil), m[:20]...)
	v := gpu.Check(fillerDriver{module: m, spoil: 0, delta: 1}, g, garbled, oracle.WalkOptions{})
	if v.Status != oracle.Pass || !strings.Contains(v.Detail, "sinks not compared") {
		t.Fatalf("got %+v, want a pass whose detail says the sinks were not compared", v)
	}
}

// TestCompareSinksOnlyReturnedWalks: a walk that did not return on the
// driver is not the sinks' to judge (the traces judge it).
func TestCompareSinksOnlyReturnedWalks(t *testing.T) {
	g, m := weighted(t)
	walks := oracle.Walks(g, oracle.WalkOptions{})
	obs, err := oracle.Interpreter{}.Execute(m, oracle.WalkBatch(walks), len(walks))
	if err != nil {
		t.Fatal(err)
	}
	obs[0].Sink++
	if r := gpu.CompareSinks(m, walks, obs); r.Signature != gpu.SigSinkDiffers || r.Walk != 0 {
		t.Fatalf("a changed sink: %+v", r)
	}
	obs[0].Returned = false
	if r := gpu.CompareSinks(m, walks, obs); r.Signature != "" || r.Harness != nil {
		t.Fatalf("the walk that did not return: %+v", r)
	}
	if r := gpu.CompareSinks(m, walks, obs[1:]); r.Harness == nil {
		t.Fatalf("fewer observations than walks: %+v", r)
	}
}
