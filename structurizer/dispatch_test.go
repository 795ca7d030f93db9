// dispatch_test.go: the dispatch loop against the original graph's walks,
// on seeded random graphs of every kind (irreducible, exit-less, switches
// with duplicate cases, unreachable blocks).
package structurizer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// randomGraph returns an arbitrary graph: any edges, any out-degree up to 4.
func randomGraph(r *rand.Rand, n int) *cfg.Graph {
	g := gen.Arbitrary(r, n)
	for b := range n {
		g.Weights[b] = r.IntN(3) * 16
	}
	return g
}

// sameRun compares a structured run with the walk; a walk cut by the cap
// must match as a prefix.
func sameRun(walk, got Trace) bool {
	if walk.Returned {
		return got.Returned && slices.Equal(walk.Blocks, got.Blocks) && walk.Consumed == got.Consumed
	}
	n := min(len(walk.Blocks), len(got.Blocks))
	return slices.Equal(walk.Blocks[:n], got.Blocks[:n])
}

func TestDispatchRunsLikeTheGraph(t *testing.T) {
	r := loggedRand(t, 20261129)
	for i := range 2000 {
		g := randomGraph(r, 1+r.IntN(12))
		res, err := Structurize(g, Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatalf("graph %d %v: %v", i, g, err)
		}
		for w := range 8 {
			dec := make([]uint32, 40)
			for k := range dec {
				dec[k] = uint32(r.IntN(5))
			}
			walk := Walk(g, dec, 30)
			got := Simulate(res.Func, dec, 30*6)
			if !sameRun(walk, got) {
				t.Fatalf("graph %d %v walk %d: graph %+v, dispatch %+v", i, g, w, walk, got)
			}
		}
	}
}

func TestDispatchSwapArmsFaultChangesRuns(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {}, {}})
	res, err := Structurize(g, Options{Strategy: "dispatch", Inject: []string{"swap-arms"}})
	if err != nil {
		t.Fatal(err)
	}
	walk := Walk(g, []uint32{1}, 10)
	got := Simulate(res.Func, []uint32{1}, 60)
	if sameRun(walk, got) {
		t.Fatalf("swap-arms planted but run matches: %+v", got)
	}
}
