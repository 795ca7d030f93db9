// dom.go: depth-first orders, dominators and post-dominators.
//
// Immediate dominators come from the semi-NCA algorithm (dom_seminca.go).
// A dominator tree keeps them with interval numbers from a walk of the
// tree, so that a dominance query is O(1).
//
// Post-dominators are the dominators of the reverse graph with a virtual
// exit X whose predecessors are the returning blocks. A block that cannot
// reach any returning block (it sits in, or only leads into, a cycle with no
// exit) has no post-dominator: IPDom is NoBlock and it post-dominates nothing
// but itself. Such blocks are listed in Stuck. This is the definition taken
// literally (every path to X passes the post-dominator, and there is no such
// path); the structurizer decides for itself how to place merges there.
//
// The computations number nodes and edges in int32 arrays: a graph of more
// than math.MaxInt32 edges, or more than math.MaxInt32/2 - 1 blocks, makes
// them panic with an error saying which count is past its limit
// (semiNCACounts, treeCounts).

package cfg

import (
	"fmt"
	"math"
)

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
// The post-order and the walk's stack (node, next successor's index) are
// scratch (scratch.go).
func dfsOrder(succs [][]int, root int) Order {
	n := len(succs)
	nums := make([]int, 3*n) // RPONum, PostNum, then RPO
	o := Order{RPONum: nums[:n:n], PostNum: nums[n : 2*n : 2*n]}
	for b := range 2 * n {
		nums[b] = NoBlock
	}
	seen := o.RPONum // a block is seen once its RPONum is set (0 until it is known)
	sc := newScratch(3 * n)
	defer sc.release()
	post := sc.take(n)[:0]
	stack := sc.take(2 * n)[:0]
	if r := root; r >= 0 && r < n {
		seen[r] = 0
		stack = append(stack, int32(r), 0)
		for len(stack) > 0 {
			top := len(stack) - 2
			b, i := stack[top], stack[top+1]
			if s := succs[b]; int(i) < len(s) {
				t := s[i]
				stack[top+1]++
				if seen[t] == NoBlock {
					seen[t] = 0
					stack = append(stack, int32(t), 0)
				}
				continue
			}
			post = append(post, b)
			stack = stack[:top]
		}
	}
	o.RPO = nums[2*n : 2*n+len(post) : 2*n+len(post)]
	for i, b := range post {
		o.PostNum[b] = i
		o.RPO[len(post)-1-i] = int(b)
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
	// pre and post are the tree's DFS interval numbers for O(1) queries,
	// int32 so that a query on a large tree touches half the cache lines.
	pre, post []int32
}

// Exit is the id of the virtual exit in post-dominator trees.
const Exit = -2

// Dominators computes the dominator tree of g from block 0.
func Dominators(g *Graph) *DomTree { return TreeFromIDom(semiNCA(g.Succs, 0)) }

// DominatorsOf is Dominators for a caller that holds g's predecessor lists
// (Preds); semi-NCA lists the predecessors it needs while it walks g, so
// it does not read them.
func DominatorsOf(g *Graph, preds [][]int) *DomTree {
	return TreeFromIDom(semiNCA(g.Succs, 0))
}

// ImmediateDominators is Dominators(g).IDom without the tree's numbering:
// each block's immediate dominator, NoBlock for block 0 and for the blocks
// it does not reach.
func ImmediateDominators(g *Graph) []int { return semiNCA(g.Succs, 0) }

// PostDominators computes the post-dominator tree of g towards a virtual
// exit that every returning block reaches. IDom[b] == Exit when b's
// immediate post-dominator is the virtual exit; NoBlock for stuck blocks.
func PostDominators(g *Graph) *DomTree {
	n := len(g.Succs)
	// The dominators of the reverse graph with the virtual exit as node n.
	idom := semiNCA(reverseWithExit(g), n)
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
func reverseWithExit(g *Graph) [][]int { return bucketPreds(len(g.Succs)+1, g.Succs, len(g.Succs)) }

// TreeFromIDom builds a dominator tree rooted at block 0 from an immediate
// dominator array computed elsewhere (NoBlock for the root and for blocks
// outside the tree), numbered for O(1) Dominates queries.
func TreeFromIDom(idom []int) *DomTree {
	t := &DomTree{IDom: idom, Root: 0}
	t.number(len(idom))
	return t
}

// treeCounts says why a DomTree's int32 interval numbers cannot number
// a tree over n blocks and the virtual exit (two numbers a node, so past
// n = math.MaxInt32/2 - 1), nil when they can.
func treeCounts(n int64) error {
	if 2*(n+1) > math.MaxInt32 {
		return fmt.Errorf("cfg: dominator tree of %d blocks: its int32 interval numbers number at most %d", n, math.MaxInt32/2-1)
	}
	return nil
}

// number assigns DFS interval numbers over the tree so that Dominates is
// O(1). Nodes outside the tree get pre = -1. It panics with treeCounts's
// error for more blocks than the numbers hold.
func (t *DomTree) number(n int) {
	if err := treeCounts(int64(n)); err != nil {
		panic(err)
	}
	slot := func(b int) int {
		if b == Exit {
			return n
		}
		return b
	}
	// kids[x] lists x's children in block order (index n stands for the
	// virtual exit), all in one array.
	// count, fill, all and the walk's stack are scratch (scratch.go); pre
	// and post stay with the tree.
	sc := newScratch((n + 2) + (n + 1) + n + 2*(n+1))
	defer sc.release()
	count := sc.take(n + 2)
	clear(count)
	for _, d := range t.IDom {
		if d != NoBlock {
			count[slot(d)+1]++
		}
	}
	for x := 1; x <= n+1; x++ {
		count[x] += count[x-1]
	}
	fill := sc.take(n + 1)
	copy(fill, count[:n+1])
	all := sc.take(n)[:count[n+1]]
	for b, d := range t.IDom {
		if d != NoBlock {
			all[fill[slot(d)]] = int32(b)
			fill[slot(d)]++
		}
	}
	prepost := make([]int32, 2*(n+1))
	t.pre, t.post = prepost[:n+1:n+1], prepost[n+1:]
	for i := range t.pre {
		t.pre[i] = -1
	}
	// The walk's stack: node and next child's index in all, per level.
	node, next := sc.take(n+1), sc.take(n+1)
	clock := int32(0)
	node[0], next[0] = int32(slot(t.Root)), count[slot(t.Root)]
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
