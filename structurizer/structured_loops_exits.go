// structured_loops_exits.go: the loops pass's search for each loop's way
// out. Before any header, latch or merge is placed, what lies between a
// loop's exits and the block where they meet (their nearest common
// post-dominator) moves into the loop, and so does a destination that only
// branches on to another one; the rounds end when nothing moves, and each
// loop that then leaves for one block records it as its exit (the merge
// candidate, rule R6). The post-dominators count every loop without an exit
// as leaving for a sink of its own, so a second structurization finds the
// same meeting points (idempotence). A round indexes each loop's
// destinations in one array of per-node entries (destSet), stamped per
// loop, each node's fields side by side in one cache line.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// findExits records each loop's exit destination: the one block its exits
// go to, or -1 when they go to several, continue an outer loop or enter
// another loop. A destination that only branches on to another destination
// of the same loop and is entered only from the loop (an exit store left by
// an earlier structurization, say) is moved into the loop first.
//
// Progress: each round moves at least one block into a deeper level, and a
// block can only go as deep as the loop nesting, so the rounds end.
//
// An error when the loops' exit lists would outgrow exitBudget.
func (lp *loopsPass) findExits() error {
	lists, err := newExitLists(lp)
	if err != nil {
		return err
	}
	(&exitSearch{loopsPass: lp, tail: returnTails(lp.nodes, lp.f, lp.dfs.RPO, len(lp.nodes)), lists: lists}).run()
	return nil
}

// exitSearch is one run of findExits over the loops pass's graph, with
// the return tails its rounds share and the exit destinations it keeps
// across them. It moves blocks and loops only through setLevel and
// setParent, so that the kept lists follow.
type exitSearch struct {
	*loopsPass
	tail  []bool     // the return tails among the nodes (loopsPass.tails)
	lists *exitLists // each loop's exit destinations (exitDests)
}

// setLevel moves block b to level lv.
func (es *exitSearch) setLevel(b, lv int) { es.lists.setLevel(b, lv) }

// setParent moves loop x under loop p.
func (es *exitSearch) setParent(x, p int) { es.lists.setParent(x, p) }

// run is findExits' rounds.
func (es *exitSearch) run() {
	var pdom *cfg.DomTree // computed once, when a loop leaves for several blocks
	// The post-dominators with returns ignored depend on a round only
	// through the loops whose exits all return (the edges do not change),
	// so they are computed when first needed and again only when those
	// loops change.
	var pdomTails *cfg.DomTree
	var returning []int // pdomTails' loops whose exits all return
	var set destSet     // one array for every round (stamped)
	for {
		dests := es.lists.refresh()
		moved := false
		// fresh: pdomTails is known to fit this round's dests.
		fresh := false
		for li := len(dests) - 1; li >= 0; li-- { // inner loops first
			if len(dests[li]) >= 2 && pdom == nil {
				pdom = exitPostDominators(es.nodes, es.loops, dests, nil)
			}
			if es.absorbRegion(pdom, li, dests[li], false) {
				moved = true
				continue
			}
			if len(dests[li]) < 2 {
				continue
			}
			if !fresh {
				if r := returningLoops(dests, es.tail); pdomTails == nil || !slices.Equal(r, returning) {
					pdomTails, returning = exitPostDominators(es.nodes, es.loops, dests, es.tail), r
				}
				fresh = true
			}
			if es.absorbRegion(pdomTails, li, dests[li], true) {
				moved = true
			}
		}
		if moved {
			continue
		}
		for li, ds := range dests {
			set.index(es.nodes, ds)
			for _, d := range ds {
				if es.absorbable(li, d, ds, &set) {
					es.setLevel(d, li)
					moved = true
				}
			}
		}
		if moved {
			continue
		}
		for li := range es.loops {
			es.loops[li].exit = -1
			if len(dests[li]) == 1 {
				es.loops[li].exit = dests[li][0]
			}
		}
		return
	}
}

// exitPostDominators are the post-dominators of the working graph (nodes,
// loops, each loop's exit destinations dests) in which every loop without
// an exit also leaves for a sink: the structured form names such a loop's
// merge by a test that never holds, and structurizing that form again sees
// the merge as a block that ends the function. Counting it here makes both
// runs find the same meeting points (idempotence).
//
// With tail non-nil, paths into return tails are ignored: a node that is no
// tail loses its edges to tails, and a loop whose exits all go to tails
// counts as having none. The meeting point of a loop's exits is then where
// they meet unless they return: a block the first run placed in the loop
// because it leads both to a return and to the loop's exit (a tail then, as
// the exit went on to a tail) is no tail in the output, where it branches
// to the loop's merge; seen this way it goes back into the loop
// (idempotence).
func exitPostDominators(nodes []wnode, loops []wloop, dests [][]int, tail []bool) *cfg.DomTree {
	n := len(nodes)
	sinks := 0
	for _, ds := range dests {
		if exitless(ds, tail) {
			sinks++
		}
	}
	g := &cfg.Graph{Succs: make([][]int, n+sinks)} // one sink per such loop, as each has its own merge
	var room []int                                 // the lists without tails, carved from one array that edgesWithoutTails sizes
	if tail != nil {
		room = make([]int, 0, edgesWithoutTails(nodes, tail))
	}
	for i := range nodes {
		g.Succs[i] = nodes[i].succs
		if tail != nil && !tail[i] {
			start := len(room)
			for _, t := range g.Succs[i] {
				if !tail[t] {
					room = append(room, t)
				}
			}
			g.Succs[i] = nil
			if len(room) > start {
				g.Succs[i] = room[start:len(room):len(room)]
			}
		}
	}
	sink := n
	for li, ds := range dests {
		if exitless(ds, tail) {
			h := loops[li].entry
			g.Succs[h] = append(slices.Clone(g.Succs[h]), sink)
			sink++
		}
	}
	return cfg.PostDominators(g)
}

