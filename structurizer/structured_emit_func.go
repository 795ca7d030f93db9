// structured_emit_func.go: the Func the selections pass builds, one block
// at a time: a block per working-graph node (allocated when first branched
// to), the synthetic blocks the walk adds (forwarders, skips, clones of
// small return blocks), and their terminators in the Func's form
// (func.go): an original block chooses, a synthetic one tests or routes on
// its route variable.

package structurizer

// funcBuilder is the Func under construction over working graph w: its
// blocks, each node's block, and the room their target lists come from.
// origN is the input's block count (the clone-wrong-id fault's modulus).
type funcBuilder struct {
	w     *work
	f     *Func
	fb    []int // node -> Func block, -1 until allocated
	room  intRoom
	origN int
}

// intRoom hands out int lists carved from shared arrays, each capped at
// its length, so a list is as independent of the others as a fresh one
// (appending to it copies it) at a fraction of the allocations.
type intRoom struct{ free []int }

// take returns a zeroed list of k ints.
func (r *intRoom) take(k int) []int {
	if len(r.free) < k {
		r.free = make([]int, max(k, 64))
	}
	s := r.free[:k:k]
	r.free = r.free[k:]
	return s
}

// list returns a list holding vals.
func (fb *funcBuilder) list(vals ...int) []int {
	s := fb.room.take(len(vals))
	copy(s, vals)
	return s
}

// block returns node x's Func block, allocating it.
func (fb *funcBuilder) block(x int) int {
	if fb.fb[x] < 0 {
		fb.fb[x] = fb.newBlock(Block{Kind: Synthetic, Orig: -1})
	}
	return fb.fb[x]
}

func (fb *funcBuilder) newBlock(b Block) int {
	fb.f.Blocks = append(fb.f.Blocks, b)
	return len(fb.f.Blocks) - 1
}

func (fb *funcBuilder) forward(to int) int {
	return fb.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "fwd", Term: Term{Kind: Branch, To: fb.list(to)}})
}

// base is node x's block without terminator or merge.
func (fb *funcBuilder) base(x int) Block {
	n := &fb.w.nodes[x]
	if n.synthetic() {
		return Block{Kind: Synthetic, Orig: -1, Name: n.name, Stores: n.stores}
	}
	b := Block{Kind: Original, Orig: n.orig, Weight: n.weight, Name: n.name}
	if n.clone {
		b.Kind = Clone
		if fb.w.opt.Has("clone-wrong-id") && fb.origN > 1 {
			b.Orig = (n.orig + 1) % fb.origN
		}
	}
	if len(n.succs) >= 2 {
		b.Arity = len(n.succs)
	}
	return b
}

// setTerm gives block b (node n's) its choosing terminator over to.
func (fb *funcBuilder) setTerm(n *wnode, b *Block, to []int) {
	switch {
	case !n.synthetic():
		b.Term = Term{Kind: Choose, To: to}
		if len(to) == 2 && fb.w.opt.Has("swap-arms") {
			b.Term.To = fb.list(to[1], to[0])
		}
	case len(to) == 2:
		b.Term = Term{Kind: Test, Var: n.rvar, Values: n.values, To: fb.list(to[1], to[0])}
	default:
		b.Term = Term{Kind: Route, Var: n.rvar, Values: n.values, To: to}
	}
}

// cloneReturn copies a small return block instead of routing a skip to it,
// within the clone budget.
func (fb *funcBuilder) cloneReturn(t int) (int, bool) {
	n := &fb.w.nodes[t]
	w := fb.w
	if n.synthetic() || len(n.succs) != 0 || n.weight > w.cloneMax || n.weight > w.budget || w.opt.CloneBudget < 0 {
		return 0, false
	}
	w.budget -= n.weight
	w.clones++
	b := Block{Kind: Clone, Orig: n.orig, Weight: n.weight, Name: n.name, Term: Term{Kind: Return}}
	if w.opt.Has("clone-wrong-id") && fb.origN > 1 {
		b.Orig = (n.orig + 1) % fb.origN
	}
	return fb.newBlock(b), true
}

