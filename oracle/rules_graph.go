// rules_graph.go: the graphs the structured rules are stated over (rules
// definitions D1-D3): a function's branch edges, its structured edges
// (merge and continue edges before branch edges, as SPIRV-Tools' augmented
// CFG orders them), back edges from a depth-first search over structured
// edges, and dominator trees by Cooper, Harvey and Kennedy's iteration
// ("A Simple, Fast Dominance Algorithm", 2001) with interval numbers for
// O(1) dominance queries. Written here, not taken from structurizer/cfg, so
// the oracle's judgement does not share code with what it judges.

package oracle

import "github.com/cfgfuzz/cfgfuzz/emit/spirv"

// domTree is a dominator tree over nodes 0..n-1 with O(1) queries.
type domTree struct {
	idom      []int // -1 for the root and unreached nodes
	pre, post []int // interval numbers; pre -1 when unreached
}

// dominates reports a dominates b (reflexive); unreached nodes dominate
// only themselves.
func (t *domTree) dominates(a, b int) bool {
	if a == b {
		return true
	}
	if a < 0 || b < 0 || t.pre[a] < 0 || t.pre[b] < 0 {
		return false
	}
	return t.pre[a] <= t.pre[b] && t.post[b] <= t.post[a]
}

// reached reports whether the root reaches b.
func (t *domTree) reached(b int) bool { return t.pre[b] >= 0 }

// postOrder returns the nodes reachable from root in depth-first post-order
// (successors in order) and each node's post-order number (-1 unreached),
// in work's first 2n ints (work has 4n: the search's stack too).
func postOrder(n, root int, succ [][]int, work []int) (order, num []int) {
	order, num = work[:0:n], work[n:2*n:2*n]
	stack := work[2*n : 2*n : 4*n] // node, next successor index: two ints a frame
	const seen = -2                // on the stack or done, before its number
	for i := range num {
		num[i] = -1
	}
	stack = append(stack, root, 0)
	num[root] = seen
	for len(stack) > 0 {
		top := len(stack) - 2
		b, k := stack[top], stack[top+1]
		s := succ[b]
		if k < len(s) {
			t := s[k]
			stack[top+1]++
			if num[t] == -1 {
				num[t] = seen
				stack = append(stack, t, 0)
			}
			continue
		}
		num[b] = len(order)
		order = append(order, b)
		stack = stack[:top]
	}
	return order, num
}

// buildDomTree computes the dominator tree from root; succ and pred list
// each node's successors and predecessors in the analysis direction. The tree's arrays and the work
// of the search and the numbering share one allocation.
func buildDomTree(n, root int, succ, pred [][]int) *domTree {
	buf := make([]int, 7*n)
	idom, work := buf[:n:n], buf[3*n:]
	order, num := postOrder(n, root, succ, work)
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = idom[a]
			}
			for num[b] < num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if b == root {
				continue
			}
			nd := -1
			for _, p := range pred[b] {
				if num[p] < 0 || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[b] {
				idom[b], changed = nd, true
			}
		}
	}
	idom[root] = -1
	t := &domTree{idom: idom, pre: buf[n : 2*n : 2*n], post: buf[2*n : 3*n : 3*n]}
	t.number(n, root, work)
	return t
}

// number assigns the interval numbers (into t.pre and t.post) by a
// depth-first walk of the tree, in work's 4n ints.
func (t *domTree) number(n, root int, work []int) {
	first := work[:n:n]         // first child
	next := work[n : 2*n : 2*n] // next sibling
	cursor := work[2*n : 3*n : 3*n]
	stack := work[3*n : 3*n : 4*n]
	for i := range first {
		first[i], next[i] = -1, -1
	}
	for b := n - 1; b >= 0; b-- {
		if d := t.idom[b]; d >= 0 {
			next[b], first[d] = first[d], b
		}
	}
	for i := range t.pre {
		t.pre[i], t.post[i] = -1, 0
	}
	clock := 0
	stack = append(stack, root)
	t.pre[root] = clock
	copy(cursor, first)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		if c := cursor[b]; c >= 0 {
			cursor[b] = next[c]
			clock++
			t.pre[c] = clock
			stack = append(stack, c)
			continue
		}
		clock++
		t.post[b] = clock
		stack = stack[:len(stack)-1]
	}
}

// funcGraph holds one function's edges and analyses.
type funcGraph struct {
	f     *ruleFunc
	succ  [][]int // branch successors (indices, operand order)
	pred  [][]int // branch predecessors
	ssucc [][]int // structured successors: merge, continue, branch targets
	spred [][]int
	merge []int    // declared merge per block, -1
	cont  []int    // declared continue target per block, -1
	dom   *domTree // structural dominance from the entry
	pdom  *domTree // structural post-dominance; node n is the virtual exit
	ord   *domTree // ordinary dominance (branch edges only)
	// latches[h] lists the distinct back-edge blocks whose back edge
	// targets h.
	latches [][]int
}

