// loops.go: the loop nesting forest and reducibility.
//
// The forest follows Steensgaard's construction as framed by Ramalingam ("On
// Loops, Dominators, and Dominance Frontiers", TOPLAS 2002): the loops are
// the non-trivial strongly connected components of the reachable graph; a
// loop's entries are its blocks with a predecessor outside it (or the
// function entry); removing the edges from inside a loop to its entries
// exposes the loops nested in it, found the same way. A loop with more than
// one entry is irreducible, and a graph is reducible exactly when no loop of
// the forest is. Its header is the entry first in reverse post-order, which
// for a reducible loop is the block that dominates the whole loop.
//
// The component search takes O((V+E) * depth), with an iterative Tarjan SCC
// so deep graphs do not grow the goroutine stack; it runs only on
// irreducible graphs. A reducible graph's forest comes from the collapse of
// loops_reducible.go, in near-linear time, the same forest. The search in
// its plain form, the reference the tests compare both with, is
// refComponentForest in loops_search_test.go.

package cfg

import "slices"

// Loop is one loop of the nesting forest.
type Loop struct {
	Header      int   // the entry first in reverse post-order
	Entries     []int // every block entered from outside the loop, in RPO order
	Blocks      []int // all blocks of the loop, nested loops included: see Forest
	Parent      int   // enclosing loop index, or NoBlock
	Children    []int // nested loop indices
	Depth       int   // 1 for outermost loops
	Irreducible bool  // more than one entry
}

// Forest is the loop nesting forest of a graph.
//
// The loops' block lists share one array, which lists the blocks in a
// preorder of the loop tree: each loop's own blocks (those whose innermost
// loop it is) in increasing order, then its children's lists in Children
// order. A loop's Blocks is its range of that array, so the forest holds
// each block once, however deep the nesting, and Contains is a range test.
type Forest struct {
	Loops []Loop
	// LoopOf[b] is the innermost loop containing b, or NoBlock.
	LoopOf []int

	all   []int   // every block in a loop, in the order above
	pos   []int32 // by block: its place in all, -1 for a block in no loop
	first []int32 // by loop: the place of its first block in all
}

// Reducible reports whether no loop has more than one entry.
func (f *Forest) Reducible() bool {
	for _, l := range f.Loops {
		if l.Irreducible {
			return false
		}
	}
	return true
}

// Contains reports whether loop l contains block b (at any depth): b's
// place in the shared block array lies in l's range. A forest put
// together outside this package (no shared array) walks up from b's
// innermost loop to l's depth instead.
func (f *Forest) Contains(l, b int) bool {
	if f.pos != nil {
		p := f.pos[b] - f.first[l]
		return p >= 0 && int(p) < len(f.Loops[l].Blocks)
	}
	depth := f.Loops[l].Depth
	for x := f.LoopOf[b]; x != NoBlock && f.Loops[x].Depth >= depth; x = f.Loops[x].Parent {
		if x == l {
			return true
		}
	}
	return false
}

// IsHeader reports whether b is the header of some loop, and which.
func (f *Forest) IsHeader(b int) (int, bool) {
	l := f.LoopOf[b]
	if l != NoBlock && f.Loops[l].Header == b {
		return l, true
	}
	return NoBlock, false
}

// LoopForest computes the loop nesting forest of the blocks reachable from
// the entry. Loop indices are in discovery order: parents before children,
// siblings in the order the component search completes them.
func LoopForest(g *Graph) *Forest { return LoopForestOf(g, DFSOrder(g), g.Preds()) }

// LoopForestOf is LoopForest with g's depth-first orders (DFSOrder) and
// predecessor lists (Preds) given; it only reads them.
func LoopForestOf(g *Graph, o Order, preds [][]int) *Forest {
	n := len(g.Succs)
	f := &Forest{LoopOf: make([]int, n)}
	for b := range f.LoopOf {
		f.LoopOf[b] = NoBlock
	}
	if acyclic(g, o) || reducibleForest(g, o, preds, f) {
		return f
	}
	return componentForest(g, o, preds, f)
}

