// structured_loops.go: the loops pass of the structured strategy ("loops
// first", as in the DESIGN's structurizer section and the field reports on
// routed loop exits). On the reducible working graph it gives every loop of
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
package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// passLoops normalizes every loop.
//
// Pre: the working graph is reducible; the entry node has no predecessor.
// Post: every node has a level (the loop whose body holds it, -1 for the
// function); every edge stays within its level, goes to the level's latch
// or merge, or enters a child loop at its H; each loop has exactly the
// nodes H, C, M; M's successors are at the parent level.
//
// Progress: one walk over the nodes and their edges; the routing of an exit
// recurses once per loop it leaves (the forest is finite and acyclic).
func (w *work) passLoops() (bool, error) {
	g := w.graph()
	f, order := w.forest, w.order // the irreducible pass's, on this graph
	if f == nil {
		order = cfg.DFSOrder(g)
		f = cfg.LoopForestOf(g, order, g.Preds())
	}
	if !f.Reducible() {
		return false, fmt.Errorf("bug: loops pass on an irreducible graph")
	}
	if len(f.Loops) == 0 {
		w.level = make([]int, len(w.nodes))
		for i := range w.level {
			w.level[i] = -1
		}
		return false, nil
	}
	n0 := len(w.nodes)
	w.loops = make([]wloop, len(f.Loops))
	for li, l := range f.Loops {
		w.loops[li] = wloop{entry: l.Header, parent: l.Parent} // store is made on first use
	}
	level := make([]int, n0)
	for b := range level {
		level[b] = f.LoopOf[b]
	}
	w.absorbTails(f, order, level)
	w.level = level
	w.preds = w.predsInOrder(order.RPO, n0)
	w.findExits(f, order)
	for li := range w.loops {
		w.placeLoop(f, li)
	}
	for _, b := range order.RPO {
		if b >= n0 || w.nodes[b].kind == wLatch {
			continue
		}
		from := w.level[b]
		if w.nodes[b].kind == wLoopHeader {
			from = w.nodes[b].loop // a reused header's edge goes into its body
		}
		for i, t := range w.nodes[b].succs {
			d := t
			if lt, ok := f.IsHeader(t); ok {
				if w.inLoop(lt, from) {
					d = w.loops[lt].C
				} else {
					d = w.loops[lt].H
				}
			}
			nt, err := w.hop(from, d)
			if err != nil {
				return true, err
			}
			w.nodes[b].succs[i] = nt
		}
	}
	for li := range w.loops {
		l := &w.loops[li]
		if w.nodes[l.H].orig >= 0 {
			for _, t := range w.nodes[l.H].succs {
				if t != l.M {
					l.entry = t
				}
			}
		}
	}
	return true, nil
}

// placeLoop gives loop li its header, latch and merge nodes: the loop's own
// header when it only branches (so it can carry OpLoopMerge), its only
// back-edge block when that only branches back (a continue construct of one
// block), and its only exit destination when nothing else enters it; fresh
// synthetic nodes otherwise. Reusing them is what makes structurizing a
// structured output add nothing (idempotence).
func (w *work) placeLoop(f *cfg.Forest, li int) {
	l := &w.loops[li]
	if d := w.mergeCandidate(f, li); d >= 0 {
		l.M, l.reusedM = d, true
	} else {
		l.M = w.add(wnode{orig: -1, kind: wLoopMerge, loop: li, name: "merge"})
		w.level = append(w.level, l.parent)
	}
	h := l.entry
	if w.headerCandidate(li) {
		hn := &w.nodes[h]
		hn.kind, hn.loop = wLoopHeader, li
		l.H = h
		w.level[h] = l.parent
	} else {
		l.H = w.add(wnode{orig: -1, kind: wLoopHeader, loop: li, succs: []int{h}, name: "loop"})
		w.level = append(w.level, l.parent)
	}
	if u := w.latchCandidate(f, li); u >= 0 {
		w.nodes[u].kind, w.nodes[u].loop = wLatch, li
		l.C = u
	} else {
		l.C = w.add(wnode{orig: -1, kind: wLatch, loop: li, name: "latch"})
		w.level = append(w.level, li)
	}
}

