// structured_armmerge.go: the arm-merge pass of the structured strategy.
// The selections pass gives every conditional a merge of its own, and
// where that merge E only forwards to the enclosing construct's merge M
// (no two headers share a merge, R1) it is a synthetic block. When one arm
// of the conditional X holds every way to E, and the other arm never gets
// there (it returns, or breaks to a loop's or switch's merge), X can merge
// at that arm's first block T instead:
//
//	X: OpSelectionMerge E; conditional to T and A
//	T ... D: branch E          E: branch M
//
// becomes
//
//	X: OpSelectionMerge T; conditional to T and A
//	T ... D: branch M
//
// "Every way" is read off the construct chain from T: T is entered only
// from X, and the chain steps from a selection or loop header to its
// merge, from a block that only branches to its target, entered from that
// block alone, and from a conditional with no header whose other target
// is a declared merge or continue target (a break or continue, R12) to
// the target entered from it alone, until a block D that branches to E
// (only, or as a conditional with no header whose other target is a
// declared merge or continue target other than M: R15); E's only
// predecessor is D. Each block of the chain lies directly
// in X's construct (T does, and a header's merge lies where its header
// does), so the blocks the chain's constructs hold are entered only
// through their headers and leave only for their own merges or for a
// loop's or switch's merge or continue target around X.
//
// Pre (per conditional X): X is a conditional (not a switch) declaring
// OpSelectionMerge E; E is synthetic, branches to M, and no other header
// names it; T is a target of X, other than E, whose only predecessor is
// X; the chain from T reaches a block D as above within as many steps as
// f has blocks, through blocks no header names as a continue target;
// E's only predecessor is D; where E stores, D only branches. Post: X
// names T as its merge, D goes to M where it went to E and runs E's
// stores after its own, and E is named by nothing (the layout drops it).
// The same runs: E appended nothing to a trace, and its stores still run
// right after D's. X's construct loses the chain's blocks, which move to
// the construct around X: their edges out went to E, now to M (E's own
// edge, from the construct E lay in), or to a loop's or switch's merge or
// continue target, which the construct around X may leave for as X could,
// as no loop lies between them. The other arm A reaches neither E nor the
// chain (T is entered from X alone, and the chain's blocks only through
// the chain), so nothing enters X's construct but through X.

package structurizer

import "slices"

// armMerges runs the pass; facts are f's construct facts as the arms
// group keeps them (structured_check_kept.go), nil where none are kept
// (its per-block arrays then taken from room and given back). Pre: f passes Validate and its declared merges and continue targets are
// distinct blocks. Post: as in the file's comment, for every conditional
// that meets its precondition, one after another, and facts kept true of
// the result; it reports whether it rewrote any. Progress: each rewrite
// walks the chain of blocks that lie directly in one construct, and each
// block lies directly in one, so the walks add up to the blocks of f.
func armMerges(f *Func, facts *constructFacts, room *factsRoom) bool {
	ac := armChains{f: f}
	changed := false
	if facts != nil { // kept below
		ac.preds, ac.mergeOf, ac.contOf = facts.predCounts(), facts.mergeOf, facts.contOf
		for x := range f.Blocks {
			if xb := &f.Blocks[x]; xb.Merge.Kind == SelectionMerge && isCond(xb) {
				changed = ac.mergeAt(x, facts) || changed
			}
		}
		return changed
	}
	// Without kept facts, the sweep that counts the edges also lists the
	// conditionals that declare a merge, the only blocks mergeAt rewrites
	// (a rewrite makes no block such a conditional), and the pass visits
	// those alone instead of sweeping the blocks again: at 100,000 blocks
	// the function is larger than a cache, and each sweep of it reads all
	// its blocks from memory.
	var conds []int
	perBlock := room.take(3 * len(f.Blocks))
	defer room.give(perBlock)
	ac.mergeOf, ac.contOf, ac.preds, conds = declarersPredsAndConds(f, perBlock)
	for _, x := range conds {
		if xb := &f.Blocks[x]; xb.Merge.Kind == SelectionMerge && isCond(xb) {
			changed = ac.mergeAt(x, nil) || changed
		}
	}
	return changed
}

