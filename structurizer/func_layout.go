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
// still the entry. Progress: one sweep that copies the blocks' targets
// and declarations into a layoutGraph, one depth-first search over its
// branches, one over the declarations it leaves, then one move of the
// kept blocks. At 100,000 blocks the function is larger than a cache:
// the blocks are read in order by the sweep and written once by the move,
// which renumbers each where it lands, and the searches jump around the
// layoutGraph alone, a tenth of the size.
func layout(f *Func) {
	n := len(f.Blocks)
	s := layoutSearch{g: newLayoutGraph(f), state: make([]uint8, n)}
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
		off[i+1] = off[i] + s.g.deg(b)
	}
	placeBlocks(f.Blocks, order, func(blk *Block, i int) {
		renumber(blk, s.g.targets(order[i]), newID, off[i], off[i+1], s.all)
	})
	f.Blocks = f.Blocks[:kept]
}

// layoutGraph is what layout's searches read of a function's blocks:
// block b's targets to[off[b]:off[b+1]] and the blocks its declaration
// names, decl[2b] (its merge) and decl[2b+1] (a loop's continue target),
// -1 for none.
type layoutGraph struct {
	off, to, decl []int32
}

// newLayoutGraph copies f's targets and declarations in one sweep of its
// blocks.
func newLayoutGraph(f *Func) *layoutGraph {
	n := len(f.Blocks)
	g := &layoutGraph{off: make([]int32, n+1), to: make([]int32, 0, 2*n), decl: make([]int32, 2*n)}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		for _, t := range blk.Term.To {
			g.to = append(g.to, int32(t))
		}
		g.off[b+1] = int32(len(g.to))
		g.decl[2*b], g.decl[2*b+1] = -1, -1
		switch blk.Merge.Kind {
		case SelectionMerge:
			g.decl[2*b] = int32(blk.Merge.Merge)
		case LoopMerge:
			g.decl[2*b], g.decl[2*b+1] = int32(blk.Merge.Merge), int32(blk.Merge.Continue)
		}
	}
	return g
}

func (g *layoutGraph) targets(b int) []int32 { return g.to[g.off[b]:g.off[b+1]] }

func (g *layoutGraph) deg(b int) int { return int(g.off[b+1] - g.off[b]) }

// layoutSearch is layout's two searches over g: state 1 for a block a
// branch reaches, 2 for one only a declaration does; edges the reached
// blocks' number of targets; all, once allocated, room for the kept
// blocks' renumbered targets.
type layoutSearch struct {
	g     *layoutGraph
	state []uint8
	edges int
	decl  []int // targets of the branch-reached blocks' declarations
	all   []int
}

// reach records what layout needs of block b, reached with state st, and
// the targets of its declaration.
func (s *layoutSearch) reach(b int, st uint8) {
	s.state[b] = st
	s.edges += s.g.deg(b)
	if m := s.g.decl[2*b]; m >= 0 { // a continue target only with a merge
		s.decl = append(s.decl, int(m))
		if c := s.g.decl[2*b+1]; c >= 0 {
			s.decl = append(s.decl, int(c))
		}
	}
}

// branches is the reverse post-order of the branch graph from the entry
// (with room for every block).
func (s *layoutSearch) branches() []int {
	n := len(s.state)
	post := make([]int, 0, n)
	type fr struct{ b, i, end int32 } // block b's next target is g.to[i], its last g.to[end-1]
	g := s.g
	stack := make([]fr, 1, min(n, 64))
	stack[0] = fr{0, g.off[0], g.off[1]}
	s.reach(0, 1)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < top.end {
			t := g.to[top.i]
			top.i++
			if s.state[t] == 0 {
				s.reach(int(t), 1)
				stack = append(stack, fr{t, g.off[t], g.off[t+1]})
			}
			continue
		}
		post = append(post, int(top.b))
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
			for _, t := range s.g.targets(b) {
				s.decl = append(s.decl, int(t))
			}
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
// targets (old, blk's own as the layoutGraph copied them) in
// all[lo:hi] (capped at their length).
func renumber(blk *Block, old []int32, newID []int, lo, hi int, all []int) {
	if lo < hi {
		to := all[lo:hi:hi]
		for k, t := range old {
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
