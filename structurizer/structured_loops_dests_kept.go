// structured_loops_dests_kept.go: each loop's exit destinations kept
// across the exit search's rounds (exitLists). A round after the first
// moves a few blocks into deeper levels and a few loops under another
// loop; only the edges at those blocks and the edges leaving or entering
// those loops can leave other loops than they did, so only a loop those
// edges leave on either side of the moves, and then only when its exits
// among them differ, is listed again: a round costs what it moved.
// exitDests, the full listing, is the reference (Options.CheckPasses
// compares them every round).

package structurizer

import (
	"cmp"
	"fmt"
	"slices"
)

// exitLists keeps exitDests' lists up to date as the exit search moves
// blocks (setLevel) and loops (setParent): per loop, the edges leaving it
// in edge order and the destinations they give; and the moves made since
// the last refresh, each with the value it replaced.
type exitLists struct {
	*loopsPass
	edgeAt []int        // per node, the number of its first edge; -1 for a node eachExit does not walk
	src    []int        // per edge, its source
	exits  [][]exitEdge // per loop, the edges leaving it, in edge order
	dests  [][]int      // per loop, its destinations (destsOf its exits)
	blocks []levelMove  // blocks moved since the last refresh, in order
	moved  []parentMove // loops moved since the last refresh, in order

	// Scratch marks, each set to its stamp when it holds: an edge at a
	// move (edgeMark, stamp), an ancestor of an edge's target level (anc,
	// ancStamp), a destination kept (seen, seenStamp).
	stamp, ancStamp, seenStamp int
	edgeMark, anc, seen        []int
}

// levelMove is block b moved from level from to level to.
type levelMove struct{ b, from, to int }

// parentMove is loop moved from under from to under to.
type parentMove struct{ loop, from, to int }

// loopEdge is an edge leaving loop.
type loopEdge struct {
	loop int
	exitEdge
}

// newExitLists lists every loop's exits in full (exitWalk.exitEdges); an
// error when they hold more edges together than exitBudget allows.
func newExitLists(lp *loopsPass) (*exitLists, error) {
	el := &exitLists{loopsPass: lp}
	el.edgeNumbers()
	ew := &exitWalk{loopsPass: lp}
	ew.depth = ew.loopDepths()
	budget := exitBudget(len(lp.nodes), len(el.src))
	exits, ok := ew.exitEdges(budget)
	if !ok {
		return nil, fmt.Errorf("the loops' exit edges number more than %d, summed over the loops", budget)
	}
	el.exits = exits
	el.dests = make([][]int, len(el.exits))
	el.seen = make([]int, len(lp.nodes)+1)
	for li, es := range el.exits {
		el.seenStamp++
		el.dests[li] = destsOf(es, el.seen, el.seenStamp)
	}
	el.edgeMark = make([]int, len(el.src))
	el.anc = make([]int, len(lp.loops))
	return el, nil
}

// edgeNumbers numbers the edges as eachExit meets them: sources in reverse
// post-order, each source's edges in successor order.
func (el *exitLists) edgeNumbers() {
	el.edgeAt = make([]int, len(el.nodes))
	for b := range el.edgeAt {
		el.edgeAt[b] = -1
	}
	for _, b := range el.dfs.RPO {
		el.edgeAt[b] = len(el.src)
		for range el.nodes[b].succs {
			el.src = append(el.src, b)
		}
	}
}

// setLevel moves block b to level lv.
func (el *exitLists) setLevel(b, lv int) {
	el.blocks = append(el.blocks, levelMove{b, el.level[b], lv})
	el.level[b] = lv
}

// setParent moves loop x under loop p.
func (el *exitLists) setParent(x, p int) {
	el.moved = append(el.moved, parentMove{x, el.loops[x].parent, p})
	el.setParentOf(x, p)
}

// refresh brings the lists up to date with the moves since the last
// refresh and returns each loop's destinations, exitDests' lists.
//
// Post: the result equals exitDests(); no moves are pending.
func (el *exitLists) refresh() [][]int {
	if len(el.blocks) > 0 || len(el.moved) > 0 {
		el.update()
	}
	if el.opt.CheckPasses {
		if ref := el.exitDests(); !slices.EqualFunc(el.dests, ref, slices.Equal) {
			panic(fmt.Sprintf("bug: kept exit destinations %v, exitDests says %v", el.dests, ref))
		}
	}
	return el.dests
}