// headerCandidate: loop li's own header can carry OpLoopMerge when it only
// branches into the loop, or is a conditional whose other target is the
// loop's merge (a while loop's test).
func (w *work) headerCandidate(li int) bool {
	l := &w.loops[li]
	hn := &w.nodes[l.entry]
	if hn.kind != wPlain {
		return false
	}
	switch len(hn.succs) {
	case 1:
		return hn.succs[0] != l.entry
	case 2:
		a, b := hn.succs[0], hn.succs[1]
		if b == l.M {
			a, b = b, a
		}
		return hn.orig >= 0 && l.reusedM && a == l.M && b != l.M && b != l.entry
	}
	return false
}

// findExits records each loop's exit destination: the one block its exits
// go to, or -1 when they go to several, continue an outer loop or enter
// another loop. A destination that only branches on to another destination
// of the same loop and is entered only from the loop (an exit store left by
// an earlier structurization, say) is moved into the loop first.
//
// Progress: each round moves at least one block into a deeper level, and a
// block can only go as deep as the loop nesting, so the rounds end.
func (w *work) findExits(f *cfg.Forest, order cfg.Order) {
	var pdom *cfg.DomTree // computed once, when a loop leaves for several blocks
	tail := w.tails(f, order, len(w.nodes))
	// The post-dominators with returns ignored depend on a round only
	// through the loops whose exits all return (the edges do not change),
	// so they are computed when first needed and again only when those
	// loops change.
	var pdomTails *cfg.DomTree
	var returning []int // pdomTails' loops whose exits all return
	for {
		dests := w.exitDests(f, order)
		moved := false
		// fresh: pdomTails is known to fit this round's dests.
		fresh := false
		for li := len(dests) - 1; li >= 0; li-- { // inner loops first
			if len(dests[li]) >= 2 && pdom == nil {
				pdom = w.postDominators(dests, nil)
			}
			if w.absorbRegion(f, pdom, tail, li, dests[li], false) {
				moved = true
				continue
			}
			if len(dests[li]) < 2 {
				continue
			}
			if !fresh {
				if r := returningLoops(dests, tail); pdomTails == nil || !slices.Equal(r, returning) {
					pdomTails, returning = w.postDominators(dests, tail), r
				}
				fresh = true
			}
			if w.absorbRegion(f, pdomTails, tail, li, dests[li], true) {
				moved = true
			}
		}
		if moved {
			continue
		}
		for li, ds := range dests {
			set := w.newDestSet(ds)
			for _, d := range ds {
				if w.absorbable(f, tail, li, d, ds, set) {
					w.level[d] = li
					moved = true
				}
			}
		}
		if moved {
			continue
		}
		for li := range w.loops {
			w.loops[li].exit = -1
			if len(dests[li]) == 1 {
				w.loops[li].exit = dests[li][0]
			}
		}
		return
	}
}

// postDominators of the working graph in which every loop without an exit
// also leaves for a sink: the structured form names such a loop's merge by
// a test that never holds, and structurizing that form again sees the merge
// as a block that ends the function. Counting it here makes both runs find
// the same meeting points (idempotence).
//
// With tail non-nil, paths into return tails are ignored: a node that is no
// tail loses its edges to tails, and a loop whose exits all go to tails
// counts as having none. The meeting point of a loop's exits is then where
// they meet unless they return: a block the first run placed in the loop
// because it leads both to a return and to the loop's exit (a tail then, as
// the exit went on to a tail) is no tail in the output, where it branches
// to the loop's merge; seen this way it goes back into the loop
// (idempotence).
func (w *work) postDominators(dests [][]int, tail []bool) *cfg.DomTree {
	n := len(w.nodes)
	sinks := 0
	for _, ds := range dests {
		if exitless(ds, tail) {
			sinks++
		}
	}
	g := &cfg.Graph{Succs: make([][]int, n+sinks)} // one sink per such loop, as each has its own merge
	for i := range w.nodes {
		g.Succs[i] = w.nodes[i].succs
		if tail != nil && !tail[i] {
			var ss []int
			for _, t := range g.Succs[i] {
				if !tail[t] {
					ss = append(ss, t)
				}
			}
			g.Succs[i] = ss
		}
	}
	sink := n
	for li, ds := range dests {
		if exitless(ds, tail) {
			h := w.loops[li].entry
			g.Succs[h] = append(slices.Clone(g.Succs[h]), sink)
			sink++
		}
	}
	return cfg.PostDominators(g)
}

