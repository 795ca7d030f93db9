// structured_latch.go: the latch pass of the structured strategy. The
// loops pass gives a loop a synthetic latch C when its one back-edge block
// u is a conditional, since a continue construct may leave only for the
// loop's merge (R6) and u's other label is often inside the body. Once
// the edges are routed, that label is often the loop's merge M itself (a
// do-while's test: u goes back or leaves). It also gives one where u is
// the header's own successor, so that the body is not empty; SPIR-V does
// not ask for that. u can then be the continue target, and C goes:
//
//   - C is synthetic, stores nothing and only goes back to the header H
//     (a branch, or the test of a value never held that names M, which
//     nameMergesAtLatches adds), and u is its one predecessor;
//   - u heads nothing and no header declares it; it is a conditional
//     whose labels are C and M (R6: the continue construct {u} leaves
//     only for M; R12: u needs no header, M is declared), or it only
//     branches to C and C only branches back (a C that tests to name M
//     follows no such u: the loops pass makes u the latch unless u is
//     the header's own successor, and then the header names M);
//   - u's innermost construct is the loop itself. Inside a switch's case
//     u cannot be the continue target (R11: the switch's header would not
//     dominate it). Inside a selection the rules and spirv-val allow it,
//     but the pass leaves such a test alone: it is under one in a hundred
//     of the synthetic blocks on random graphs, and no check has held
//     the nested pass or a driver to that shape.
//
// H then names u as its continue target and u branches back to H. The same
// runs: C appended nothing to a trace. The nested pass reads the merge off
// u's conditional (loopMerge, R12), as it reads C's, or off the header.

package structurizer

import "slices"

// absorbLatches runs the pass. Pre: f passes Validate, its declared merges
// are distinct blocks and its constructs nest (R8). Post: the same runs;
// every loop whose latch it absorbed names its back-edge block as the
// continue target, and the latch is named by nothing (the layout drops
// it). It returns whether it absorbed any, and f's construct facts for the
// lift pass (nil when the constructs do not nest; their arrays taken from
// room), kept true of what lift reads: each loop's continue target and
// the declarers. A back-edge block's place in the dominator tree may be
// stale; lift asks nothing of it (such a block heads nothing and enters
// no switch's merge). Progress: one walk over the loop constructs.
func absorbLatches(f *Func, room *factsRoom) (bool, *constructFacts) {
	facts, err := constructFactsOf(f, room)
	if err != nil {
		return false, nil // the self-check reports it
	}
	changed := false
	for c, l := range facts.cs {
		if l.kind != cLoop {
			continue
		}
		u, ok := absorbable(f, l, facts)
		if !ok || facts.inner[u] != c {
			continue
		}
		absorb(f, l, u)
		facts.cs[c].cont, facts.contOf[u], facts.contOf[l.cont] = u, l.header, -1
		changed = true
	}
	return changed, facts
}

// absorb makes back-edge block u loop l's continue target in place of its
// latch: u branches back to the header where it branched to the latch.
func absorb(f *Func, l construct, u int) {
	h, c := l.header, l.cont
	f.Blocks[h].Merge.Continue = u
	ub := &f.Blocks[u]
	ub.Term.To[slices.Index(ub.Term.To, c)] = h
}

// absorbable returns the back-edge block of loop construct l that can
// take the place of its latch (the package's conditions but the
// construct test).
func absorbable(f *Func, l construct, facts *constructFacts) (u int, ok bool) {
	h, c, m := l.header, l.cont, l.merge
	preds, mergeOf, contOf := facts.preds, facts.mergeOf, facts.contOf
	cb := &f.Blocks[c]
	if cb.Kind != Synthetic || len(cb.Stores) != 0 || cb.Merge.Kind != NoMerge || len(preds[c]) != 1 {
		return -1, false
	}
	switch cb.Term.Kind {
	case Branch:
	case Test:
		if cb.Term.To[0] != m || cb.Term.Values[0] != neverRouted {
			return -1, false
		}
	default:
		return -1, false
	}
	if cb.Term.To[len(cb.Term.To)-1] != h {
		return -1, false
	}
	u = preds[c][0]
	ub := &f.Blocks[u]
	if ub.Merge.Kind != NoMerge || mergeOf[u] >= 0 || contOf[u] >= 0 || u == h {
		return -1, false
	}
	to := ub.Term.To
	switch {
	case ub.Term.Kind == Branch && cb.Term.Kind == Branch:
		return u, true
	case isCond(ub) && (to[0] == c && to[1] == m || to[0] == m && to[1] == c):
		return u, true
	}
	return -1, false
}