// componentForest fills f (whose LoopOf is all NoBlock) by the component
// search, region by region: what LoopForestOf runs on an irreducible graph.
// The regions are searched breadth first, so the loops are numbered level
// by level; a region's loops in the reverse of the order in which Tarjan's
// search of it completes them. refComponentForest (loops_search_test.go)
// is the same search in its plain form, and the tests compare the two.
//
// What a level costs is kept to one visit of each block of the region and
// of each edge out of its blocks: the search follows an edge only to a
// block stamped with the region's id (the search of the parent region
// stamps them, and unstamps the entries), so nothing is reset between
// regions; the search marks a block that an edge from another component
// enters (seen), which gives each loop's entries without reading the
// predecessors; and each block's innermost loop is set once, in the region
// where it is in no loop, the block lists of all loops then coming from
// LoopOf in one pass (fillBlocks).
//
// The search also leaves out every block other than the entry with one
// predecessor, reading the edge into it as the edges out of it (follow),
// and gives those blocks their loops afterwards (innerLoops). Such a
// block is in a loop only with its predecessor, so it is the entry of no
// loop that holds it, and leaving it out changes no component, entry or
// depth-first order of the other blocks. That contraction is this
// package's own, no paper's; on graphs laid out as code is (the tangled
// shape) it leaves out 60% of the blocks, and of each level's search.
func componentForest(g *Graph, o Order, preds [][]int, f *Forest) *Forest {
	newForestBuild(g, o, preds, f).build(o, preds)
	return f
}

// build searches the regions breadth first, then sets the loops of the
// blocks left out and every loop's blocks.
func (fb *forestBuild) build(o Order, preds [][]int) {
	for next := 0; next < len(fb.work); next++ {
		fb.search(fb.work[next])
		// Searched: its block list may go. The lists of all regions sum to
		// the blocks times the nesting depth, the queue holds a level or
		// two of them at a time.
		fb.work[next].blocks = nil
	}
	fb.innerLoops(o, preds)
	fillBlocks(fb.f)
}

// forestRegion is a region the forest search looks for loops in, its
// blocks less those left out (inner), in reverse post-order: the whole
// graph, then each loop's blocks less the edges into its entries (the
// search starts from them, as from every block, but no edge leads to
// them). A loop li's region has id li+1, the graph's 0.
type forestRegion struct {
	blocks []int
	parent int // the loop it is the body of, NoBlock for the graph
	id     int32
}

// forestBuild is componentForest's state: the forest so far, the queue of
// regions to search, the successors as the search reads them (follow)
// packed in one array (adj, block b's from off[b] to off[b+1]), every
// per-block field the search reads side by side (nodes: on large graphs
// one cache line then serves a block's visit), and the search's stacks, as
// long as the first region.
type forestBuild struct {
	g     *Graph
	f     *Forest
	nodes []forestNode
	inner []bool  // the blocks the search leaves out (one predecessor)
	lists [][]int // follow's stack, kept for its room
	off   []int32
	adj   []int32
	work  []forestRegion
	clock int32 // Tarjan's numbers so far, over all regions
	stack []int32
	call  []int32
	sizes []int // by completion: the blocks of each loop of the region
}

// forestNode is what the component search knows of one block.
type forestNode struct {
	// Tarjan's numbers: index is below the region's first number until
	// the region's search reaches the block; once its component is done,
	// low is -1, or -2-j for the region's j-th loop to complete.
	index, low int32
	// stamp is the region the block is in; -1 for none, and for an entry
	// of a loop found, which no region's search enters.
	stamp int32
	seen  int32 // the region whose search met an edge into the block from another component
	next  int32 // the place in adj of the next successor to search
}

func newForestBuild(g *Graph, o Order, preds [][]int, f *Forest) *forestBuild {
	n := len(g.Succs)
	nodes := make([]forestNode, n)
	for b := range nodes {
		nodes[b] = forestNode{index: -1, low: -1, stamp: -1, seen: -1}
	}
	inner := make([]bool, n)
	blocks := make([]int, 0, len(o.RPO))
	for _, b := range o.RPO {
		if inner[b] = b != 0 && len(preds[b]) == 1 && preds[b][0] != b; !inner[b] {
			nodes[b].stamp = 0
			blocks = append(blocks, b)
		}
	}
	fb := &forestBuild{g: g, f: f, nodes: nodes, inner: inner, off: make([]int32, n+1), adj: make([]int32, 0, len(o.RPO))}
	for b := range n {
		if nodes[b].stamp == 0 {
			fb.follow(g.Succs[b])
		}
		fb.off[b+1] = int32(len(fb.adj))
	}
	k := len(blocks)
	fb.stack, fb.call = make([]int32, k), make([]int32, k)
	fb.work = append(make([]forestRegion, 0, 8), forestRegion{blocks: blocks, parent: NoBlock, id: 0})
	return fb
}

