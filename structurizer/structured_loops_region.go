// structured_loops_region.go: the exit search's main move. When a loop's
// exits leave for several blocks, what lies between them and the block
// where they meet (their nearest common post-dominator) is an exit region:
// an if/else or a switch whose arms break, a break after an inner loop.
// When nothing else enters it, it moves into the loop, which then leaves for
// the meeting point alone: one merge (rule R6), no route.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// absorbRegion moves into loop li what lies between its exits ds and the
// block where they meet (meetingPoint), when nothing else enters it: the
// blocks go to li's level and the loops among them become li's children.
// With local set (pdom ignoring returns), the region must lie at li's
// parent level: a return tail placed further out (an enclosing loop's only
// way out, its merge) stays there.
//
// Pre: pdom is the post-dominator tree of the working graph
// (exitPostDominators).
// Post: on true, li leaves for the meeting point alone; on false nothing
// changed.
// Progress: it only moves blocks and loops into li, deeper than they were.
func (es *exitSearch) absorbRegion(pdom *cfg.DomTree, li int, ds []int, local bool) bool {
	m, ok := meetingPoint(pdom, ds, es.nodes, es.preds, es.tail)
	if !ok {
		return false
	}
	r := &exitRegion{exitSearch: es, li: li, m: m, seen: map[int]bool{}}
	if !r.collect(ds) || !r.closed() || local && !r.atParentLevel() {
		return false
	}
	r.move()
	return true
}

// meetingPoint is where a loop's exit destinations ds (two or more) meet
// in the working graph (nodes, their predecessors preds, the return tails
// tail): their nearest common post-dominator, moved on past any skip over
// a join that follows it when it is a return tail (joinSkips: the guard
// the emitter puts there would otherwise be where the exits meet on the
// second run, idempotence). False when there are fewer than two, one
// continues an outer loop, or they meet nowhere short of a loop's sink.
// Progress: moving on goes down the finite post-dominator tree.
func meetingPoint(pdom *cfg.DomTree, ds []int, nodes []wnode, preds [][]int, tail []bool) (int, bool) {
	if len(ds) < 2 {
		return 0, false
	}
	m := -1
	for _, d := range ds {
		if d < 0 || !pdom.InTree(d) {
			return 0, false
		}
		if m < 0 {
			m = d
		} else {
			m = pdom.NearestCommon(m, d)
		}
		if m < 0 || m >= len(nodes) { // no meeting point, or a loop's sink
			return 0, false
		}
	}
	skips := newJoinSkips(nodes, pdom, preds, tail)
	for m < len(tail) && tail[m] && skips.after(m) {
		m = pdom.IDom[m]
	}
	return m, true
}

// exitRegion is the region between loop li's exits and their meeting point
// m, as collect finds it.
type exitRegion struct {
	*exitSearch
	li, m int
	seen  map[int]bool // the region's nodes
	inner []int        // loops whose headers lie in the region
	plain []int        // the region's other nodes, outside those loops when met
	queue []int
}

// collect walks from the exits ds to m, breadth first; false when the walk
// goes back into li, reaches an enclosing loop's header, or grows past a
// few times li's size (a region, not the rest of the function).
func (r *exitRegion) collect(ds []int) bool {
	for _, d := range ds {
		if d != r.m && !r.visit(d) {
			return false
		}
	}
	for len(r.queue) > 0 {
		v := r.queue[0]
		r.queue = r.queue[1:]
		for _, t := range r.nodes[v].succs {
			if !r.visit(t) {
				return false
			}
		}
	}
	return true
}

// visit adds node t to the region; false when t stops the walk.
func (r *exitRegion) visit(t int) bool {
	if t == r.m || r.seen[t] {
		return true
	}
	if r.inLoop(r.li, r.level[t]) {
		return false // back into the loop: not an exit region
	}
	if lt, ok := r.f.IsHeader(t); ok && r.level[t] == lt {
		if r.inLoop(lt, r.li) {
			return false // an enclosing loop's header
		}
		r.inner = append(r.inner, lt)
	} else if !r.insideAny(t) {
		r.plain = append(r.plain, t)
	}
	r.seen[t] = true
	r.queue = append(r.queue, t)
	return len(r.seen) <= 4*len(r.f.Loops[r.li].Blocks)+64
}

// closed reports whether the region is not empty and nothing outside it
// and li enters it: each plain node's predecessors and each loop's entry's
// predecessors from outside that loop lie in the region or in li.
func (r *exitRegion) closed() bool {
	for _, b := range r.plain {
		if r.insideAny(b) {
			continue
		}
		for _, p := range r.preds[b] {
			if !r.entered(p) {
				return false
			}
		}
	}
	for _, x := range r.inner {
		for _, p := range r.preds[r.work.loops[x].entry] {
			if !r.inLoop(x, r.level[p]) && !r.entered(p) {
				return false
			}
		}
	}
	return len(r.seen) > 0
}

// entered: an edge from p into the region comes from the region or li.
func (r *exitRegion) entered(p int) bool { return r.seen[p] || r.inLoop(r.li, r.level[p]) }

// atParentLevel reports whether the region's nodes and outermost inner loops lie
// at li's parent level.
func (r *exitRegion) atParentLevel() bool {
	parent := r.work.loops[r.li].parent
	for _, b := range r.plain {
		if !r.insideAny(b) && r.level[b] != parent {
			return false
		}
	}
	for _, x := range r.inner {
		if px := r.work.loops[x].parent; !slices.Contains(r.inner, px) && px != parent {
			return false
		}
	}
	return true
}

// move puts the region's nodes at li's level and its outermost inner
// loops under li.
func (r *exitRegion) move() {
	for _, b := range r.plain {
		if !r.insideAny(b) {
			r.setLevel(b, r.li)
		}
	}
	for _, x := range r.inner {
		if !slices.Contains(r.inner, r.work.loops[x].parent) {
			r.setParent(x, r.li)
		}
	}
}

// insideAny reports whether node t lies in one of the inner loops.
func (r *exitRegion) insideAny(t int) bool {
	for _, x := range r.inner {
		if r.inLoop(x, r.level[t]) {
			return true
		}
	}
	return false
}
