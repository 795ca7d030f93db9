// loops_blocks_test.go: the tests of the forest's block lists: each loop's
// Blocks is the loop's set of blocks (the definition's, RefLoopBlocks),
// laid out as Forest says (its own blocks in increasing order, then its
// children's lists), Contains agrees with it, and a nest as deep as the
// graph is long takes memory linear in the graph.

package cfg

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// checkForestBlocks holds f's block lists against the definition of the
// loops of g and against the layout Forest describes.
func checkForestBlocks(t *testing.T, what string, g *Graph, f *Forest) {
	t.Helper()
	want := RefLoopBlocks(g)
	var sets [][]int
	for _, l := range f.Loops {
		sets = append(sets, slices.Sorted(slices.Values(l.Blocks)))
	}
	got := slices.Clone(sets)
	slices.SortFunc(got, func(a, b []int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return len(b) - len(a)
	})
	if len(got) != len(want) {
		t.Fatalf("%s %v: %d loops, definition %d", what, g, len(got), len(want))
	}
	for k := range got {
		if !slices.Equal(got[k], want[k].Blocks) {
			t.Fatalf("%s %v: loop blocks %v, definition %v", what, g, got[k], want[k].Blocks)
		}
	}
	for li, l := range f.Loops {
		var layout []int
		for b, x := range f.LoopOf {
			if x == li {
				layout = append(layout, b)
			}
		}
		for _, c := range l.Children {
			layout = append(layout, f.Loops[c].Blocks...)
		}
		if !slices.Equal(l.Blocks, layout) {
			t.Fatalf("%s %v: loop %d lists %v, its own blocks then its children's are %v", what, g, li, l.Blocks, layout)
		}
		for b := range f.LoopOf {
			if in := f.Contains(li, b); in != slices.Contains(sets[li], b) {
				t.Fatalf("%s %v: Contains(%d, %d) = %v, blocks %v", what, g, li, b, in, sets[li])
			}
		}
	}
}

// TestForestBlocksSmallGraphs checks the block lists of every graph of up
// to four blocks of out-degree at most two.
func TestForestBlocksSmallGraphs(t *testing.T) {
	n := forEachSmallGraph(4, func(g *Graph) {
		checkForestBlocks(t, "graph", g, LoopForest(g))
	})
	t.Logf("%d graphs", n)
}

// TestForestBlocksRandom checks the block lists of random graphs: any
// edges (irreducible ones through the component search), the tangled
// layouts, and deep reducible nests.
func TestForestBlocksRandom(t *testing.T) {
	forEachRandomGraph(t, 3000, func(i int, g *Graph) {
		checkForestBlocks(t, "random", g, LoopForest(g))
	})
	r := rand.New(rand.NewPCG(*analysisSeed, 53))
	for range 300 {
		g := tangled(r, 10+r.IntN(120))
		for range r.IntN(4) {
			a, b := r.IntN(g.Len()), r.IntN(g.Len())
			g.Succs[a] = append(g.Succs[a], b)
		}
		checkForestBlocks(t, "tangled", g, LoopForest(g))
	}
	for range 100 {
		n := 10 + r.IntN(120)
		g := deepLoops(r, n, 1+r.IntN(n))
		checkForestBlocks(t, "deep", g, LoopForest(g))
	}
}

// TestForestShifted checks Shifted against the forest of the graph with
// blocks put before the others.
func TestForestShifted(t *testing.T) {
	forEachRandomGraph(t, 1000, func(i int, g *Graph) {
		k := 1 + i%3
		h := New(g.Len() + k)
		for b := range k {
			if b+1 < k {
				h.Succs[b] = []int{b + 1}
			} else {
				h.Succs[b] = []int{k}
			}
		}
		for b, s := range g.Succs {
			for _, x := range s {
				h.Succs[b+k] = append(h.Succs[b+k], x+k)
			}
		}
		want := LoopForest(h)
		got := LoopForest(g).Shifted(k)
		if !forestsEqual(got, want) {
			t.Fatalf("graph %d %v shifted by %d:\nforest %+v\nwant %+v", i, g, k, got, want)
		}
	})
}