// newFuncGraph resolves labels and builds every graph of f.
func newFuncGraph(f *ruleFunc) (*funcGraph, error) {
	g, err := newFuncEdges(f)
	if err != nil {
		return nil, err
	}
	g.analyse()
	return g, nil
}

// newFuncEdges resolves labels and builds f's edges (branch and
// structured, both ways) and declared merges, without the trees that
// analyse adds: what the module CFG of meta needs. Each kind of list is
// cut from one array (an empty list stays nil).
func newFuncEdges(f *ruleFunc) (*funcGraph, error) {
	n := len(f.blocks)
	g := &funcGraph{f: f, succ: make([][]int, n), pred: make([][]int, n),
		ssucc: make([][]int, n), spred: make([][]int, n), merge: make([]int, n), cont: make([]int, n)}
	index := newLabelIndex(f.blocks)
	resolve := func(b int, id uint32, what string) (int, error) {
		t, ok := index.get(id)
		if !ok {
			return -1, &MalformedError{Msg: "block %" + itoa(f.blocks[b].label) + ": " + what + " %" + itoa(id) + " labels no block of the function"}
		}
		return t, nil
	}
	edges, structured := 0, 0
	for i := range f.blocks {
		b := &f.blocks[i]
		edges += len(b.targets)
		structured += len(b.targets)
		if b.mergeOp != 0 {
			structured++
		}
		if b.mergeOp == spirv.OpLoopMerge {
			structured++
		}
	}
	store := make([]int, 0, 2*(edges+structured))
	var err error
	for i := range f.blocks {
		b := &f.blocks[i]
		g.merge[i], g.cont[i] = -1, -1
		k := len(b.targets)
		if b.mergeOp != 0 {
			k++
		}
		if b.mergeOp == spirv.OpLoopMerge {
			k++
		}
		ss := store[len(store) : len(store) : len(store)+k]
		if b.mergeOp != 0 {
			if g.merge[i], err = resolve(i, b.merge, "merge block"); err != nil {
				return nil, err
			}
			ss = append(ss, g.merge[i])
		}
		if b.mergeOp == spirv.OpLoopMerge {
			if g.cont[i], err = resolve(i, b.cont, "continue target"); err != nil {
				return nil, err
			}
			ss = append(ss, g.cont[i])
		}
		for _, id := range b.targets {
			t, err := resolve(i, id, "branch target")
			if err != nil {
				return nil, err
			}
			ss = append(ss, t)
		}
		store = store[:len(store)+k]
		if k > 0 {
			g.ssucc[i] = ss
		}
		if len(b.targets) > 0 {
			g.succ[i] = ss[k-len(b.targets) : k : k]
		}
	}
	g.pred = predecessors(g.succ, store[len(store):len(store):len(store)+edges])
	store = store[:len(store)+edges]
	g.spred = predecessors(g.ssucc, store[len(store):len(store):len(store)+structured])
	return g, nil
}

// predecessors lists, for each block, the blocks whose succ names it, in
// block order (once per edge, nil for none), cut from store (room for
// every edge).
func predecessors(succ [][]int, store []int) [][]int {
	pred := make([][]int, len(succ))
	count := make([]int, len(succ))
	for _, s := range succ {
		for _, v := range s {
			count[v]++
		}
	}
	for v, c := range count {
		if c > 0 {
			pred[v] = store[len(store) : len(store) : len(store)+c]
			store = store[:len(store)+c]
		}
	}
	for u, s := range succ {
		for _, v := range s {
			pred[v] = append(pred[v], u)
		}
	}
	return pred
}

// labelIndex finds a block by its label: by a table over the labels' range
// where it is about as small as the function, else by a map; where a label
// repeats, the last block with it.
type labelIndex struct {
	lo    uint32
	table []int32 // block+1 by label-lo, 0 for none
	m     map[uint32]int
}

func newLabelIndex(blocks []ruleBlock) labelIndex {
	if len(blocks) == 0 {
		return labelIndex{}
	}
	lo, hi := blocks[0].label, blocks[0].label
	for _, b := range blocks {
		lo, hi = min(lo, b.label), max(hi, b.label)
	}
	var x labelIndex
	if span := uint64(hi) - uint64(lo) + 1; span <= 4*uint64(len(blocks))+64 {
		x.lo, x.table = lo, make([]int32, span)
		for i, b := range blocks {
			x.table[b.label-lo] = int32(i + 1)
		}
		return x
	}
	x.m = make(map[uint32]int, len(blocks))
	for i, b := range blocks {
		x.m[b.label] = i
	}
	return x
}