// exitless: a loop with destinations ds has no exit in postDominators'
// graph, every destination a return tail (with tail nil: none at all).
func exitless(ds []int, tail []bool) bool {
	for _, d := range ds {
		if tail == nil || d < 0 || !tail[d] {
			return false
		}
	}
	return true
}

// returningLoops lists the loops exitless makes sinks of.
func returningLoops(dests [][]int, tail []bool) []int {
	var r []int
	for li, ds := range dests {
		if exitless(ds, tail) {
			r = append(r, li)
		}
	}
	return r
}

// exitDests lists each loop's exit destinations (-1 stands for continuing
// an outer loop), each loop's in the order of its exit edges. An edge's
// walk is as long as the loops it leaves, with the loop tree's depths
// (loopDepths) to find where it stops; no map, a count per loop instead.
func (w *work) exitDests(f *cfg.Forest, order cfg.Order) [][]int {
	type exit struct{ loop, dest int }
	var exits []exit // every loop an edge leaves, in the order of the edges
	depth := w.loopDepths()
	for _, b := range order.RPO {
		sl := w.level[b]
		for _, t := range w.nodes[b].succs {
			tl, d := w.level[t], t
			if lt, ok := f.IsHeader(t); ok {
				tl = w.loops[lt].parent
				if w.within(depth, lt, sl) {
					tl, d = lt, -1
				}
			}
			// The loops the edge leaves: sl and its parents up to (not
			// including) the innermost loop holding tl too.
			for x, y := sl, tl; x != y; {
				if depth[x+1] >= depth[y+1] {
					exits = append(exits, exit{x, d})
					x = w.loops[x].parent
				} else {
					y = w.loops[y].parent
				}
			}
		}
	}
	// Grouped by loop, in edge order (a counting sort), then each loop's
	// first exit to a destination kept: seen holds, by destination (-1 at
	// the end), the loop that last kept it.
	start := make([]int, len(w.loops)+1)
	for _, x := range exits {
		start[x.loop+1]++
	}
	for li := range w.loops {
		start[li+1] += start[li]
	}
	byLoop := make([]int, len(exits))
	at := slices.Clone(start[:len(w.loops)])
	for _, x := range exits {
		byLoop[at[x.loop]] = x.dest
		at[x.loop]++
	}
	seen := make([]int, len(w.nodes)+1)
	dests := make([][]int, len(w.loops))
	for li := range w.loops {
		for _, d := range byLoop[start[li]:start[li+1]] {
			k := d
			if d < 0 {
				k = len(w.nodes)
			}
			if seen[k] != li+1 {
				seen[k] = li + 1
				dests[li] = append(dests[li], d)
			}
		}
	}
	if w.opt.CheckPasses {
		if ref := w.exitDestsScan(f, order); !slices.EqualFunc(dests, ref, slices.Equal) {
			panic(fmt.Sprintf("bug: exit destinations %v, the scan says %v", dests, ref))
		}
	}
	return dests
}

// within is inLoop with the loop tree's depths: level lv lies in loop l.
func (w *work) within(depth []int, l, lv int) bool {
	for lv >= 0 && depth[lv+1] > depth[l+1] {
		lv = w.loops[lv].parent
	}
	return lv == l
}

// exitDestsScan is exitDests' obvious reference: each edge walks up from
// its source's level, asking of every loop whether it holds the target's.
func (w *work) exitDestsScan(f *cfg.Forest, order cfg.Order) [][]int {
	dests := make([][]int, len(w.loops))
	noted := map[[2]int]bool{} // {loop, destination}: a set, so a loop with many destinations costs no scan per edge
	note := func(x, d int) {
		if k := [2]int{x, d}; !noted[k] {
			noted[k] = true
			dests[x] = append(dests[x], d)
		}
	}
	for _, b := range order.RPO {
		sl := w.level[b]
		for _, t := range w.nodes[b].succs {
			tl, d := w.level[t], t
			if lt, ok := f.IsHeader(t); ok {
				tl = w.loops[lt].parent
				if w.inLoop(lt, sl) {
					tl, d = lt, -1
				}
			}
			for x := sl; x >= 0 && !w.inLoop(x, tl); x = w.loops[x].parent {
				note(x, d)
			}
		}
	}
	return dests
}