// forestsEqual compares two forests field by field, the shared array and
// places included.
func forestsEqual(a, b *Forest) bool {
	if !slices.Equal(a.LoopOf, b.LoopOf) || !slices.Equal(a.all, b.all) || !slices.Equal(a.pos, b.pos) || !slices.Equal(a.first, b.first) || len(a.Loops) != len(b.Loops) {
		return false
	}
	for i := range a.Loops {
		x, y := a.Loops[i], b.Loops[i]
		if x.Header != y.Header || x.Parent != y.Parent || x.Depth != y.Depth || x.Irreducible != y.Irreducible ||
			!slices.Equal(x.Entries, y.Entries) || !slices.Equal(x.Blocks, y.Blocks) || !slices.Equal(x.Children, y.Children) {
			return false
		}
	}
	return true
}

// nestGraph is n loops nested in one another (2n+1 blocks): blocks 0..n-1
// the headers, each entering the next; n..2n-1 the latches, the innermost
// first, each branching back to its header or out to the next latch; 2n
// the return.
func nestGraph(n int) *Graph {
	g := New(2*n + 1)
	for i := range n {
		g.Succs[i] = []int{min(i+1, n)}
		latch := 2*n - 1 - i
		g.Succs[latch] = []int{i, latch + 1}
	}
	return g
}

// TestForestDeepNestLinear builds the forest of a nest of 20,000 loops
// and bounds what it allocates by a constant per block: the block lists
// of all loops hold each block once, where one list per loop holding its
// nested loops' blocks would hold 200 million.
func TestForestDeepNestLinear(t *testing.T) {
	const n = 20000
	g := nestGraph(n)
	o, preds := DFSOrder(g), g.Preds()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f := LoopForestOf(g, o, preds)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if len(f.Loops) != n || f.Loops[n-1].Depth != n || len(f.Loops[0].Blocks) != 2*n {
		t.Fatalf("nest of %d: %d loops, innermost depth %d, outermost %d blocks", n, len(f.Loops), f.Loops[len(f.Loops)-1].Depth, len(f.Loops[0].Blocks))
	}
	if limit := uint64(1024 * g.Len()); alloc > limit {
		t.Fatalf("nest of %d loops: the forest allocated %d bytes, more than %d (1 KB a block)", n, alloc, limit)
	}
	t.Logf("nest of %d loops (%d blocks): %d bytes allocated", n, g.Len(), alloc)
	for li := 0; li < n; li += 997 {
		if !f.Contains(li, 2*n-1-li) || f.Contains(li, 2*n) || (li > 0 && f.Contains(li, li-1)) {
			t.Fatalf("nest of %d: Contains wrong for loop %d", n, li)
		}
	}
}

// irreducibleNestGraph is nestGraph behind a loop of two entries (blocks
// 1 and 2, both entered from block 0 and leaving for the nest), so that
// the component search builds the whole forest, the nest's n levels
// included.
func irreducibleNestGraph(n int) *Graph {
	nest := nestGraph(n)
	g := New(nest.Len() + 3)
	g.Succs[0] = []int{1, 2}
	g.Succs[1] = []int{2, 3}
	g.Succs[2] = []int{1, 3}
	for b, s := range nest.Succs {
		for _, x := range s {
			g.Succs[b+3] = append(g.Succs[b+3], x+3)
		}
	}
	return g
}

// TestComponentForestDeepNest checks the component search's forest of a
// deep nest behind an irreducible loop, and that the search lets go of
// each region's block list once it has searched the region: the lists of
// all regions sum to the blocks times the depth.
func TestComponentForestDeepNest(t *testing.T) {
	g := irreducibleNestGraph(60)
	f := LoopForest(g)
	if f.Reducible() || len(f.Loops) != 61 {
		t.Fatalf("%d loops, reducible %v", len(f.Loops), f.Reducible())
	}
	checkForestBlocks(t, "irreducible nest", g, f)

	g = irreducibleNestGraph(2000)
	o, preds := DFSOrder(g), g.Preds()
	f = &Forest{LoopOf: make([]int, g.Len())}
	for b := range f.LoopOf {
		f.LoopOf[b] = NoBlock
	}
	fb := newForestBuild(g, o, preds, f)
	fb.build(o, preds)
	if len(f.Loops) != 2001 || f.Loops[len(f.Loops)-1].Depth != 2000 {
		t.Fatalf("%d loops, the last %d deep", len(f.Loops), f.Loops[len(f.Loops)-1].Depth)
	}
	for i, r := range fb.work {
		if r.blocks != nil {
			t.Fatalf("region %d (loop %d) keeps its %d blocks after the search", i, r.parent, len(r.blocks))
		}
	}
}
