// structured_irreducible.go: the irreducible pass of the structured
// strategy. Every multi-entry cycle gets one selector header that
// dispatches on the select variable, with no cloning, all of them from one
// loop forest: the input's, shifted onto the working graph (entryForest)
// rather than analysed again.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// passIrreducible gives each multi-entry strongly connected component one
// new selector header that dispatches on the select variable; every edge
// into an entry (from outside or inside the component) stores the entry's
// value on a store node of its own (one per source and entry) and goes to
// the selector. No cloning.
//
// Pre: no edge targets the entry node. Post: the working graph is reducible.
//
// One forest serves every component, outer ones first: rewriting a loop L
// changes only the edges into L's entries, which now reach the selector
// through store nodes, and the selector is the new loop's only entry. The
// loops nested in L were found with the edges into L's entries cut; no
// block of theirs is an entry of L, so their blocks, edges and entries are
// what they were, and they are the loops nested in the new loop (a store
// node leads only to the selector, on no cycle that avoids it). So after
// the one round every loop has one entry; the forest of the result is
// computed again (now by the near-linear collapse of a reducible graph),
// and a multi-entry loop left in it is a bug.
func (w *work) passIrreducible() (bool, error) {
	var f *cfg.Forest
	var o cfg.Order
	if w.input != nil {
		f, o = entryForest(w.input)
	} else {
		g := w.graph()
		o = cfg.DFSOrder(g)
		f = cfg.LoopForestOf(g, o, g.Preds())
	}
	if f.Reducible() {
		w.forest, w.order = f, o
		return false, nil
	}
	sel := newSelectors(w)
	for _, l := range f.Loops {
		if l.Irreducible {
			sel.header(l.Entries)
		}
	}
	g := w.graph()
	o = cfg.DFSOrder(g)
	f = cfg.LoopForestOf(g, o, g.Preds())
	if !f.Reducible() {
		return true, fmt.Errorf("bug: a loop with several entries is left after one selector per multi-entry loop")
	}
	w.forest, w.order = f, o
	return true, nil
}

// entryForest returns the loop forest and depth-first orders of the
// working graph newWork makes from a graph with facts fa, before any pass
// changes it: fa's shifted by one past the synthetic entry, which is in no
// loop and first in reverse post-order (the same as cfg.LoopForest and
// cfg.DFSOrder of w.graph(); a test compares them).
func entryForest(fa *graphFacts) (*cfg.Forest, cfg.Order) {
	f := fa.forest.Shifted(1)
	n := len(fa.forest.LoopOf)
	io := fa.order
	nums := make([]int, 3*(n+1))
	o := cfg.Order{RPO: nums[: 1 : n+1], RPONum: nums[n+1 : 2*n+2 : 2*n+2], PostNum: nums[2*n+2:]}
	o.RPO[0] = 0
	for _, b := range io.RPO {
		o.RPO = append(o.RPO, b+1)
	}
	o.RPONum[0], o.PostNum[0] = 0, len(io.RPO)
	for b := range n {
		o.RPONum[b+1], o.PostNum[b+1] = io.RPONum[b], io.PostNum[b]
		if o.RPONum[b+1] != cfg.NoBlock {
			o.RPONum[b+1]++
		}
	}
	return f, o
}

// selectors rewrites the multi-entry loops of one forest. The edges into
// a loop's entries are found from the predecessors the working graph had
// before the first rewrite: a rewrite redirects only the edges into its own
// loop's entries, no two loops share an entry, and the nodes it adds lead
// only to its selector, so those lists stay exact for every later loop.
type selectors struct {
	w     *work
	preds [][]int // the working graph's, before the first rewrite
	mark  []int32 // per node: the last rewrite that had it as an entry
	n     int32   // rewrites so far
}

func newSelectors(w *work) *selectors {
	return &selectors{w: w, preds: w.graph().Preds(), mark: make([]int32, len(w.nodes))}
}

// header rewrites one multi-entry component with the given entries: a
// selector node dispatching on the select variable, and a store node on
// each edge into an entry, made in the order of their sources, then of the
// sources' successors (as a scan of every node would). The slots of one
// source naming one entry (a switch's repeated case) share a store node:
// they store the same value, and a store node per slot would grow a jump
// table's layout by a block per case.
func (s *selectors) header(entries []int) {
	w := s.w
	s.n++
	v := w.select_()
	var sources []int
	for _, e := range entries {
		s.mark[e] = s.n
		sources = append(sources, s.preds[e]...)
	}
	slices.Sort(sources)
	sources = slices.Compact(sources)
	sel := w.syn("select", entries...)
	w.nodes[sel].rvar = v
	for _, e := range entries[1:] {
		w.nodes[sel].values = append(w.nodes[sel].values, valueOf(e))
	}
	isEntry := func(t int) bool { return t < len(s.mark) && s.mark[t] == s.n }
	for _, u := range sources {
		succs := w.nodes[u].succs
		orig := slices.Clone(succs)
		var cases slotIndex
		for i, t := range orig {
			if j := cases.repeat(len(orig), i, func(j int) uint64 { return uint64(orig[j]) }); j >= 0 {
				succs[i] = succs[j] // a repeated case: the first's store node, or its target
				continue
			}
			if !isEntry(t) {
				continue
			}
			st := w.syn("select.store", sel)
			w.nodes[st].stores = w.storeList(Store{Var: v, Value: valueOf(t)})
			succs[i] = st
		}
	}
}
