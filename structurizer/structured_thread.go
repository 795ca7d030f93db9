// structured_thread.go: the thread pass of the structured strategy. The
// emitter gives every construct a fresh merge (a guard or exit block), which
// keeps rule R1 trivially true but leaves many empty forwarding blocks. This
// pass removes them where the rules allow, as jump threading does:
//
//   - a header whose merge is an empty forwarder g -> t merges at t instead
//     when g is t's only predecessor and t is no other construct's merge or
//     continue target and heads no loop (so R1, R4 and the "never reuse a
//     loop's merge or continue target" lesson still hold, and the construct
//     keeps the same blocks);
//   - a branch to an empty forwarder that no header names goes straight to
//     its target (both edges leave the same construct), except to a loop
//     header (which keeps one entry edge, so it never becomes a join), in a
//     switch's target list unless it becomes the switch's own merge (R11:
//     targets stay dominated by the header), and where a conditional's two
//     labels would become equal (R15).
//
// The layout pass then drops the blocks nothing names.
package structurizer

// thread runs the pass. Pre: f passes Validate and every declared merge is
// a distinct block. Post: the same function with fewer forwarders; it
// changed something when it returns true. Progress: one walk over the
// headers, one over the branches; a forwarder chain is followed at most
// once per block (memoized, and a chain that comes back to itself stops).
func thread(f *Func) bool {
	n := len(f.Blocks)
	declared := declaredBlocks(f)
	preds := make([]int, n)
	for b := range f.Blocks {
		for _, t := range f.Blocks[b].Term.To {
			preds[t]++
		}
	}
	empty := func(b int) bool {
		blk := &f.Blocks[b]
		return blk.Kind == Synthetic && len(blk.Stores) == 0 && blk.Merge.Kind == NoMerge &&
			blk.Term.Kind == Branch && blk.Term.To[0] != b
	}
	changed := false
	for h := range f.Blocks {
		m := &f.Blocks[h].Merge
		if m.Kind == NoMerge || !empty(m.Merge) {
			continue
		}
		g := m.Merge
		t := f.Blocks[g].Term.To[0]
		if preds[t] != 1 || declared[t] || t == h || f.Blocks[t].Merge.Kind == LoopMerge {
			continue
		}
		declared[g], declared[t] = false, true
		m.Merge = t
		changed = true
	}
	final := make([]int, n)
	for b := range final {
		final[b] = -1
	}
	var resolve func(b int) int
	resolve = func(b int) int {
		if final[b] >= 0 {
			return final[b]
		}
		final[b] = b // stops a chain that comes back
		if !declared[b] && empty(b) && f.Blocks[f.Blocks[b].Term.To[0]].Merge.Kind != LoopMerge {
			final[b] = resolve(f.Blocks[b].Term.To[0])
		}
		return final[b]
	}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		to := blk.Term.To
		for i, t := range to {
			if r := resolve(t); r != t {
				if !retargetable(blk, i, r) {
					continue
				}
				to[i] = r
				changed = true
			}
		}
	}
	return changed
}
