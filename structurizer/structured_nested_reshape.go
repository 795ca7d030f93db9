// structured_nested_reshape.go: the graphs the nested pass's search reruns
// on when a loop's shape keeps it from nesting: a loop's own header or
// latch added where the rules want one (withLoopBlocks: R3, R5, R12), and
// a forwarding merge for a loop whose only exit another construct declared
// (withForwarder). Each adds blocks from the graph's length up, so the
// input's blocks keep their ids.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// withLoopBlocks returns g with the blocks the loops pass ("loops first",
// structured_loops.go) gives a loop that lacks them, as synthetic blocks of the result: a loop
// whose header is a switch, or a conditional both of whose targets stay in
// the loop (R12), gets a header of its own (every edge into the
// old header goes to it; the switch becomes the loop's first block), and a
// loop with several back-edge blocks, a self-loop, or a back-edge block that
// a switch in the loop targets (R11: no continue target is a case target)
// gets a latch of its own (every back edge goes to it). No route is needed.
// A conditional self-loop, a loop of one block, nests as it is; the
// search reshapes it only when that fails (hasOneBlockLoop).
//
// g is copied when the first block is added (with room for a block per
// loop), and the latches go into the copy the headers made, whose lists
// the header step no longer reads but for their lengths, which redirect
// keeps; without a block to add, g itself is returned (the search only
// reads the graphs it runs on). The facts returned are the result's:
// those the steps found where the latch step adds nothing (factsOf's,
// with none of the lazy ones yet), else computed again.
func withLoopBlocks(g *cfg.Graph, facts *graphFacts) (*cfg.Graph, *graphFacts) {
	var ng *cfg.Graph // g's copy, nil until a block is added
	order, preds, forest, pre := facts.order, facts.preds, facts.forest, facts.pre
	for li, l := range forest.Loops {
		if h := l.Header; len(g.Succs[h]) > 2 || headerStays(g, forest, li) {
			if ng == nil {
				ng = cloneGraph(g, len(forest.Loops))
			}
			p := addBlock(ng, h)
			for _, b := range preds[h] {
				redirect(ng.Succs[b], h, p)
			}
		}
	}
	if ng != nil { // headers added: the loops are found again
		order, preds = cfg.DFSOrder(ng), ng.Preds()
		forest, pre = cfg.LoopForestOf(ng, order, preds), nil
		g = ng
	}
	latches := false
	for li, l := range forest.Loops {
		h := l.Header
		back := backEdgeBlocks(forest, li, preds[h])
		if len(back) > 1 || slices.Contains(back, h) || switchTargets(g, preds, forest, li, back[0]) {
			if ng == nil {
				ng = cloneGraph(g, len(forest.Loops))
			}
			latches = true
			c := addBlock(ng, h)
			for _, b := range back {
				redirect(ng.Succs[b], h, c)
			}
		}
	}
	switch {
	case latches:
		return ng, factsOf(ng)
	case pre == nil:
		pre = preorder(g)
	}
	return g, &graphFacts{order: order, preds: preds, forest: forest, pre: pre}
}

// hasOneBlockLoop reports whether a loop of forest over g is a loop of
// one block (oneBlockLoop), which withLoopBlocks gives a latch of its own.
func hasOneBlockLoop(g *cfg.Graph, forest *cfg.Forest) bool {
	for _, l := range forest.Loops {
		if len(l.Blocks) == 1 && oneBlockLoop(g, l.Header) {
			return true
		}
	}
	return false
}

// headerStays reports whether loop li of forest has a header that is a
// conditional whose targets both stay in the loop without either being a
// back-edge block: it needs a selection merge, which a loop header cannot
// declare (R12).
func headerStays(g *cfg.Graph, forest *cfg.Forest, li int) bool {
	l := &forest.Loops[li]
	s := g.Succs[l.Header]
	if len(s) != 2 || s[0] == s[1] {
		return false
	}
	for _, t := range s {
		if !forest.Contains(li, t) || slices.Contains(g.Succs[t], l.Header) {
			return false
		}
	}
	return true
}

// backEdgeBlocks lists the blocks of loop li of forest that branch to its
// header, in increasing order, from the header's predecessor list preds
// (increasing, as Graph.Preds makes it): no walk over the loop's blocks,
// whose lists grow with the nesting depth.
func backEdgeBlocks(forest *cfg.Forest, li int, preds []int) []int {
	var back []int
	for k, p := range preds {
		if (k == 0 || p != preds[k-1]) && forest.Contains(li, p) {
			back = append(back, p)
		}
	}
	return back
}

// switchTargets reports whether a switch in loop li of forest targets t
// (preds: g's predecessor lists).
func switchTargets(g *cfg.Graph, preds [][]int, forest *cfg.Forest, li, t int) bool {
	for _, p := range preds[t] {
		if len(g.Succs[p]) > 2 && forest.Contains(li, p) {
			return true
		}
	}
	return false
}

// cloneGraph copies g (weights and names kept) with room for room more
// blocks (addBlock).
func cloneGraph(g *cfg.Graph, room int) *cfg.Graph {
	n := g.Len()
	ng := &cfg.Graph{Succs: make([][]int, n, n+room), Weights: make([]int, n, n+room)}
	edges := 0
	for b := range g.Len() {
		edges += len(g.Succs[b])
	}
	all := make([]int, edges) // every block's list, each capped at its length
	for b := range g.Len() {
		k := len(g.Succs[b])
		ng.Succs[b], all = all[:k:k], all[k:]
		copy(ng.Succs[b], g.Succs[b])
		ng.Weights[b] = g.Weight(b)
	}
	if g.Names != nil {
		ng.Names = make([]string, n, n+room)
		copy(ng.Names, g.Names)
	}
	return ng
}

// addBlock appends a weightless block branching to t and returns its id.
func addBlock(g *cfg.Graph, t int) int {
	g.Succs = append(g.Succs, []int{t})
	g.Weights = append(g.Weights, 0)
	if g.Names != nil {
		g.Names = append(g.Names, "")
	}
	return len(g.Succs) - 1
}

// redirect replaces target from by to in succs.
func redirect(succs []int, from, to int) {
	for i, t := range succs {
		if t == from {
			succs[i] = to
		}
	}
}

// withForwarder returns g with a new block F (id g.Len(), weight 0) that
// branches to e, and every edge into e from a block loop header h dominates
// redirected to F: the loop gets a merge of its own where its only exit is
// a block some other construct declared (the enclosing loop's continue
// target, or its merge: a break out of two loops). F becomes a synthetic
// block of the result, so the layout adds a block but no route.
func withForwarder(g *cfg.Graph, facts *graphFacts, h, e int) *cfg.Graph {
	dom := cfg.DominatorsOf(g, facts.preds)
	ng := cloneGraph(g, 1)
	f := addBlock(ng, e)
	for b := range g.Len() {
		if dom.Dominates(h, b) {
			redirect(ng.Succs[b], e, f)
		}
	}
	return ng
}
