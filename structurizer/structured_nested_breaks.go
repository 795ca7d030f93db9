// structured_nested_breaks.go: which blocks are really a loop's breaks.
// Where a header's region does not close, or a self-check failure names a
// branch point, a loop merge chosen too early shows as a branch (past
// forwarding blocks, rule R11's way for a switch) or a region entry from
// elsewhere in the loop (rule R10) that leads to a block the loop's header
// dominates, outside the loop's natural loop: that block is the loop's
// merge. The search forces the breaks found at a header that does not
// close first (hintFor), and, as its last resort when it fails
// (followHints), those of a wider look (hints). Only the run's
// declarations, trees, loop forest and region walks are read.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// breakSearch finds the breaks of one branch point x's loops in a run
// (the header whose region did not close, or that a self-check failure
// names), inner being the innermost open construct's merge (an exit x may
// take; -1 for none) and region x's region without a merge, whose walk
// (the run's marks) shows where it is entered from elsewhere. What it
// finds goes to the run's hints, breaks and blame.
type breakSearch struct {
	*nester
	x, inner int
	region   *headerRegion
}

// hintFor is called for a header x whose region does not close. Where x
// follows a loop's merge (the nearest loop merge among its dominators)
// and branches to a block that loop's header dominates but x does not, the
// loop's merge was likely chosen too early: x's branch is the loop's break.
// It records each such {loop header, target} as a hint to force (nested),
// and blames the loop (the search tries its later merges first). Not when
// x lies inside a loop below that merge: that loop is the suspect, and the
// walk blames it (blameOpen).
func (bs breakSearch) hintFor() {
	if len(bs.nester.hints) > 0 {
		return
	}
	h := -1
	for d := bs.dom.IDom[bs.x]; d >= 0 && h < 0; d = bs.dom.IDom[d] {
		if dd := bs.decl[d]; dd.Kind == LoopMerge && (dd.Merge >= bs.n || !bs.dom.Dominates(dd.Merge, bs.x)) {
			return // x is inside loop d, which the walk blames (blameOpen)
		}
		if m := bs.mergeOf[d]; m >= 0 && bs.decl[m].Kind == LoopMerge {
			h = m
		}
	}
	if h < 0 {
		return
	}
	bs.blame = append(bs.blame, h)
	for _, t := range bs.g.Succs[bs.x] {
		if bs.dom.Dominates(bs.x, t) || !bs.dom.Dominates(h, t) || bs.force[h] == t || bs.contOf[t] >= 0 {
			continue
		}
		if m := bs.mergeOf[t]; m >= 0 && bs.decl[m].Kind == LoopMerge {
			continue
		}
		bs.nester.hints = append(bs.nester.hints, [2]int{h, t})
	}
}

// hints is hintFor's wider look, for the search's last resort
// (followHints): where x follows loop merges (loops declared before it,
// whose merges dominate x) and may break to a block one of those loops'
// headers dominates but x does not (targets: its branches past
// forwarders, and where its region is entered from elsewhere), that
// loop's merge was likely chosen too early. Of such loops, nearest first,
// it records the first one's {loop header, target} pairs as breaks to
// force. The loops x lies inside are suspects too: x's breaks that leave
// such a loop's natural loop for a block the loop's header dominates are
// its own, innermost loop first, in the order the dominator tree meets
// them. It blames nothing: the search's order stays hintFor's.
func (bs breakSearch) hints() {
	if len(bs.breaks) > 0 {
		return
	}
	found, targets := false, bs.targets()
	for d := bs.dom.IDom[bs.x]; d >= 0; d = bs.dom.IDom[d] {
		if dd := bs.decl[d]; dd.Kind == LoopMerge && (dd.Merge >= bs.n || !bs.dom.Dominates(dd.Merge, bs.x)) {
			// x is inside loop d; its breaks may be d's or an
			// enclosing loop's, innermost first.
			bs.breaksOf(d, targets)
			continue
		}
		h := bs.mergeOf[d]
		if found || h < 0 || bs.decl[h].Kind != LoopMerge {
			continue
		}
		found = bs.breaksOf(h, targets)
	}
}