// follow appends to adj the blocks the search reaches by the edges to
// succs: each block the search reads, and for each block it leaves out
// (inner), the blocks it reaches by that block's edges, in their order.
// Each block left out has one predecessor, so it is read once.
func (fb *forestBuild) follow(succs []int) {
	stack := append(fb.lists[:0], succs) // the successor lists left to read
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(*top) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		t := (*top)[0]
		*top = (*top)[1:]
		if fb.inner[t] {
			stack = append(stack, fb.g.Succs[t])
		} else {
			fb.adj = append(fb.adj, int32(t))
		}
	}
	fb.lists = stack
}

// innerLoops sets the innermost loop of each block the search left out
// (inner): such a block b, with its one predecessor, hangs in a tree of
// blocks left out whose root r the search read, and b is in a loop exactly
// when r is and a block the search read that b's subtree has an edge to
// (an exit) is; so its innermost loop is the deepest of the innermost
// loops holding both r and an exit, found from the leaves up (reverse
// post-order from the last block).
func (fb *forestBuild) innerLoops(o Order, preds [][]int) {
	f, succs, inner := fb.f, fb.g.Succs, fb.inner
	root := make([]int32, len(succs))
	for _, b := range o.RPO {
		if inner[b] {
			if p := preds[b][0]; inner[p] {
				root[b] = root[p]
			} else {
				root[b] = int32(p)
			}
		}
	}
	depth := func(l int) int {
		if l == NoBlock {
			return 0
		}
		return f.Loops[l].Depth
	}
	for i := len(o.RPO) - 1; i >= 0; i-- {
		b := o.RPO[i]
		if !inner[b] {
			continue
		}
		lr, best := f.LoopOf[root[b]], NoBlock
		for _, s := range succs[b] {
			l := f.LoopOf[s] // an inner successor's is set: it is later in reverse post-order
			if !inner[s] {
				l = commonLoop(f, lr, l)
			}
			if depth(l) > depth(best) {
				best = l
			}
		}
		f.LoopOf[b] = best
	}
}

// commonLoop returns the innermost loop holding loops a and b (NoBlock
// for none).
func commonLoop(f *Forest, a, b int) int {
	for a != b && a != NoBlock && b != NoBlock {
		if f.Loops[a].Depth >= f.Loops[b].Depth {
			a = f.Loops[a].Parent
		} else {
			b = f.Loops[b].Parent
		}
	}
	if a != b {
		return NoBlock
	}
	return a
}

// search finds region r's loops (its cyclic strongly connected
// components), adds each to the forest and queues its body.
func (fb *forestBuild) search(r forestRegion) {
	if k := fb.components(r); k > 0 {
		fb.addLoops(r, k)
	} else if r.parent != NoBlock {
		for _, b := range r.blocks {
			fb.f.LoopOf[b] = r.parent
		}
	}
}

// components runs Tarjan's search over region r, roots in the region's
// order, following an edge only to a block stamped with the region (no
// entry of a loop found). It leaves low at -2-j on the blocks of the j-th
// cyclic component to complete (fb.sizes[j] blocks), -1 on the others,
// seen at r.id on each block entered from another component of the
// region, and returns the number of cyclic components. A block the
// search has reached (index at least base) is on Tarjan's stack until its
// component is done, when its low turns negative.
func (fb *forestBuild) components(r forestRegion) int {
	nodes, off, adj, id := fb.nodes, fb.off, fb.adj, r.id
	if fb.clock > int32(1<<31-1)-int32(len(r.blocks))-1 {
		for b := range nodes {
			nodes[b].index = -1
		}
		fb.clock = 0
	}
	clock := fb.clock
	base := clock
	stack, call, sizes := fb.stack, fb.call, fb.sizes[:0]
	sp, cp := 0, 0
	for _, root := range r.blocks {
		if clock-base == int32(len(r.blocks)) {
			break // every block reached
		}
		if nodes[root].index >= base {
			continue
		}
		t := int32(root)
	push:
		nt := &nodes[t]
		nt.index, nt.low, nt.next = clock, clock, off[t]
		clock++
		stack[sp], call[cp] = t, t
		sp, cp = sp+1, cp+1
		for cp > 0 {
			b := call[cp-1]
			nb := &nodes[b]
			for i, end := nb.next, off[b+1]; i < end; i++ {
				t = adj[i]
				nt := &nodes[t]
				if nt.stamp != id {
					continue
				}
				if nt.index < base {
					nb.next = i + 1
					goto push
				}
				if nt.low >= 0 { // on the stack
					if nt.index < nb.low {
						nb.low = nt.index
					}
				} else {
					nt.seen = id // into a component already complete
				}
			}
			cp--
			if nb.low != nb.index {
				if p := &nodes[call[cp-1]]; nb.low < p.low {
					p.low = nb.low
				}
				continue
			}
			// b roots a component: pop it.
			if cp > 0 {
				nb.seen = id // entered by the tree edge from another component
			}
			if stack[sp-1] == b { // alone
				sp--
				nb.low = -1
				if fb.selfLoop(int(b), id) {
					nb.low = int32(-2 - len(sizes))
					sizes = append(sizes, 1)
				}
				continue
			}
			mark, top := int32(-2-len(sizes)), sp
			for {
				sp--
				x := stack[sp]
				nodes[x].low = mark
				if x == b {
					break
				}
			}
			sizes = append(sizes, top-sp)
		}
	}
	fb.clock = clock
	fb.sizes = sizes
	return len(sizes)
}

