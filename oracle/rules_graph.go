// rules_graph.go: the graphs the structured rules are stated over (rules
// definitions D1-D3): a function's branch edges, its structured edges
// (merge and continue edges before branch edges, as SPIRV-Tools' augmented
// CFG orders them), back edges from a depth-first search over structured
// edges, and dominator trees by Cooper, Harvey and Kennedy's iteration
// ("A Simple, Fast Dominance Algorithm", 2001) with interval numbers for
// O(1) dominance queries. Written here, not taken from structurizer/cfg, so
// the oracle's judgement does not share code with what it judges.
package oracle

import "cfgfuzz/emit/spirv"

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
// (successors in order) and each node's post-order number (-1 unreached).
func postOrder(n, root int, succ func(int) []int) (order, num []int) {
	num = make([]int, n)
	for i := range num {
		num[i] = -1
	}
	seen := make([]bool, n)
	type frame struct{ b, i int }
	stack := []frame{{root, 0}}
	seen[root] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := succ(top.b)
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if !seen[t] {
				seen[t] = true
				stack = append(stack, frame{t, 0})
			}
			continue
		}
		num[top.b] = len(order)
		order = append(order, top.b)
		stack = stack[:len(stack)-1]
	}
	return order, num
}

// buildDomTree computes the dominator tree from root; pred gives the
// predecessors in the analysis direction.
func buildDomTree(n, root int, succ, pred func(int) []int) *domTree {
	order, num := postOrder(n, root, succ)
	idom := make([]int, n)
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
			for _, p := range pred(b) {
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
	t := &domTree{idom: idom}
	t.number(n, root)
	return t
}

// number assigns the interval numbers by a depth-first walk of the tree.
func (t *domTree) number(n, root int) {
	first := make([]int, n) // first child
	next := make([]int, n)  // next sibling
	for i := range first {
		first[i], next[i] = -1, -1
	}
	for b := n - 1; b >= 0; b-- {
		if d := t.idom[b]; d >= 0 {
			next[b], first[d] = first[d], b
		}
	}
	t.pre, t.post = make([]int, n), make([]int, n)
	for i := range t.pre {
		t.pre[i] = -1
	}
	clock := 0
	stack := []int{root}
	t.pre[root] = clock
	cursor := make([]int, n)
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
	index map[uint32]int // label -> block
	succ  [][]int        // branch successors (indices, operand order)
	pred  [][]int        // branch predecessors
	ssucc [][]int        // structured successors: merge, continue, branch targets
	spred [][]int
	merge []int    // declared merge per block, -1
	cont  []int    // declared continue target per block, -1
	dom   *domTree // structural dominance from the entry
	pdom  *domTree // structural post-dominance; node n is the virtual exit
	ord   *domTree // ordinary dominance (branch edges only)
	// latches[h] lists the distinct back-edge blocks whose back edge
	// targets h; backTo[u] marks blocks with a back edge.
	latches  [][]int
	backEdge map[[2]int]bool
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
// analyse adds: what the module CFG of meta needs.
func newFuncEdges(f *ruleFunc) (*funcGraph, error) {
	n := len(f.blocks)
	g := &funcGraph{f: f, index: make(map[uint32]int, n), succ: make([][]int, n), pred: make([][]int, n),
		ssucc: make([][]int, n), spred: make([][]int, n), merge: make([]int, n), cont: make([]int, n)}
	for i, b := range f.blocks {
		g.index[b.label] = i
	}
	resolve := func(b int, id uint32, what string) (int, error) {
		t, ok := g.index[id]
		if !ok {
			return -1, &MalformedError{Msg: "block %" + itoa(f.blocks[b].label) + ": " + what + " %" + itoa(id) + " labels no block of the function"}
		}
		return t, nil
	}
	var err error
	for i := range f.blocks {
		b := &f.blocks[i]
		g.merge[i], g.cont[i] = -1, -1
		if b.mergeOp != 0 {
			if g.merge[i], err = resolve(i, b.merge, "merge block"); err != nil {
				return nil, err
			}
			g.ssucc[i] = append(g.ssucc[i], g.merge[i])
		}
		if b.mergeOp == spirv.OpLoopMerge {
			if g.cont[i], err = resolve(i, b.cont, "continue target"); err != nil {
				return nil, err
			}
			g.ssucc[i] = append(g.ssucc[i], g.cont[i])
		}
		for _, id := range b.targets {
			t, err := resolve(i, id, "branch target")
			if err != nil {
				return nil, err
			}
			g.succ[i] = append(g.succ[i], t)
			g.ssucc[i] = append(g.ssucc[i], t)
		}
	}
	for u := range n {
		for _, v := range g.succ[u] {
			g.pred[v] = append(g.pred[v], u)
		}
		for _, v := range g.ssucc[u] {
			g.spred[v] = append(g.spred[v], u)
		}
	}
	return g, nil
}

// analyse builds the dominator trees and finds the back edges.
func (g *funcGraph) analyse() {
	n := len(g.succ)
	if n == 0 {
		return
	}
	g.dom = buildDomTree(n, 0, func(b int) []int { return g.ssucc[b] }, func(b int) []int { return g.spred[b] })
	g.ord = buildDomTree(n, 0, func(b int) []int { return g.succ[b] }, func(b int) []int { return g.pred[b] })
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
	withExit := make([][]int, n)
	for b := range n {
		withExit[b] = g.ssucc[b]
		if isExitPred[b] {
			withExit[b] = append(append([]int(nil), g.ssucc[b]...), n)
		}
	}
	rsucc := func(b int) []int {
		if b == n {
			return exitPreds
		}
		return g.spred[b]
	}
	return buildDomTree(n+1, n, rsucc, func(b int) []int {
		if b == n {
			return nil
		}
		return withExit[b]
	})
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
	g.backEdge = map[[2]int]bool{}
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
	if g.backEdge[[2]int{u, h}] {
		return
	}
	g.backEdge[[2]int{u, h}] = true
	g.latches[h] = append(g.latches[h], u)
}

// isFunctionEnd reports terminators that leave the function (D3).
func isFunctionEnd(op spirv.Op) bool {
	switch op {
	case spirv.OpReturn, spirv.OpReturnValue, spirv.OpKill, spirv.OpUnreachable, spirv.OpTerminateInvocation:
		return true
	}
	return false
}

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
