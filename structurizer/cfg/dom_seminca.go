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
//
// Data: after the depth-first walk every array is indexed by preorder
// number and holds int32 preorder numbers, and each node's predecessors
// come as one compressed list (predAt, predTo) that the walk fills from
// the edges it crosses, already numbered. The semidominator and NCA steps
// then read no per-node array and no successor or predecessor list of the
// graph: on a 100,000-block graph their arrays take 4 bytes a node or an
// edge, hold no pointer for the collector to scan, and the predecessor
// lists are read in order. The arrays are carved from scratch.go's, which
// the dominators of one graph after another reuse. Node counts and edge counts must fit an int32:
// semiNCA checks both at its entry (semiNCACounts) and panics with an
// error naming the count past math.MaxInt32 (a graph of 2^31 blocks would
// not fit in memory as [][]int anyway, so no caller handles it).

package cfg

import (
	"fmt"
	"math"
)

// semiNCACounts says why semiNCA's int32 arrays cannot number a graph of
// nodes nodes and edges edges (either past math.MaxInt32), nil when they
// can.
func semiNCACounts(nodes, edges int64) error {
	switch {
	case nodes > math.MaxInt32:
		return fmt.Errorf("cfg: dominators of %d nodes: semi-NCA numbers at most %d (int32 indices)", nodes, math.MaxInt32)
	case edges > math.MaxInt32:
		return fmt.Errorf("cfg: dominators of a graph of %d edges: semi-NCA lists at most %d (int32 indices)", edges, math.MaxInt32)
	}
	return nil
}

// semiNCA returns the immediate dominators of the graph whose node v has
// successors succs[v], from root: idom[v] for every node, NoBlock for the
// root and for the nodes the root does not reach. Only edges between
// nodes the root reaches count, as in the definition. It panics with
// semiNCACounts's error when the graph has more than math.MaxInt32 nodes
// or edges.
func semiNCA(succs [][]int, root int) []int {
	n := len(succs)
	e := 0
	for _, s := range succs {
		e += len(s)
	}
	if err := semiNCACounts(int64(n), int64(e)); err != nil {
		panic(err)
	}
	idom := make([]int, n)
	for v := range idom {
		idom[v] = NoBlock
	}
	if root < 0 || root >= n {
		return idom
	}
	sc := newScratch(semiScratch(n, e))
	defer sc.release()
	sn := dfsPreorder(succs, root, e, &sc)
	sn.semidominators(&sc)
	sn.nca()
	for i := 1; i < len(sn.order); i++ {
		idom[sn.order[i]] = int(sn.order[sn.idom[i]])
	}
	return idom
}

// semiScratch is the int32s semiNCA's working arrays take for n nodes and
// e edges (scratch.go): the numbering, the order and the parents, the
// counts, the crossed edges, the walk's stack, the predecessor lists and
// the semidominators with the forest's ancestors and labels, and eval's
// path.
func semiScratch(n, e int) int { return 10*n + 3*e + 2 }

// semiState is semiNCA's working state, every array by preorder index
// 0..m-1 of the m nodes the root reaches.
type semiState struct {
	// num is each node's index, -1 for none, while the walk numbers
	// them; nca then keeps idom in its room.
	num    []int32
	order  []int32 // the node of each index
	parent []int32 // the depth-first parent's index, -1 for the root
	// predAt and predTo list each index's predecessors (their indices):
	// those of i are predTo[predAt[i]:predAt[i+1]].
	predAt, predTo []int32
	semi           []int32
	anc            []int32 // forest ancestor for eval, -1 for none
	label          []int32
	idom           []int32 // immediate dominator's index, -1 for the root
	path           []int32 // eval's scratch
}

// dfsPreorder numbers the nodes reached from root depth first, successors
// in order (dfsOrder's walk, numbering the nodes as it reaches them), and
// lists every edge it crosses, as a pair of indices, for the predecessor
// lists. root is in range; e is the graph's number of edges; the arrays
// come from sc.
func dfsPreorder(succs [][]int, root, e int, sc *scratch) *semiState {
	n := len(succs)
	num := sc.take(n) // by node: its index, -1 until reached
	for b := range num {
		num[b] = -1
	}
	sn := &semiState{num: num, order: sc.take(n)[:0], parent: sc.take(n)[:0]}
	count := sc.take(n + 2) // by index + 2: its predecessors (predLists)
	clear(count)
	edges := sc.take(2 * e)[:0] // target index, source index, for each edge crossed
	stack := sc.take(2 * n)[:0] // node, next successor's index, for each node on the walk
	stack = append(stack, int32(root), 0)
	num[root] = 0
	sn.order = append(sn.order, int32(root))
	sn.parent = append(sn.parent, -1)
	for len(stack) > 0 {
		top := len(stack) - 2
		b, i := stack[top], stack[top+1]
		s := succs[b]
		if int(i) >= len(s) {
			stack = stack[:top]
			continue
		}
		t := s[i]
		stack[top+1]++
		from := num[b]
		if num[t] < 0 {
			num[t] = int32(len(sn.order))
			sn.order = append(sn.order, int32(t))
			sn.parent = append(sn.parent, from)
			stack = append(stack, int32(t), 0)
		}
		count[num[t]+2]++
		edges = append(edges, num[t], from)
	}
	sn.predLists(count[:len(sn.order)+2], edges, sc)
	return sn
}

// predLists buckets the crossed edges (target, source pairs) by target
// into predAt and predTo; count[i+2] is index i's number of predecessors.
// The sums make count[i+1] where i's list starts; filling i's list moves
// it to where the list ends, so that count[i] and count[i+1] then bound
// it, with no second array of cursors.
func (sn *semiState) predLists(count, edges []int32, sc *scratch) {
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	sn.predTo = sc.take(len(edges) / 2)
	for k := 0; k < len(edges); k += 2 {
		t := edges[k]
		sn.predTo[count[t+1]] = edges[k+1]
		count[t+1]++
	}
	sn.predAt = count[:len(count)-1]
}

// semidominators computes each index's semidominator in reverse preorder
// (Lengauer and Tarjan's step 2).
func (sn *semiState) semidominators(sc *scratch) {
	m := len(sn.order)
	perIndex := sc.take(3 * m) // semi, anc and label
	sn.path = sc.take(m)[:0]   // a path holds at most every index
	sn.semi, sn.anc, sn.label = perIndex[:m:m], perIndex[m:2*m:2*m], perIndex[2*m:]
	for i := range m {
		sn.semi[i], sn.anc[i], sn.label[i] = int32(i), -1, int32(i)
	}
	semi := sn.semi
	for i := m - 1; i >= 1; i-- {
		s := semi[i]
		for _, v := range sn.predTo[sn.predAt[i]:sn.predAt[i+1]] {
			if u := sn.eval(v); semi[u] < s {
				s = semi[u]
			}
		}
		semi[i] = s
		sn.anc[i] = sn.parent[i] // link i to its depth-first parent
	}
}

// eval is the index of least semidominator on the forest path from v up
// to its tree's root, compressing the path on the way.
func (sn *semiState) eval(v int32) int32 {
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

// nca gives each index its immediate dominator's index: the nearest
// ancestor of its depth-first parent, on the dominator tree built so far,
// at or above its semidominator (the semi-NCA step).
func (sn *semiState) nca() {
	m := len(sn.order)
	sn.idom = sn.num[:m] // the numbering is done with
	sn.idom[0] = -1
	for i := 1; i < m; i++ {
		d := sn.parent[i]
		for d > sn.semi[i] {
			d = sn.idom[d]
		}
		sn.idom[i] = d
	}
}
