// structured_nested_tree.go: the tree the nested pass walks the selections
// in: the structural dominator tree (the self-check's dominance, rule D3:
// over branch edges and each loop header's edges to its merge and continue
// target), with each selection's merge made a child of its header as it is
// declared.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestTree is the walk's tree.
type nestTree struct {
	dom    *cfg.DomTree // the structural dominator tree
	parent []int        // the walk's tree: structural immediate dominators, then adopted merges' headers
	kids   [][]int      // the walk's tree's children, in preorder
}

// structuralTree is the walk's tree of g once d declares the loops (pre:
// g's depth-first preorder numbers, the order of each block's children):
// the dominator tree over branch edges and each loop header's edges
// to its merge and continue target (the self-check's dominance, rule D3).
// Selections' merge edges are added as they are declared (adopt).
func structuralTree(g *cfg.Graph, d *nestDecls, pre []int) nestTree {
	n := d.n
	succs := make([][]int, n)
	edges := 0
	for b := range n {
		edges += len(g.Succs[b]) + 2
	}
	all := make([]int, 0, edges) // every block's list, each capped at its length
	for b := range n {
		start := len(all)
		if dm := d.decl[b]; dm.Kind == LoopMerge {
			if dm.Merge < n {
				all = append(all, dm.Merge)
			}
			all = append(all, dm.Continue)
		}
		all = append(all, g.Succs[b]...)
		if len(all) > start {
			succs[b] = all[start:len(all):len(all)]
		}
	}
	var t nestTree
	t.dom = cfg.Dominators(&cfg.Graph{Succs: succs})
	t.parent = slices.Clone(t.dom.IDom)
	kids := treeKids(t.parent) // adopt appends to a list: each is capped at its length
	t.kids = make([][]int, n)
	for b := range n {
		if k := kids.of(b); len(k) > 0 {
			t.kids[b] = k[:len(k):len(k)]
			slices.SortFunc(t.kids[b], func(x, y int) int { return pre[x] - pre[y] })
		}
	}
	return t
}

// adopt makes merge m a child of its header x in the walk's tree: the
// structural edge x->m makes x m's immediate dominator, and m's subtree
// moves with it. Pre: x strictly dominates m and the walk has not entered
// m's parent yet.
func (t *nestTree) adopt(x, m int) {
	p := t.parent[m]
	if p == x {
		return
	}
	i := slices.Index(t.kids[p], m)
	t.kids[p] = slices.Delete(t.kids[p], i, i+1)
	t.kids[x] = append(t.kids[x], m)
	t.parent[m] = x
}
