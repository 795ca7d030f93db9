package cfg

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// searchForest is the component search's forest of g, the reference the
// reducible construction must match exactly.
func searchForest(g *Graph) *Forest {
	f := &Forest{LoopOf: make([]int, g.Len())}
	for b := range f.LoopOf {
		f.LoopOf[b] = NoBlock
	}
	o := DFSOrder(g)
	if acyclic(g, o) {
		return f
	}
	return refComponentForest(g, o, g.Preds(), f)
}

// deepLoops is a reducible graph of n blocks whose loops nest about depth
// deep: a chain of blocks with back edges from later blocks to earlier
// ones inside the same enclosing span, plus forward skips and exits.
func deepLoops(r *rand.Rand, n, depth int) *Graph {
	g := New(n)
	for b := range n - 1 {
		g.Succs[b] = append(g.Succs[b], b+1)
	}
	// Nested spans [lo, hi]: a back edge hi -> lo makes lo a header.
	var span func(lo, hi, d int)
	span = func(lo, hi, d int) {
		if hi-lo < 2 || d > depth {
			return
		}
		g.Succs[hi] = append(g.Succs[hi], lo)
		if r.IntN(3) == 0 && hi+1 < n {
			// an exit past the loop from inside it
			from := lo + 1 + r.IntN(hi-lo)
			g.Succs[from] = append(g.Succs[from], min(n-1, hi+1+r.IntN(3)))
		}
		mid := lo + 1 + r.IntN(hi-lo)
		span(lo+1, mid, d+1)
		span(mid+1, hi-1, d+1)
	}
	span(0, n-1, 1)
	return g
}

// TestReducibleForestMatchesSearch checks the collapse of
// loops_reducible.go against the component search on random graphs, small
// and large, reducible and not: the same forest, field by field, and the
// collapse gives up exactly on the irreducible ones.
func TestReducibleForestMatchesSearch(t *testing.T) {
	check := func(name string, g *Graph) { t.Helper(); checkForest(t, name, g) }
	forEachRandomGraph(t, 6000, func(i int, g *Graph) { check(fmt.Sprintf("graph %d", i), g) })
	r := rand.New(rand.NewPCG(*analysisSeed, 2))
	for i := range 300 {
		n := 20 + r.IntN(400)
		check(fmt.Sprintf("forward %d", i), randomForward(r, n))
		check(fmt.Sprintf("deep %d", i), deepLoops(r, n, 1+r.IntN(40)))
	}
}

// checkForest fails the test when the forest of g differs from the
// component search's, or the collapse's verdict on reducibility from the
// search's.
func checkForest(t *testing.T, name string, g *Graph) {
	t.Helper()
	want := searchForest(g)
	got := LoopForest(g)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %v:\nforest %+v\nsearch %+v", name, g, got, want)
	}
	f := &Forest{LoopOf: make([]int, g.Len())}
	for b := range f.LoopOf {
		f.LoopOf[b] = NoBlock
	}
	o := DFSOrder(g)
	if ok := acyclic(g, o) || reducibleForest(g, o, g.Preds(), f); ok != want.Reducible() {
		t.Fatalf("%s %v: the collapse says reducible %v, the search %v", name, g, ok, want.Reducible())
	}
}

// TestReducibleForestExhaustive compares the collapse with the component
// search on every graph of 1 to 4 blocks (forEachSmallGraph).
func TestReducibleForestExhaustive(t *testing.T) {
	count := forEachSmallGraph(4, func(g *Graph) { checkForest(t, "graph", g) })
	t.Logf("%d graphs", count)
}

// forEachSmallGraph calls f on every graph of 1 to maxN blocks whose
// blocks have at most two successors, in order, duplicates and self-loops
// included (so unreachable blocks and blocks that reach no exit too), and
// returns how many there were.
func forEachSmallGraph(maxN int, f func(g *Graph)) int {
	count := 0
	for n := 1; n <= maxN; n++ {
		var lists [][]int
		lists = append(lists, nil)
		for a := range n {
			lists = append(lists, []int{a})
			for b := range n {
				lists = append(lists, []int{a, b})
			}
		}
		idx := make([]int, n)
		for {
			g := New(n)
			for b := range n {
				g.Succs[b] = lists[idx[b]]
			}
			f(g)
			count++
			k := 0
			for k < n {
				idx[k]++
				if idx[k] < len(lists) {
					break
				}
				idx[k] = 0
				k++
			}
			if k == n {
				break
			}
		}
	}
	return count
}
