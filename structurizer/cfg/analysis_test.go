// analysis_test.go: every fast analysis against its brute-force reference
// on thousands of seeded random graphs of every shape (irreducible,
// exit-less, self-loops, switches with duplicate targets, unreachable
// blocks), plus the shape generators that double as benchmarks (after Go's
// cmd/compile/internal/ssa dom_test.go).
package cfg

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

var analysisSeed = flag.Uint64("analysis.seed", 20261129, "seed of the random graphs in analysis tests")

// randomAny is an arbitrary graph: any edges, out-degree 0-4.
func randomAny(r *rand.Rand, n int) *Graph {
	g := New(n)
	for b := range n {
		for range r.IntN(5) {
			g.Succs[b] = append(g.Succs[b], r.IntN(n))
		}
	}
	return g
}

// randomForward is mostly forward edges with a few back edges, so it is
// usually reducible with nested loops.
func randomForward(r *rand.Rand, n int) *Graph {
	g := New(n)
	for b := range n - 1 {
		g.Succs[b] = append(g.Succs[b], b+1)
		if r.IntN(3) == 0 {
			g.Succs[b] = append(g.Succs[b], b+1+r.IntN(n-b-1))
		}
		if r.IntN(6) == 0 {
			g.Succs[b] = append(g.Succs[b], r.IntN(b+1))
		}
	}
	return g
}

func forEachRandomGraph(t *testing.T, count int, f func(i int, g *Graph)) {
	t.Helper()
	t.Logf("seed %d (-analysis.seed to change)", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 1))
	for i := range count {
		n := 1 + r.IntN(14)
		var g *Graph
		if i%2 == 0 {
			g = randomAny(r, n)
		} else {
			g = randomForward(r, n)
		}
		f(i, g)
	}
}

func TestDominatorsMatchDefinition(t *testing.T) {
	forEachRandomGraph(t, 4000, func(i int, g *Graph) {
		want := RefDominates(g)
		d := Dominators(g)
		for a := range g.Len() {
			for b := range g.Len() {
				if d.Dominates(a, b) != want[a][b] {
					t.Fatalf("graph %d %v: Dominates(%d, %d) = %v, definition says %v", i, g, a, b, !want[a][b], want[a][b])
				}
			}
		}
		wantIDom := RefIDom(want, nil)
		wantIDom[0] = NoBlock
		if !slices.Equal(d.IDom, wantIDom) {
			t.Fatalf("graph %d %v: idom %v, definition %v", i, g, d.IDom, wantIDom)
		}
	})
}

func TestPostDominatorsMatchDefinition(t *testing.T) {
	forEachRandomGraph(t, 4000, func(i int, g *Graph) {
		want := RefPostDominates(g)
		live := RefReachesExit(g)
		p := PostDominators(g)
		for a := range g.Len() {
			for b := range g.Len() {
				if p.Dominates(a, b) != want[a][b] {
					t.Fatalf("graph %d %v: PostDominates(%d, %d) = %v, definition says %v", i, g, a, b, !want[a][b], want[a][b])
				}
			}
			if p.InTree(a) != live[a] {
				t.Fatalf("graph %d %v: block %d in post-dominator tree %v, reaches an exit %v", i, g, a, p.InTree(a), live[a])
			}
		}
		if wantIDom := RefIDom(want, live); !slices.Equal(p.IDom, wantIDom) {
			t.Fatalf("graph %d %v: ipdom %v, definition %v", i, g, p.IDom, wantIDom)
		}
	})
}

func TestReducibilityMatchesT1T2(t *testing.T) {
	reducible := 0
	forEachRandomGraph(t, 4000, func(i int, g *Graph) {
		got, want := Reducible(g), RefReducible(g)
		if got != want {
			t.Fatalf("graph %d %v: Reducible %v, T1/T2 collapse says %v", i, g, got, want)
		}
		if want {
			reducible++
		}
	})
	// The generators must exercise both answers.
	if reducible < 400 || reducible > 3600 {
		t.Fatalf("only %d of 4000 random graphs reducible: the test does not exercise both sides", reducible)
	}
}

