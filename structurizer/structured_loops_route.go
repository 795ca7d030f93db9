// structured_loops_route.go: the loops pass's last step, routing every
// edge of the working graph once each loop has its header H, latch C and
// merge M (structured_loops.go). An edge stays within its level, goes to the
// level's latch or merge, or enters a child loop at its H; an edge that
// leaves loops goes merge by merge: each loop it leaves branches to its own
// M, which routes on the destination's value (rule R6 for loops), or, for
// a small return block within the clone budget, to a copy of it in the
// loop's body. Only the working graph (structured_graph.go) and the loop
// forest are read.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// exitRouter routes the edges of a working graph whose loops are placed.
type exitRouter struct{ *work }

// routeEdges retargets the edges of the first n0 nodes (those of the graph
// the loops pass started from, f its loop forest), in the order of rpo: an
// edge to a loop's header goes to its latch from inside the loop (a back
// edge) and to its H from outside; every edge then hops to where its level
// reaches the destination.
//
// Pre: every loop has H, C and M; levels are set. Post: every edge of those
// nodes stays within its level, goes to the level's latch or merge, or
// enters a child loop at its H.
func (r exitRouter) routeEdges(f *cfg.Forest, rpo []int, n0 int) error {
	for _, b := range rpo {
		if b >= n0 || r.nodes[b].kind == wLatch {
			continue
		}
		from := r.level[b]
		if r.nodes[b].kind == wLoopHeader {
			from = r.nodes[b].loop // a reused header's edge goes into its body
		}
		var orig []int // a switch's targets, for its repeated cases
		if len(r.nodes[b].succs) >= 3 {
			orig = slices.Clone(r.nodes[b].succs)
		}
		var cases slotIndex
		for i, t := range r.nodes[b].succs {
			if orig != nil {
				if j := cases.repeat(len(orig), i, func(j int) uint64 { return uint64(orig[j]) }); j >= 0 {
					r.nodes[b].succs[i] = r.nodes[b].succs[j] // the first case's hop: one clone or store for them all
					continue
				}
			}
			d := t
			if lt, ok := f.IsHeader(t); ok {
				if r.inLoop(lt, from) {
					d = r.loops[lt].C
				} else {
					d = r.loops[lt].H
				}
			}
			nt, err := r.hop(from, d)
			if err != nil {
				return err
			}
			r.nodes[b].succs[i] = nt
		}
	}
	return nil
}

// hop returns the node an edge from level lv must branch to in order to
// reach destination d: d itself when it lives at lv, else the exit of loop
// lv towards d (its merge, or a store node before it, or a clone of a small
// return block), routing d at the merge.
//
// It walks out from lv to the first level that has its answer (d's own,
// a loop that already routes d, reuses its merge or clones d), then
// settles the loops it left from the outermost in: each routes d at its
// merge to the hop found for its parent. A loop nest as deep as the graph
// is long costs no call stack.
func (r exitRouter) hop(lv, d int) (int, error) {
	dl := r.level[d] // a loop header and a loop merge live in the parent
	if d < len(r.level) && r.nodes[d].kind == wLatch {
		dl = r.nodes[d].loop
	}
	var left []int // loops that do not route d yet, innermost first
	next := -1
	for next < 0 {
		if lv == dl {
			next = d
			break
		}
		if lv < 0 || !r.inLoop(dl, lv) && dl >= 0 {
			return 0, fmt.Errorf("bug: edge from level %d to node %d at level %d enters a loop past its header", lv, d, dl)
		}
		l := &r.loops[lv]
		if l.reusedM {
			if d != l.M {
				return 0, fmt.Errorf("bug: loop %d reuses %d as its merge but also leaves for %d", lv, l.M, d)
			}
			next = l.M
			break
		}
		idx := l.destIndex(d)
		switch {
		case idx == 0:
			next = l.M
		case idx > 0:
			next = r.exitStore(lv, idx)
		default:
			if len(l.dests) > 0 {
				if c, ok := r.cloneFor(lv, d); ok {
					next = c
					break
				}
			}
			left = append(left, lv)
			lv = l.parent
		}
	}
	for i := len(left) - 1; i >= 0; i-- {
		next = r.routeAt(left[i], d, next)
	}
	return next, nil
}

// routeAt makes loop lv's merge route d on to next (the hop from lv's
// parent) and returns the hop into lv's merge: the merge itself for the
// loop's first destination, else a store of d's value before it.
func (r exitRouter) routeAt(lv, d, next int) int {
	l := &r.loops[lv]
	m := &r.nodes[l.M]
	if len(l.dests) > 0 {
		m.rvar = r.route()
		m.values = append(m.values, valueOf(d))
	}
	m.succs = append(m.succs, next)
	l.addDest(d)
	if len(l.dests) == 1 {
		return l.M
	}
	return r.exitStore(lv, len(l.dests)-1)
}

// exitStore is the node that stores the value of loop lv's destination of
// index idx and branches to the loop's merge, made on first use.
func (r exitRouter) exitStore(lv, idx int) int {
	if s := r.loops[lv].stores[idx]; s >= 0 {
		return s
	}
	d := r.loops[lv].dests[idx]
	s := r.syn("exit.store", r.loops[lv].M)
	r.nodes[s].stores = r.storeList(Store{Var: r.route(), Value: valueOf(d)})
	r.level = append(r.level, lv)
	r.loops[lv].stores[idx] = s
	return s
}

// cloneFor copies a small return block into loop lv's body instead of
// routing an exit to it, within the clone budget: one copy per edge (the
// repeated cases of a switch share their first case's), so each copy is a
// leaf of the block that branches to it (and structurizing the result
// again keeps it there).
func (r exitRouter) cloneFor(lv, d int) (int, bool) {
	n := &r.nodes[d]
	if n.synthetic() || len(n.succs) != 0 || n.weight > r.cloneMax || n.weight > r.budget || r.opt.CloneBudget < 0 {
		return 0, false
	}
	r.budget -= n.weight
	c := r.add(wnode{orig: n.orig, clone: true, weight: n.weight, name: n.name, loop: -1})
	r.level = append(r.level, lv)
	r.clones++
	return c, true
}