// loopDepths is each loop's depth in the loop tree at index loop+1 (the
// function level, -1, has depth 0 at index 0): a loop's parent comes first
// or later in w.loops, so depths are filled by walking up to a known one.
func (w *work) loopDepths() []int {
	depth := make([]int, len(w.loops)+1)
	for i := range w.loops {
		depth[i+1] = -1
	}
	var walk []int
	for i := range w.loops {
		walk = walk[:0]
		x := i
		for x >= 0 && depth[x+1] < 0 {
			walk = append(walk, x)
			x = w.loops[x].parent
		}
		for k := len(walk) - 1; k >= 0; k-- {
			depth[walk[k]+1] = depth[w.loops[walk[k]].parent+1] + 1
		}
	}
	return depth
}

// absorbable: destination d of loop li is entered only from inside li and
// only branches to another of li's destinations ds, or to where another
// destination only branches too (or, when it is the only destination, a
// switch in the loop branches to it, no return tail does but a forwarder
// out of a branch in li's own body, and its target has no other
// predecessor).
func (w *work) absorbable(f *cfg.Forest, tail []bool, li, d int, ds []int, set destSet) bool {
	if d < 0 || len(w.nodes[d].succs) != 1 {
		return false
	}
	if _, ok := f.IsHeader(d); ok {
		return false
	}
	s := w.nodes[d].succs[0]
	for _, p := range w.preds[d] {
		if !w.inLoop(li, w.level[p]) {
			return false
		}
	}
	if len(ds) == 1 {
		// A forwarder a switch breaks through (left by an earlier
		// structurization): its target, entered from it alone, is the
		// merge. Not a block a return tail also enters: that is where paths
		// join on their way to a return, and moving it in would put the skip
		// past the join under a guard in the loop, which structurizing the
		// output again takes for the loop's merge. A forwarder out of a
		// branch in li's own body is no such join: it is what an earlier
		// structurization put where an inner selection breaks out to d.
		switched := false
		for _, q := range w.preds[d] {
			if len(w.nodes[q].succs) >= 3 {
				switched = true
			} else if tail[q] && !w.breaksOut(li, q, d) {
				return false
			}
		}
		_, hdr := f.IsHeader(s)
		return switched && !hdr && len(w.preds[s]) == 1 && s != d
	}
	if s == d {
		return false
	}
	// d goes on to another destination, or another destination y (d is
	// one of those counted) only branches to s too: d and y meet at s.
	return set.is[s] || set.onlyTo[s] >= 2
}

// destSet indexes a loop's destinations ds for absorbable: which blocks
// they are, and how many of them branch only to each block.
type destSet struct {
	is     map[int]bool
	onlyTo map[int]int
}

func (w *work) newDestSet(ds []int) destSet {
	set := destSet{is: make(map[int]bool, len(ds)), onlyTo: map[int]int{}}
	for _, y := range ds {
		if y < 0 {
			continue
		}
		set.is[y] = true
		if s := w.nodes[y].succs; len(s) == 1 {
			set.onlyTo[s[0]]++
		}
	}
	return set
}

// breaksOut reports whether q, a block entering d, is a forwarder out of a
// branch in loop li's own body (not in a loop nested in it) that does not
// also enter d: the block an earlier structurization put where a selection
// breaks out to the loop's way out.
func (w *work) breaksOut(li, q, d int) bool {
	if len(w.nodes[q].succs) != 1 {
		return false
	}
	for _, p := range w.preds[q] {
		if w.level[p] != li || slices.Contains(w.preds[d], p) {
			return false
		}
	}
	return true
}

