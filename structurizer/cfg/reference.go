// reference.go: slow, obvious versions of every analysis, straight from the
// definitions, for tests and for the oracle's pdom check. Nothing here is
// clever; everything is at least quadratic.
//
//   - a dominates b  iff  b is unreachable from the entry once a is removed;
//   - a post-dominates b  iff  b reaches the virtual exit, and no exit is
//     reachable from b once a is removed;
//   - reducibility by Hecht and Ullman's T1/T2 collapse (remove self-loops;
//     merge a block into its only predecessor) until one block remains;
//   - loops as strongly connected components by a reachability closure.

package cfg

import "slices"

// reachWithout returns the blocks reachable from root along succ, never
// never entering the block skip (a root equal to skip is ignored).
func reachWithout(n int, roots []int, succ func(int) []int, skip int) []bool {
	seen := make([]bool, n)
	var stack []int
	for _, r := range roots {
		if r != skip && !seen[r] {
			seen[r] = true
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range succ(b) {
			if t != skip && !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// RefDominates returns dom[a][b] = a dominates b, by definition. Unreachable
// blocks dominate and are dominated only by themselves.
func RefDominates(g *Graph) [][]bool {
	n := len(g.Succs)
	succ := func(b int) []int { return g.Succs[b] }
	reach := reachWithout(n, []int{0}, succ, NoBlock)
	dom := make([][]bool, n)
	for a := range dom {
		dom[a] = make([]bool, n)
		dom[a][a] = true
		if !reach[a] {
			continue
		}
		without := reachWithout(n, []int{0}, succ, a)
		for b := range n {
			if reach[b] && !without[b] {
				dom[a][b] = true
			}
		}
	}
	return dom
}

// RefPostDominates returns pdom[a][b] = a post-dominates b, by definition
// (see the file comment); stuck blocks post-dominate and are post-dominated
// only by themselves.
func RefPostDominates(g *Graph) [][]bool {
	n := len(g.Succs)
	reachesExit := func(skip int) []bool {
		// Reverse reachability from the returning blocks, avoiding skip.
		preds := g.Preds()
		var roots []int
		for b, s := range g.Succs {
			if len(s) == 0 {
				roots = append(roots, b)
			}
		}
		return reachWithout(n, roots, func(b int) []int { return preds[b] }, skip)
	}
	live := reachesExit(NoBlock)
	pdom := make([][]bool, n)
	for a := range pdom {
		pdom[a] = make([]bool, n)
		pdom[a][a] = true
		if !live[a] {
			continue
		}
		without := reachesExit(a)
		for b := range n {
			if live[b] && !without[b] {
				pdom[a][b] = true
			}
		}
	}
	return pdom
}

// RefIDom derives immediate dominators from a dominance relation: the strict
// dominator that every other strict dominator dominates. root is excluded;
// blocks with no strict dominator get NoBlock. For post-dominance, blocks
// whose strict post-dominators are empty but which reach the exit get Exit:
// pass live for that (nil for dominators).
func RefIDom(rel [][]bool, live []bool) []int {
	n := len(rel)
	idom := make([]int, n)
	for b := range n {
		idom[b] = NoBlock
		var strict []int
		for a := range n {
			if a != b && rel[a][b] {
				strict = append(strict, a)
			}
		}
		for _, a := range strict {
			ok := true
			for _, c := range strict {
				if c != a && !rel[c][a] {
					ok = false
					break
				}
			}
			if ok {
				idom[b] = a
				break
			}
		}
		if idom[b] == NoBlock && live != nil && live[b] {
			idom[b] = Exit
		}
	}
	return idom
}

// RefReachesExit marks the blocks from which a returning block is reachable.
func RefReachesExit(g *Graph) []bool {
	n := len(g.Succs)
	live := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for b, s := range g.Succs {
			if live[b] {
				continue
			}
			if len(s) == 0 {
				live[b], changed = true, true
				continue
			}
			for _, t := range s {
				if live[t] {
					live[b], changed = true, true
					break
				}
			}
		}
	}
	return live
}

// RefReducible decides reducibility of the reachable part of g by T1/T2
// collapse: repeatedly remove self-loops (T1) and merge any block other
// than the entry that has exactly one distinct predecessor into it (T2).
// The graph is reducible iff this ends in a single block.
func RefReducible(g *Graph) bool {
	h, _ := g.DropUnreachable()
	n := h.Len()
	succ := make([]map[int]bool, n)
	pred := make([]map[int]bool, n)
	for b := range n {
		succ[b], pred[b] = map[int]bool{}, map[int]bool{}
	}
	for b, s := range h.Succs {
		for _, t := range s {
			succ[b][t] = true
			pred[t][b] = true
		}
	}
	alive := n
	dead := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for b := range n {
			if dead[b] {
				continue
			}
			if succ[b][b] { // T1
				delete(succ[b], b)
				delete(pred[b], b)
				changed = true
			}
			if b == 0 || len(pred[b]) != 1 {
				continue
			}
			var p int
			for x := range pred[b] {
				p = x
			}
			// T2: merge b into p.
			delete(succ[p], b)
			for t := range succ[b] {
				delete(pred[t], b)
				succ[p][t] = true
				pred[t][p] = true
			}
			dead[b] = true
			alive--
			changed = true
		}
	}
	return alive == 1
}

// RefLoopBlocks returns, level by level, the loops of g as sets of blocks by
// the same definition as LoopForest (non-trivial SCCs; edges into a loop's
// entries removed before looking inside it), using a reachability closure
// for the SCCs. Each loop comes with its entries; the list is sorted by
// (first block, size) so it can be compared with LoopForest's.
func RefLoopBlocks(g *Graph) []RefLoop {
	n := len(g.Succs)
	reach := g.Reachable()
	cut := make([]bool, n) // edges into these blocks are removed
	var out []RefLoop
	var region func(blocks []int)
	region = func(blocks []int) {
		loops := refSCCs(blocks, refClosure(g, blocks, cut))
		for _, c := range loops {
			entries := refEntries(g, reach, c)
			slices.Sort(c)
			out = append(out, RefLoop{Blocks: c, Entries: entries})
		}
		for i := len(out) - len(loops); i < len(out); i++ {
			for _, e := range out[i].Entries {
				cut[e] = true
			}
		}
		for _, c := range loops {
			region(slices.Clone(c))
		}
	}
	var all []int
	for b := range n {
		if reach[b] {
			all = append(all, b)
		}
	}
	region(all)
	slices.SortFunc(out, func(a, b RefLoop) int {
		if a.Blocks[0] != b.Blocks[0] {
			return a.Blocks[0] - b.Blocks[0]
		}
		return len(b.Blocks) - len(a.Blocks)
	})
	return out
}

// refClosure is the transitive closure of the edges among blocks, less
// the edges into cut blocks: path[i][j] says there is a non-empty path
// from blocks[i] to blocks[j] inside them (Warshall's algorithm).
func refClosure(g *Graph, blocks []int, cut []bool) [][]bool {
	idx := map[int]int{}
	for i, b := range blocks {
		idx[b] = i
	}
	m := len(blocks)
	path := make([][]bool, m)
	for i, b := range blocks {
		path[i] = make([]bool, m)
		for _, t := range g.Succs[b] {
			if j, in := idx[t]; in && !cut[t] {
				path[i][j] = true
			}
		}
	}
	for k := range m {
		for i := range m {
			if !path[i][k] {
				continue
			}
			for j := range m {
				if path[k][j] {
					path[i][j] = true
				}
			}
		}
	}
	return path
}

// refSCCs lists the non-trivial strongly connected components of blocks
// under the closure path: each block on a cycle, with every block it
// reaches and is reached from.
func refSCCs(blocks []int, path [][]bool) [][]int {
	m := len(blocks)
	done := make([]bool, m)
	var loops [][]int
	for i := range m {
		if done[i] || !path[i][i] {
			continue
		}
		var c []int
		for j := range m {
			if i == j || (path[i][j] && path[j][i]) {
				c = append(c, blocks[j])
				done[j] = true
			}
		}
		loops = append(loops, c)
	}
	return loops
}

// refEntries lists, sorted, the blocks of loop c entered from a reachable
// block outside it, and the function's entry when c holds it.
func refEntries(g *Graph, reach []bool, c []int) []int {
	inC := map[int]bool{}
	for _, b := range c {
		inC[b] = true
	}
	var entries []int
	for _, b := range c {
		if b == 0 {
			entries = append(entries, b)
			continue
		}
		for p, s := range g.Succs {
			if reach[p] && !inC[p] && slices.Contains(s, b) {
				entries = append(entries, b)
				break
			}
		}
	}
	slices.Sort(entries)
	return entries
}

// RefLoop is one loop found by RefLoopBlocks.
type RefLoop struct {
	Blocks  []int
	Entries []int
}
