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
// still the entry. Progress: one depth-first search.
func layout(f *Func) {
	n := len(f.Blocks)
	state := make([]uint8, n)
	post := make([]int, 0, n)
	type fr struct{ b, i int }
	stack := make([]fr, 1, min(n, 64))
	stack[0] = fr{0, 0}
	state[0] = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		to := f.Blocks[top.b].Term.To
		if top.i < len(to) {
			t := to[top.i]
			top.i++
			if state[t] == 0 {
				state[t] = 1
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order := post // reversed in place: the reverse post-order, room for n
	slices.Reverse(order)
	live := structurallyReachable(f)
	for b := range n {
		if state[b] == 0 && live[b] {
			order = append(order, b)
		}
	}
	newID := make([]int, n)
	for i, b := range order {
		newID[b] = i
	}
	// The kept blocks are renumbered in block order, not layout order:
	// the same targets, read and written in one sweep of the blocks.
	edges := 0
	for b := range n {
		if state[b] != 0 || live[b] {
			edges += len(f.Blocks[b].Term.To)
		}
	}
	all := make([]int, edges) // every block's targets, each capped at its length
	for b := range n {
		if state[b] == 0 && !live[b] {
			continue
		}
		blk := &f.Blocks[b]
		if k := len(blk.Term.To); k > 0 {
			to := all[:k:k]
			all = all[k:]
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
	kept := len(order)
	for b := range n { // the dropped blocks go last, to be cut off
		if state[b] == 0 && !live[b] {
			order = append(order, b)
		}
	}
	moveBlocks(f.Blocks, order)
	f.Blocks = f.Blocks[:kept]
}

// moveBlocks permutes blocks in place so that position i holds what
// position order[i] held (order a permutation), cycle by cycle.
func moveBlocks(blocks []Block, order []int) {
	done := make([]bool, len(blocks))
	for i := range blocks {
		if done[i] || order[i] == i {
			continue
		}
		held := blocks[i]
		j := i
		for order[j] != i {
			blocks[j] = blocks[order[j]]
			done[j] = true
			j = order[j]
		}
		blocks[j] = held
		done[j] = true
	}
}
