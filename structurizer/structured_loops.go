// structured_loops.go: the loops pass of the structured strategy ("loops
// first": natural loops, the loop nesting forest, are recovered before any
// selection merge is inferred). On the reducible working graph it gives every loop of
// the nesting forest a header H_L (OpLoopMerge M_L C_L), one latch C_L
// (every back edge goes there: one continue target and one back-edge block,
// rules R3 and R5) and one merge M_L (every exit goes there, rule R6 for
// loops). They are the input's own blocks where the rules allow (a header
// that only branches or is a while loop's test, a lone back-edge block that
// only branches back, a lone exit destination nothing else enters), fresh
// synthetic ones otherwise; reusing them is what makes structurizing a
// structured function add nothing (the idempotence the meta oracle checks).
//
// A loop that leaves for several destinations stores the destination's
// route value on the exit edge (except for its first, default destination)
// and M_L routes on it; the route is cleared at H_L, so a stale value routes
// nothing. An exit that leaves several loops goes merge by merge: M_L's edge
// to the destination is itself an exit of the enclosing loop, routed the
// same way. Before that, what lies between a loop's exits and the block
// where they meet (or, failing that, where they meet unless they return)
// moves into the loop (inner loops included), so most loops leave for one
// block and need no route.
//
// Return tails (blocks in no cycle all of whose paths return) stay in the
// innermost loop that holds all their predecessors: a return inside a loop
// needs no route (rule R7 allows it outside continue constructs). Where a
// loop's exits meet at a return tail, the meeting point moves on past any
// skip over a join that follows it: the guard the emitter puts at such a
// skip would be where the exits meet when the output is structurized again.
//
// This file holds the pass (loopsPass) and the step placing each loop's
// nodes; the other steps have files of their own: the return tails
// (structured_loops_tails.go), each loop's way out
// (structured_loops_exits.go, over the exit destinations of
// structured_loops_dests.go, kept across rounds by
// structured_loops_dests_kept.go, and the exit regions of
// structured_loops_region.go), and routing every edge, last
// (structured_loops_route.go).

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// loopsPass is the loops pass over one working graph: the loop forest and
// depth-first orders of the graph it starts from (the irreducible pass's,
// else its own) and the predecessors of that graph's nodes, which every
// step reads; the nodes it adds come after them.
type loopsPass struct {
	*work
	f     *cfg.Forest
	dfs   cfg.Order
	preds [][]int // predecessors of the nodes the pass started with
}

// passLoops normalizes every loop.
func (w *work) passLoops() (bool, error) { return (&loopsPass{work: w}).run() }

// run normalizes every loop.
//
// Pre: the working graph is reducible; the entry node has no predecessor.
// Post: every node has a level (the loop whose body holds it, -1 for the
// function); every edge stays within its level, goes to the level's latch
// or merge, or enters a child loop at its H; each loop has exactly the
// nodes H, C, M; M's successors are at the parent level.
//
// Progress: one walk over the nodes and their edges; the routing of an exit
// recurses once per loop it leaves (the forest is finite and acyclic).
func (lp *loopsPass) run() (bool, error) {
	lp.f, lp.dfs = lp.forest, lp.order // the irreducible pass's, on this graph
	if lp.f == nil {
		g := lp.graph()
		lp.dfs = cfg.DFSOrder(g)
		lp.f = cfg.LoopForestOf(g, lp.dfs, g.Preds())
	}
	f := lp.f
	if !f.Reducible() {
		return false, fmt.Errorf("bug: loops pass on an irreducible graph")
	}
	if len(f.Loops) == 0 {
		lp.level = filled(len(lp.nodes), -1)
		return false, nil
	}
	n0 := len(lp.nodes)
	lp.loops, lp.spans = make([]wloop, len(f.Loops)), nil
	for li, l := range f.Loops {
		lp.loops[li] = wloop{entry: l.Header, parent: l.Parent} // store is made on first use
	}
	level := make([]int, n0, cap(lp.nodes)) // grows with the nodes (workCap)
	for b := range level {
		level[b] = f.LoopOf[b]
	}
	lp.preds = predsInOrder(lp.nodes, lp.dfs.RPO, n0) // absorbTails moves levels alone: the edges stay
	lp.absorbTails(level)
	lp.level = level
	if err := lp.findExits(); err != nil {
		return true, err
	}
	lp.spanLoops()
	for li := range lp.loops {
		lp.placeLoop(li)
	}
	if err := (exitRouter{lp.work}).routeEdges(f, lp.dfs.RPO, n0); err != nil {
		return true, err
	}
	enterBodies(lp.loops, lp.nodes)
	return true, nil
}