// mergeAt merges conditional x, which declares a selection merge, at one
// of its arms when the file's comment allows it (the first arm whose chain
// does) and reports whether it did; facts, when not nil, are kept true of
// the result.
func (ac *armChains) mergeAt(x int, facts *constructFacts) bool {
	f := ac.f
	xb := &f.Blocks[x]
	e := xb.Merge.Merge
	eb := &f.Blocks[e]
	if eb.Kind != Synthetic || eb.Term.Kind != Branch || ac.preds[e] != 1 || ac.contOf[e] >= 0 {
		return false
	}
	for _, t := range xb.Term.To {
		if d, ok := ac.chain(x, t, e); ok {
			m := eb.Term.To[0]
			mergeAtArm(f, x, t, d)
			ac.mergeOf[t], ac.mergeOf[e] = x, -1
			if facts != nil {
				facts.mergedAtArm(x, t, ac.heads)
				facts.movePreds(e, m)
			}
			return true
		}
	}
	return false
}

// armChains is what the pass reads: f, the branch edges into each block,
// and the declarers of each block (declarers), kept up to date; heads are
// the headers the last chain stepped over (header to merge).
type armChains struct {
	f               *Func
	preds           []int
	mergeOf, contOf []int
	heads           []int
}

// chain follows the chain from t (a target of conditional x, whose merge
// is e) and returns the block d that branches to e, when the chain gets
// there as the file's comment says.
func (ac *armChains) chain(x, t, e int) (d int, ok bool) {
	f, preds := ac.f, ac.preds
	if t == e || preds[t] != 1 {
		return -1, false
	}
	m := f.Blocks[e].Term.To[0]
	cur := t
	ac.heads = ac.heads[:0]
	for range len(f.Blocks) {
		b := &f.Blocks[cur]
		if ac.contOf[cur] >= 0 {
			return -1, false
		}
		next := -1
		switch {
		case b.Merge.Kind != NoMerge:
			next = b.Merge.Merge
			ac.heads = append(ac.heads, cur)
		case b.Term.Kind == Branch && b.Term.To[0] == e:
			return cur, true
		case b.Term.Kind == Branch && preds[b.Term.To[0]] == 1:
			next = b.Term.To[0]
		case isCond(b):
			if i := slices.Index(b.Term.To, e); i >= 0 {
				br := b.Term.To[1-i]
				return cur, br != m && ac.declared(br) && len(f.Blocks[e].Stores) == 0
			}
			next = ac.stayer(b)
		}
		if next < 0 || next == e || next == t || next == x {
			return -1, false
		}
		cur = next
	}
	return -1, false
}

// stayer is the target of headerless conditional b that the chain goes
// on to: entered from b alone and named by no header, where b's other
// target is a declared merge or continue target (a break or continue,
// R12); -1 otherwise.
func (ac *armChains) stayer(b *Block) int {
	for i, n := range b.Term.To {
		if br := b.Term.To[1-i]; ac.preds[n] == 1 && !ac.declared(n) && ac.declared(br) {
			return n
		}
	}
	return -1
}

// declared reports whether a header names t as its merge or continue
// target.
func (ac *armChains) declared(t int) bool { return ac.mergeOf[t] >= 0 || ac.contOf[t] >= 0 }

// mergeAtArm makes conditional x merge at its target t, and d, the end of
// t's chain, go where x's old merge e went, with e's stores after its own.
func mergeAtArm(f *Func, x, t, d int) {
	xb := &f.Blocks[x]
	e := xb.Merge.Merge
	eb := &f.Blocks[e]
	db := &f.Blocks[d]
	db.Term.To[slices.Index(db.Term.To, e)] = eb.Term.To[0]
	db.Stores = append(db.Stores, eb.Stores...)
	xb.Merge.Merge = t
	eb.Stores = nil
}
