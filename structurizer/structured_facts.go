// structured_facts.go: the analyses of the input graph that the structured
// strategy computes once and every stage reads: depth-first orders,
// predecessors, the loop nesting forest, a depth-first preorder, and, on
// first use, the post-dominator tree and the dominator tree laid out for
// the nested pass's tail test (tailIndex, whose use structured_tails.go
// explains) and each loop's exits (loopExits); and the nested pass's
// measured regions (regionMemo), kept here so that every run over the
// graph shares them. The analyses do not change once computed; the memo
// only grows.

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// graphFacts are a graph's analyses that every run of a search over it
// reads and none changes: depth-first orders, predecessors, loop forest,
// the nester's preorder and, once a run reaches the selections, the
// post-dominators (computed once per graph rather than once per run; runs
// are sequential, so the lazy post-dominators need no lock).
type graphFacts struct {
	order   cfg.Order
	preds   [][]int
	forest  *cfg.Forest
	pre     []int
	pdom    *cfg.DomTree  // nil until postDominators
	tails   *tailIndex    // nil until tailIndex (structured_tails.go)
	regions *regionMemo   // the nested pass's measured regions (structured_nested_regions.go); nil until used
	exits   *loopExitMemo // the loops' exits (loopExits); nil until used
}

func factsOf(g *cfg.Graph) *graphFacts {
	o, preds := cfg.DFSOrder(g), g.Preds()
	return &graphFacts{order: o, preds: preds, forest: cfg.LoopForestOf(g, o, preds), pre: preorder(g)}
}

// postDominators returns g's post-dominator tree, computed on first use.
func (fa *graphFacts) postDominators(g *cfg.Graph) *cfg.DomTree {
	if fa.pdom == nil {
		fa.pdom = cfg.PostDominators(g)
	}
	return fa.pdom
}

// loopExitMemo is what loopExits computed: the lists, and whether they
// stayed within the budget.
type loopExitMemo struct {
	of [][]loopExit
	ok bool
}

// loopExits returns each loop's exits (loopExitTargets within exitBudget),
// computed on first use: they depend on g and its loop forest alone, so
// every run of the nested search on g reads the same lists, which no run
// writes.
func (fa *graphFacts) loopExits(g *cfg.Graph) ([][]loopExit, bool) {
	if fa.exits == nil {
		of, ok := loopExitTargets(g, fa.forest, exitBudget(g.Len(), g.Edges()))
		fa.exits = &loopExitMemo{of: of, ok: ok}
	}
	return fa.exits.of, fa.exits.ok
}

// loopExit is a block outside a loop that the loop's blocks branch to,
// and how many of their edges go to it.
type loopExit struct{ to, n int32 }

// loopExitTargets lists each loop's exits: the targets of the edges out of
// its own blocks (the first of its Blocks, cfg.Forest), then those of its
// children's exits that leave it too, each once with its count of edges,
// children before parents. The lists take as much as the loops' distinct
// exits, not the sum of the loops' sizes, which grows with the nesting
// depth; false when they would hold more than budget exits together.
func loopExitTargets(g *cfg.Graph, f *cfg.Forest, budget int) ([][]loopExit, bool) {
	out := make([][]loopExit, len(f.Loops))
	stamp := make([]int32, g.Len()) // by block: 1 + the loop whose list holds it
	at := make([]int32, g.Len())    // by block: its place in that list
	total := 0
	// room holds the lists one after another, each capped at its length
	// once done: one growing array in place of an allocation per loop (a
	// list done keeps the array it was made in when room moves).
	var room []loopExit
	for li := len(f.Loops) - 1; li >= 0; li-- {
		l := &f.Loops[li]
		start := len(room)
		add := func(t int, n int32) {
			if stamp[t] == int32(li+1) {
				room[start+int(at[t])].n += n
				return
			}
			stamp[t], at[t] = int32(li+1), int32(len(room)-start)
			room = append(room, loopExit{int32(t), n})
		}
		own := len(l.Blocks)
		for _, c := range l.Children {
			own -= len(f.Loops[c].Blocks)
		}
		for _, b := range l.Blocks[:own] {
			for _, t := range g.Succs[b] {
				if !f.Contains(li, t) {
					add(t, 1)
				}
			}
		}
		for _, c := range l.Children {
			for _, e := range out[c] {
				if !f.Contains(li, int(e.to)) {
					add(int(e.to), e.n)
				}
			}
		}
		if total += len(room) - start; total > budget {
			return nil, false
		}
		if len(room) > start {
			out[li] = room[start:len(room):len(room)]
		}
	}
	return out, true
}

// preorder numbers g's blocks in depth-first preorder over successor
// order from block 0 (-1: unreached).
func preorder(g *cfg.Graph) []int {
	pre := filled(g.Len(), -1)
	clock := 0
	stack := make([]int, 1, g.Len()+1)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if pre[b] >= 0 {
			continue
		}
		pre[b] = clock
		clock++
		s := g.Succs[b]
		for i := len(s) - 1; i >= 0; i-- {
			if pre[s[i]] < 0 {
				stack = append(stack, s[i])
			}
		}
	}
	return pre
}