// update lists again each loop whose exits the pending moves change: the
// loops the changed edges (changedEdges) left where the last refresh found
// the blocks and loops, and those they leave where the moves put them,
// when the two differ for the loop.
//
// Pre: the lists describe the blocks and loops where the last refresh
// found them.
// Post: the lists describe them where they are; no moves are pending.
// Progress: one pass over the moved blocks' edges and the moved loops'
// exits and entries, two walks up the loop tree per changed edge, and one
// pass over the exits of each loop listed again.
func (el *exitLists) update() {
	el.stamp++
	changed := el.changedEdges()
	el.undo()
	was := el.exitsOf(changed)
	el.redo()
	is := el.exitsOf(changed)
	for len(was) > 0 || len(is) > 0 {
		x := -1
		if len(was) > 0 {
			x = was[0].loop
		}
		if len(is) > 0 && (x < 0 || is[0].loop < x) {
			x = is[0].loop
		}
		i, j := runOf(was, x), runOf(is, x)
		if !slices.Equal(was[:i], is[:j]) {
			el.relist(x, is[:j])
		}
		was, is = was[i:], is[j:]
	}
	el.blocks, el.moved = el.blocks[:0], el.moved[:0]
}

// exitsOf lists the loops each of the edges changed leaves, by loop and
// each loop's in edge order (changed is in edge order).
func (el *exitLists) exitsOf(changed []int) []loopEdge {
	var les []loopEdge
	for _, e := range changed {
		el.leaves(e, func(x, d int) { les = append(les, loopEdge{x, exitEdge{e, d}}) })
	}
	slices.SortStableFunc(les, func(a, b loopEdge) int { return cmp.Compare(a.loop, b.loop) })
	return les
}

// runOf is how many of les, from the first, are loop x's.
func runOf(les []loopEdge, x int) int {
	k := 0
	for k < len(les) && les[k].loop == x {
		k++
	}
	return k
}

// changedEdges lists, in edge order, the edges whose loops left can differ
// from what the lists hold: the edges out of and into each moved block,
// and each moved loop's exits and the edges into its entry. No other edge
// can: its ends keep their levels, and the loops above them change only
// above a moved loop, which such an edge leaves (an exit) or enters (at the
// entry: nothing else enters a loop's body) or neither.
func (el *exitLists) changedEdges() []int {
	var changed []int
	note := func(e int) {
		if el.edgeMark[e] != el.stamp {
			el.edgeMark[e] = el.stamp
			changed = append(changed, e)
		}
	}
	into := func(t int) {
		for _, p := range el.preds[t] {
			for k, s := range el.nodes[p].succs {
				if s == t {
					note(el.edgeAt[p] + k)
				}
			}
		}
	}
	for _, m := range el.blocks {
		if e0 := el.edgeAt[m.b]; e0 >= 0 {
			for k := range el.nodes[m.b].succs {
				note(e0 + k)
			}
		}
		into(m.b)
	}
	for _, m := range el.moved {
		for _, x := range el.exits[m.loop] {
			note(x.edge)
		}
		into(el.loops[m.loop].entry)
	}
	slices.Sort(changed)
	return changed
}

// undo puts the moved blocks and loops back where the last refresh found
// them; redo moves them again.
func (el *exitLists) undo() {
	for i := len(el.blocks) - 1; i >= 0; i-- {
		el.level[el.blocks[i].b] = el.blocks[i].from
	}
	for i := len(el.moved) - 1; i >= 0; i-- {
		el.setParentOf(el.moved[i].loop, el.moved[i].from)
	}
}

// redo: see undo.
func (el *exitLists) redo() {
	for _, m := range el.blocks {
		el.level[m.b] = m.to
	}
	for _, m := range el.moved {
		el.setParentOf(m.loop, m.to)
	}
}

// leaves calls exit(loop, dest) for every loop edge e leaves, as eachExit
// does, innermost first: the loops from its source's level up to (not
// including) the innermost one holding its target's level too.
// Progress: two walks up the loop tree.
func (el *exitLists) leaves(e int, exit func(loop, dest int)) {
	b := el.src[e]
	t := el.nodes[b].succs[e-el.edgeAt[b]]
	sl, tl, d := el.level[b], el.level[t], t
	if lt, ok := el.f.IsHeader(t); ok {
		tl = el.loops[lt].parent
		if el.inLoop(lt, sl) {
			tl, d = lt, -1
		}
	}
	el.ancStamp++
	for y := tl; y >= 0; y = el.loops[y].parent {
		el.anc[y] = el.ancStamp
	}
	for x := sl; x >= 0 && el.anc[x] != el.ancStamp; x = el.loops[x].parent {
		exit(x, d)
	}
}

// relist lists loop x's exits again: its listed exits but the changed
// edges (edgeMark), merged with adds, x's exits among the changed edges
// in edge order.
func (el *exitLists) relist(x int, adds []loopEdge) {
	es := make([]exitEdge, 0, len(el.exits[x])+len(adds))
	for _, e := range el.exits[x] {
		if el.edgeMark[e.edge] == el.stamp {
			continue
		}
		for len(adds) > 0 && adds[0].edge < e.edge {
			es = append(es, adds[0].exitEdge)
			adds = adds[1:]
		}
		es = append(es, e)
	}
	for _, a := range adds {
		es = append(es, a.exitEdge)
	}
	el.exits[x] = es
	el.seenStamp++
	el.dests[x] = destsOf(es, el.seen, el.seenStamp)
}