// breaksOf records as breaks of loop h those of targets that can be: blocks
// h dominates and x does not, outside h's natural loop, no loop's merge or
// continue target already, nor the innermost construct's merge (an exit x
// may take). It reports whether it found one.
func (bs breakSearch) breaksOf(h int, targets []int) bool {
	found := false
	for _, t := range targets {
		if bs.dom.Dominates(bs.x, t) || !bs.dom.Dominates(h, t) || bs.force[h] == t || bs.contOf[t] >= 0 || t == bs.inner {
			continue
		}
		if m := bs.mergeOf[t]; m >= 0 && bs.decl[m].Kind == LoopMerge || bs.inNaturalLoop(t, h) ||
			slices.Contains(bs.breaks, [2]int{h, t}) {
			continue
		}
		bs.breaks, found = append(bs.breaks, [2]int{h, t}), true
	}
	return found
}

// targets are where x's branches may really be a loop's breaks: its
// targets, each past forwarding blocks only x enters (pastForwarders:
// where a switch breaks, it breaks through one, rule R11), then the
// blocks of x's region without a merge that are entered from outside it
// (rule R10: a break from elsewhere in the loop comes in there), in the
// order of the region's walk.
func (bs breakSearch) targets() []int {
	var ts []int
	for _, t := range bs.g.Succs[bs.x] {
		ts = append(ts, bs.pastForwarders(t))
	}
	bs.region.regionSize(-1, bs.n) // fills the queue and marks, whether it closes or not
	for _, b := range bs.queue[1:] {
		for _, p := range bs.preds[b] {
			if bs.mark[p] != bs.stamp {
				ts = append(ts, b)
				break
			}
		}
	}
	return ts
}

// inNaturalLoop reports whether block t lies in the natural loop headed by
// h (or one nested in it).
func (bs breakSearch) inNaturalLoop(t, h int) bool {
	f := bs.forest
	for l := f.LoopOf[t]; l != cfg.NoBlock; l = f.Loops[l].Parent {
		if f.Loops[l].Header == h {
			return true
		}
	}
	return false
}

// pastForwarders follows t down a chain of forwarding blocks x alone
// enters (one successor each, at most nestForwardHops of them): where a
// switch breaks, it breaks through one (rule R11).
func (bs breakSearch) pastForwarders(t int) int {
	for range nestForwardHops {
		if len(bs.g.Succs[t]) != 1 || len(bs.preds[t]) != 1 || !bs.dom.StrictlyDominates(bs.x, t) {
			break
		}
		t = bs.g.Succs[t][0]
	}
	return t
}

// nestForwardHops bounds the forwarding blocks pastForwarders follows.
const nestForwardHops = 4

// ruleHints looks for breaks (breakSearch) at the branch point a self-check
// failure err of layout f names, as if its region had not closed: the
// walk accepted the declarations, the rules did not, and a loop merge
// chosen too early shows the same way (a switch whose case is really a
// break, R11; a selection left for the loop's real merge, R6). The branch
// point's own merge is the exit it may take.
func ruleHints(nt *nester, f *Func, err error) {
	re, ok := err.(*RuleError)
	if !ok || re.Block < 0 || re.Block >= len(f.Blocks) {
		return
	}
	x := f.Blocks[re.Block].Orig
	if x < 0 || x >= nt.n || len(nt.g.Succs[x]) < 2 {
		return
	}
	region := nt.headerRegion(x, cSelection, nil)
	bs := breakSearch{nester: nt, x: x, inner: -1, region: &region}
	if d := nt.decl[x]; d.Kind == SelectionMerge {
		bs.inner = d.Merge
	}
	bs.hints()
}

// ruleBans records the loop merge a self-check failure err of layout f
// rules out: an exit rule (R6) broken by an edge to a block some loop
// declares as its merge, from a construct that may not leave for it (an
// inner loop's, say), shows that block is not that loop's merge.
func ruleBans(nt *nester, f *Func, err error) {
	re, ok := err.(*RuleError)
	if !ok || re.Rule != "R6" || re.To < 0 || re.To >= len(f.Blocks) {
		return
	}
	t := f.Blocks[re.To].Orig
	if t < 0 || t >= nt.n {
		return
	}
	if h := nt.mergeOf[t]; h >= 0 && nt.decl[h].Kind == LoopMerge {
		nt.banned = append(nt.banned, [2]int{h, t})
	}
}