// selfLoop reports whether b, alone in its component of region id, is a
// loop: an edge from b to itself that the search follows.
func (fb *forestBuild) selfLoop(b int, id int32) bool {
	return fb.nodes[b].stamp == id && slices.Contains(fb.adj[fb.off[b]:fb.off[b+1]], int32(b))
}

// addLoops adds the k loops that components found in region r to the
// forest, the last to complete first, and queues their bodies: one pass
// over the region, in its order, lists each loop's blocks and entries in
// reverse post-order, stamps them with the loop's region, and sets the
// innermost loop of the blocks in none.
func (fb *forestBuild) addLoops(r forestRegion, k int) {
	f, nodes, id := fb.f, fb.nodes, r.id
	first := len(f.Loops)
	total := 0
	for _, s := range fb.sizes {
		total += s
	}
	all := make([]int, total)
	subs := make([][]int, k)
	// Each loop's place in all (pos: its next one), by completion, laid
	// out by loop index.
	pos := make([]int, k)
	for j, at := k-1, 0; j >= 0; j-- {
		pos[j], at = at, at+fb.sizes[j]
		subs[j] = all[pos[j]:at:at]
	}
	entries := make([][]int, k)
	// The j-th loop to complete, low -2-j, is loop first+k-1-j, whose
	// region's id is one more: stamp+low.
	stamp := int32(first + k + 2)
	for _, b := range r.blocks {
		n := &nodes[b]
		if n.low >= -1 {
			f.LoopOf[b] = r.parent // the blocks in no loop of the region; NoBlock for the graph
			continue
		}
		j := int(-2 - n.low)
		n.stamp = stamp + n.low
		all[pos[j]] = b
		pos[j]++
		if n.seen == id || b == 0 {
			entries[j] = append(entries[j], b)
		}
	}
	depth := 1
	if r.parent != NoBlock {
		depth = f.Loops[r.parent].Depth + 1
	}
	if f.Loops == nil {
		f.Loops = make([]Loop, 0, 4) // room for the usual few
	}
	for j := k - 1; j >= 0; j-- {
		li, es := len(f.Loops), entries[j]
		if r.parent != NoBlock {
			f.Loops[r.parent].Children = append(f.Loops[r.parent].Children, li)
		}
		f.Loops = append(f.Loops, Loop{
			Header: es[0], Entries: es,
			Parent: r.parent, Depth: depth, Irreducible: len(es) > 1,
		})
		for _, e := range es {
			nodes[e].stamp = -1
		}
		fb.work = append(fb.work, forestRegion{blocks: subs[j], parent: li, id: int32(li) + 1})
	}
}

// acyclic reports whether the blocks the entry reaches form no cycle: no
// edge between them goes to a block that finishes no earlier in the
// depth-first search (a retreating edge, a self-loop included). The
// forest is then empty, without searching for components.
func acyclic(g *Graph, o Order) bool {
	for _, b := range o.RPO {
		for _, t := range g.Succs[b] {
			if o.PostNum[t] >= o.PostNum[b] {
				return false
			}
		}
	}
	return true
}

// Reducible reports whether g (its reachable part) is reducible.
func Reducible(g *Graph) bool { return LoopForest(g).Reducible() }

// Analysis bundles the analyses of one graph.
type Analysis struct {
	Order     Order
	Dom       *DomTree
	PostDom   *DomTree
	Loops     *Forest
	Preds     [][]int
	Reachable []bool
}

// Analyze runs every analysis on g.
func Analyze(g *Graph) *Analysis {
	return &Analysis{
		Order:     DFSOrder(g),
		Dom:       Dominators(g),
		PostDom:   PostDominators(g),
		Loops:     LoopForest(g),
		Preds:     g.Preds(),
		Reachable: g.Reachable(),
	}
}