// absorbRegion moves into loop li what lies between its exits and the block
// where they meet (their nearest common post-dominator m), when nothing else
// enters it: the blocks go to li's level and the loops among them become
// li's children. The loop then leaves for m alone: one merge, no route (an
// if/else or a switch whose arms break, a break after an inner loop).
// With local set (pdom ignoring returns), the region must lie at li's
// parent level: a return tail placed further out (an enclosing loop's only
// way out, its merge) stays there. A meeting point m that is a return tail
// moves on past any skip over a join that follows it (skipsAfter): the
// guard the emitter puts there would otherwise be where the exits meet on
// the second run (idempotence).
// Progress: it only moves blocks and loops into li, deeper than they were;
// moving m on goes down the finite post-dominator tree.
func (w *work) absorbRegion(f *cfg.Forest, pdom *cfg.DomTree, tail []bool, li int, ds []int, local bool) bool {
	if len(ds) < 2 {
		return false
	}
	m := -1
	for _, d := range ds {
		if d < 0 || !pdom.InTree(d) {
			return false
		}
		if m < 0 {
			m = d
		} else {
			m = pdom.NearestCommon(m, d)
		}
		if m < 0 || m >= len(w.nodes) { // no meeting point, or a loop's sink
			return false
		}
	}
	memo := map[int]bool{}
	for m < len(tail) && tail[m] && w.skipsAfter(pdom, w.preds, tail, memo, m) {
		m = pdom.IDom[m]
	}
	seen := map[int]bool{}
	var loops, plain []int
	queue := []int{}
	visit := func(t int) bool {
		if t == m || seen[t] {
			return true
		}
		if w.inLoop(li, w.level[t]) {
			return false // back into the loop: not an exit region
		}
		if lt, ok := f.IsHeader(t); ok && w.level[t] == lt {
			if w.inLoop(lt, li) {
				return false // an enclosing loop's header
			}
			loops = append(loops, lt)
		} else if !w.insideAny(loops, t) {
			plain = append(plain, t)
		}
		seen[t] = true
		queue = append(queue, t)
		return len(seen) <= 4*len(f.Loops[li].Blocks)+64 // a region, not the rest of the function
	}
	for _, d := range ds {
		if d == m {
			continue
		}
		if !visit(d) {
			return false
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, t := range w.nodes[v].succs {
			if !visit(t) {
				return false
			}
		}
	}
	entered := func(p int) bool { return seen[p] || w.inLoop(li, w.level[p]) }
	for _, r := range plain {
		if w.insideAny(loops, r) {
			continue
		}
		for _, p := range w.preds[r] {
			if !entered(p) {
				return false
			}
		}
	}
	for _, x := range loops {
		for _, p := range w.preds[w.loops[x].entry] {
			if !w.inLoop(x, w.level[p]) && !entered(p) {
				return false
			}
		}
	}
	if len(seen) == 0 {
		return false
	}
	if local {
		for _, r := range plain {
			if !w.insideAny(loops, r) && w.level[r] != w.loops[li].parent {
				return false
			}
		}
		for _, x := range loops {
			if !slices.Contains(loops, w.loops[x].parent) && w.loops[x].parent != w.loops[li].parent {
				return false
			}
		}
	}
	for _, r := range plain {
		if !w.insideAny(loops, r) {
			w.level[r] = li
		}
	}
	for _, x := range loops {
		if !slices.Contains(loops, w.loops[x].parent) {
			w.loops[x].parent = li
		}
	}
	return true
}

// insideAny reports whether node t lies in one of the loops.
func (w *work) insideAny(loops []int, t int) bool {
	for _, x := range loops {
		if w.inLoop(x, w.level[t]) {
			return true
		}
	}
	return false
}

// latchCandidate is loop li's only back-edge block when it can be the
// latch: it lies in li and no nested loop, only branches back, and is not
// the header's own successor (the body would be empty); -1 otherwise.
func (w *work) latchCandidate(f *cfg.Forest, li int) int {
	h := w.loops[li].entry
	u, count := -1, 0
	for _, b := range w.preds[h] {
		if w.inLoop(li, w.level[b]) {
			u = b
			count++
		}
	}
	if count != 1 || u == h || w.level[u] != li || w.nodes[u].kind != wPlain || len(w.nodes[u].succs) != 1 {
		return -1
	}
	if _, ok := f.IsHeader(u); ok {
		return -1
	}
	if w.nodes[h].kind == wLoopHeader && slices.Contains(w.nodes[h].succs, u) {
		return -1
	}
	return u
}

// mergeCandidate is loop li's only exit destination when it can be the
// merge: a plain block of the parent level entered only from inside li;
// -1 otherwise.
func (w *work) mergeCandidate(f *cfg.Forest, li int) int {
	d := w.loops[li].exit
	if d < 0 || w.nodes[d].kind != wPlain || w.level[d] != w.loops[li].parent {
		return -1
	}
	if _, ok := f.IsHeader(d); ok {
		return -1
	}
	for _, p := range w.preds[d] {
		if !w.inLoop(li, w.level[p]) {
			return -1
		}
	}
	return d
}

// predsInOrder lists the predecessors of each of the first n nodes among
// the nodes of rpo, in that order (once per edge; nil for none): what
// appending each edge to its target's list gives, in one array with each
// list capped at its length.
func (w *work) predsInOrder(rpo []int, n int) [][]int {
	edges := 0
	for _, b := range rpo {
		edges += len(w.nodes[b].succs)
	}
	ints := make([]int, n+edges) // count, then the lists
	count, all := ints[:n:n], ints[n:]
	for _, b := range rpo {
		for _, t := range w.nodes[b].succs {
			count[t]++
		}
	}
	p := make([][]int, n)
	for t, c := range count {
		if c > 0 {
			p[t], all = all[:0:c], all[c:]
		}
	}
	for _, b := range rpo {
		for _, t := range w.nodes[b].succs {
			p[t] = append(p[t], b)
		}
	}
	return p
}

// absorbTails places return tails: a block in no cycle whose successors are
// all tails (every path from it returns) goes to the innermost loop holding
// all its predecessors (their levels' nearest common ancestor), so a return
// inside a loop needs no route. A loop that would then have no exit at all
// keeps its first tail outside, where it becomes the loop's merge.
func (w *work) absorbTails(f *cfg.Forest, order cfg.Order, level []int) {
	n := len(level)
	preds := w.predsInOrder(order.RPO, n)
	inEdges := make([]int, n)
	for t := range n {
		inEdges[t] = len(preds[t])
	}
	tail := w.tails(f, order, n)
	hasExit := make([]bool, len(f.Loops))
	leaf := map[int]int{} // exit-less loop -> its first return leaf
	for _, b := range order.RPO {
		for _, t := range w.nodes[b].succs {
			if tail[t] {
				continue
			}
			for x := f.LoopOf[b]; x >= 0 && !f.Contains(x, t); x = f.Loops[x].Parent {
				hasExit[x] = true
			}
		}
	}
	meet := w.tailMeets(f, order, preds, tail, hasExit)
	for _, b := range order.RPO {
		if !tail[b] || len(preds[b]) == 0 {
			continue
		}
		l := level[preds[b][0]]
		for _, p := range preds[b][1:] {
			l = w.commonLoop(f, l, level[p])
		}
		// A loop with no other way out keeps its first tail outside, where it
		// becomes the loop's merge (a fresh merge would be unreachable, and
		// structurizing the output again would add it again). A return leaf
		// with one predecessor is only chosen when nothing else is.
		for l >= 0 && !hasExit[l] {
			if meet[l] >= 0 && meet[l] != b {
				break // the loop's tails meet further on: that block is its merge
			}
			if meet[l] < 0 && len(w.nodes[b].succs) == 0 && len(preds[b]) == 1 {
				// Prefer the leaf the loop's header branches to (or the block
				// the header only branches to, as a header an earlier
				// structurization added does): the merge of an exit-less loop
				// that an earlier structurization named by a test, or its
				// header's exit.
				if old, ok := leaf[l]; !ok || !w.fromHeader(f, l, preds[old][0]) && w.fromHeader(f, l, preds[b][0]) {
					leaf[l] = b
				}
				break
			}
			hasExit[l] = true
			l = f.Loops[l].Parent
		}
		level[b] = l
	}
	xs := make([]int, 0, len(leaf)) // leaves last, outer loops first
	for x := range leaf {
		xs = append(xs, x)
	}
	slices.Sort(xs)
	for _, x := range xs {
		b := leaf[x]
		if hasExit[x] || !w.inLoop(x, level[b]) {
			continue
		}
		for y := level[b]; y != f.Loops[x].Parent; y = f.Loops[y].Parent {
			hasExit[y] = true
		}
		level[b] = f.Loops[x].Parent
	}
}

// fromHeader reports whether p is loop l's header or the one block that
// header branches to.
func (w *work) fromHeader(f *cfg.Forest, l, p int) bool {
	h := f.Loops[l].Header
	return p == h || len(w.nodes[h].succs) == 1 && w.nodes[h].succs[0] == p
}

// tails marks the return tails among the first n nodes: the blocks in no
// cycle whose successors are all tails (every path from them returns).
func (w *work) tails(f *cfg.Forest, order cfg.Order, n int) []bool {
	tail := make([]bool, n)
	po := order.RPO
	for i := len(po) - 1; i >= 0; i-- { // successors first
		b := po[i]
		if f.LoopOf[b] != cfg.NoBlock {
			continue
		}
		ok := true
		for _, t := range w.nodes[b].succs {
			ok = ok && tail[t]
		}
		tail[b] = ok
	}
	return tail
}

// tailMeets finds, for each loop whose only exits go to tails, the block
// where those tails meet (the nearest common post-dominator of the exits'
// targets), or -1 when they never meet or the loop has other exits. Where
// the exits go to several tails, the meeting point moves on past any skip
// over a join that follows it (skipsAfter).
func (w *work) tailMeets(f *cfg.Forest, order cfg.Order, preds [][]int, tail, hasExit []bool) []int {
	meet := make([]int, len(f.Loops))
	for i := range meet {
		meet[i] = -2
	}
	joined := make([]bool, len(f.Loops)) // the exits go to several tails
	var pdom *cfg.DomTree
	for _, b := range order.RPO {
		for _, t := range w.nodes[b].succs {
			if !tail[t] {
				continue
			}
			for x := f.LoopOf[b]; x >= 0 && !hasExit[x]; x = f.Loops[x].Parent {
				if pdom == nil {
					pdom = cfg.PostDominators(w.graph())
				}
				switch {
				case meet[x] == -2:
					meet[x] = t
				case meet[x] >= 0 && meet[x] != t:
					meet[x] = max(-1, pdom.NearestCommon(meet[x], t))
					joined[x] = true
				}
			}
		}
	}
	memo := map[int]bool{}
	for i := range meet {
		if meet[i] < 0 || !tail[meet[i]] {
			meet[i] = -1
			continue
		}
		for joined[i] && w.skipsAfter(pdom, preds, tail, memo, meet[i]) {
			meet[i] = pdom.IDom[meet[i]]
		}
	}
	return meet
}

// skipsAfter reports whether m, a tail short of the function's end, or a
// block after it skips past a join (skipsJoin; memo keeps each block's
// answer, as the caller asks again from m's post-dominators). The guard the
// emitter puts at such a skip would lie between the exits and their
// meeting point on the second run, so the meeting point moves on (to m's
// immediate post-dominator, a tail too) until no skip follows it.
// Progress: each step goes strictly down the finite post-dominator tree.
func (w *work) skipsAfter(pdom *cfg.DomTree, preds [][]int, tail []bool, memo map[int]bool, m int) bool {
	ip := pdom.IDom[m]
	if ip < 0 || ip >= len(tail) || !tail[ip] {
		return false
	}
	seen := map[int]bool{m: true}
	stack := []int{m}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		skip, ok := memo[b]
		if !ok {
			skip = w.skipsJoin(pdom, preds, tail, b)
			memo[b] = skip
		}
		if skip {
			return true
		}
		for _, t := range w.nodes[b].succs {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return false
}

// skipsJoin reports whether tail m branches straight to a block j short of
// its immediate post-dominator that another block after m also enters (m
// skips past a join): where the emitter puts a guard, a block that the
// second run sees as a point where paths meet. When the first run takes a
// loop's tails in up to a later meeting point, that guard lands inside the
// loop, and the second run would take it for the meeting point and make a
// smaller loop (adding a clone or an exit block).
func (w *work) skipsJoin(pdom *cfg.DomTree, preds [][]int, tail []bool, m int) bool {
	ip := pdom.IDom[m]
	if ip < 0 || ip >= len(tail) || !tail[ip] {
		return false
	}
	// The blocks after m, short of ip.
	region := map[int]bool{}
	stack := []int{m}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range w.nodes[b].succs {
			if t != ip && t != m && !region[t] {
				region[t] = true
				stack = append(stack, t)
			}
		}
	}
	for _, j := range w.nodes[m].succs {
		if j == ip {
			continue
		}
		for _, p := range preds[j] {
			if p != m && region[p] {
				return true
			}
		}
	}
	return false
}

// commonLoop is the innermost loop containing both loops a and b (-1: none).
func (w *work) commonLoop(f *cfg.Forest, a, b int) int {
	for a != b {
		switch {
		case a < 0 || b < 0:
			return -1
		case f.Loops[a].Depth > f.Loops[b].Depth:
			a = f.Loops[a].Parent
		case f.Loops[b].Depth > f.Loops[a].Depth:
			b = f.Loops[b].Parent
		default:
			a, b = f.Loops[a].Parent, f.Loops[b].Parent
		}
	}
	return a
}

// inLoop reports whether level lv lies in loop l (l itself or nested in it).
func (w *work) inLoop(l, lv int) bool {
	for ; lv >= 0; lv = w.loops[lv].parent {
		if lv == l {
			return true
		}
	}
	return false
}

// levelOf is the level a destination lives in: a latch is its own loop's
// continue target; a loop header and a loop merge live in the parent.
func (w *work) levelOf(d int) int { return w.level[d] }

// hop returns the node an edge from level lv must branch to in order to
// reach destination d: d itself when it lives at lv, else the exit of loop
// lv towards d (its merge, or a store node before it, or a clone of a small
// return block), routing d at the merge.
func (w *work) hop(lv, d int) (int, error) {
	dl := w.levelOf(d)
	if d < len(w.level) && w.nodes[d].kind == wLatch {
		dl = w.nodes[d].loop
	}
	if lv == dl {
		return d, nil
	}
	if lv < 0 || !w.inLoop(dl, lv) && dl >= 0 {
		return 0, fmt.Errorf("bug: edge from level %d to node %d at level %d enters a loop past its header", lv, d, dl)
	}
	l := &w.loops[lv]
	if l.reusedM {
		if d != l.M {
			return 0, fmt.Errorf("bug: loop %d reuses %d as its merge but also leaves for %d", lv, l.M, d)
		}
		return l.M, nil
	}
	idx, ok := l.destAt[d]
	if !ok {
		idx = -1
	}
	if idx == 0 {
		return l.M, nil
	}
	if idx < 0 && len(l.dests) > 0 {
		if c, ok := w.cloneFor(lv, d); ok {
			return c, nil
		}
	}
	if idx < 0 {
		next, err := w.hop(w.loops[lv].parent, d)
		if err != nil {
			return 0, err
		}
		l = &w.loops[lv]
		m := &w.nodes[l.M]
		if len(l.dests) > 0 {
			m.rvar = w.route()
			m.values = append(m.values, valueOf(d))
		}
		m.succs = append(m.succs, next)
		if l.destAt == nil {
			l.destAt = map[int]int{}
		}
		l.destAt[d] = len(l.dests)
		l.dests = append(l.dests, d)
		if len(l.dests) == 1 {
			return l.M, nil
		}
	}
	l = &w.loops[lv]
	if s, ok := l.store[d]; ok {
		return s, nil
	}
	s := w.syn("exit.store", l.M)
	w.nodes[s].stores = []Store{{Var: w.route(), Value: valueOf(d)}}
	w.level = append(w.level, lv)
	if w.loops[lv].store == nil {
		w.loops[lv].store = map[int]int{}
	}
	w.loops[lv].store[d] = s
	return s, nil
}

// cloneFor copies a small return block into loop lv's body instead of
// routing an exit to it, within the clone budget: one copy per edge, so each
// copy is a leaf of the block that branches to it (and structurizing the
// result again keeps it there).
func (w *work) cloneFor(lv, d int) (int, bool) {
	n := &w.nodes[d]
	if n.synthetic() || len(n.succs) != 0 || n.weight > w.cloneMax || n.weight > w.budget || w.opt.CloneBudget < 0 {
		return 0, false
	}
	w.budget -= n.weight
	c := w.add(wnode{orig: n.orig, clone: true, weight: n.weight, name: n.name, loop: -1})
	w.level = append(w.level, lv)
	w.clones++
	return c, true
}