// loopEntry gives loop l's header block hb (l's merge is block m) its
// terminator: a branch into the body; a while loop's test, one arm the
// merge; or, for a loop with no exit, a test that never holds naming the
// merge, so the merge is a branch target and structurizing the output
// again finds it (idempotence).
func (fb *funcBuilder) loopEntry(l *wloop, hb *Block, m int) {
	entry := fb.fb[l.entry]
	hb.Term = Term{Kind: Branch, To: fb.list(entry)}
	hn := &fb.w.nodes[l.H]
	switch {
	case hn.orig >= 0 && len(hn.succs) == 2:
		to := fb.list(entry, m)
		if hn.succs[0] == l.M {
			to[0], to[1] = m, entry
		}
		fb.setTerm(hn, hb, to)
	case !l.reusedM && len(fb.w.nodes[l.M].succs) == 0:
		hb.Term = Term{Kind: Test, Var: fb.w.route(), Values: []uint32{neverRouted}, To: fb.list(m, entry)}
	}
}

// guard fills frame f's guard block, whose next frame is next, and returns
// join j's block: a plain branch to j when no skip passes it, else a
// selection on the route variable that runs j when no value is pending
// (0), or the pending one is j's (f.target) or one of f.accept (a loop
// merge's destination further out, which j stores anew), and sends every
// other value on to next's merge. A join that skips end at clears the
// variable: the caller records it. The guard's cases that run j all go
// to j's block, a loop header included: a header entered by several
// cases of one switch is still entered from one block outside its loop,
// which is what the loops pass and the nested pass read a loop's entry by
// (R11 lists the equal targets side by side).
func (fb *funcBuilder) guard(f, next *frame, j int) (jb int) {
	b := Block{Kind: Synthetic, Orig: -1, Name: "guard"}
	jb = fb.block(j)
	accept := f.accept
	if f.target {
		accept = append([]uint32{valueOf(j)}, accept...)
	}
	switch {
	case f.crossTo == noCross:
		b.Term = Term{Kind: Branch, To: fb.list(jb)}
	case len(accept) == 0:
		next.used = true
		b.Merge = Merge{Kind: SelectionMerge, Merge: next.merge}
		b.Term = Term{Kind: Test, Var: fb.w.route(), Values: []uint32{0}, To: fb.list(jb, next.merge)}
	default:
		next.used = true
		b.Merge = Merge{Kind: SelectionMerge, Merge: next.merge}
		vals := append([]uint32{0}, accept...)
		tos := fb.room.take(len(vals) + 1)
		tos[0] = next.merge
		for i := range vals {
			tos[i+1] = jb
		}
		b.Term = Term{Kind: Route, Var: fb.w.route(), Values: vals, To: tos}
	}
	fb.f.Blocks[f.merge] = b
	return jb
}

// twoBlocks makes a two-way branch's targets distinct blocks (SPIR-V's
// conditional may name one block twice, but a selection construct would
// then have no arm): the second goes through a forwarding block.
func (fb *funcBuilder) twoBlocks(to []int) {
	if len(to) == 2 && to[0] == to[1] {
		to[1] = fb.forward(to[1])
	}
}

// loopBlocks fills the blocks of loop l: its header's, h, declaring
// OpLoopMerge with merge block m and continue target c, with loopEntry's
// terminator; and its latch's, c, which branches back to h.
func (fb *funcBuilder) loopBlocks(l *wloop, h, c, m int) {
	hb := fb.base(l.H)
	hb.Merge = Merge{Kind: LoopMerge, Merge: m, Continue: c}
	fb.loopEntry(l, &hb, m)
	fb.f.Blocks[h] = hb
	cb := fb.base(l.C)
	cb.Term = Term{Kind: Branch, To: fb.list(h)}
	fb.f.Blocks[c] = cb
}

// selectionHeader fills block id, node n's block b, as a selection header
// in loop cur (-1: none) merging at block merge (selectionMerge) and
// branching to to.
func (fb *funcBuilder) selectionHeader(id int, n *wnode, b Block, to []int, merge, cur int) {
	b.Merge = fb.selectionMerge(n, merge, cur)
	fb.setTerm(n, &b, to)
	fb.f.Blocks[id] = b
}

// selectionMerge is node n's selection merge at block merge; under the
// merge-at-continue fault an original header in loop cur declares the
// loop's latch instead.
func (fb *funcBuilder) selectionMerge(n *wnode, merge, cur int) Merge {
	if cur >= 0 && !n.synthetic() && fb.w.opt.Has("merge-at-continue") {
		merge = fb.block(fb.w.loops[cur].C)
	}
	return Merge{Kind: SelectionMerge, Merge: merge}
}
