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
//     labels would become equal (R15);
//   - a chain of guards (a synthetic test or route whose merge is its
//     default target, another route on the same variable entered from it
//     alone) becomes one route with the cases of both and the second's
//     merge (joinRoutes);
//   - a switch whose cases still go through several empty forwarders to
//     one block (R11 keeps them: the block is not the switch's to name)
//     goes through one of them for all those cases, the cases listed
//     side by side (R11's adjacent duplicate labels); through its own
//     merge when that is an empty block forwarding to the same block (R11
//     lets a case go to its switch's merge), so the forwarders are left
//     to no one.
//
// The layout pass then drops the blocks nothing names.

package structurizer

import "slices"

// thread runs the pass. Pre: f passes Validate and every declared merge is
// a distinct block. Post: the same function with fewer forwarders; it
// changed something when it returns true. Progress: one walk over the
// headers, one over the branches; a forwarder chain is followed at most
// once per block (memoized, and a chain that comes back to itself stops).
func thread(f *Func) bool {
	n := len(f.Blocks)
	sc := scanThread(f)
	declared, preds := sc.declared, sc.preds
	empty := func(b int) bool { return sc.forwarder[b] && f.Blocks[b].Term.To[0] != b }
	changed := false
	for _, h := range sc.heads {
		m := &f.Blocks[h].Merge
		if m.Kind == NoMerge || !empty(m.Merge) {
			continue
		}
		g := m.Merge
		t := f.Blocks[g].Term.To[0]
		if preds[t] != 1 || declared[t] || t == h || sc.loopHead[t] {
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
		if !declared[b] && empty(b) && !sc.loopHead[f.Blocks[b].Term.To[0]] {
			final[b] = resolve(f.Blocks[b].Term.To[0])
		}
		return final[b]
	}
	entering := preds // the edges into each block once bypassed, counted as they are
	clear(entering)
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		to := blk.Term.To
		for i, t := range to {
			if r := resolve(t); r != t && retargetable(blk, i, r) {
				to[i] = r
				changed = true
			}
		}
		for _, t := range to {
			entering[t]++
		}
	}
	joined := joinRoutesOf(f, sc.routes, entering)
	return shareForwardersOf(f, sc.routes, declaredBy(f, sc.heads), empty) || joined || changed
}

// threadScan is what the thread pass reads of every block, in one sweep
// of the blocks: the blocks a header declares, the number of edges into
// each block, which blocks are synthetic forwarders (a branch with no
// stores and no declaration: empty unless it branches to itself), which
// head loops, and the lists of the blocks that declare a merge (heads)
// and of the routes and switches (routes), in block order. The pass's later steps read
// these where they would read the blocks themselves or sweep all of them:
// at 100,000 blocks the function is larger than a cache, and each sweep
// or scattered read of it goes to memory. They stay true while the pass
// runs: its steps change no block's kind, stores, merge kind, terminator
// kind or case order, except that joining routes makes a route of a test
// (already listed) and clears the route it joins (which the steps check
// again as they go).
type threadScan struct {
	declared      []bool
	preds         []int
	forwarder     []bool
	loopHead      []bool
	heads, routes []int
}

func scanThread(f *Func) *threadScan {
	n := len(f.Blocks)
	// heads and routes non-nil, so that listedBlocks visits them alone.
	sc := &threadScan{declared: make([]bool, n), preds: make([]int, n), forwarder: make([]bool, n), loopHead: make([]bool, n), heads: []int{}, routes: []int{}}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		declare(sc.declared, &blk.Merge)
		for _, t := range blk.Term.To {
			sc.preds[t]++
		}
		sc.forwarder[b] = blk.Kind == Synthetic && len(blk.Stores) == 0 && blk.Merge.Kind == NoMerge && blk.Term.Kind == Branch
		sc.loopHead[b] = blk.Merge.Kind == LoopMerge
		if blk.Merge.Kind != NoMerge {
			sc.heads = append(sc.heads, b)
		}
		if isRoute(blk) || isSwitch(blk) {
			sc.routes = append(sc.routes, b)
		}
	}
	return sc
}

// declaredBy is declaredBlocks over the listed blocks alone, a list that
// holds every block declaring a merge (threadScan).
func declaredBy(f *Func, heads []int) []bool {
	declared := make([]bool, len(f.Blocks))
	for _, b := range heads {
		declare(declared, &f.Blocks[b].Merge)
	}
	return declared
}

