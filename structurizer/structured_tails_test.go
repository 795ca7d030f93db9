// structured_tails_test.go: the dominator-tree tail test (tailSize)
// against the walk of the definition (tailWalk) for every loop and every
// merge of random graphs, and a bound on the blocks the tail tests visit
// on a long sequence of loops with early returns.
package structurizer

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// compareTails checks tailSize against tailWalk on every loop of g and
// every merge (-1 and every block).
func compareTails(t *testing.T, g *cfg.Graph, what string) (closing int) {
	t.Helper()
	nt := newNester(g)
	if !nt.forest.Reducible() {
		return 0
	}
	in := make([]bool, g.Len())
	targets, _ := loopExitTargets(g, nt.forest, exitBudget(g.Len(), g.Edges()))
	for li, l := range nt.forest.Loops {
		for _, b := range l.Blocks {
			in[b] = true
		}
		var exits []int
		edges := map[int32]int32{} // exit -> the loop's edges to it
		for _, b := range l.Blocks {
			for _, s := range g.Succs[b] {
				if !in[s] {
					edges[int32(s)]++
					if !slices.Contains(exits, s) {
						exits = append(exits, s)
					}
				}
			}
		}
		got := map[int32]int32{}
		for _, e := range targets[li] {
			if _, twice := got[e.to]; twice {
				t.Fatalf("%s: loop %d: exit %d listed twice", what, l.Header, e.to)
			}
			got[e.to] = e.n
		}
		if !maps.Equal(got, edges) {
			t.Fatalf("%s: loop %d: exits %v, want %v", what, l.Header, got, edges)
		}
		lt := newLoopTails(g, nt.facts, &nt.walkMarks, l.Header, len(l.Blocks), loopIn{nt.forest, li}, targets[li], exits)
		for m := -1; m < g.Len(); m++ {
			size, into := lt.tailSize(m)
			wsize, winto := lt.tailWalk(m, false)
			if size != wsize || into != winto {
				t.Fatalf("%s: loop %d merge %d: tailSize (%d, %d), walk (%d, %d)\n%v", what, l.Header, m, size, into, wsize, winto, g.Succs)
			}
			if size >= 0 {
				closing++
			}
		}
		for _, b := range l.Blocks {
			in[b] = false
		}
	}
	return closing
}

func TestTailSizeMatchesWalk(t *testing.T) {
	seed := uint64(20)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	closing := 0
	for i := range 600 {
		g := randomReducible(r, 3+r.IntN(40))
		if i%3 == 0 { // block 0 heads a loop
			b := 1 + r.IntN(g.Len()-1)
			g.Succs[b] = append(g.Succs[b], 0)
		}
		closing += compareTails(t, g, "random")
	}
	for _, k := range []gen.Kind{gen.Reducible, gen.Program} {
		for s := range uint64(150) {
			it, err := gen.Generate(gen.Config{Kind: k}, seed+s)
			if err != nil {
				t.Fatal(err)
			}
			closing += compareTails(t, it.Graph, string(k))
		}
	}
	if closing < 1000 {
		t.Fatalf("only %d closing tails compared", closing)
	}
	t.Logf("%d closing tails compared", closing)
}

// loopSequence is k bottom-tested loops in a row, each with an early
// return: block 4i is the header, 4i+1 the body (to the latch or a
// return), 4i+2 the latch (back or on to the next loop), 4i+3 the return;
// the last latch leaves to a final return.
func loopSequence(k int) *cfg.Graph {
	g := cfg.New(4*k + 1)
	for i := range k {
		h := 4 * i
		g.Succs[h] = []int{h + 1}
		g.Succs[h+1] = []int{h + 2, h + 3}
		g.Succs[h+2] = []int{h, h + 4}
	}
	return g
}

// TestTailTestsNearLinear bounds the blocks the tail tests of one run's
// loops visit: a few per block, where walking every candidate's tails
// walks the rest of the function per loop.
func TestTailTestsNearLinear(t *testing.T) {
	g := loopSequence(2000)
	nt := newNester(g)
	if !nt.declareLoops() {
		t.Fatalf("loops do not nest: %s", nt.why)
	}
	if limit := 8 * g.Len(); nt.walked > limit {
		t.Fatalf("tail tests visited %d blocks, more than %d for %d blocks", nt.walked, limit, g.Len())
	}
	t.Logf("%d blocks, tail tests visited %d", g.Len(), nt.walked)
}