// tailIndex is a graph's dominator tree laid out for the tail test: blocks
// in preorder (byPre), each block's preorder number, subtree size and
// depth, and leaving[x], the number of edges from x's subtree to blocks
// outside it.
type tailIndex struct {
	usable  bool
	entered bool // block 0 has predecessors
	idom    []int
	pre     []int
	size    []int
	depth   []int
	byPre   []int
	leaving []int
}

// newTailIndex builds g's tail index from its dominator tree.
func newTailIndex(g *cfg.Graph, facts *graphFacts) *tailIndex {
	n := g.Len()
	ti := &tailIndex{usable: n > 0, entered: n > 0 && len(facts.preds[0]) > 0}
	if !ti.usable {
		return ti
	}
	ti.idom = cfg.ImmediateDominators(g)
	ints := make([]int, 5*n)
	ti.pre, ti.size, ti.depth, ti.byPre, ti.leaving = ints[:n:n], ints[n:2*n:2*n], ints[2*n:3*n:3*n], ints[3*n:4*n:4*n], ints[4*n:]
	kids := treeKids(ti.idom)
	clock := 0
	stack := []int{0}
	for len(stack) > 0 { // preorder, children in block order
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ti.pre[b], ti.byPre[clock] = clock, b
		clock++
		k := kids.of(b)
		for i := len(k) - 1; i >= 0; i-- {
			ti.depth[k[i]] = ti.depth[b] + 1
			stack = append(stack, k[i])
		}
	}
	if clock != n {
		ti.usable = false // an unreachable block
		return ti
	}
	for i := n - 1; i >= 0; i-- { // subtree sizes, bottom-up
		b := ti.byPre[i]
		ti.size[b]++
		if d := ti.idom[b]; d >= 0 {
			ti.size[d] += ti.size[b]
		}
	}
	for p := range n { // +1 at each edge's source, -1 at its nearest common dominator
		for _, t := range g.Succs[p] {
			ti.leaving[p]++
			if ti.dominates(t, p) {
				ti.leaving[t]--
			} else {
				ti.leaving[ti.idom[t]]--
			}
		}
	}
	for i := n - 1; i > 0; i-- {
		b := ti.byPre[i]
		ti.leaving[ti.idom[b]] += ti.leaving[b]
	}
	return ti
}

// dominates reports whether a dominates b (reflexive).
func (ti *tailIndex) dominates(a, b int) bool {
	return ti.pre[a] <= ti.pre[b] && ti.pre[b] < ti.pre[a]+ti.size[a]
}

// tailIndex returns g's tail index, built on first use.
func (fa *graphFacts) tailIndex(g *cfg.Graph) *tailIndex {
	if fa.tails == nil {
		fa.tails = newTailIndex(g, fa)
	}
	return fa.tails
}

// filled is n ints, each v.
func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// regionFacts is a region measured by regionOf: whether it closes, its
// size, the edges into its blocks (the header's included), and the stops
// its edges reach, with how many edges go to each.
type regionFacts struct {
	h      int   // the header
	exits  []int // the exits it was measured with
	merge  int   // the merge it was measured at (h's immediate post-dominator)
	closes bool
	size   int
	in     int // edges into the region's blocks, header included
	leaves []regionExit
	// escape is a block h does not dominate that the walk reached from
	// h without passing the merge or an exit (so the region does not
	// close), -1 when the walk found none.
	escape int
}

// regionExit is a block a region's edges leave for and how many do.
type regionExit struct{ to, edges int }

// regionMemo keeps the regions regionOf measured over one graph g, by
// header, with what measuring them reads: g's post-dominators and its
// tail index's dominator tree.
type regionMemo struct {
	g      *cfg.Graph
	pdom   *cfg.DomTree
	ti     *tailIndex
	facts  [][]*regionFacts // by header, one for each set of exits it was measured under
	indeg  []int            // edges into each block
	usable bool             // the graph's dominator tree covers every block
	// mark[b] is the id of the walk that last reached b. A walk inside
	// another marks only blocks its header dominates, which the outer
	// walk has not reached (its header dominates neither the outer's nor
	// what the outer reached before it), and its header, which the outer
	// marks again once it is done; so one array serves every walk of the
	// recursion.
	mark  []int32
	walks int32
	// reached counts the edges the walks followed (reach): the work the
	// memo saves, which the tests bound.
	reached int
}

// exitBudget bounds the exit lists of all loops of a graph together
// (loopExitTargets, the loops pass's exitEdges): a loop holds its nested
// loops' exits that leave it too, so a nest whose inner blocks branch out
// of every loop has lists quadratic in its size. Past the budget, 32 a
// block and edge plus 2^26 (a gigabyte of the loops pass's 16-byte
// entries), the graph is refused rather than let the lists exhaust
// memory.
func exitBudget(blocks, edges int) int {
	return 32*(blocks+edges) + 1<<26
}