// shareForwardersOf sends the cases of each switch that go through empty
// forwarders (empty, and named by no header: declared) to one block
// through one block: the switch's merge when it is empty and forwards to
// that block, else the first such forwarder. A switch with its own case
// order (fall-through) keeps it. It reports whether a case moved.
//
// Pre: f's declared merges are distinct blocks. Post: every case goes on
// to the block it reached, through one empty block; a case retargeted to
// the switch's merge leaves the switch's construct for its own merge
// (R6, R11); the same runs. It visits the blocks of list in order, or
// every block when list is nil; list holds every switch (threadScan).
func shareForwardersOf(f *Func, list []int, declared []bool, empty func(int) bool) bool {
	changed := false
	var first map[int]int // the forwarder kept for a block, made on first use
	for b := range listedBlocks(f, list) {
		blk := &f.Blocks[b]
		if !isSwitch(blk) || blk.Term.Order != nil {
			continue
		}
		clear(first)
		if m := blk.Merge.Merge; blk.Merge.Kind == SelectionMerge && m != b && empty(m) {
			first = keep(first, f.Blocks[m].Term.To[0], m)
		}
		for i, t := range blk.Term.To {
			if t == b || declared[t] || !empty(t) {
				continue
			}
			z := f.Blocks[t].Term.To[0]
			k, ok := first[z]
			switch {
			case !ok:
				first = keep(first, z, t)
			case k != t:
				blk.Term.To[i] = k
				changed = true
			}
		}
	}
	return changed
}

// keep records forwarder t as the one kept for block z, making the map on
// first use.
func keep(first map[int]int, z, t int) map[int]int {
	if first == nil {
		first = map[int]int{}
	}
	first[z] = t
	return first
}

// routeCases is a test's or a route's terminator as a default target and
// the cases on its variable, in the order they are tested.
func routeCases(t *Term) (def int, vals []uint32, to []int) {
	if t.Kind == Test {
		return t.To[1], t.Values, t.To[:1]
	}
	return t.To[0], t.Values, t.To[1:]
}

// joinRoutes merges chains of routes: a synthetic test or route whose
// merge is its default target, itself a synthetic test or route on the
// same variable that heads a selection, holds no stores and is entered
// from it alone, takes that one's cases (after its own) and its merge. A
// value the first tests goes where it did; any other goes where the second
// sent it, so every run is the same. The second's targets were dominated by
// it, so by the first (R11), and the first's own cases never reached it.
// entering is the number of edges into each block (predCounts), which it
// keeps up to date. It reports whether it merged any.
func joinRoutes(f *Func, entering []int) bool {
	return joinRoutesOf(f, nil, entering)
}

// joinRoutesOf is joinRoutes over the blocks of list in order, or over
// every block when list is nil; list holds every route (threadScan).
func joinRoutesOf(f *Func, list []int, entering []int) bool {
	changed := false
	for a := range listedBlocks(f, list) {
		for joinRoute(f, a, entering) {
			changed = true
		}
	}
	return changed
}

// listedBlocks yields the blocks of list in order, or every block of f
// when list is nil.
func listedBlocks(f *Func, list []int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		if list == nil {
			for b := range f.Blocks {
				if !yield(b) {
					return
				}
			}
			return
		}
		for _, b := range list {
			if !yield(b) {
				return
			}
		}
	}
}

// isRoute: block b is a synthetic test or route heading a selection.
func isRoute(b *Block) bool {
	return b.Kind == Synthetic && b.Merge.Kind == SelectionMerge && (b.Term.Kind == Test || b.Term.Kind == Route) && b.Term.Order == nil
}

// joinRoute merges block a with the route its default goes to, when it can
// (joinRoutes); entering counts the edges into each block.
func joinRoute(f *Func, a int, entering []int) bool {
	ab := &f.Blocks[a]
	if !isRoute(ab) {
		return false
	}
	def, vals, to := routeCases(&ab.Term)
	b := ab.Merge.Merge
	bb := &f.Blocks[b]
	fromA := 0
	for _, t := range ab.Term.To {
		if t == b {
			fromA++
		}
	}
	if def != b || b == a || !isRoute(bb) || len(bb.Stores) != 0 || bb.Term.Var != ab.Term.Var || entering[b] != fromA {
		return false
	}
	bdef, bvals, bto := routeCases(&bb.Term)
	next := func(v uint32) int {
		if k := slices.Index(bvals, v); k >= 0 {
			return bto[k]
		}
		return bdef
	}
	nvals := slices.Clone(vals)
	nto := []int{bdef}
	for k, t := range to {
		if t == b {
			t = next(vals[k])
		}
		nto = append(nto, t)
	}
	for k, v := range bvals {
		if !slices.Contains(vals, v) {
			nvals = append(nvals, v)
			nto = append(nto, bto[k])
		}
	}
	for _, t := range nto {
		entering[t]++
	}
	for _, t := range slices.Concat(ab.Term.To, bb.Term.To) {
		entering[t]--
	}
	ab.Term = Term{Kind: Route, Var: ab.Term.Var, Values: nvals, To: nto}
	ab.Merge.Merge = bb.Merge.Merge
	*bb = Block{Kind: Synthetic, Orig: -1, Term: Term{Kind: Unreachable}} // named by nothing now: layout drops it
	return true
}