func TestLoopForestMatchesSCCDefinition(t *testing.T) {
	forEachRandomGraph(t, 3000, func(i int, g *Graph) {
		want := RefLoopBlocks(g)
		f := LoopForest(g)
		var got []RefLoop
		for _, l := range f.Loops {
			entries := slices.Clone(l.Entries)
			slices.Sort(entries)
			got = append(got, RefLoop{Blocks: slices.Sorted(slices.Values(l.Blocks)), Entries: entries})
		}
		slices.SortFunc(got, func(a, b RefLoop) int {
			if a.Blocks[0] != b.Blocks[0] {
				return a.Blocks[0] - b.Blocks[0]
			}
			return len(b.Blocks) - len(a.Blocks)
		})
		if len(got) != len(want) {
			t.Fatalf("graph %d %v: %d loops, definition %d: %v vs %v", i, g, len(got), len(want), got, want)
		}
		for k := range got {
			if !slices.Equal(got[k].Blocks, want[k].Blocks) || !slices.Equal(got[k].Entries, want[k].Entries) {
				t.Fatalf("graph %d %v: loop %v, definition %v", i, g, got[k], want[k])
			}
		}
		checkForestShape(t, i, g, f)
	})
}

// checkForestShape checks the forest's own invariants: children inside
// parents, LoopOf the innermost loop, and for reducible loops a header that
// dominates the loop.
func checkForestShape(t *testing.T, i int, g *Graph, f *Forest) {
	t.Helper()
	dom := Dominators(g)
	o := DFSOrder(g)
	byRPO := func(a, b int) int { return o.RPONum[a] - o.RPONum[b] }
	for li, l := range f.Loops {
		if l.Header != l.Entries[0] || !slices.IsSortedFunc(l.Entries, byRPO) {
			t.Fatalf("graph %d %v: loop %d: header %d, entries %v not in reverse post-order", i, g, li, l.Header, l.Entries)
		}
		if l.Parent >= li {
			t.Fatalf("graph %d %v: loop %d listed before its parent %d", i, g, li, l.Parent)
		}
		if l.Parent != NoBlock {
			for _, b := range l.Blocks {
				if !slices.Contains(f.Loops[l.Parent].Blocks, b) {
					t.Fatalf("graph %d %v: loop %d has block %d outside its parent", i, g, li, b)
				}
			}
		}
		if !l.Irreducible {
			for _, b := range l.Blocks {
				if !dom.Dominates(l.Header, b) {
					t.Fatalf("graph %d %v: reducible loop header %d does not dominate %d", i, g, l.Header, b)
				}
			}
		}
		for _, b := range l.Blocks {
			if !f.Contains(li, b) {
				t.Fatalf("graph %d %v: Contains(%d, %d) false", i, g, li, b)
			}
		}
	}
}

func TestNaturalLoopsOfReducibleGraphs(t *testing.T) {
	// In a reducible graph each loop is the union of the natural loops of
	// its header's back edges (t -> h with h dominating t).
	forEachRandomGraph(t, 3000, func(i int, g *Graph) {
		if !RefReducible(g) {
			return
		}
		dom := Dominators(g)
		f := LoopForest(g)
		preds := g.Preds()
		reach := g.Reachable()
		for _, l := range f.Loops {
			natural := map[int]bool{l.Header: true}
			var stack []int
			for _, p := range preds[l.Header] {
				if reach[p] && dom.Dominates(l.Header, p) && !natural[p] {
					natural[p] = true
					stack = append(stack, p)
				}
			}
			for len(stack) > 0 {
				b := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, p := range preds[b] {
					if reach[p] && !natural[p] {
						natural[p] = true
						stack = append(stack, p)
					}
				}
			}
			if len(natural) != len(l.Blocks) {
				t.Fatalf("graph %d %v: loop at %d has %v, natural loop %v", i, g, l.Header, l.Blocks, natural)
			}
		}
	})
}

func TestDFSOrder(t *testing.T) {
	forEachRandomGraph(t, 2000, func(i int, g *Graph) {
		o := DFSOrder(g)
		reach := g.Reachable()
		count := 0
		for b, r := range reach {
			if r {
				count++
				if o.RPO[o.RPONum[b]] != b {
					t.Fatalf("graph %d: RPONum inconsistent at %d", i, b)
				}
			} else if o.RPONum[b] != NoBlock {
				t.Fatalf("graph %d: unreachable %d numbered", i, b)
			}
		}
		if len(o.RPO) != count || o.RPO[0] != 0 {
			t.Fatalf("graph %d %v: RPO %v", i, g, o.RPO)
		}
		// Every edge that is not a retreating edge goes forward in RPO.
		dom := Dominators(g)
		for b, s := range g.Succs {
			if !reach[b] {
				continue
			}
			for _, t2 := range s {
				if o.RPONum[t2] <= o.RPONum[b] && dom.Dominates(t2, b) {
					continue // back edge
				}
				if o.RPONum[t2] <= o.RPONum[b] && o.PostNum[t2] < o.PostNum[b] {
					t.Fatalf("graph %d %v: edge %d->%d backwards in RPO but not retreating", i, g, b, t2)
				}
			}
		}
	})
}

