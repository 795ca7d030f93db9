// walks_budget_test.go: the cap on all walks' steps together
// (WalkOptions.MaxTotalSteps). A nest of thousands of loops, whose latches
// each need a walk across the nest, stops at the cap and says so; no graph
// of up to 500 blocks can reach the default cap, so its walks are the ones
// an unbounded selection gives.
package oracle

import (
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// loopNest is n loops nested in one another: headers 0..n-1, latches
// n..2n-1 (the innermost first), each "if header else the next latch out",
// and the return 2n.
func loopNest(n int) *cfg.Graph {
	g := &cfg.Graph{Succs: make([][]int, 2*n+1)}
	for i := range n {
		g.Succs[i] = []int{i + 1}
		latch, out := 2*n-1-i, 2*n-i
		g.Succs[latch] = []int{i, out}
	}
	g.Succs[n-1] = []int{n}
	return g
}

func totalSteps(walks []Walk) int {
	s := 0
	for _, w := range walks {
		s += len(w.Trace)
	}
	return s
}

func TestWalksStepBudget(t *testing.T) {
	g := loopNest(3000)
	if err := g.Validate(cfg.Limits{}); err != nil {
		t.Fatal(err)
	}
	walks, cut := walksOf(g, WalkOptions{Seed: 1})
	budget, perWalk := 1<<23, 4*g.Len()
	if !cut {
		t.Errorf("a nest of 3,000 loops: the walks were not cut (%d walks, %d steps)", len(walks), totalSteps(walks))
	}
	if s := totalSteps(walks); s > budget+perWalk {
		t.Errorf("a nest of 3,000 loops: %d steps in %d walks, over the budget %d and one walk's %d", s, len(walks), budget, perWalk)
	}
	if len(walks) == 0 {
		t.Errorf("a nest of 3,000 loops: no walk")
	}

	small, cut := walksOf(loopNest(40), WalkOptions{Seed: 1, MaxTotalSteps: 500})
	if s := totalSteps(small); !cut || s > 500+4*81 {
		t.Errorf("a nest of 40 loops under a budget of 500 steps: cut %v, %d steps", cut, s)
	}
}

func TestWalksBudgetUnreachedOnSmallGraphs(t *testing.T) {
	r := seededRand(t, 44)
	for i := range 13 {
		g := anyGraph(r, 400+r.IntN(101))
		if i == 12 { // the deepest walks a graph of this size asks for
			g = loopNest(249)
		}
		opt := WalkOptions{Seed: r.Uint64()}
		got, cut := walksOf(g, opt)
		opt.MaxTotalSteps = 1 << 40
		if want := Walks(g, opt); cut || !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d of %d blocks: cut %v, or the walks differ from unbounded ones", i, g.Len(), cut)
		}
	}
}