// edgesWithoutTails counts the edges exitPostDominators keeps from nodes
// that are no return tail to nodes that are none.
func edgesWithoutTails(nodes []wnode, tail []bool) int {
	k := 0
	for i := range nodes {
		if tail[i] {
			continue
		}
		for _, t := range nodes[i].succs {
			if !tail[t] {
				k++
			}
		}
	}
	return k
}

// exitless: a loop with destinations ds has no exit in exitPostDominators'
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

// absorbable: destination d of loop li is entered only from inside li and
// only branches to another of li's destinations ds, or to where another
// destination only branches too (or, when it is the only destination, a
// switch in the loop branches to it, no return tail does but a forwarder
// out of a branch in li's own body, and its target has no other
// predecessor).
func (es *exitSearch) absorbable(li, d int, ds []int, set *destSet) bool {
	if d < 0 || len(es.nodes[d].succs) != 1 {
		return false
	}
	if _, ok := es.f.IsHeader(d); ok {
		return false
	}
	s := es.nodes[d].succs[0]
	for _, p := range es.preds[d] {
		if !es.inLoop(li, es.level[p]) {
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
		for _, q := range es.preds[d] {
			if len(es.nodes[q].succs) >= 3 {
				switched = true
			} else if es.tail[q] && !es.breaksOut(li, q, d) {
				return false
			}
		}
		_, hdr := es.f.IsHeader(s)
		return switched && !hdr && len(es.preds[s]) == 1 && s != d
	}
	if s == d {
		return false
	}
	// d goes on to another destination, or another destination y (d is
	// one of those counted) only branches to s too: d and y meet at s.
	return set.is(s) || set.onlyTo(s) >= 2
}

// destSet indexes a loop's destinations ds for absorbable: which blocks
// they are, and how many of them branch only to each block. Its array is
// by node and serves one loop after another: an entry counts only when it
// carries the current loop's stamp, so a round allocates nothing per loop.
// A node's three fields sit side by side, so that a look-up reads one
// cache line where three arrays by node would read three.
// The array grows to the nodes' room (workCap) at once, as the loops
// pass adds nodes one at a time.
type destSet struct {
	stamp int32
	at    []destMark
}

// destMark is one node's entry in a destSet: 12 bytes (a loop's
// destinations and a stamp per loop fit an int32).
type destMark struct {
	isAt int32 // == stamp: the node is one of the destinations
	toAt int32 // == stamp: to counts the current loop's destinations
	to   int32 // how many destinations branch only to the node
}

// index makes set describe ds, destinations among nodes.
func (set *destSet) index(nodes []wnode, ds []int) {
	if n := len(nodes); len(set.at) < n {
		set.at = append(set.at, make([]destMark, max(n, cap(nodes))-len(set.at))...)
	}
	set.stamp++
	for _, y := range ds {
		if y < 0 {
			continue
		}
		set.at[y].isAt = set.stamp
		if s := nodes[y].succs; len(s) == 1 {
			if m := &set.at[s[0]]; m.toAt != set.stamp {
				m.toAt, m.to = set.stamp, 1
			} else {
				m.to++
			}
		}
	}
}

// is reports whether b is one of the destinations.
func (set *destSet) is(b int) bool { return set.at[b].isAt == set.stamp }

// onlyTo is how many destinations branch only to b.
func (set *destSet) onlyTo(b int) int {
	if set.at[b].toAt != set.stamp {
		return 0
	}
	return int(set.at[b].to)
}

// breaksOut reports whether q, a block entering d, is a forwarder out of a
// branch in loop li's own body (not in a loop nested in it) that does not
// also enter d: the block an earlier structurization put where a selection
// breaks out to the loop's way out.
func (es *exitSearch) breaksOut(li, q, d int) bool {
	if len(es.nodes[q].succs) != 1 {
		return false
	}
	for _, p := range es.preds[q] {
		if es.level[p] != li || slices.Contains(es.preds[d], p) {
			return false
		}
	}
	return true
}