func TestStuckBlocksHaveNoPostDominator(t *testing.T) {
	g := FromSuccs([][]int{{1, 2}, {1}, {}}) // block 1 loops forever
	p := PostDominators(g)
	if p.InTree(1) || p.IDom[1] != NoBlock {
		t.Fatalf("stuck block 1: in tree %v idom %d", p.InTree(1), p.IDom[1])
	}
	if p.IDom[0] != 2 || p.IDom[2] != Exit {
		t.Fatalf("ipdom %v, want 0->2, 2->exit", p.IDom)
	}
	if got := p.Stuck(); !slices.Equal(got, []int{1}) {
		t.Fatalf("Stuck() = %v", got)
	}
}

// Shape generators, after cmd/compile/internal/ssa's dom_test.go.

// genLinear is a chain of n blocks.
func genLinear(n int) *Graph {
	g := New(n)
	for b := range n - 1 {
		g.Succs[b] = []int{b + 1}
	}
	return g
}

// genFwdBack branches forward and back: many nested loops.
func genFwdBack(n int) *Graph {
	g := New(n)
	for b := range n - 1 {
		switch b % 3 {
		case 0:
			g.Succs[b] = []int{b + 1, min(n-1, b+3)}
		case 1:
			g.Succs[b] = []int{b + 1, max(0, b-2)}
		default:
			g.Succs[b] = []int{b + 1}
		}
	}
	return g
}

// genRandom is a seeded random mostly-forward graph.
func genRandom(n int) *Graph {
	return randomForward(rand.New(rand.NewPCG(uint64(n), 7)), n)
}

var shapes = []struct {
	name string
	gen  func(int) *Graph
}{{"linear", genLinear}, {"fwdback", genFwdBack}, {"random", genRandom}}

func BenchmarkDominators(b *testing.B) {
	for _, s := range shapes {
		g := s.gen(10000)
		b.Run(s.name+"-10000", func(b *testing.B) {
			for b.Loop() {
				Dominators(g)
			}
		})
	}
}

func BenchmarkPostDominators(b *testing.B) {
	for _, s := range shapes {
		g := s.gen(10000)
		b.Run(s.name+"-10000", func(b *testing.B) {
			for b.Loop() {
				PostDominators(g)
			}
		})
	}
}

func BenchmarkLoopForest(b *testing.B) {
	for _, s := range shapes {
		g := s.gen(10000)
		b.Run(s.name+"-10000", func(b *testing.B) {
			for b.Loop() {
				LoopForest(g)
			}
		})
	}
}

// TestPredsAgainstAppend: Preds (and Predecessors) list what appending
// every edge to its target's list gives, and appending to one list leaves the others as
// they were (the lists share one array).
func TestPredsAgainstAppend(t *testing.T) {
	t.Logf("seed %d", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 41))
	for i := range 2000 {
		g := randomAny(r, 1+r.IntN(12))
		want := make([][]int, g.Len())
		for b, s := range g.Succs {
			for _, x := range s {
				want[x] = append(want[x], b)
			}
		}
		got := g.Preds()
		viaFunc := Predecessors(g.Len(), func(b int) []int { return g.Succs[b] })
		for b := range want {
			if !slices.Equal(viaFunc[b], want[b]) || (viaFunc[b] == nil) != (want[b] == nil) {
				t.Fatalf("graph %d %v: Predecessors of %d %v, want %v", i, g, b, viaFunc[b], want[b])
			}
			if !slices.Equal(got[b], want[b]) || (got[b] == nil) != (want[b] == nil) {
				t.Fatalf("graph %d %v: preds of %d %v, want %v", i, g, b, got[b], want[b])
			}
		}
		for b := range got {
			got[b] = append(got[b], -1)
			for c := range want {
				if c != b && !slices.Equal(got[c], want[c]) {
					t.Fatalf("graph %d %v: appending to the preds of %d changed those of %d", i, g, b, c)
				}
			}
			got[b] = got[b][:len(got[b])-1]
		}
	}
}

