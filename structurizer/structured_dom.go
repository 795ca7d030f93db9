// structured_dom.go: dominator trees for the self-check and the nested
// pass's tail index (structured_facts.go) by the semi-NCA algorithm
// (Georgiadis, "Linear-Time Algorithms for Dominators and Related
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
	sn := domPreorder(g)
	sn.semidominators(reachedPreds(g, sn.num))
	idomIdx := sn.nca()
	idom := make([]int, g.Len())
	for b := range idom {
		idom[b] = cfg.NoBlock
	}
	for i := 1; i < len(sn.order); i++ {
		idom[sn.order[i]] = sn.order[idomIdx[i]]
	}
	return idom
}

// semiNCA is the state of dominatorTree: the depth-first preorder, then,
// on preorder indices 0..m-1, the semidominators and the link-eval forest.
type semiNCA struct {
	num    []int // by block: preorder number + 1; 0: unreached
	parent []int // by block: its depth-first parent, -1 for the entry
	order  []int // blocks by preorder number
	semi   []int
	anc    []int // forest ancestor for eval, -1 for none
	label  []int
	path   []int
}

// domPreorder numbers g's blocks reached from block 0 depth first.
func domPreorder(g *cfg.Graph) *semiNCA {
	n := g.Len()
	perBlock := make([]int, 3*n) // num, parent and order in one allocation
	sn := &semiNCA{num: perBlock[:n:n], parent: perBlock[n : 2*n : 2*n], order: perBlock[2*n : 2*n : 3*n]}
	type fr struct{ b, i int }
	stack := make([]fr, 1, n)
	stack[0] = fr{0, 0}
	sn.num[0] = 1
	sn.order = append(sn.order, 0)
	sn.parent[0] = -1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := g.Succs[top.b]
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if sn.num[t] == 0 {
				sn.order = append(sn.order, t)
				sn.num[t] = len(sn.order)
				sn.parent[t] = top.b
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		stack = stack[:len(stack)-1]
	}
	return sn
}

// semidominators computes each reached block's semidominator, by
// preorder index, in reverse preorder (Lengauer and Tarjan's step 2).
func (sn *semiNCA) semidominators(preds [][]int) {
	m := len(sn.order)
	perIndex := make([]int, 3*m) // semi, anc and label in one allocation
	sn.semi, sn.anc, sn.label = perIndex[:m:m], perIndex[m:2*m:2*m], perIndex[2*m:]
	for i := range m {
		sn.semi[i], sn.anc[i], sn.label[i] = i, -1, i
	}
	semi, num := sn.semi, sn.num
	for i := m - 1; i >= 1; i-- {
		w := sn.order[i]
		for _, v := range preds[w] {
			if u := sn.eval(num[v] - 1); semi[u] < semi[i] {
				semi[i] = semi[u]
			}
		}
		sn.anc[i] = num[sn.parent[w]] - 1 // link w to its DFS parent
	}
}

// eval is the vertex of least semidominator on the forest path from v up
// to its tree's root, compressing the path on the way.
func (sn *semiNCA) eval(v int) int {
	anc := sn.anc
	if anc[v] < 0 {
		return v
	}
	label, semi := sn.label, sn.semi
	sn.path = sn.path[:0]
	for x := v; anc[anc[x]] >= 0; x = anc[x] {
		sn.path = append(sn.path, x)
	}
	for i := len(sn.path) - 1; i >= 0; i-- {
		x := sn.path[i]
		a := anc[x]
		if semi[label[a]] < semi[label[x]] {
			label[x] = label[a]
		}
		anc[x] = anc[a]
	}
	return label[v]
}

// nca gives each preorder index its immediate dominator's index: the
// nearest ancestor of its depth-first parent, on the dominator tree built
// so far, at or above its semidominator (the semi-NCA step).
func (sn *semiNCA) nca() []int {
	m := len(sn.order)
	idomIdx := make([]int, m)
	idomIdx[0] = -1
	for i := 1; i < m; i++ {
		d := sn.num[sn.parent[sn.order[i]]] - 1
		for d > sn.semi[i] {
			d = idomIdx[d]
		}
		idomIdx[i] = d
	}
	return idomIdx
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
