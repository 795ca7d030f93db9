// structured_oneblock.go: the one-block pass of the structured strategy.
// The loops pass gives a loop whose header stays in the loop on both
// labels a synthetic header H, and the latch pass makes a conditional
// back-edge block u that leaves for the loop's merge M its continue
// target. Where u was the loop's only block (a block whose conditional goes
// back to itself and out), that leaves
//
//	H: OpLoopMerge M u; branch u        u: conditional to H and M
//
// SPIR-V lets a loop header be its own continue target and back-edge
// block (oracle/RULES.md, R9 "one-block loops aside"), so u can carry the
// declaration itself and H goes:
//
//	u: OpLoopMerge M u; conditional to u and M
//
// Pre (per loop): H is synthetic, branches to u and is no loop's continue
// target; u is not H, declares nothing, no header names it as its merge,
// it is a conditional whose labels are H and M, and H is its only
// predecessor; where H stores (the loops pass clears the route at every
// loop header), u reads a decision rather than testing a variable. Post:
// every edge into H goes to u instead (u's back edge included), a header
// that named H as its merge names u, u declares OpLoopMerge M u and runs
// H's stores before its own, and H is named by nothing (the layout drops
// it). The same runs: H appended nothing to a trace, and its stores write
// constants that only u's own stores, which still come after them, write
// in the loop, so running them on every iteration leaves what running
// them once did. The loop's
// construct was {H, u} and is {u}; M's predecessors in it were u's, and
// u now dominates what H dominated but H itself, so the constructs around
// it nest as before. The nested pass's first run reads the loop back: it
// takes a conditional self-loop as its own continue target and its other
// label as the merge (R12).

package structurizer

import "slices"

// oneBlockLoops runs the pass. Pre: f passes Validate and its declared
// merges and continue targets are distinct blocks. Post: as in the file's
// comment, for every loop that meets its precondition; it reports
// whether it rewrote any. Progress: one walk over the blocks to find the
// loops and count their edges, and one over the edges to redirect them.
// Its per-block arrays are taken from room and given back.
func oneBlockLoops(f *Func, room *factsRoom) bool {
	perBlock := room.take(3 * len(f.Blocks))
	defer room.give(perBlock)
	heads, mergeOf, contOf, preds := oneBlockScan(f, perBlock)
	if len(heads) == 0 {
		return false
	}
	to := contOf // reused: H -> u, -1 for the other blocks
	var moved []int
	for _, h := range heads {
		u := f.Blocks[h].Merge.Continue
		if contOf[h] < 0 && mergeOf[u] < 0 && preds[u] == 1 {
			moved = append(moved, h)
		}
	}
	if len(moved) == 0 {
		return false
	}
	for b := range to {
		to[b] = -1
	}
	for _, h := range moved {
		u := f.Blocks[h].Merge.Continue
		hb, ub := &f.Blocks[h], &f.Blocks[u]
		ub.Merge = Merge{Kind: LoopMerge, Merge: hb.Merge.Merge, Continue: u}
		if len(hb.Stores) > 0 {
			ub.Stores = append(slices.Clip(hb.Stores), ub.Stores...)
		}
		hb.Merge, hb.Stores = Merge{}, nil
		to[h] = u
	}
	redirectAll(f, to)
	return true
}

// oneBlockScan is the loops of oneBlockShape's shape, by header, with
// declarersAndPreds, in one sweep of the blocks: at 100,000 blocks the
// function is larger than a cache and each sweep of it reads all its
// blocks from memory. Its arrays are carved from perBlock (declarerArrays).
func oneBlockScan(f *Func, perBlock []int) (heads, mergeOf, contOf, preds []int) {
	mergeOf, contOf, preds = declarerArrays(len(f.Blocks), perBlock)
	for b := range f.Blocks {
		noteDeclarer(mergeOf, contOf, preds, b, &f.Blocks[b])
		if oneBlockShape(f, b) {
			heads = append(heads, b)
		}
	}
	return heads, mergeOf, contOf, preds
}

// oneBlockShape reports whether block h is a synthetic loop header that
// branches to its continue target u, a conditional that declares nothing
// and branches to h and to the loop's merge; where h stores, u must read
// a decision (the stores then run before u's own, and no test of u reads
// them).
func oneBlockShape(f *Func, h int) bool {
	hb := &f.Blocks[h]
	if hb.Kind != Synthetic || hb.Merge.Kind != LoopMerge ||
		hb.Term.Kind != Branch || hb.Term.To[0] != hb.Merge.Continue {
		return false
	}
	u := hb.Merge.Continue
	ub := &f.Blocks[u]
	if u == h || ub.Merge.Kind != NoMerge || !isCond(ub) || len(hb.Stores) > 0 && ub.Term.Kind != Choose {
		return false
	}
	a, b, m := ub.Term.To[0], ub.Term.To[1], hb.Merge.Merge
	return a == h && b == m || a == m && b == h
}

// redirectAll makes every branch target and declared merge h of f with
// to[h] >= 0 name to[h] instead.
func redirectAll(f *Func, to []int) {
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		for i, t := range blk.Term.To {
			if to[t] >= 0 {
				blk.Term.To[i] = to[t]
			}
		}
		if blk.Merge.Kind != NoMerge && to[blk.Merge.Merge] >= 0 {
			blk.Merge.Merge = to[blk.Merge.Merge]
		}
	}
}
