// structured_loops_preds_test.go: the loops pass's bucketed predecessor
// lists (predsInOrder) against appending every edge to its target's list,
// on the working graphs of seeded random graphs and every named shape.

package structurizer

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestPredsInOrderAgainstAppend: predsInOrder lists, for each node, what
// appending each edge of the sources in RPO to its target's list gives,
// nil for none, and each list is capped at its length.
func TestPredsInOrderAgainstAppend(t *testing.T) {
	r := freshRand(t, 59)
	var graphs []*cfg.Graph
	for range 500 {
		graphs = append(graphs, randomGraph(r, 1+r.IntN(40)))
	}
	for _, sh := range shapes {
		graphs = append(graphs, sh.make(r, 300))
	}
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
