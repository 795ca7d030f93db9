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
// loops_reducible.go, in near-linear time, the same forest.

package cfg

import "slices"

// Loop is one loop of the nesting forest.
type Loop struct {
	Header      int   // the entry first in reverse post-order
	Entries     []int // every block entered from outside the loop, in RPO order
	Blocks      []int // all blocks of the loop, nested loops included, sorted
	Parent      int   // enclosing loop index, or NoBlock
	Children    []int // nested loop indices
	Depth       int   // 1 for outermost loops
	Irreducible bool  // more than one entry
}

// Forest is the loop nesting forest of a graph.
type Forest struct {
	Loops []Loop
	// LoopOf[b] is the innermost loop containing b, or NoBlock.
	LoopOf []int
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

// Contains reports whether loop l contains block b (at any depth): the
// walk up from b's innermost loop stops at l's depth, so it costs the
// depths between them, not b's whole nesting.
func (f *Forest) Contains(l, b int) bool {
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
// search, region by region: what LoopForestOf runs on an irreducible graph,
// and the reference that the reducible construction (loops_reducible.go)
// is tested against.
func componentForest(g *Graph, o Order, preds [][]int, f *Forest) *Forest {
	fb := newForestBuild(g, o, preds, f)
	for next := 0; next < len(fb.work); next++ {
		fb.search(fb.work[next])
	}
	return f
}

// forestRegion is a region the forest search looks for loops in: the
// whole graph, then each loop's blocks less its entries. Its blocks are
// only read.
type forestRegion struct {
	blocks []int
	parent int // the loop it is the body of, NoBlock for the graph
	id     int
}

// forestBuild is LoopForestOf's state: the forest so far, the queue of
// regions to search, and every per-block field the search reads side by
// side (nodes: on large graphs one cache line then serves a block's
// visit).
type forestBuild struct {
	g      *Graph
	o      Order
	preds  [][]int
	f      *Forest
	nodes  []forestNode
	sc     *sccFinder
	work   []forestRegion
	nextID int
}

func newForestBuild(g *Graph, o Order, preds [][]int, f *Forest) *forestBuild {
	nodes := make([]forestNode, len(g.Succs))
	for b := range nodes {
		nodes[b] = forestNode{index: -1, stamp: -1}
	}
	fb := &forestBuild{g: g, o: o, preds: preds, f: f, nodes: nodes, sc: &sccFinder{nodes: nodes}, nextID: 1}
	fb.work = append(make([]forestRegion, 0, 8), forestRegion{blocks: o.RPO, parent: NoBlock, id: 0})
	return fb
}

// search finds region r's loops (its cyclic strongly connected
// components), adds each to the forest and queues its body.
func (fb *forestBuild) search(r forestRegion) {
	for _, b := range r.blocks {
		fb.nodes[b].stamp = int32(r.id)
	}
	first := fb.nextID
	for j, lists := range fb.regionLoops(r) {
		fb.addLoop(r, first+j, lists)
	}
	// Restore stamps of blocks not in any loop of this region.
	for _, b := range r.blocks {
		if fb.nodes[b].stamp == int32(r.id) {
			fb.nodes[b].stamp = -1
		}
	}
}

// regionLoops lists region r's loops, each stamped with the id of the
// region it becomes (from nextID on), its blocks in the region's order
// (reverse post-order) by one pass over the region: no sort per loop,
// whose cost would grow with the nesting depth. Each list has room for
// the loop's blocks twice more (addLoop's sorted copy and its entries).
func (fb *forestBuild) regionLoops(r forestRegion) [][]int {
	follow := sccRegion{nodes: fb.nodes, id: int32(r.id)}
	first := fb.nextID
	var loops [][]int
	for _, c := range fb.sc.components(r.blocks, fb.g.Succs, follow) {
		if len(c) == 1 && !selfLoop(fb.g, c[0], follow) {
			continue
		}
		for _, b := range c {
			fb.nodes[b].stamp = int32(fb.nextID)
		}
		loops = append(loops, make([]int, 0, 3*len(c)))
		fb.nextID++
	}
	for _, b := range r.blocks {
		if j := int(fb.nodes[b].stamp) - first; j >= 0 {
			loops[j] = append(loops[j], b)
		}
	}
	return loops
}

// addLoop adds the loop of region r stamped id, whose blocks in reverse
// post-order are lists (with room for two more lists as long), to the
// forest, and queues its body as a region of its own.
func (fb *forestBuild) addLoop(r forestRegion, id int, lists []int) {
	f, nodes := fb.f, fb.nodes
	li := len(f.Loops)
	k := len(lists)
	sub, blocks, entries := lists[:k:k], lists[k:2*k:2*k], lists[2*k:2*k:3*k]
	for _, b := range sub {
		isEntry := b == 0
		for _, p := range fb.preds[b] {
			if fb.o.RPONum[p] != NoBlock && nodes[p].stamp != int32(id) {
				isEntry = true
				break
			}
		}
		if isEntry {
			entries = append(entries, b) // in reverse post-order, as sub
		}
	}
	copy(blocks, sub)
	if !slices.IsSorted(blocks) {
		slices.Sort(blocks)
	}
	depth := 1
	if r.parent != NoBlock {
		depth = f.Loops[r.parent].Depth + 1
		f.Loops[r.parent].Children = append(f.Loops[r.parent].Children, li)
	}
	if f.Loops == nil {
		f.Loops = make([]Loop, 0, 4) // room for the usual few
	}
	f.Loops = append(f.Loops, Loop{
		Header: entries[0], Entries: entries, Blocks: blocks,
		Parent: r.parent, Depth: depth, Irreducible: len(entries) > 1,
	})
	for _, b := range sub {
		f.LoopOf[b] = li
	}
	for _, e := range entries {
		nodes[e].entry = true
	}
	fb.work = append(fb.work, forestRegion{blocks: sub, parent: li, id: id})
}

// sccRegion is the subgraph LoopForest searches for loops: the blocks stamped
// with its id, less the entries of loops already found (the edges into
// them are cut).
type sccRegion struct {
	nodes []forestNode
	id    int32
}

// follow reports whether the search follows an edge to t.
func (r sccRegion) follow(t int) bool { n := &r.nodes[t]; return n.stamp == r.id && !n.entry }

// forestNode is what LoopForestOf and its SCC search know of one block.
type forestNode struct {
	index, low int32 // Tarjan's numbers; index -1 between searches
	stamp      int32 // the region the block is in, -1 for none
	onStack    bool  // on Tarjan's stack
	entry      bool  // an entry of a loop already found
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

func selfLoop(g *Graph, b int, r sccRegion) bool {
	for _, t := range g.Succs[b] {
		if t == b && r.follow(t) {
			return true
		}
	}
	return false
}

// sccFinder is Tarjan's algorithm with an explicit stack, reusable across
// regions: index is -1 for every block between calls, and the stacks are
// empty (kept for their room, as are the last call's components).
type sccFinder struct {
	nodes   []forestNode // index, low and onStack of each block
	stack   []int
	call    []sccFrame
	members []int   // the last call's components' blocks, one after another
	comps   [][]int // the last call's components
}

// sccFrame is a block of the search's call stack and its next successor.
type sccFrame struct{ b, i int }

// components returns the SCCs of the subgraph of blocks, following edge
// b->t only when r.follow(t). Components come out in reverse topological order
// of discovery; each lists its blocks in discovery order. The components
// are valid until the next call, which reuses their room.
func (s *sccFinder) components(blocks []int, succs [][]int, r sccRegion) [][]int {
	if k := len(blocks); cap(s.call) < k { // the first region, every block, is the largest
		s.call, s.comps = make([]sccFrame, 0, k), make([][]int, 0, k)
		s.stack, s.members = make([]int, 0, k), make([]int, 0, k)
	}
	nodes := s.nodes
	comps, members := s.comps[:0], s.members[:0]
	stack, call := s.stack[:0], s.call[:0]
	clock := int32(0)
	push := func(b int) {
		nodes[b].index, nodes[b].low, nodes[b].onStack = clock, clock, true
		clock++
		stack = append(stack, b)
		call = append(call, sccFrame{b, 0})
	}
	for _, root := range blocks {
		if nodes[root].index >= 0 {
			continue
		}
		push(root)
		for len(call) > 0 {
			top := &call[len(call)-1]
			b := top.b
			if top.i < len(succs[b]) {
				t := succs[b][top.i]
				top.i++
				if !r.follow(t) {
					continue
				}
				if nt := &nodes[t]; nt.index < 0 {
					push(t)
				} else if nt.onStack && nt.index < nodes[b].low {
					nodes[b].low = nt.index
				}
				continue
			}
			call = call[:len(call)-1]
			nb := &nodes[b]
			if len(call) > 0 {
				if p := &nodes[call[len(call)-1].b]; nb.low < p.low {
					p.low = nb.low
				}
			}
			if nb.low == nb.index {
				start := len(members)
				for {
					x := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					nodes[x].onStack = false
					members = append(members, x)
					if x == b {
						break
					}
				}
				comps = append(comps, members[start:len(members):len(members)])
			}
		}
	}
	// Reset for the next region.
	for _, b := range blocks {
		nodes[b].index = -1
	}
	s.stack, s.call, s.members, s.comps = stack[:0], call[:0], members, comps
	// Tarjan emits sinks first; reverse so outer-first (topological) order
	// follows the region's RPO.
	slices.Reverse(comps)
	return comps
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
