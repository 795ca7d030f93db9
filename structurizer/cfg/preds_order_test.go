// preds_order_test.go: PredecessorsInOrder, the counting sort behind
// Preds and the structurizer's loops pass, against the obvious
// construction: each edge of each block of the order appended to its
// target's list, in that order; on random graphs and random orders (a
// permutation of some of the blocks), and Preds against it with every
// block in order.
package cfg

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestPredecessorsInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(*analysisSeed, 71))
	forEachRandomGraph(t, 2000, func(i int, g *Graph) {
		n := g.Len()
		order := r.Perm(n)[:r.IntN(n+1)]
		want := make([][]int, n)
		for _, b := range order {
			for _, s := range g.Succs[b] {
				want[s] = append(want[s], b)
			}
		}
		got := PredecessorsInOrder(n, order, func(b int) []int { return g.Succs[b] })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d %v, order %v: %v, want %v", i, g, order, got, want)
		}
		for s := range got {
			if cap(got[s]) != len(got[s]) {
				t.Fatalf("graph %d: list of %d has room past its end (cap %d, len %d)", i, s, cap(got[s]), len(got[s]))
			}
		}
		all := make([]int, n)
		for b := range all {
			all[b] = b
		}
		if p := PredecessorsInOrder(n, all, func(b int) []int { return g.Succs[b] }); !reflect.DeepEqual(p, g.Preds()) {
			t.Fatalf("graph %d %v: every block in order %v, Preds %v", i, g, p, g.Preds())
		}
	})
}
