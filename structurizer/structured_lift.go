// structured_lift.go: the lift pass of the structured strategy. The
// selections pass gives every branch point with arms a construct of its
// own, so a conditional nested in a construct that ends where it ends
// needs a merge of its own (R1: no two headers share one), an empty
// block that only forwards to the enclosing construct's merge. Rule R12
// does not ask for it: a conditional needs no selection merge when one of
// its labels is a declared merge or continue target. This pass lifts such
// a conditional into the construct around it:
//
//   - h is a conditional (two labels) heading a selection whose merge m is
//     an empty forwarder to t, and h branches to m itself;
//   - the construct around h is a switch and t its merge (a break from a
//     case), or a loop and t its merge or continue target;
//   - the switch's merge is entered from more than one of its cases
//     (oneCaseMerges says why);
//
// then h loses its declaration and every edge into m goes to t. The blocks
// of h's construct become blocks of the construct around it, and their
// edges to t leave it for its own merge or continue target, which R6
// allows; nested constructs never named m (R6 again), so their exits do
// not change. h keeps R12 through its edge to t, which is declared.
//
// Not into a selection, though R12 and R6 allow that too: the SPIR-V front
// end of Mesa 22.3 (lavapipe on Debian bookworm) fails to compile a
// conditional that leaves for its enclosing selection's merge
// (vkCreateComputePipelines: VK_ERROR_UNKNOWN on 3 of 300 campaign
// graphs), where it takes a switch's break and a loop's break or continue.
//
// The nested pass lifts in the same way (needsHeader: a conditional with
// a label at the innermost open switch's merge heads nothing), so an
// output structurized again is laid out with the same declarations.

package structurizer

// lift runs the pass on f with its construct facts (nil: computed here;
// the latch pass's, which it keeps true of what lift reads; or those the
// arms group keeps, structured_check_kept.go). Pre: f passes Validate,
// its declared merges are distinct blocks and its constructs nest (R8).
// Post: the same function with the lifted conditionals' merges unnamed
// (the layout drops them), and facts kept true of it; the same runs. It
// reports whether it lifted any. Constructs are visited outermost first
// (a construct's parent comes before it in facts.cs), so a lifted
// construct's children are judged against the construct around it: one
// walk suffices.
func lift(f *Func, facts *constructFacts) bool {
	if facts == nil {
		var err error
		if facts, err = constructFactsOf(f, nil); err != nil {
			return false // the self-check reports it
		}
	}
	cs, contOf, preds := facts.cs, facts.contOf, facts.preds
	closed := facts.closedSwitches(f) // lift nothing into them
	lifted := make([]bool, len(cs))
	around := func(c int) int {
		p := cs[c].parent
		for p >= 0 && lifted[p] {
			p = cs[p].parent
		}
		return p
	}
	changed := false
	for c := range cs {
		if cs[c].kind != cSelection || facts.isDropped(c) {
			continue
		}
		p := around(c)
		if p < 0 || closed[p] {
			continue
		}
		if t, ok := liftable(f, cs[c].header, cs[p], contOf, preds); ok {
			unhead(f, cs[c].header, t, preds)
			lifted[c], changed = true, true
		}
	}
	if changed {
		keepLifted(facts, lifted, around)
	}
	return changed
}

// keepLifted keeps facts true after the lifts: the lifted constructs
// dropped, and each construct's parent the nearest construct around it
// that was not lifted (around). Parents come first in facts.cs, so each
// construct's parent is already set when it is reached.
func keepLifted(facts *constructFacts, lifted []bool, around func(int) int) {
	for c := range facts.cs {
		if lifted[c] {
			facts.dropConstruct(c)
		} else if p := facts.cs[c].parent; p >= 0 && lifted[p] {
			facts.setParent(c, around(c))
		}
	}
}

// liftable says whether conditional h may be lifted into construct p
// around it, and the block its merge forwards to.
func liftable(f *Func, h int, p construct, contOf []int, preds [][]int) (t int, ok bool) {
	hb := &f.Blocks[h]
	m := hb.Merge.Merge
	mb := &f.Blocks[m]
	if !isCond(hb) || mb.Kind != Synthetic || len(mb.Stores) != 0 || mb.Merge.Kind != NoMerge ||
		mb.Term.Kind != Branch || contOf[m] >= 0 {
		return -1, false
	}
	t = mb.Term.To[0]
	if t == m || p.kind == cSelection || p.kind == cContinue || (t != p.merge && !(p.kind == cLoop && t == p.cont)) {
		return -1, false
	}
	toM := false
	for _, x := range hb.Term.To {
		toM = toM || x == m
	}
	if !toM {
		return -1, false // h keeps R12 only through its edge to t
	}
	for _, u := range preds[m] {
		for i, x := range f.Blocks[u].Term.To {
			if x == m && !retargetable(&f.Blocks[u], i, t) {
				return -1, false
			}
		}
	}
	return t, true
}

// unhead drops h's declaration and sends every edge into its merge m to
// t; preds follows (m's entries move to t).
func unhead(f *Func, h, t int, preds [][]int) {
	m := f.Blocks[h].Merge.Merge
	for _, u := range preds[m] {
		for i, x := range f.Blocks[u].Term.To {
			if x == m {
				f.Blocks[u].Term.To[i] = t
			}
		}
	}
	preds[t] = append(preds[t], preds[m]...)
	preds[m] = nil
	f.Blocks[h].Merge = Merge{}
}
