// dom_chk_test.go: the reference the semi-NCA trees are checked against:
// Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm"
// (Software Practice & Experience, 2001), the iterative data-flow
// formulation over reverse post-order with the two-finger intersect, on
// the graph and on its reverse with the virtual exit; compared with
// DominatorsOf and PostDominators on every graph of up to 4 blocks and on
// seeded random ones (and in dom_gen_test.go on the generators' graphs).

package cfg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The references for dom_gen_test.go, which package cfg_test holds
// because package gen imports this one.
var ChkDominators, ChkPostDominators = chkDominators, chkPostDominators

// chkDominators is Dominators(g).IDom by the iteration.
func chkDominators(g *Graph) []int {
	o := DFSOrder(g)
	preds := g.Preds()
	return chk(g.Len(), o.RPO, o.PostNum, func(b int) []int { return preds[b] })
}

// chkPostDominators is PostDominators(g).IDom by the iteration, on the
// reverse graph with the virtual exit as node n, a returning block's only
// successor.
func chkPostDominators(g *Graph) []int {
	n := g.Len()
	toExit := []int{n}
	succ := func(b int) []int {
		switch {
		case b == n:
			return nil
		case len(g.Succs[b]) == 0:
			return toExit
		}
		return g.Succs[b]
	}
	o := dfsOrder(reverseWithExit(g), n)
	idom := chk(n+1, o.RPO, o.PostNum, succ)
	for b := range idom {
		if idom[b] == n {
			idom[b] = Exit
		}
	}
	return idom[:n]
}

// chk is the Cooper-Harvey-Kennedy iteration, run as the paper runs it:
// over post-order numbers, not block ids. The intersect then compares the
// numbers themselves, and the dominators and predecessor lists are dense
// arrays in reverse post-order, read about in order: indexed by block id,
// a 100,000-block graph's arrays no longer fit a core's cache and every
// step of an intersect risks a miss. rpo lists the nodes reachable from
// the root (rpo[0]) in reverse post-order, postNum their post-order
// numbers, preds the predecessors in the direction of the analysis. The
// result is indexed by block id: NoBlock for the root and for the nodes
// rpo leaves out.
func chk(n int, rpo, postNum []int, preds func(int) []int) []int {
	m := len(rpo)
	// at[i]..at[i+1]: the post-order numbers of the reachable
	// predecessors of rpo[i], in pred[]; rpo[i]'s own number is m-1-i.
	at := make([]int32, m+1)
	var pred []int32
	for i, b := range rpo {
		at[i] = int32(len(pred))
		for _, p := range preds(b) {
			if q := postNum[p]; q >= 0 {
				pred = append(pred, int32(q))
			}
		}
	}
	at[m] = int32(len(pred))
	doms := make([]int32, m) // by post-order number; -1 not yet known
	for i := range doms {
		doms[i] = -1
	}
	if m > 0 {
		doms[m-1] = int32(m - 1) // the root, first in rpo
	}
	intersect := func(a, b int32) int32 {
		for a != b {
			for a < b {
				a = doms[a]
			}
			for b < a {
				b = doms[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := 1; i < m; i++ {
			nd := int32(-1)
			for _, p := range pred[at[i]:at[i+1]] {
				if doms[p] < 0 {
					continue // not yet processed
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if num := m - 1 - i; nd != doms[num] {
				doms[num] = nd
				changed = true
			}
		}
	}
	idom := make([]int, n)
	for b := range idom {
		idom[b] = NoBlock
	}
	for i := 1; i < m; i++ {
		if d := doms[m-1-i]; d >= 0 {
			idom[rpo[i]] = rpo[m-1-int(d)]
		}
	}
	return idom
}

// checkAgainstCHK fails the test where g's semi-NCA dominator or
// post-dominator tree differs from the iteration's.
func checkAgainstCHK(t *testing.T, name string, g *Graph) {
	t.Helper()
	if got, want := Dominators(g).IDom, chkDominators(g); !slices.Equal(got, want) {
		t.Fatalf("%s %v: idom %v, Cooper-Harvey-Kennedy %v", name, g, got, want)
	}
	if got, want := ImmediateDominators(g), chkDominators(g); !slices.Equal(got, want) {
		t.Fatalf("%s %v: ImmediateDominators %v, Cooper-Harvey-Kennedy %v", name, g, got, want)
	}
	if got, want := PostDominators(g).IDom, chkPostDominators(g); !slices.Equal(got, want) {
		t.Fatalf("%s %v: ipdom %v, Cooper-Harvey-Kennedy %v", name, g, got, want)
	}
}

// TestDominatorsMatchCHKExhaustive: every graph of 1 to 4 blocks whose
// blocks have at most two successors (unreachable and stuck blocks
// included).
func TestDominatorsMatchCHKExhaustive(t *testing.T) {
	stuck, unreached := 0, 0
	count := forEachSmallGraph(4, func(g *Graph) {
		checkAgainstCHK(t, "graph", g)
		p, d := PostDominators(g), Dominators(g)
		if len(p.Stuck()) > 0 {
			stuck++
		}
		if len(d.Stuck()) > 0 {
			unreached++
		}
	})
	t.Logf("%d graphs, %d with stuck blocks, %d with unreachable ones", count, stuck, unreached)
}

// TestDominatorsMatchCHKRandom: seeded random graphs of up to 14 blocks
// (forEachRandomGraph) and larger ones of up to 300.
func TestDominatorsMatchCHKRandom(t *testing.T) {
	forEachRandomGraph(t, 4000, func(i int, g *Graph) {
		checkAgainstCHK(t, "graph", g)
	})
	r := rand.New(rand.NewPCG(*analysisSeed, 53))
	for i := range 300 {
		n := 1 + r.IntN(300)
		var g *Graph
		if i%2 == 0 {
			g = randomAny(r, n)
			for b := range g.Succs { // sparser: longer paths, stuck blocks
				g.Succs[b] = g.Succs[b][:min(len(g.Succs[b]), 2)]
			}
		} else {
			g = randomForward(r, n)
		}
		checkAgainstCHK(t, "large graph", g)
	}
	checkAgainstCHK(t, "empty graph", New(0))
	for _, s := range shapes {
		checkAgainstCHK(t, s.name, s.gen(3000))
	}
}
