// structured_dom.go: dominator trees for the self-check by the semi-NCA
// algorithm (Georgiadis, "Linear-Time Algorithms for Dominators and Related
// Problems", 2005; Lengauer and Tarjan's semidominators, their immediate
// dominators found as nearest common ancestors). Near-linear where the
// iterative algorithm of package cfg walks long dominator chains once per
// predecessor and pass, which a structured function (a long sequence of
// constructs) makes deep. Cross-checked against cfg.Dominators in tests.
package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// dominatorTree computes the dominator tree of g from block 0 as a
// cfg.DomTree-compatible parent array: idom[b] is b's immediate dominator,
// cfg.NoBlock for the entry and for blocks the entry does not reach.
func dominatorTree(g *cfg.Graph) []int {
	n := g.Len()
	perBlock := make([]int, 3*n) // num, parent and order in one allocation
	num := perBlock[:n:n]        // preorder number + 1; 0: unreached
	parent := perBlock[n : 2*n : 2*n]
	order := perBlock[2*n : 2*n : 3*n] // blocks by preorder number
	type fr struct{ b, i int }
	stack := make([]fr, 1, n)
	stack[0] = fr{0, 0}
	num[0] = 1
	order = append(order, 0)
	parent[0] = -1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := g.Succs[top.b]
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if num[t] == 0 {
				order = append(order, t)
				num[t] = len(order)
				parent[t] = top.b
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		stack = stack[:len(stack)-1]
	}
	preds := reachedPreds(g, num)
	m := len(order)
	// Work on preorder indices 0..m-1.
	perIndex := make([]int, 4*m) // semi, anc, label and idomIdx in one allocation
	semi := perIndex[:m:m]
	anc := perIndex[m : 2*m : 2*m] // forest ancestor for eval, -1 for none
	label := perIndex[2*m : 3*m : 3*m]
	for i := range m {
		semi[i], anc[i], label[i] = i, -1, i
	}
	var path []int
	eval := func(v int) int {
		if anc[v] < 0 {
			return v
		}
		// Compress the path v -> ... -> root of its tree.
		path = path[:0]
		for x := v; anc[anc[x]] >= 0; x = anc[x] {
			path = append(path, x)
		}
		for i := len(path) - 1; i >= 0; i-- {
			x := path[i]
			a := anc[x]
			if semi[label[a]] < semi[label[x]] {
				label[x] = label[a]
			}
			anc[x] = anc[a]
		}
		return label[v]
	}
	for i := m - 1; i >= 1; i-- {
		w := order[i]
		for _, v := range preds[w] {
			u := eval(num[v] - 1)
			if semi[u] < semi[i] {
				semi[i] = semi[u]
			}
		}
		anc[i] = num[parent[w]] - 1 // link w to its DFS parent
	}
	idomIdx := perIndex[3*m:]
	idomIdx[0] = -1
	for i := 1; i < m; i++ {
		d := num[parent[order[i]]] - 1
		for d > semi[i] {
			d = idomIdx[d]
		}
		idomIdx[i] = d
	}
	idom := make([]int, n)
	for b := range idom {
		idom[b] = cfg.NoBlock
	}
	for i := 1; i < m; i++ {
		idom[order[i]] = order[idomIdx[i]]
	}
	return idom
}

// reachedPreds lists each block's predecessors among the reached blocks
// (num[b] > 0), in block order: cfg.Predecessors over the reached blocks'
// successors (reachedPredsRef, which a test compares), without a call per
// block.
func reachedPreds(g *cfg.Graph, num []int) [][]int {
	n := g.Len()
	edges := 0
	for b, s := range g.Succs {
		if num[b] > 0 {
			edges += len(s)
		}
	}
	ints := make([]int, n+edges) // count, then the lists
	count, all := ints[:n:n], ints[n:]
	for b, s := range g.Succs {
		if num[b] > 0 {
			for _, t := range s {
				count[t]++
			}
		}
	}
	p := make([][]int, n)
	for t, c := range count {
		if c > 0 {
			p[t], all = all[:0:c], all[c:]
		}
	}
	for b, s := range g.Succs {
		if num[b] > 0 {
			for _, t := range s {
				p[t] = append(p[t], b)
			}
		}
	}
	return p
}

// reachedPredsRef is reachedPreds by cfg.Predecessors.
func reachedPredsRef(g *cfg.Graph, num []int) [][]int {
	return cfg.Predecessors(g.Len(), func(b int) []int {
		if num[b] == 0 {
			return nil
		}
		return g.Succs[b]
	})
}

// domTree is a dominator tree with O(1) queries (cfg's interval
// numbering); a block the entry does not reach dominates nothing, itself
// included.
type domTree struct{ *cfg.DomTree }

// newDomTree builds the tree of idom (root: block 0).
func newDomTree(idom []int) *domTree { return &domTree{cfg.TreeFromIDom(idom)} }

// Dominates reports whether a dominates b (both reached).
func (t *domTree) Dominates(a, b int) bool {
	return t.InTree(a) && t.InTree(b) && t.DomTree.Dominates(a, b)
}

// StrictlyDominates reports whether a dominates b and a != b.
func (t *domTree) StrictlyDominates(a, b int) bool { return a != b && t.Dominates(a, b) }