func (x *labelIndex) get(id uint32) (int, bool) {
	if x.m != nil {
		b, ok := x.m[id]
		return b, ok
	}
	if id < x.lo || uint64(id-x.lo) >= uint64(len(x.table)) || x.table[id-x.lo] == 0 {
		return 0, false
	}
	return int(x.table[id-x.lo] - 1), true
}

// analyse builds the dominator trees and finds the back edges.
func (g *funcGraph) analyse() {
	n := len(g.succ)
	if n == 0 {
		return
	}
	g.dom = buildDomTree(n, 0, g.ssucc, g.spred)
	g.ord = buildDomTree(n, 0, g.succ, g.pred)
	g.pdom = g.postDominators()
	g.findBackEdges()
}

// postDominators computes structural post-dominance towards a virtual exit
// (node n) reached from every function-ending block and, so that blocks
// in exit-less cycles still have a tree, from every block that reaches no
// function end (SPIRV-Tools wires one block of each such cycle; wiring all
// of them only matters for modules that are invalid anyway).
func (g *funcGraph) postDominators() *domTree {
	n := len(g.f.blocks)
	exitPreds := make([]int, 0, 4) // blocks wired to the exit
	reaches := make([]bool, n)
	var stack []int
	for b := range n {
		if isFunctionEnd(g.f.blocks[b].term) {
			reaches[b] = true
			stack = append(stack, b)
			exitPreds = append(exitPreds, b)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range g.spred[b] {
			if !reaches[p] {
				reaches[p] = true
				stack = append(stack, p)
			}
		}
	}
	for b := range n {
		if !reaches[b] {
			exitPreds = append(exitPreds, b)
		}
	}
	isExitPred := make([]bool, n)
	for _, b := range exitPreds {
		isExitPred[b] = true
	}
	// The reverse graph's lists, the exit n last: its successors are the
	// predecessors, the exit's the blocks wired to it; its predecessors
	// the successors, with the exit after each block wired to it.
	lists := make([][]int, 2*(n+1))
	rsucc, withExit := lists[:n+1:n+1], lists[n+1:]
	copy(rsucc, g.spred)
	rsucc[n] = exitPreds
	for b := range n {
		withExit[b] = g.ssucc[b]
		if isExitPred[b] {
			withExit[b] = append(append([]int(nil), g.ssucc[b]...), n)
		}
	}
	return buildDomTree(n+1, n, rsucc, withExit)
}

// findBackEdges runs the depth-first search of definition D2 over
// structured edges (merge, continue, then branch targets) and records each
// branch edge whose target is on the search stack. Like SPIRV-Tools'
// augmented CFG it starts at the entry, then at each block without
// predecessors, then at the first unvisited block of each unreachable
// cycle (binary order), so back edges in unreachable code count too.
func (g *funcGraph) findBackEdges() {
	n := len(g.f.blocks)
	g.latches = make([][]int, n)
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	g.searchBackEdges(0, state)
	for b := range n {
		if state[b] == 0 && len(g.spred[b]) == 0 {
			g.searchBackEdges(b, state)
		}
	}
	for b := range n {
		if state[b] == 0 {
			g.searchBackEdges(b, state)
		}
	}
}

// searchBackEdges is one depth-first search from root.
func (g *funcGraph) searchBackEdges(root int, state []uint8) {
	type frame struct{ b, i int }
	stack := []frame{{root, 0}}
	state[root] = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := g.ssucc[top.b]
		if top.i < len(s) {
			k := top.i
			t := s[k]
			top.i++
			isBranch := k >= len(s)-len(g.succ[top.b])
			switch {
			case state[t] == 0:
				state[t] = 1
				stack = append(stack, frame{t, 0})
			case state[t] == 1 && isBranch:
				g.addBackEdge(top.b, t)
			}
			continue
		}
		state[top.b] = 2
		stack = stack[:len(stack)-1]
	}
}

func (g *funcGraph) addBackEdge(u, h int) {
	if g.isBackEdge(u, h) {
		return
	}
	g.latches[h] = append(g.latches[h], u)
}

// isBackEdge says whether u -> h is a back edge: u is one of h's latches
// (a header has few).
func (g *funcGraph) isBackEdge(u, h int) bool {
	for _, l := range g.latches[h] {
		if l == u {
			return true
		}
	}
	return false
}

// isFunctionEnd reports terminators that leave the function (D3).
func isFunctionEnd(op spirv.Op) bool { return spirv.IsFunctionExit(op) }

func itoa(x uint32) string {
	if x == 0 {
		return "0"
	}
	var b [10]byte
	i := len(b)
	for x > 0 {
		i--
		b[i] = byte('0' + x%10)
		x /= 10
	}
	return string(b[i:])
}
