// structured_irreducible.go: the irreducible pass of the structured
// strategy. Every multi-entry cycle gets one selector header that
// dispatches on the select variable, with no cloning; the first round
// reads the input's loop forest shifted onto the working graph
// (entryForest) rather than analysing the working graph again.

package structurizer

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// passIrreducible gives each multi-entry strongly connected component one
// new selector header that dispatches on the select variable; every edge
// into an entry (from outside or inside the component) stores the entry's
// value on its own store node and goes to the selector. No cloning.
//
// Pre: no edge targets the entry node. Post: the working graph is reducible.
//
// Progress: after a component is rewritten its entries have the selector as
// only predecessor, so every loop nested in the new loop lies inside the
// component minus its entries; each round strictly shrinks the blocks that
// lie in a multi-entry component, so the loop ends after at most as many
// rounds as there are blocks.
func (w *work) passIrreducible() (bool, error) {
	changed := false
	for round := 0; ; round++ {
		if round > len(w.nodes)+1 {
			return changed, fmt.Errorf("bug: irreducible rewriting did not converge")
		}
		var f *cfg.Forest
		var o cfg.Order
		if round == 0 && w.input != nil {
			f, o = entryForest(w.input)
		} else {
			g := w.graph()
			o = cfg.DFSOrder(g)
			f = cfg.LoopForestOf(g, o, g.Preds())
		}
		if f.Reducible() {
			w.forest, w.order = f, o
			return changed, nil
		}
		done := make([]bool, len(f.Loops))
		for li, l := range f.Loops {
			if l.Parent != cfg.NoBlock && done[l.Parent] {
				done[li] = true
				continue
			}
			if !l.Irreducible {
				continue
			}
			done[li] = true
			w.selectorHeader(l.Entries)
			changed = true
		}
	}
}

// entryForest returns the loop forest and depth-first orders of the
// working graph newWork makes from a graph with facts fa, before any pass
// changes it: fa's shifted by one past the synthetic entry, which is in no
// loop and first in reverse post-order (the same as cfg.LoopForest and
// cfg.DFSOrder of w.graph(); a test compares them).
func entryForest(fa *graphFacts) (*cfg.Forest, cfg.Order) {
	in := fa.forest
	n := len(in.LoopOf)
	f := &cfg.Forest{LoopOf: make([]int, n+1)}
	if len(in.Loops) > 0 {
		f.Loops = make([]cfg.Loop, len(in.Loops))
	}
	f.LoopOf[0] = cfg.NoBlock
	copy(f.LoopOf[1:], in.LoopOf)
	for i, l := range in.Loops {
		l.Header++
		l.Entries = shifted(l.Entries)
		l.Blocks = shifted(l.Blocks)
		f.Loops[i] = l
	}
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

// shifted returns the blocks of s plus one.
func shifted(s []int) []int {
	t := make([]int, len(s))
	for i, b := range s {
		t[i] = b + 1
	}
	return t
}

// selectorHeader rewrites one multi-entry component with the given entries.
func (w *work) selectorHeader(entries []int) {
	v := w.select_()
	isEntry := map[int]bool{}
	for _, e := range entries {
		isEntry[e] = true
	}
	sel := w.syn("select", entries...)
	w.nodes[sel].rvar = v
	for _, e := range entries[1:] {
		w.nodes[sel].values = append(w.nodes[sel].values, valueOf(e))
	}
	for u := 0; u < len(w.nodes); u++ {
		if u == sel {
			continue
		}
		for i, t := range w.nodes[u].succs {
			if !isEntry[t] {
				continue
			}
			s := w.syn("select.store", sel)
			w.nodes[s].stores = []Store{{Var: v, Value: valueOf(t)}}
			w.nodes[u].succs[i] = s
		}
	}
}
