// wideswitch_meta_test.go: a switch of more cases than SPIR-V's limit on
// an OpSwitch's pairs, whose cases past it go where its default goes, is
// laid out with those cases left out of the OpSwitch (emit's
// withoutDefaultCases), so the module's CFG has a narrower switch than the
// structured function. meta's idempotence re-run puts them back
// (withLeftOutCases): the 20,000-way form of the regression
// switch-case-to-its-default.cfg, whose narrower read-back lays out in 13
// blocks for 8, is idempotent, while a re-run that does grow still fails.
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// wideCases is the number of successors of the wide switches below, past
// MaxSwitchPairs.
const wideCases = 20000

// wideToDefault is corpus/testdata/regressions/switch-case-to-its-default.cfg
// ({{1, 2, 1}, {}, {1, 3}, {1, 1}}) with block 0's switch widened to
// wideCases successors: default 1, case 1 to block 2, every other case to
// the default's block.
func wideToDefault() *cfg.Graph {
	s := make([]int, wideCases)
	for i := range s {
		s[i] = 1
	}
	s[1] = 2
	return cfg.FromSuccs([][]int{s, {}, {1, 3}, {1, 1}})
}

// wideInLoop is a wide switch in a loop, three of its cases apart from
// the default's block.
func wideInLoop() *cfg.Graph {
	s := make([]int, wideCases)
	for i := range s {
		s[i] = 2
	}
	s[7], s[5000], s[wideCases-1] = 3, 4, 3
	return cfg.FromSuccs([][]int{{1}, s, {1, 5}, {5}, {1}, {}})
}

func TestMaxSwitchPairsIsTheEmittersLimit(t *testing.T) {
	if MaxSwitchPairs != emit.MaxSwitchCases {
		t.Errorf("oracle's MaxSwitchPairs %d, emit's MaxSwitchCases %d", MaxSwitchPairs, emit.MaxSwitchCases)
	}
}

func TestWideSwitchToTheDefaultIsIdempotent(t *testing.T) {
	for name, g := range map[string]*cfg.Graph{"regression widened": wideToDefault(), "in a loop": wideInLoop()} {
		seam := dispatchSeam("structured")
		mod, info, err := seam(g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mc, err := readModuleCFG(mod)
		if err != nil {
			t.Fatal(err)
		}
		if mc.graph.Edges() >= g.Edges() {
			t.Fatalf("%s: the module's CFG has %d edges for the graph's %d: no case was left out", name, mc.graph.Edges(), g.Edges())
		}
		s := &Subject{Graph: g, Module: mod, Info: info, Structurize: seam}
		if v := (&Oracle{}).checkMeta(s); v.Status != Pass || v.Unchecked != "" {
			t.Errorf("%s: meta %+v, want a pass (the module's CFG %d blocks %d edges)", name, v, mc.graph.Len(), mc.graph.Edges())
		}
	}
}

// TestWideSwitchGrowthStillFails: a structurizer whose idempotence re-run
// (the fourth call: the first run, determinism, renumbering, then
// idempotence) lays the output's CFG out as a dispatch loop grows, and
// meta says so on the wide switch as on any graph.
func TestWideSwitchGrowthStillFails(t *testing.T) {
	calls := 0
	structured, dispatch := dispatchSeam("structured"), dispatchSeam("dispatch")
	seam := func(g *cfg.Graph) ([]byte, ResultInfo, error) {
		calls++
		if calls == 4 {
			mod, info, err := dispatch(g)
			info.Idempotent = true
			return mod, info, err
		}
		return structured(g)
	}
	g := wideToDefault()
	mod, info, err := seam(g)
	if err != nil {
		t.Fatal(err)
	}
	s := &Subject{Graph: g, Module: mod, Info: info, Structurize: seam}
	if v := (&Oracle{}).checkMeta(s); v.Status != Fail || v.Signature != "meta:"+SigNotIdempotent {
		t.Errorf("meta %+v after %d calls, want %s", v, calls, "meta:"+SigNotIdempotent)
	}
}

// TestLeftOutCasesOnlyPastTheLimit: a switch within the limit is read as
// the module writes it, the cases it leaves out staying out (a module that
// leaves out a case it could write reads back as another graph, which
// meta judges); one past it gets an edge to its default for each case
// left out; blocks that report no original block, or do not end in an
// OpSwitch, are left alone.
func TestLeftOutCasesOnlyPastTheLimit(t *testing.T) {
	read := cfg.FromSuccs([][]int{{1, 2}, {}, {1, 3}, {1, 1}})
	mc := &moduleCFG{graph: read, reported: []int{0, 1, 2, 3}, switches: []bool{true, false, false, true}}
	small, err := cfg.ParseCompact("{{1, 2, 1}, {}, {1, 3}, {1, 1}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := withLeftOutCases(mc, small); got != read {
		t.Errorf("within the limit: %v, want the module's CFG itself", got.Succs)
	}
	wide := wideToDefault()
	got := withLeftOutCases(mc, wide)
	if len(got.Succs[0]) != wideCases || got.Edges() != wide.Edges() || got.Succs[0][1] != 2 || len(read.Succs[0]) != 2 {
		t.Errorf("past the limit: block 0 has %d successors (%d edges, the graph %d), the module's CFG %d; want %d, the case to block 2 kept",
			len(got.Succs[0]), got.Edges(), wide.Edges(), len(read.Succs[0]), wideCases)
	}
	for b := 1; b < got.Len(); b++ {
		if len(got.Succs[b]) != len(read.Succs[b]) {
			t.Errorf("block %d: %v, want %v", b, got.Succs[b], read.Succs[b])
		}
	}
	mc.reported[0] = -1
	if got := withLeftOutCases(mc, wide); got != read {
		t.Errorf("a synthetic block: %v, want the module's CFG itself", got.Succs[0][:4])
	}
	mc.reported[0], mc.switches[0] = 0, false
	if got := withLeftOutCases(mc, wide); got != read {
		t.Errorf("a conditional branch: %v, want the module's CFG itself", got.Succs[0][:4])
	}
}
