// dom_seminca.go: immediate dominators by the semi-NCA algorithm
// (Georgiadis, "Linear-Time Algorithms for Dominators and Related
// Problems", PhD thesis, Princeton University, 2005): Lengauer and
// Tarjan's semidominators ("A Fast Algorithm for Finding Dominators in a
// Flowgraph", 1979), computed by path-compressed link-eval over a
// depth-first spanning tree, then each node's immediate dominator found
// as the nearest ancestor of its depth-first parent, on the dominator tree
// built so far, at or above its semidominator. It defines semiNCA, which
// DominatorsOf and ImmediateDominators run on the graph and PostDominators
// on the reverse graph with the virtual exit. The semidominators take
// O(e log n) (path compression without balanced linking); the NCA step's
// climbs are quadratic at worst but short in practice (Georgiadis measures
// semi-NCA as the fastest of the algorithms he compares). The iterative
// algorithm of Cooper, Harvey and Kennedy, the tests' reference
// (dom_chk_test.go), makes more passes and longer intersect walks the
// deeper the loops nest.

package cfg

// semiNCA returns the immediate dominators of the graph whose node v has
// successors succs[v] and predecessors preds[v], from root: idom[v] for
// every node, NoBlock for the root and for the nodes the root does not
// reach. Predecessors the root does not reach are skipped.
func semiNCA(succs, preds [][]int, root int) []int {
	n := len(succs)
	idom := make([]int, n)
	for v := range idom {
		idom[v] = NoBlock
	}
	sn := dfsPreorder(succs, root)
	if len(sn.order) == 0 {
		return idom // root out of range
	}
	sn.semidominators(preds)
	idomIdx := sn.nca()
	for i := 1; i < len(sn.order); i++ {
		idom[sn.order[i]] = sn.order[idomIdx[i]]
	}
	return idom
}

// semiState is semiNCA's working state: the depth-first preorder, then,
// on preorder indices 0..m-1, the semidominators and the link-eval forest.
type semiState struct {
	num    []int // by node: preorder number; NoBlock: unreached
	parent []int // by node: its depth-first parent, NoBlock for the root
	order  []int // nodes by preorder number
	semi   []int
	anc    []int // forest ancestor for eval, -1 for none
	label  []int
	path   []int
}

// dfsPreorder numbers the nodes reached from root depth first, successors
// in order: dfsOrder's walk, numbering the nodes as it reaches them. It is
// a loop of its own: one walk serving both, with the lists and marks of
// both live in its loop, takes 1.6% more instructions to structurize the
// shape tangled at 100k blocks (callgrind).
func dfsPreorder(succs [][]int, root int) *semiState {
	n := len(succs)
	perNode := make([]int, 3*n) // num, parent and order in one allocation
	sn := &semiState{num: perNode[:n:n], parent: perNode[n : 2*n : 2*n], order: perNode[2*n : 2*n : 3*n]}
	for b := range sn.num {
		sn.num[b] = NoBlock
	}
	if root < 0 || root >= n {
		return sn
	}
	type frame struct{ b, i int }
	stack := make([]frame, 1, n)
	stack[0] = frame{root, 0}
	sn.num[root], sn.parent[root] = 0, NoBlock
	sn.order = append(sn.order, root)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := succs[top.b]
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if sn.num[t] == NoBlock {
				sn.num[t], sn.parent[t] = len(sn.order), top.b
				sn.order = append(sn.order, t)
				stack = append(stack, frame{t, 0})
			}
			continue
		}
		stack = stack[:len(stack)-1]
	}
	return sn
}

// semidominators computes each reached node's semidominator, by preorder
// index, in reverse preorder (Lengauer and Tarjan's step 2).
func (sn *semiState) semidominators(preds [][]int) {
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
			if num[v] == NoBlock {
				continue // the root does not reach v
			}
			if u := sn.eval(num[v]); semi[u] < semi[i] {
				semi[i] = semi[u]
			}
		}
		sn.anc[i] = num[sn.parent[w]] // link w to its DFS parent
	}
}

// eval is the index of least semidominator on the forest path from v up
// to its tree's root, compressing the path on the way.
func (sn *semiState) eval(v int) int {
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
func (sn *semiState) nca() []int {
	m := len(sn.order)
	idomIdx := make([]int, m)
	idomIdx[0] = -1
	for i := 1; i < m; i++ {
		d := sn.num[sn.parent[sn.order[i]]]
		for d > sn.semi[i] {
			d = idomIdx[d]
		}
		idomIdx[i] = d
	}
	return idomIdx
}