// TestReverseWithExitAgainstPredecessors: PostDominators' reverse graph
// (reverseWithExit) is Predecessors over its successor function: a block's
// successors, or the virtual exit for a returning block.
func TestReverseWithExitAgainstPredecessors(t *testing.T) {
	t.Logf("seed %d", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 43))
	for i := range 2000 {
		g := randomAny(r, 1+r.IntN(12))
		n := g.Len()
		want := Predecessors(n+1, func(b int) []int {
			switch {
			case b == n:
				return nil
			case len(g.Succs[b]) == 0:
				return []int{n}
			}
			return g.Succs[b]
		})
		got := reverseWithExit(g)
		for b := range want {
			if !slices.Equal(got[b], want[b]) || (got[b] == nil) != (want[b] == nil) {
				t.Fatalf("graph %d %v: reverse list of %d %v, want %v", i, g, b, got[b], want[b])
			}
		}
	}
}

// TestInRPOAgainstRecursiveDFS: InRPO keeps the blocks a recursive
// depth-first search from the entry reaches, numbered in the reverse of
// the order it finishes them, with their weights, names and successor
// order; a graph already in that order comes back as it is; and a
// renumbered graph (entry kept) gives the same graph.
func TestInRPOAgainstRecursiveDFS(t *testing.T) {
	t.Logf("seed %d", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 47))
	for i := range 2000 {
		n := 1 + r.IntN(14)
		g := randomAny(r, n)
		if i%2 == 1 {
			g = randomForward(r, n)
		}
		g.Names = make([]string, n)
		for b := range n {
			g.Weights[b], g.Names[b] = r.IntN(4), fmt.Sprintf("b%d", b)
		}
		var post []int
		seen := make([]bool, n)
		var visit func(b int)
		visit = func(b int) {
			seen[b] = true
			for _, s := range g.Succs[b] {
				if !seen[s] {
					visit(s)
				}
			}
			post = append(post, b)
		}
		visit(0)
		slices.Reverse(post)
		h, old := g.InRPO()
		if old == nil {
			if !slices.Equal(post, identity(n)) {
				t.Fatalf("graph %d %v: InRPO kept the numbering, RPO is %v", i, g, post)
			}
			continue
		}
		if !slices.Equal(old, post) {
			t.Fatalf("graph %d %v: InRPO order %v, the recursive search's %v", i, g, old, post)
		}
		newID := map[int]int{}
		for nb, ob := range old {
			newID[ob] = nb
		}
		for nb, ob := range old {
			want := make([]int, 0, len(g.Succs[ob]))
			for _, s := range g.Succs[ob] {
				want = append(want, newID[s])
			}
			if !slices.Equal(h.Succs[nb], want) || h.Weights[nb] != g.Weights[ob] || h.Names[nb] != g.Names[ob] {
				t.Fatalf("graph %d %v: block %d (was %d) is %v w%d %q, want %v w%d %q", i, g, nb, ob, h.Succs[nb], h.Weights[nb], h.Names[nb], want, g.Weights[ob], g.Names[ob])
			}
		}
		if again, o := h.InRPO(); o != nil || again != h {
			t.Fatalf("graph %d %v: InRPO of its result renumbered it again: %v", i, g, o)
		}
		perm := identity(n)
		r.Shuffle(n-1, func(a, b int) { perm[a+1], perm[b+1] = perm[b+1], perm[a+1] })
		p, _ := g.Permute(perm).InRPO()
		if !slices.EqualFunc(p.Succs, h.Succs, slices.Equal[[]int]) {
			t.Fatalf("graph %d %v renumbered by %v: InRPO gives %v, the graph's own %v", i, g, perm, p.Succs, h.Succs)
		}
	}
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// TestReachableFrom: the blocks reachable from several roots are the
// union of what each reaches, roots included; from the entry alone,
// Reachable's.
func TestReachableFrom(t *testing.T) {
	g, err := ParseCompact("{{1}, {}, {1}, {4}, {3}, {2}}", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		roots []int
		want  []bool
	}{
		{[]int{0}, []bool{true, true, false, false, false, false}},
		{[]int{0, 3}, []bool{true, true, false, true, true, false}},
		{[]int{5, 5}, []bool{false, true, true, false, false, true}},
		{nil, []bool{false, false, false, false, false, false}},
	} {
		if got := g.ReachableFrom(c.roots...); !slices.Equal(got, c.want) {
			t.Errorf("from %v: %v, want %v", c.roots, got, c.want)
		}
	}
	if got, want := g.ReachableFrom(0), g.Reachable(); !slices.Equal(got, want) {
		t.Errorf("from the entry %v, Reachable %v", got, want)
	}
}
