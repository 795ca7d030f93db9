// dom.go: depth-first orders, dominators and post-dominators.
//
// Dominators follow Cooper, Harvey and Kennedy, "A Simple, Fast Dominance
// Algorithm" (Software Practice & Experience, 2001): the iterative data-flow
// formulation over reverse post-order with the two-finger intersect. On the
// reducible graphs that dominate our inputs it converges in two passes.
//
// Post-dominators run the same algorithm on the reverse graph with a virtual
// exit X whose predecessors are the returning blocks. A block that cannot
// reach any returning block (it sits in, or only leads into, a cycle with no
// exit) has no post-dominator: IPDom is NoBlock and it post-dominates nothing
// but itself. Such blocks are listed in Stuck. This is the definition taken
// literally (every path to X passes the post-dominator, and there is no such
// path); the structurizer decides for itself how to place merges there.

package cfg

// NoBlock marks a missing block (no immediate dominator, unreachable).
const NoBlock = -1

// Order holds the depth-first orders from the entry. Successors are visited
// in successor order; unreachable blocks appear in neither order.
type Order struct {
	RPO     []int // reverse post-order of the reachable blocks
	RPONum  []int // RPONum[b] = position of b in RPO, NoBlock if unreachable
	PostNum []int // post-order number, NoBlock if unreachable
}

// DFSOrder computes the depth-first orders with an explicit stack.
func DFSOrder(g *Graph) Order {
	return dfsOrder(g.Succs, 0)
}

