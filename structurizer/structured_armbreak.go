// structured_armbreak.go: the arm-break pass of the structured strategy,
// the arm-merge pass (structured_armmerge.go) for a conditional both of
// whose arms reach its merge, where it lies directly in a switch or a
// loop. The selections pass gives such a conditional X a synthetic merge
// E that only forwards to the enclosing construct's merge M (R1), and
// neither the lift pass (X has no label at E) nor the arm-merge pass (E
// is reached through both arms) removes it. But a block directly in a
// selection that lies in a switch or loop may leave for that switch's
// merge or that loop's merge or continue target (R6), so the blocks of
// the other arm that branch to E can branch to M instead, breaks as the
// lift pass makes them, and X then merges at its first arm's block T:
//
//	P: switch or loop, merge M
//	X: OpSelectionMerge E; conditional to T and A
//	T ... D: branch E          A ... U: branch E          E: branch M
//
// becomes
//
//	X: OpSelectionMerge T; conditional to T and A
//	T ... D: branch M          A ... U: branch M
//
// T's side is the arm-merge pass's chain from T to D (armChains.chain):
// entered from X alone, its blocks only through it. Every other edge into E
// comes from a block U of A's side that lies directly in X's construct (a
// nested construct leaves only for its own merge, or a loop's or switch's
// around X, never for E, R6), and leaves X's construct for M after the
// rewrite, as the lift pass's breaks do; U's other labels stay where they
// were. Not into a selection around X, for the reason the lift pass gives
// (Mesa 22.3 rejects a conditional that leaves for its enclosing
// selection's merge), and not into a switch whose merge one case alone
// reaches (oneCaseMerges), which the nested pass would merge at that case.
//
// Pre (per conditional X): X is a conditional (not a switch) declaring
// OpSelectionMerge E and no label at E; E is synthetic, stores nothing,
// branches to M, and is no continue target; X's construct lies directly
// in construct P, a switch whose merge is M and which more than one case
// reaches, or a loop whose merge or continue target is M; T is a target of
// X whose chain (as the arm-merge pass follows it) ends at D; every other
// edge into E comes from a block other than X whose edge may go to M
// (retargetable: R15, R11). Post: X names T as its merge, every edge into
// E goes to M, E is named by nothing (the layout drops it); the same runs,
// since E appended nothing to a trace and stored nothing.
//
// The nested pass reads the result as it reads the arm-merge pass's: the
// other arm breaks, so X's region closes at T among its own targets.

package structurizer

import "slices"

// armBreaks runs the pass on f with its construct facts as the arms group
// keeps them (structured_check_kept.go; nil: computed here, their arrays
// taken from room) and returns
// them, kept true of the result (nil where f's constructs do not nest).
// Pre: f passes Validate, its declared merges and continue targets are
// distinct blocks and its constructs nest (R8). Post: as in the file's
// comment, for every conditional that meets its precondition; changed
// reports whether it rewrote any. The constructs' parents are judged as
// the facts give them when the pass starts: a rewrite moves T's chain out
// of X's construct into P, so a conditional in that chain, whose construct
// the facts still place in X (a selection), is left alone (the next round
// of the arms group finds it in P), and no other conditional's construct
// or the construct around it changes. Progress: one walk of the chain per
// conditional, as in the arm-merge pass, and one over E's edges in.
func armBreaks(f *Func, facts *constructFacts, room *factsRoom) (kept *constructFacts, changed bool) {
	if facts == nil {
		var err error
		if facts, err = constructFactsOf(f, room); err != nil {
			return nil, false // the self-check reports it
		}
	}
	cs, preds := facts.cs, facts.preds
	ac := armChains{f: f, preds: facts.predCounts(), mergeOf: facts.mergeOf, contOf: facts.contOf}
	closed := facts.closedSwitches(f)
	var moves []chainMove // the parents to set once the walk is done
	for c := range cs {
		if cs[c].kind != cSelection || cs[c].parent < 0 || facts.isDropped(c) {
			continue
		}
		x, p := cs[c].header, cs[cs[c].parent]
		m, ok := breakTarget(f, x, p, ac.contOf)
		if !ok || closed[cs[c].parent] {
			continue
		}
		e := f.Blocks[x].Merge.Merge
		for _, t := range f.Blocks[x].Term.To {
			d, ok := ac.chain(x, t, e)
			if !ok || !breaksFrom(f, x, d, e, m, preds[e]) {
				continue
			}
			breakAtArm(f, x, t, e, m, preds[e])
			ac.mergeOf[t], ac.mergeOf[e] = x, -1
			facts.movePreds(e, m) // ac.preds too
			moves = append(moves, chainMove{x: x, t: t, heads: slices.Clone(ac.heads)})
			changed = true
			break
		}
	}
	for _, mv := range moves {
		facts.mergedAtArm(mv.x, mv.t, mv.heads)
	}
	return facts, changed
}

// chainMove is a rewrite whose facts armBreaks keeps after its walk:
// conditional x merges at t, and the constructs headed by heads (t's
// chain) move out of x's construct.
type chainMove struct {
	x, t  int
	heads []int
}

// breakTarget is M, where conditional x's merge E forwards to, when x
// meets the pass's precondition on x, E and the construct p around x.
func breakTarget(f *Func, x int, p construct, contOf []int) (m int, ok bool) {
	xb := &f.Blocks[x]
	if xb.Merge.Kind != SelectionMerge || !isCond(xb) {
		return -1, false
	}
	e := xb.Merge.Merge
	eb := &f.Blocks[e]
	if eb.Kind != Synthetic || len(eb.Stores) != 0 || eb.Term.Kind != Branch || contOf[e] >= 0 {
		return -1, false
	}
	for _, t := range xb.Term.To {
		if t == e {
			return -1, false // the lift pass's case
		}
	}
	m = eb.Term.To[0]
	switch {
	case m == e:
		return -1, false
	case p.kind == cSwitch && m == p.merge, p.kind == cLoop && (m == p.merge || m == p.cont):
		return m, true
	}
	return -1, false
}

// breaksFrom: every edge into e (from the blocks ins) but d's may go to m
// instead, and none comes from x.
func breaksFrom(f *Func, x, d, e, m int, ins []int) bool {
	for _, u := range ins {
		if u == x {
			return false
		}
		if u == d {
			continue
		}
		for i, t := range f.Blocks[u].Term.To {
			if t == e && !retargetable(&f.Blocks[u], i, m) {
				return false
			}
		}
	}
	return true
}

// breakAtArm makes conditional x merge at its target t and every edge into
// x's old merge e (from the blocks ins) go to m.
func breakAtArm(f *Func, x, t, e, m int, ins []int) {
	for _, u := range ins {
		for i, to := range f.Blocks[u].Term.To {
			if to == e {
				f.Blocks[u].Term.To[i] = m
			}
		}
	}
	f.Blocks[x].Merge.Merge = t
}
