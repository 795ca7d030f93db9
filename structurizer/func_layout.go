// func_layout.go: the layout order of a structured function, which the
// structured strategy's nested pass and its layout pass both use. A Func is
// built in walk order (the emitter puts a guard before the arms it
// follows); SPIR-V wants every block after its dominator and the entry first
// (rule R14). The layout is the reverse post-order of the branch graph from
// the entry, which places every block after its dominator, followed by the
// blocks no branch reaches (merges and latches named only by a merge
// instruction), in allocation order. Blocks reached by no structural edge
// are dropped.

package structurizer

import "slices"

// structurallyReachable marks the blocks reached from the entry over
// branch, merge and continue edges.
func structurallyReachable(f *Func) []bool {
	live := make([]bool, len(f.Blocks))
	live[0] = true
	stack := make([]int, 1, len(f.Blocks))
	visit := func(t int) {
		if !live[t] {
			live[t] = true
			stack = append(stack, t)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		blk := &f.Blocks[b]
		for _, t := range blk.Term.To {
			visit(t)
		}
		switch blk.Merge.Kind {
		case SelectionMerge:
			visit(blk.Merge.Merge)
		case LoopMerge:
			visit(blk.Merge.Merge)
			visit(blk.Merge.Continue)
		}
	}
	return live
}

// layout reorders f's blocks and drops those nothing reaches (not even a
// merge or continue declaration). Pre: block 0 is the entry and no branch
// targets it. Post: the same function with blocks renumbered; block 0 is
// still the entry. Progress: one depth-first search over the branches,
// one over the declarations it leaves, then one move of the kept blocks.
// The blocks are read by the searches and written once by the move, which
// renumbers each where it lands: at 100,000 blocks the function is larger
// than a cache, and each sweep of all its blocks costs.
func layout(f *Func) {
	n := len(f.Blocks)
	s := layoutSearch{f: f, state: make([]uint8, n), deg: make([]int32, n)}
	order := s.branches()
	order = s.declared(order)
	kept := len(order)
	newID := make([]int, n)
	for b := range newID {
		newID[b] = -1
	}
	for i, b := range order {
		newID[b] = i
	}
	off := make([]int, kept+1) // where position i's targets start in all
	for i, b := range order {
		off[i+1] = off[i] + int(s.deg[b])
	}
	placeBlocks(f.Blocks, order, func(blk *Block, i int) {
		renumber(blk, newID, off[i], off[i+1], s.all)
	})
	f.Blocks = f.Blocks[:kept]
}

// layoutSearch is layout's two searches: state 1 for a block a branch
// reaches, 2 for one only a declaration does; deg each reached block's
// number of targets; edges their sum; all, once allocated, room for the
// kept blocks' renumbered targets.
type layoutSearch struct {
	f     *Func
	state []uint8
	deg   []int32
	edges int
	decl  []int // targets of the branch-reached blocks' declarations
	all   []int
}

// reach records what layout needs of block b, reached with state st, and
// the targets of its declaration.
func (s *layoutSearch) reach(b int, st uint8) {
	blk := &s.f.Blocks[b]
	s.state[b] = st
	s.deg[b] = int32(len(blk.Term.To))
	s.edges += len(blk.Term.To)
	switch blk.Merge.Kind {
	case SelectionMerge:
		s.decl = append(s.decl, blk.Merge.Merge)
	case LoopMerge:
		s.decl = append(s.decl, blk.Merge.Merge, blk.Merge.Continue)
	}
}

// branches is the reverse post-order of the branch graph from the entry
// (with room for every block).
func (s *layoutSearch) branches() []int {
	n := len(s.f.Blocks)
	post := make([]int, 0, n)
	type fr struct{ b, i int }
	stack := make([]fr, 1, min(n, 64))
	stack[0] = fr{0, 0}
	s.reach(0, 1)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		to := s.f.Blocks[top.b].Term.To
		if top.i < len(to) {
			t := to[top.i]
			top.i++
			if s.state[t] == 0 {
				s.reach(t, 1)
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	slices.Reverse(post)
	return post
}

// declared appends to order the blocks no branch reaches that a
// declaration does (from a block reached either way), in allocation
// order, and allocates all.
func (s *layoutSearch) declared(order []int) []int {
	for len(s.decl) > 0 { // s.decl the stack; reach pushes onto it
		b := s.decl[len(s.decl)-1]
		s.decl = s.decl[:len(s.decl)-1]
		if s.state[b] == 0 {
			s.reach(b, 2)
			s.decl = append(s.decl, s.f.Blocks[b].Term.To...)
		}
	}
	for b, st := range s.state {
		if st == 2 {
			order = append(order, b)
		}
	}
	s.all = make([]int, s.edges)
	return order
}

// renumber gives blk its targets and declaration through newID, its
// targets in all[lo:hi] (capped at their length).
func renumber(blk *Block, newID []int, lo, hi int, all []int) {
	if lo < hi {
		to := all[lo:hi:hi]
		for k, t := range blk.Term.To {
			to[k] = newID[t]
		}
		blk.Term.To = to
	}
	if blk.Merge.Kind != NoMerge {
		blk.Merge.Merge = newID[blk.Merge.Merge]
		if blk.Merge.Kind == LoopMerge {
			blk.Merge.Continue = newID[blk.Merge.Continue]
		}
	}
}

// placeBlocks moves blocks in place so that position i holds what
// position order[i] held, for every i of order (distinct positions),
// and calls placed on each position of order once its block is there.
// What lies at len(order) and after is left unspecified. A position of
// order whose block order does not name starts a chain (it takes its
// block, whose position takes its own, ...) that ends at a position past
// len(order); what is left are blocks in place already, which stay, and
// cycles, moved cycle by cycle.
func placeBlocks(blocks []Block, order []int, placed func(blk *Block, i int)) {
	kept := len(order)
	named := make([]bool, kept) // position i holds a block order names
	for _, b := range order {
		if b < kept {
			named[b] = true
		}
	}
	done := make([]bool, kept)
	for i := range kept {
		if named[i] {
			continue
		}
		for j := i; ; {
			src := order[j]
			blocks[j] = blocks[src]
			placed(&blocks[j], j)
			done[j] = true
			if src >= kept {
				break
			}
			j = src
		}
	}
	for i := range kept {
		if done[i] {
			continue
		}
		if order[i] == i { // in place already: no copy
			placed(&blocks[i], i)
			continue
		}
		held := blocks[i]
		j := i
		for order[j] != i {
			blocks[j] = blocks[order[j]]
			placed(&blocks[j], j)
			done[j] = true
			j = order[j]
		}
		blocks[j] = held
		placed(&blocks[j], j)
		done[j] = true
	}
}
