// structured_loops_preds_test.go: the loops pass's bucketed predecessor
// lists (predsInOrder) against appending every edge to its target's list,
// on the working graphs of seeded random graphs and every named shape.

package structurizer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// drawnAndShapes is count graphs drawn from r, then every named shape at
// 300 blocks.
func drawnAndShapes(r *rand.Rand, count int, draw func(*rand.Rand) *cfg.Graph) []*cfg.Graph {
	var graphs []*cfg.Graph
	for range count {
		graphs = append(graphs, draw(r))
	}
	for _, sh := range shapes {
		graphs = append(graphs, sh.make(r, 300))
	}
	return graphs
}

// TestPredsInOrderAgainstAppend: predsInOrder lists, for each node, what
// appending each edge of the sources in RPO to its target's list gives,
// nil for none, and each list is capped at its length.
func TestPredsInOrderAgainstAppend(t *testing.T) {
	r := freshRand(t, 59)
	graphs := drawnAndShapes(r, 500, func(r *rand.Rand) *cfg.Graph { return randomGraph(r, 1+r.IntN(40)) })
	for i, g := range graphs {
		lp := &loopsPass{work: newWork(g, Options{})}
		rpo := cfg.DFSOrder(lp.graph()).RPO
		n := len(lp.nodes)
		want := make([][]int, n)
		for _, b := range rpo {
			for _, x := range lp.nodes[b].succs {
				want[x] = append(want[x], b)
			}
		}
		got := predsInOrder(lp.nodes, rpo, n)
		for b := range want {
			if !slices.Equal(got[b], want[b]) || (got[b] == nil) != (want[b] == nil) || cap(got[b]) != len(got[b]) {
				t.Fatalf("graph %d %v: preds of node %d %v (cap %d), want %v", i, g, b, got[b], cap(got[b]), want[b])
			}
		}
	}
}

// TestAbsorbTailsKeepsEdges: absorbTails moves nodes' levels and changes
// no edge, so the predecessor lists the loops pass makes before it (and
// reads in its later steps) hold after it.
func TestAbsorbTailsKeepsEdges(t *testing.T) {
	r := freshRand(t, 61)
	graphs := drawnAndShapes(r, 300, func(r *rand.Rand) *cfg.Graph { return randomReducible(r, 2+r.IntN(60)) })
	for i, g := range graphs {
		lp := &loopsPass{work: newWork(g, Options{})}
		lp.dfs = cfg.DFSOrder(lp.graph())
		lp.f = cfg.LoopForestOf(lp.graph(), lp.dfs, lp.graph().Preds())
		if !lp.f.Reducible() || len(lp.f.Loops) == 0 {
			continue
		}
		n := len(lp.nodes)
		lp.loops = make([]wloop, len(lp.f.Loops))
		for li, l := range lp.f.Loops {
			lp.loops[li] = wloop{entry: l.Header, parent: l.Parent}
		}
		level := slices.Clone(lp.f.LoopOf)
		lp.preds = predsInOrder(lp.nodes, lp.dfs.RPO, n)
		lp.absorbTails(level)
		if len(lp.nodes) != n {
			t.Fatalf("graph %d %v: absorbTails made %d nodes into %d", i, g, n, len(lp.nodes))
		}
		after := predsInOrder(lp.nodes, lp.dfs.RPO, n)
		for b := range after {
			if !slices.Equal(after[b], lp.preds[b]) {
				t.Fatalf("graph %d %v: node %d's predecessors %v after absorbTails, %v before", i, g, b, after[b], lp.preds[b])
			}
		}
	}
}
