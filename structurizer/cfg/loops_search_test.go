// loops_search_test.go: the reference component search for the loop
// nesting forest (Steensgaard's construction as Ramalingam frames it,
// "On Loops, Dominators, and Dominance Frontiers", TOPLAS 2002), kept in
// its plain form: each region's strongly connected components by Tarjan's
// algorithm, each loop's blocks sorted and entries found from its blocks'
// predecessors. componentForest (loops.go) must give the same forest; the
// tests of this file and loops_reducible_test.go compare them.

package cfg

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// refComponentForest fills f (whose LoopOf is all NoBlock) by the component
// search, region by region: the reference that componentForest (loops.go)
// and the reducible construction (loops_reducible.go) are tested against.
func refComponentForest(g *Graph, o Order, preds [][]int, f *Forest) *Forest {
	fb := newRefBuild(g, o, preds, f)
	for next := 0; next < len(fb.work); next++ {
		fb.search(fb.work[next])
	}
	// The search's own sorted block lists, held against the shared array
	// fillBlocks lays out, which the forest then takes.
	own := make([][]int, len(f.Loops))
	for li := range f.Loops {
		own[li] = f.Loops[li].Blocks
	}
	fillBlocks(f)
	for li := range f.Loops {
		if got := slices.Sorted(slices.Values(f.Loops[li].Blocks)); !slices.Equal(got, own[li]) {
			panic(fmt.Sprintf("loop %d: fillBlocks %v, search %v", li, got, own[li]))
		}
	}
	return f
}

// refRegion is a region the forest search looks for loops in: the
// whole graph, then each loop's blocks less its entries. Its blocks are
// only read.
type refRegion struct {
	blocks []int
	parent int // the loop it is the body of, NoBlock for the graph
	id     int
}

// refBuild is refComponentForest's state: the forest so far, the queue of
// regions to search, and every per-block field the search reads side by
// side (nodes: on large graphs one cache line then serves a block's
// visit).
type refBuild struct {
	g      *Graph
	o      Order
	preds  [][]int
	f      *Forest
	nodes  []refNode
	sc     *refSCC
	work   []refRegion
	nextID int
}

func newRefBuild(g *Graph, o Order, preds [][]int, f *Forest) *refBuild {
	nodes := make([]refNode, len(g.Succs))
	for b := range nodes {
		nodes[b] = refNode{index: -1, stamp: -1}
	}
	fb := &refBuild{g: g, o: o, preds: preds, f: f, nodes: nodes, sc: &refSCC{nodes: nodes}, nextID: 1}
	fb.work = append(make([]refRegion, 0, 8), refRegion{blocks: o.RPO, parent: NoBlock, id: 0})
	return fb
}