// dfsOrder is the depth-first orders of the graph with successor lists
// succs from root.
func dfsOrder(succs [][]int, root int) Order {
	n := len(succs)
	nums := make([]int, 4*n) // RPONum, PostNum, post order, then RPO
	o := Order{RPONum: nums[:n:n], PostNum: nums[n : 2*n : 2*n]}
	for b := range 2 * n {
		nums[b] = NoBlock
	}
	seen := o.RPONum // a block is seen once its RPONum is set (0 until it is known)
	type frame struct{ b, i int }
	post := nums[2*n : 2*n : 3*n]
	stack := make([]frame, 0, n)
	if r := root; r >= 0 && r < n {
		seen[r] = 0
		stack = append(stack, frame{r, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			s := succs[top.b]
			if top.i < len(s) {
				t := s[top.i]
				top.i++
				if seen[t] == NoBlock {
					seen[t] = 0
					stack = append(stack, frame{t, 0})
				}
				continue
			}
			post = append(post, top.b)
			stack = stack[:len(stack)-1]
		}
	}
	o.RPO = nums[3*n : 3*n+len(post) : 3*n+len(post)]
	for i, b := range post {
		o.PostNum[b] = i
		o.RPO[len(post)-1-i] = b
		o.RPONum[b] = len(post) - 1 - i
	}
	return o
}

// DomTree is a dominator (or post-dominator) tree.
type DomTree struct {
	// IDom[b] is b's immediate dominator; NoBlock for the root, for blocks
	// the root does not reach, and (post-dominators) for stuck blocks. For
	// post-dominators, IDom[b] == Exit means the virtual exit.
	IDom []int
	// Root is the tree's root: 0 for dominators, Exit for post-dominators.
	Root int
	// pre and post are the tree's DFS interval numbers for O(1) queries.
	pre, post []int
}

// Exit is the id of the virtual exit in post-dominator trees.
const Exit = -2

// Dominators computes the dominator tree of g from block 0.
func Dominators(g *Graph) *DomTree { return DominatorsOf(g, DFSOrder(g), g.Preds()) }

// DominatorsOf is Dominators with g's depth-first orders (DFSOrder) and
// predecessor lists (Preds) given; it only reads them.
func DominatorsOf(g *Graph, o Order, preds [][]int) *DomTree {
	n := len(g.Succs)
	idom := chk(n, o.RPO, o.PostNum, func(b int) []int { return preds[b] })
	t := &DomTree{IDom: idom, Root: 0}
	t.number(n)
	return t
}

// PostDominators computes the post-dominator tree of g towards a virtual
// exit that every returning block reaches. IDom[b] == Exit when b's
// immediate post-dominator is the virtual exit; NoBlock for stuck blocks.
func PostDominators(g *Graph) *DomTree {
	n := len(g.Succs)
	// Reverse graph with the virtual exit as node n, a returning block's
	// only successor.
	toExit := []int{n}
	succ := func(b int) []int {
		switch {
		case b == n:
			return nil
		case len(g.Succs[b]) == 0:
			return toExit
		}
		return g.Succs[b]
	}
	rsucc := reverseWithExit(g)
	o := dfsOrder(rsucc, n)
	idom := chk(n+1, o.RPO, o.PostNum, succ)
	for b := range idom {
		if idom[b] == n {
			idom[b] = Exit
		}
	}
	t := &DomTree{IDom: idom[:n], Root: Exit}
	t.number(n)
	return t
}

// reverseWithExit is Predecessors(n+1, succ) for PostDominators' succ:
// g's reverse graph plus the virtual exit n, whose successors are the
// returning blocks; in one array, without a function call per block.
func reverseWithExit(g *Graph) [][]int {
	n := len(g.Succs)
	edges := 0
	for _, s := range g.Succs {
		edges += max(len(s), 1)
	}
	ints := make([]int, n+1+edges) // count, then all
	count, all := ints[:n+1:n+1], ints[n+1:]
	for _, s := range g.Succs {
		if len(s) == 0 {
			count[n]++
		}
		for _, t := range s {
			count[t]++
		}
	}
	p := make([][]int, n+1)
	for t, c := range count {
		if c > 0 {
			p[t], all = all[:0:c], all[c:]
		}
	}
	for b, s := range g.Succs {
		if len(s) == 0 {
			p[n] = append(p[n], b)
		}
		for _, t := range s {
			p[t] = append(p[t], b)
		}
	}
	return p
}

// chk is the Cooper-Harvey-Kennedy iteration, run as the paper runs it:
// over post-order numbers, not block ids. The intersect then compares the
// numbers themselves, and the dominators and predecessor lists are dense
// arrays in reverse post-order, read about in order: indexed by block id,
// a 100,000-block graph's arrays no longer fit a core's cache and every
// step of an intersect risks a miss. rpo lists the nodes reachable from
// the root (rpo[0]) in reverse post-order, postNum their post-order
// numbers, preds the predecessors in the direction of the analysis. The
// result is indexed by block id: NoBlock for the root and for the nodes
// rpo leaves out.
func chk(n int, rpo, postNum []int, preds func(int) []int) []int {
	m := len(rpo)
	// at[i]..at[i+1]: the post-order numbers of the reachable
	// predecessors of rpo[i], in pred[]; rpo[i]'s own number is m-1-i.
	at := make([]int32, m+1)
	var pred []int32
	for i, b := range rpo {
		at[i] = int32(len(pred))
		for _, p := range preds(b) {
			if q := postNum[p]; q >= 0 {
				pred = append(pred, int32(q))
			}
		}
	}
	at[m] = int32(len(pred))
	doms := make([]int32, m) // by post-order number; -1 not yet known
	for i := range doms {
		doms[i] = -1
	}
	if m > 0 {
		doms[m-1] = int32(m - 1) // the root, first in rpo
	}
	intersect := func(a, b int32) int32 {
		for a != b {
			for a < b {
				a = doms[a]
			}
			for b < a {
				b = doms[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := 1; i < m; i++ {
			nd := int32(-1)
			for _, p := range pred[at[i]:at[i+1]] {
				if doms[p] < 0 {
					continue // not yet processed
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if num := m - 1 - i; nd != doms[num] {
				doms[num] = nd
				changed = true
			}
		}
	}
	idom := make([]int, n)
	for b := range idom {
		idom[b] = NoBlock
	}
	for i := 1; i < m; i++ {
		if d := doms[m-1-i]; d >= 0 {
			idom[rpo[i]] = rpo[m-1-int(d)]
		}
	}
	return idom
}

// TreeFromIDom builds a dominator tree rooted at block 0 from an immediate
// dominator array computed elsewhere (NoBlock for the root and for blocks
// outside the tree), numbered for O(1) Dominates queries.
func TreeFromIDom(idom []int) *DomTree {
	t := &DomTree{IDom: idom, Root: 0}
	t.number(len(idom))
	return t
}

// number assigns DFS interval numbers over the tree so that Dominates is
// O(1). Nodes outside the tree get pre = -1.
func (t *DomTree) number(n int) {
	slot := func(b int) int {
		if b == Exit {
			return n
		}
		return b
	}
	// kids[x] lists x's children in block order (index n stands for the
	// virtual exit), all in one array.
	// count, fill, all and the walk's stack are scratch; pre and post stay
	// with the tree: one allocation.
	ints := make([]int, (n+2)+(n+1)+n+2*(n+1)+2*(n+1))
	count := ints[: n+2 : n+2]
	for _, d := range t.IDom {
		if d != NoBlock {
			count[slot(d)+1]++
		}
	}
	for x := 1; x <= n+1; x++ {
		count[x] += count[x-1]
	}
	fill := ints[n+2 : 2*n+3 : 2*n+3]
	copy(fill, count[:n+1])
	all := ints[2*n+3 : 2*n+3+count[n+1] : 3*n+3]
	for b, d := range t.IDom {
		if d != NoBlock {
			all[fill[slot(d)]] = b
			fill[slot(d)]++
		}
	}
	prepost := ints[3*n+3 : 5*n+5 : 5*n+5]
	t.pre, t.post = prepost[:n+1:n+1], prepost[n+1:]
	for i := range t.pre {
		t.pre[i] = -1
	}
	// The walk's stack: node and next child's index in all, per level.
	node, next := ints[5*n+5:6*n+6:6*n+6], ints[6*n+6:]
	clock := 0
	node[0], next[0] = slot(t.Root), count[slot(t.Root)]
	sp := 1
	t.pre[slot(t.Root)] = clock
	clock++
	for sp > 0 {
		b := node[sp-1]
		if k := next[sp-1]; k < count[b+1] {
			c := all[k]
			next[sp-1]++
			t.pre[c] = clock
			clock++
			node[sp], next[sp] = c, count[c]
			sp++
			continue
		}
		t.post[b] = clock
		clock++
		sp--
	}
}

func (t *DomTree) slot(b int) int {
	if b == Exit {
		return len(t.pre) - 1
	}
	return b
}

// InTree reports whether b is in the tree (reachable from the root in the
// analysis direction).
func (t *DomTree) InTree(b int) bool { return t.pre[t.slot(b)] >= 0 }

// Dominates reports whether a dominates b (reflexive). Blocks outside the
// tree dominate only themselves and are dominated only by themselves.
func (t *DomTree) Dominates(a, b int) bool {
	if a == b {
		return true
	}
	sa, sb := t.slot(a), t.slot(b)
	if t.pre[sa] < 0 || t.pre[sb] < 0 {
		return false
	}
	return t.pre[sa] <= t.pre[sb] && t.post[sb] <= t.post[sa]
}

// StrictlyDominates reports a dominates b and a != b.
func (t *DomTree) StrictlyDominates(a, b int) bool { return a != b && t.Dominates(a, b) }

// Stuck lists the blocks the tree's root does not reach: for dominators the
// unreachable blocks, for post-dominators those that cannot reach an exit.
func (t *DomTree) Stuck() []int {
	var s []int
	for b := range t.IDom {
		if !t.InTree(b) {
			s = append(s, b)
		}
	}
	return s
}

// NearestCommon returns the nearest common dominator of a and b in the tree,
// or NoBlock when either is outside it.
func (t *DomTree) NearestCommon(a, b int) int {
	if !t.InTree(a) || !t.InTree(b) {
		return NoBlock
	}
	for !t.Dominates(a, b) {
		a = t.IDom[a]
		if a == NoBlock {
			return t.Root
		}
	}
	return a
}
