// structured_nested_readback.go: the read-back step, the structured
// strategy's last on the pass table's layouts: what it returns is a layout
// whose own CFG the nested pass's first run (one run, no search) lays out
// again, wherever a variable can make it so. That first run is what
// structurizing the output again starts with, and when it succeeds the
// search never runs: idempotence (ARCHITECTURE.md, guarantee 5) then rests
// on a run checked here, not on the search's budget.
//
// A layout with a variable names every loop's merge already (at its
// header's conditional, R12, or at its latch, R6: nameLoopMerges), and
// the first run takes those merges outright. A layout without one leaves
// its loops unnamed, as naming costs a variable; for it the first run is
// tried on its CFG, and when that fails, its loops are named at their
// latches with a variable of their own, kept when the first run then lays
// the layout out. The nested pass's layouts do not come here: a graph that
// already nests gets no variable (guarantee 6).

package structurizer

import "slices"

// namingVar is the name of the variable the read-back step adds to name
// a layout's loops.
const namingVar = "loop_merge"

// readBack returns f, or f with its loops' merges named at their latches
// when only that lets the nested pass's first run lay out its CFG. It
// returns f itself when f has a variable, when every loop of f is named
// already, when the first run reads f, and when naming does not help
// either (the search stays behind such a layout). Pre: f passes Validate
// and the self-check. Post: the same runs, the same blocks; a new layout
// passes the self-check and is in layout order.
func readBack(f *Func) *Func {
	if len(f.Vars) > 0 || !hasUnnamedLoop(f) || firstRunReads(f) {
		return f
	}
	named := &Func{Blocks: slices.Clone(f.Blocks), Vars: []Var{{Name: namingVar}}}
	if nameLoopMerges(named, nil, 0) == 0 {
		return f
	}
	layout(named)
	if SelfCheck(named) != nil || !firstRunReads(named) {
		return f
	}
	return named
}

// hasUnnamedLoop reports whether a loop of f has a merge that neither its
// header nor its latch branches to.
func hasUnnamedLoop(f *Func) bool {
	for _, hb := range f.Blocks {
		if hb.Merge.Kind != LoopMerge {
			continue
		}
		m := hb.Merge.Merge
		if !slices.Contains(hb.Term.To, m) && !slices.Contains(f.Blocks[hb.Merge.Continue].Term.To, m) {
			return true
		}
	}
	return false
}

// firstRunReads reports whether the nested pass's first run (the first
// merge policy, no ranks, nothing forced) lays out f's CFG as its module
// is read back (moduleGraph, unreachable blocks dropped).
func firstRunReads(f *Func) bool {
	g, _ := moduleGraph(f).DropUnreachable()
	_, why := newNester(g).run()
	return why == ""
}
