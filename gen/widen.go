// widen.go: wide switches, the jump tables a lowering meets in real code.
//
// The random kinds draw switches of 3 or 4 successors, and a program's
// switch has at most 4 case values. Code in the field switches over an
// enum or indexes a jump table: dozens or hundreds of case values, most of
// them sharing a few targets. A structurizer's case list, its OpSwitch
// literals and its routing of a case into its target are all indexed by
// the case value, and a bug there (a fixed table of a few entries, an index
// kept in a byte, a case beyond the first few sent to the default) shows
// only on a switch wide enough.
//
// widenSwitches gives some switches of a random graph such a table after
// the graph is drawn. It inserts slots that repeat a successor the block
// already has, at random places in its list (the default included), so
// the graph's edges as a set are unchanged, and with them reachability,
// dominators, loops, reducibility and termination: every property a
// generator promises holds on the widened graph. Only which decision
// reaches which target changes. The program generator draws its extra case
// values the same way (program.go, switchStmt), so a program's text lists
// every value its graph decides on.
//
// Each widened switch's width is drawn by switchWidth; the draws come from
// a stream of their own, so a graph without a switch (or none widened) is
// the graph the generator drew before widening.

package gen

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// The widths a widened switch gets (successors, the default included):
// 5-8 55% of the time, 9-16 30%, 17-64 12%, and 250-300 3%, past the 256
// values a byte can index.
var switchWidths = []struct {
	lo, hi int
	share  float64 // cumulative
}{
	{5, 8, 0.55},
	{9, 16, 0.85},
	{17, 64, 0.97},
	{250, 300, 1},
}

// switchWidth draws the width of a widened switch.
func switchWidth(r *rng) int {
	u := r.float64()
	for _, w := range switchWidths {
		if u < w.share {
			return r.between(w.lo, w.hi)
		}
	}
	last := switchWidths[len(switchWidths)-1]
	return r.between(last.lo, last.hi)
}

// widenSwitches widens each switch of g (a block of 3 or more successors)
// with probability prob, to switchWidth successors when that is more than
// it has: the extra slots repeat the block's own successors, each inserted
// at a random place in its list.
//
// Precondition: g's successor lists may share one backing array (the
// generators' slot arrays); a widened block gets a list of its own.
// Postcondition: every block has the successors it had, as a set, and each
// block's list keeps its slots in their order around the inserted ones.
func widenSwitches(g *cfg.Graph, r *rng, prob float64) {
	if prob <= 0 {
		return
	}
	for b, succ := range g.Succs {
		if len(succ) < 3 || !r.chance(prob) {
			continue
		}
		w := switchWidth(r)
		if w <= len(succ) {
			continue
		}
		wide := make([]int, len(succ), w)
		copy(wide, succ)
		for len(wide) < w {
			t := wide[r.intn(len(wide))]
			at := r.intn(len(wide) + 1)
			wide = append(wide, 0)
			copy(wide[at+1:], wide[at:])
			wide[at] = t
		}
		g.Succs[b] = wide
	}
}