// search finds region r's loops (its cyclic strongly connected
// components), adds each to the forest and queues its body.
func (fb *refBuild) search(r refRegion) {
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
func (fb *refBuild) regionLoops(r refRegion) [][]int {
	follow := refSCCRegion{nodes: fb.nodes, id: int32(r.id)}
	first := fb.nextID
	var loops [][]int
	for _, c := range fb.sc.components(r.blocks, fb.g.Succs, follow) {
		if len(c) == 1 && !refSelfLoop(fb.g, c[0], follow) {
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
func (fb *refBuild) addLoop(r refRegion, id int, lists []int) {
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
	fb.work = append(fb.work, refRegion{blocks: sub, parent: li, id: id})
}

// refSCCRegion is the subgraph LoopForest searches for loops: the blocks stamped
// with its id, less the entries of loops already found (the edges into
// them are cut).
type refSCCRegion struct {
	nodes []refNode
	id    int32
}

// follow reports whether the search follows an edge to t.
func (r refSCCRegion) follow(t int) bool { n := &r.nodes[t]; return n.stamp == r.id && !n.entry }

// refNode is what LoopForestOf and its SCC search know of one block.
type refNode struct {
	index, low int32 // Tarjan's numbers; index -1 between searches
	stamp      int32 // the region the block is in, -1 for none
	onStack    bool  // on Tarjan's stack
	entry      bool  // an entry of a loop already found
}

func refSelfLoop(g *Graph, b int, r refSCCRegion) bool {
	for _, t := range g.Succs[b] {
		if t == b && r.follow(t) {
			return true
		}
	}
	return false
}

// refSCC is Tarjan's algorithm with an explicit stack, reusable across
// regions: index is -1 for every block between calls, and the stacks are
// empty (kept for their room, as are the last call's components).
type refSCC struct {
	nodes   []refNode // index, low and onStack of each block
	stack   []int
	call    []refFrame
	members []int   // the last call's components' blocks, one after another
	comps   [][]int // the last call's components
}

// refFrame is a block of the search's call stack and its next successor.
type refFrame struct{ b, i int }

// components returns the SCCs of the subgraph of blocks, following edge
// b->t only when r.follow(t). Components come out in reverse topological order
// of discovery; each lists its blocks in discovery order. The components
// are valid until the next call, which reuses their room.
func (s *refSCC) components(blocks []int, succs [][]int, r refSCCRegion) [][]int {
	if k := len(blocks); cap(s.call) < k { // the first region, every block, is the largest
		s.call, s.comps = make([]refFrame, 0, k), make([][]int, 0, k)
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
		call = append(call, refFrame{b, 0})
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

// referenceForest is the reference component search's forest of g (the
// whole LoopForest, with the component search for every cyclic graph).
func referenceForest(g *Graph) *Forest { return searchForest(g) }

// tangled is a graph laid out as a compiler lays code out, its loops
// nesting ever deeper as it grows, with one edge in a hundred blocks into
// the middle of a loop (the structurizer's "tangled" shape): each block
// branches to one or two of the next six blocks, a third of the blocks
// with one successor also branch back to a dominator a few steps up, and
// then a few blocks with one successor also branch anywhere.
func tangled(r *rand.Rand, n int) *Graph {
	g := New(n)
	entered := make([]bool, n)
	for b := 0; b+1 < n; b++ {
		k := 1 + r.IntN(20)/11
		if r.IntN(30) == 0 {
			k = 0
		}
		if !entered[b+1] {
			g.Succs[b] = append(g.Succs[b], b+1)
		}
		for tries := 0; len(g.Succs[b]) < k && tries < 8; tries++ {
			if t := b + 1 + r.IntN(min(n-b-1, 6)); !slices.Contains(g.Succs[b], t) {
				g.Succs[b] = append(g.Succs[b], t)
			}
		}
		for _, t := range g.Succs[b] {
			entered[t] = true
		}
	}
	dom := Dominators(g)
	for b := 1; b < n; b++ {
		if len(g.Succs[b]) == 1 && r.IntN(3) == 0 {
			a := b
			for k := int(r.ExpFloat64() * 3); k > 0 && dom.IDom[a] != NoBlock; k-- {
				a = dom.IDom[a]
			}
			if !slices.Contains(g.Succs[b], a) {
				g.Succs[b] = append(g.Succs[b], a)
			}
		}
	}
	for range max(1, n/100) {
		if a, b := r.IntN(n), r.IntN(n); len(g.Succs[a]) == 1 && a != b && !slices.Contains(g.Succs[a], b) {
			g.Succs[a] = append(g.Succs[a], b)
		}
	}
	return g
}

// TestComponentForestTangled compares the component search with the
// reference on tangled graphs (irreducible loops nested in one another, in
// deep nests of reducible ones) of several sizes, and on the same graphs
// with more edges into loops, most of their loops then irreducible.
func TestComponentForestTangled(t *testing.T) {
	t.Logf("seed %d (-analysis.seed to change)", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 3))
	sizes := []int{10, 30, 100, 300, 1000, 3000, 20000}
	if testing.Short() {
		sizes = sizes[:5]
	}
	irreducible := 0
	for _, n := range sizes {
		for i := range max(1, 3000/n) {
			g := tangled(r, n)
			for range r.IntN(1 + n/10) {
				a, b := r.IntN(n), r.IntN(n)
				g.Succs[a] = append(g.Succs[a], b)
			}
			want := referenceForest(g)
			if got := LoopForest(g); !reflect.DeepEqual(got, want) {
				t.Fatalf("tangled %d blocks, graph %d %v:\nforest %+v\nsearch %+v", n, i, g, got, want)
			}
			if !want.Reducible() {
				irreducible++
			}
		}
	}
	if irreducible == 0 {
		t.Fatal("no irreducible graph")
	}
}

// TestComponentForestClockWraps runs the component search with Tarjan's
// numbers starting next to their limit, so that it starts them again from
// zero between regions, and compares the forest with the reference.
func TestComponentForestClockWraps(t *testing.T) {
	t.Logf("seed %d (-analysis.seed to change)", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 4))
	for i := range 200 {
		g := tangled(r, 20+r.IntN(300))
		for range 1 + r.IntN(10) {
			a, b := r.IntN(g.Len()), r.IntN(g.Len())
			g.Succs[a] = append(g.Succs[a], b)
		}
		want := referenceForest(g)
		o := DFSOrder(g)
		if acyclic(g, o) {
			continue
		}
		f := &Forest{LoopOf: make([]int, g.Len())}
		for b := range f.LoopOf {
			f.LoopOf[b] = NoBlock
		}
		preds := g.Preds()
		fb := newForestBuild(g, o, preds, f)
		fb.clock = 1<<31 - 1 - int32(r.IntN(2*g.Len()))
		fb.build(o, preds)
		if !reflect.DeepEqual(f, want) {
			t.Fatalf("graph %d %v:\nforest %+v\nsearch %+v", i, g, f, want)
		}
	}
}