// enterBodies sets the body entry of each loop whose header is the input's
// own block: the header's target other than the loop's merge.
func enterBodies(loops []wloop, nodes []wnode) {
	for li := range loops {
		l := &loops[li]
		if nodes[l.H].orig >= 0 {
			for _, t := range nodes[l.H].succs {
				if t != l.M {
					l.entry = t
				}
			}
		}
	}
}

// placeLoop gives loop li its header, latch and merge nodes: the loop's own
// header when it only branches (so it can carry OpLoopMerge), its only
// back-edge block when that only branches back (a continue construct of one
// block), and its only exit destination when nothing else enters it; fresh
// synthetic nodes otherwise. Reusing them is what makes structurizing a
// structured output add nothing (idempotence).
func (lp *loopsPass) placeLoop(li int) {
	l := &lp.loops[li]
	if d := lp.mergeCandidate(li); d >= 0 {
		l.M, l.reusedM = d, true
	} else {
		l.M = lp.add(wnode{orig: -1, kind: wLoopMerge, loop: li, name: "merge"})
		lp.level = append(lp.level, l.parent)
	}
	h := l.entry
	if ownHeader(l, lp.nodes) {
		hn := &lp.nodes[h]
		hn.kind, hn.loop = wLoopHeader, li
		l.H = h
		lp.level[h] = l.parent
	} else {
		l.H = lp.add(wnode{orig: -1, kind: wLoopHeader, loop: li, succs: lp.list(h), name: "loop"})
		lp.level = append(lp.level, l.parent)
	}
	if u := lp.latchCandidate(li); u >= 0 {
		lp.nodes[u].kind, lp.nodes[u].loop = wLatch, li
		l.C = u
	} else {
		l.C = lp.add(wnode{orig: -1, kind: wLatch, loop: li, name: "latch"})
		lp.level = append(lp.level, li)
	}
}

// ownHeader: loop l's own header (among nodes) can carry OpLoopMerge when
// it only branches into the loop, or is a conditional whose other target
// is the loop's merge (a while loop's test): the merge itself, or the
// loop's one exit destination, which the edge reaches through a synthetic
// merge with no store (its value is the merge's only one: routeEdges).
func ownHeader(l *wloop, nodes []wnode) bool {
	hn := &nodes[l.entry]
	if hn.kind != wPlain {
		return false
	}
	switch len(hn.succs) {
	case 1:
		return hn.succs[0] != l.entry
	case 2:
		out := l.M
		if !l.reusedM {
			out = l.exit
		}
		a, b := hn.succs[0], hn.succs[1]
		if b == out {
			a, b = b, a
		}
		return hn.orig >= 0 && out >= 0 && a == out && b != out && b != l.entry
	}
	return false
}

// latchCandidate is loop li's only back-edge block when it can be the
// latch: it lies in li and no nested loop, only branches back, and is not
// the header's own successor (the body would be empty); -1 otherwise.
func (lp *loopsPass) latchCandidate(li int) int {
	h := lp.loops[li].entry
	u, count := -1, 0
	for _, b := range lp.preds[h] {
		if lp.inLoop(li, lp.level[b]) {
			u = b
			count++
		}
	}
	if count != 1 || u == h || lp.level[u] != li || lp.nodes[u].kind != wPlain || len(lp.nodes[u].succs) != 1 {
		return -1
	}
	if _, ok := lp.f.IsHeader(u); ok {
		return -1
	}
	if lp.nodes[h].kind == wLoopHeader && slices.Contains(lp.nodes[h].succs, u) {
		return -1
	}
	return u
}

// mergeCandidate is loop li's only exit destination when it can be the
// merge: a plain block of the parent level entered only from inside li;
// -1 otherwise.
func (lp *loopsPass) mergeCandidate(li int) int {
	d := lp.loops[li].exit
	if d < 0 || lp.nodes[d].kind != wPlain || lp.level[d] != lp.loops[li].parent {
		return -1
	}
	if _, ok := lp.f.IsHeader(d); ok {
		return -1
	}
	for _, p := range lp.preds[d] {
		if !lp.inLoop(li, lp.level[p]) {
			return -1
		}
	}
	return d
}

// predsInOrder lists the predecessors of each of the first n nodes among
// the nodes of rpo, in that order (once per edge; nil for none): what
// appending each edge to its target's list gives, in one array with each
// list capped at its length (cfg.PredecessorsInOrder's counting sort).
func predsInOrder(nodes []wnode, rpo []int, n int) [][]int {
	return cfg.PredecessorsInOrder(n, rpo, func(b int) []int { return nodes[b].succs })
}
