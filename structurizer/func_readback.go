// func_readback.go: a structured function as a reader of its module sees
// it again: its branch graph with the emitter's prologue block
// (moduleGraph), and its loops' merges named where that graph shows them
// (nameLoopMerges: a latch that tests a variable for a value it never
// holds, so its other target is the merge, rule R6). The structured
// strategy's read-back step and the selections pass use them; structurizing
// a function's own CFG again (the meta oracle's idempotence check) starts
// from moduleGraph's graph.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// neverRouted is a value no variable of a structured function is ever
// set to (route values are node ids plus one, selector values entry
// numbers, and a naming variable is never stored).
const neverRouted = ^uint32(0) - 1

// moduleGraph is f's branch graph as its module lays it out: a prologue
// block (0) branching to f's entry, then f's blocks (block b is node b+1),
// a switch's targets in the order the emitter lists them (the default,
// then the cases in caseOrder or Term.Order).
func moduleGraph(f *Func) *cfg.Graph {
	g := cfg.New(len(f.Blocks) + 1)
	g.Succs[0] = []int{1}
	for i := range f.Blocks {
		b := &f.Blocks[i]
		to := b.Term.To
		if isSwitch(b) {
			order := b.Term.Order
			if order == nil {
				order = caseOrder(to)
			}
			to = []int{to[0]}
			for _, k := range order {
				to = append(to, b.Term.To[k])
			}
		}
		s := make([]int, len(to))
		for k, t := range to {
			s[k] = t + 1
		}
		g.Succs[i+1] = s
	}
	return g
}

// nameLoopMerges names the merge of each loop of f at its latch: a latch
// that branches back to its header unconditionally, in a loop whose
// header does not branch to the merge itself (R12 names it there), tests
// variable v for neverRouted instead, with the merge as the target when
// it holds (never) and the header otherwise. The merge is then where the
// continue construct may leave for (R6), so a reader of the CFG takes it
// outright instead of searching among the loop's exits. headers lists
// the loop headers to consider (nil: every block that declares a loop).
// It returns how many latches it changed. Pre: f passes Validate and v
// is one of its variables. Post: the same runs (the test never holds) and
// the same blocks.
func nameLoopMerges(f *Func, headers []int, v int) int {
	if headers == nil {
		for b := range f.Blocks {
			if f.Blocks[b].Merge.Kind == LoopMerge {
				headers = append(headers, b)
			}
		}
	}
	named := 0
	for _, h := range headers {
		hb := &f.Blocks[h]
		c, m := hb.Merge.Continue, hb.Merge.Merge
		cb := &f.Blocks[c]
		if cb.Term.Kind != Branch || cb.Term.To[0] != h || slices.Contains(hb.Term.To, m) {
			continue
		}
		cb.Term = Term{Kind: Test, Var: v, Values: []uint32{neverRouted}, To: []int{m, h}}
		named++
	}
	return named
}
