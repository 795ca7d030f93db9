// structured_levels_test.go: the selections pass's level analysis
// (structured_levels.go): the arena of level successors its walk reads.
package structurizer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestLevelSuccsListedInOrder: newLevelWalk lists every node's level
// successors, reached or not, in the order of the nodes, so that one
// sweep of the nodes fills the arena; each list is what appendLevelSuccs
// makes of the node.
func TestLevelSuccsListedInOrder(t *testing.T) {
	for _, sh := range shapes {
		g := sh.make(rand.New(rand.NewPCG(300, 1)), 300)
		w := loopsPassed(t, g)
		lw := newLevelWalk(w)
		next := int32(0)
		for x := range w.nodes {
			if lw.at[2*x] != next {
				t.Fatalf("%s: node %d's list starts at %d, want %d (the end of node %d's)", sh.name, x, lw.at[2*x], next, x-1)
			}
			next = lw.at[2*x+1]
			if want := appendLevelSuccs(w, x, nil); !slices.Equal(lw.succ(x), want) {
				t.Fatalf("%s: node %d's level successors listed as %v, want %v", sh.name, x, lw.succ(x), want)
			}
		}
	}
}

// TestTwiceScanPairs: the pairs listSuccs' sweep finds by the loops'
// headers are those of twiceToLoopScan's count of edges, on graphs whose
// nodes branch to a loop header on two arms.
func TestTwiceScanPairs(t *testing.T) {
	pairs := 0
	for seed := range uint64(40) {
		g := randomReducible(rand.New(rand.NewPCG(seed, 2)), 200)
		w := loopsPassed(t, g)
		lv := newLevels(w)
		for x := range w.nodes {
			for _, s := range w.nodes[x].succs {
				if want := lv.twiceToLoopScan(x, s); lv.twice[[2]int{x, s}] != want {
					t.Fatalf("seed %d: twice(%d, %d) = %v, the count of edges says %v", seed, x, s, !want, want)
				}
			}
		}
		pairs += len(lv.twice)
	}
	if pairs == 0 {
		t.Fatal("no node branches to a loop header twice: the test checks nothing")
	}
}

// TestLevelPredsFromRoom: each reached node's level predecessors, as
// fillPreds lists them in predRoom, are its distinct predecessors in
// reverse post-order, lv.in of them.
func TestLevelPredsFromRoom(t *testing.T) {
	for _, sh := range shapes {
		g := sh.make(rand.New(rand.NewPCG(400, 1)), 400)
		w := loopsPassed(t, g)
		lw := newLevelWalk(w)
		for _, root := range lw.entries {
			lw.postOrder(root)
			lw.number()
			lw.fillPreds()
			want := map[int][]int{}
			for i := len(lw.post) - 1; i >= 0; i-- {
				x := lw.post[i]
				for _, s := range lw.succ(x) {
					if k := len(want[s]); k == 0 || want[s][k-1] != x {
						want[s] = append(want[s], x)
					}
				}
			}
			for _, v := range lw.post {
				if got := lw.preds(v); !slices.Equal(got, want[v]) || len(got) != lw.lv.in[v] {
					t.Fatalf("%s: node %d's level predecessors %v (in %d), want %v", sh.name, v, got, lw.lv.in[v], want[v])
				}
			}
		}
	}
}

// TestLevelsFunctionEntry: the function level's entry newLevels finds
// from listSuccs' sweep is block 0's node exactly when the synthetic
// entry branches to it alone, it is plain, and no other node branches to
// it; on graphs of both kinds.
func TestLevelsFunctionEntry(t *testing.T) {
	kinds := map[int]int{}
	for _, sh := range shapes {
		for seed := range uint64(3) {
			g := sh.make(rand.New(rand.NewPCG(seed, 3)), 200)
			w := loopsPassed(t, g)
			want := 1
			if e := w.nodes[wEntry].succs; len(e) != 1 || e[0] != 1 || w.nodes[1].kind != wPlain {
				want = wEntry
			}
			for x := range w.nodes {
				if x != wEntry && slices.Contains(w.nodes[x].succs, 1) {
					want = wEntry
				}
			}
			if got := newLevels(w).entry; got != want {
				t.Fatalf("%s seed %d: the function level's entry is node %d, want %d", sh.name, seed, got, want)
			}
			kinds[want]++
		}
	}
	if kinds[1] == 0 || kinds[wEntry] == 0 {
		t.Fatalf("entries found %v: want graphs of both kinds", kinds)
	}
}

// loopsPassed is g's working graph after the irreducible and loops
// passes, as the selections pass gets it.
func loopsPassed(t *testing.T, g *cfg.Graph) *work {
	t.Helper()
	w := newWork(g, Options{})
	w.input = factsOf(g)
	if _, err := w.passIrreducible(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.passLoops(); err != nil {
		t.Fatal(err)
	}
	return w
}
