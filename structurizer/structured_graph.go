// structured_graph.go: the working graph of the structured strategy. It is
// the input graph plus the synthetic nodes the passes add (entry, selector
// headers, loop headers, latches, loop merges, route stores, clones), with
// the route variables they use. Every pass rewrites it; the emitter lays it
// out as a Func.
//
// Route values are node ids plus one (valueOf), so a value names the node a
// routed edge is going to and 0 means "nothing routed" (the cleared state).
// Two variables: "route" carries loop exits to the loop's merge and skips
// past joins to their target join, "select" carries the entry of a
// multi-entry cycle to its selector header (stored on every entry edge).
// The route is 0 except while a value is on its way: every loop header
// clears it, and so does every block a value ends at (a skip's join, a
// loop merge's destination); a loop merge that goes on to a join passes its
// value on unchanged, so the skip needs no store of its own.
//
// A loop lists its exit destinations in routing order with their store
// nodes beside them (wloop.stores), and finds a destination's index by a
// scan of the list, or through a map once the list is longer than
// destScan (destIndex): most loops leave for a few blocks, and a map per
// loop costs an allocation and hashing on every routed edge.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// wkind says what a working node stands for.
type wkind uint8

const (
	wPlain      wkind = iota // an original block, a clone, or a synthetic router/store
	wLoopHeader              // synthetic loop header H_L: LoopMerge(M_L, C_L), branch to the body entry
	wLatch                   // synthetic latch C_L: the loop's only continue target and back-edge block
	wLoopMerge               // synthetic loop merge M_L: branch, route or unreachable to the exits
)

// wnode is one node of the working graph. A synthetic node with two or more
// successors routes on variable rvar: succs[0] is the default, succs[i+1] is
// taken when the variable holds values[i].
//
// A node is 128 bytes, two cache lines. The fields a walk of the graph
// reads at every node (succs, kind, loop, orig) come first, in the first
// line, so that a walk in an order that jumps across the nodes (the
// selections pass's levels, in depth-first order) reads one line a node;
// the two one-byte fields share a word.
type wnode struct {
	succs  []int
	orig   int // original id; -1 for synthetic nodes
	loop   int // for loop headers, latches and merges: the loop's index in work.loops
	weight int
	kind   wkind
	clone  bool
	rvar   int
	values []uint32
	stores []Store
	name   string
}

func (n *wnode) synthetic() bool { return n.orig < 0 }

// wloop is one loop after the loops pass: its three synthetic nodes, the
// body entry (the original header) and the nesting.
type wloop struct {
	H, C, M int // header, latch, merge nodes
	entry   int // the body's first node (the loop's header in the input)
	parent  int // enclosing loop index or -1 (function level)
	dests   []int
	// destAt maps a destination to its index in dests once the loop has
	// more than destScan of them (destIndex); nil before: most loops
	// leave for a few blocks, which a scan of dests finds sooner than a
	// map, and a map per loop costs an allocation.
	destAt  map[int]int
	exit    int   // the only exit destination, -1 for several or none
	reusedM bool  // M is that destination itself
	stores  []int // by index in dests: the node storing it before M, -1 until made (exitStore)
}

// destScan is the most destinations a loop finds by scanning dests.
const destScan = 8

// destIndex is d's index in l.dests, or -1.
func (l *wloop) destIndex(d int) int {
	if l.destAt != nil {
		if i, ok := l.destAt[d]; ok {
			return i
		}
		return -1
	}
	for i, x := range l.dests {
		if x == d {
			return i
		}
	}
	return -1
}

// addDest appends d to l.dests (d not among them), with no store node
// yet, indexing the destinations in destAt past destScan.
func (l *wloop) addDest(d int) {
	l.dests = append(l.dests, d)
	l.stores = append(l.stores, -1)
	switch {
	case l.destAt != nil:
		l.destAt[d] = len(l.dests) - 1
	case len(l.dests) > destScan:
		l.destAt = make(map[int]int, 2*len(l.dests))
		for i, x := range l.dests {
			l.destAt[x] = i
		}
	}
}

// work is the working graph with its variables and the structure found so
// far.
type work struct {
	nodes    []wnode
	vars     []Var
	routeVar int // index in vars, -1 until used
	selVar   int // selector variable of irreducible headers, -1 until used
	loops    []wloop
	// spans, while set, is the preorder interval of each loop in the tree
	// of the loops' parents (loopSpans), which inLoop then tests instead
	// of walking up the parents; every change of a parent clears it.
	spans    *loopSpans
	level    []int // per node: innermost loop whose body holds it, -1 for the function level (after the loops pass)
	budget   int   // clone words left
	cloneMax int   // largest weight of a block worth cloning instead of routing
	opt      Options
	clones   int
	notes    []string
	// succRoom and storeRoom are the free ends of the arrays that the
	// synthetic nodes' successor and store lists are carved from (list,
	// storeList): one allocation for many nodes instead of one each.
	succRoom  []int
	storeRoom []Store

	// input holds the input graph's facts (the nested search's), nil when
	// not given; the irreducible pass's first round shifts them instead of
	// analysing the working graph (entryForest).
	input *graphFacts
	// forest and order are the working graph's loop forest and depth-first
	// orders as the irreducible pass last found them (reducible); the loops
	// pass, which runs next on the same graph, reads them.
	forest *cfg.Forest
	order  cfg.Order
}

// newWork copies g into a working graph whose node 0 is a synthetic entry
// branching to block 0 (node 1), so no branch ever targets the entry; input
// block b is node b+1.
func newWork(g *cfg.Graph, opt Options) *work {
	n := g.Len()
	w := &work{routeVar: -1, selVar: -1, opt: opt}
	w.nodes = make([]wnode, n+1, workCap(n))
	w.nodes[0] = wnode{orig: -1, succs: []int{1}, name: "entry", loop: -1}
	edges := 0
	for b := range n {
		edges += len(g.Succs[b])
	}
	all := make([]int, edges) // every node's list, each capped at its length
	for b := range n {
		k := len(g.Succs[b])
		s := all[:k:k]
		all = all[k:]
		for i, t := range g.Succs[b] {
			s[i] = t + 1
		}
		w.nodes[b+1] = wnode{orig: b, weight: g.Weight(b), succs: s, name: g.Name(b), loop: -1}
	}
	w.budget = opt.CloneBudget
	if w.budget == 0 {
		w.budget = DefaultCloneBudget
	}
	w.cloneMax = CloneMaxWeight
	return w
}

// workCap is the room newWork makes for the nodes of a graph of n
// blocks: the passes add up to about one node per block (on the scale
// benchmarks' shapes at 1k to 100k blocks: 0.34 to 0.37 for program and
// nests, 0.45 to 0.60 for local and tangled, 0.75 to 1.0 for random), and
// every growth of the array past its room copies all of it, 128 bytes a
// node.
func workCap(n int) int { return 2*n + n/8 + 8 }

// wEntry is the synthetic function entry node.
const wEntry = 0

func (w *work) add(n wnode) int {
	w.nodes = append(w.nodes, n)
	return len(w.nodes) - 1
}

// syn adds a synthetic node branching to succs (copied: list).
func (w *work) syn(name string, succs ...int) int {
	return w.add(wnode{orig: -1, succs: w.list(succs...), name: name, loop: -1})
}

// roomChunk is the least room that list and storeList allocate at once.
const roomChunk = 256

// list returns a copy of vals carved from the working graph's room, capped
// at its length, so that appending to it copies it and leaves its
// neighbours be; nil for none.
func (w *work) list(vals ...int) []int { return carve(&w.succRoom, vals) }

// storeList is list for a node's stores.
func (w *work) storeList(st ...Store) []Store { return carve(&w.storeRoom, st) }

// carve copies vals into the front of *room, capped at its length, and
// moves *room past it, making room of at least roomChunk when it runs
// short; nil for none.
func carve[T any](room *[]T, vals []T) []T {
	k := len(vals)
	if k == 0 {
		return nil
	}
	if len(*room) < k {
		*room = make([]T, max(k, roomChunk))
	}
	s := (*room)[:k:k]
	*room = (*room)[k:]
	copy(s, vals)
	return s
}

// valueOf is the route value naming node t.
func valueOf(t int) uint32 { return uint32(t) + 1 }

func (w *work) variable(slot *int, name string) int {
	if *slot < 0 {
		*slot = len(w.vars)
		w.vars = append(w.vars, Var{Name: name})
	}
	return *slot
}

func (w *work) route() int   { return w.variable(&w.routeVar, "route") }
func (w *work) select_() int { return w.variable(&w.selVar, "select") }

// graph is the working graph as a cfg.Graph (for the analyses of package
// cfg). Latches keep no successor here: the loops pass has already placed
// them.
func (w *work) graph() *cfg.Graph {
	g := &cfg.Graph{Succs: make([][]int, len(w.nodes))} // no weights: only analysed
	for i := range w.nodes {
		g.Succs[i] = w.nodes[i].succs
	}
	return g
}

// checkWork is the invariant checker run between passes (Options.CheckPasses):
// successors in range, the entry never a branch target, routes consistent.
func (w *work) checkWork() error {
	for i := range w.nodes {
		n := &w.nodes[i]
		for _, t := range n.succs {
			if t < 0 || t >= len(w.nodes) {
				return fmt.Errorf("node %d: successor %d out of range", i, t)
			}
			if t == wEntry {
				return fmt.Errorf("node %d branches to the entry", i)
			}
		}
		if n.synthetic() && len(n.succs) >= 2 && len(n.values) != len(n.succs)-1 {
			return fmt.Errorf("node %d: route with %d successors and %d values", i, len(n.succs), len(n.values))
		}
	}
	return nil
}

// inLoop reports whether level lv lies in loop l (l itself or nested in it):
// a range test while the loops' spans are set, else a walk up from lv.
func (w *work) inLoop(l, lv int) bool {
	if w.spans != nil {
		if l < 0 || lv < 0 {
			return false
		}
		p := w.spans.pre[lv]
		return w.spans.pre[l] <= p && p <= w.spans.last[l]
	}
	for ; lv >= 0; lv = w.loops[lv].parent {
		if lv == l {
			return true
		}
	}
	return false
}

// loopSpans numbers the loops in a preorder of the tree their parents
// make: loop a holds loop b exactly when pre[a] <= pre[b] <= last[a].
type loopSpans struct {
	pre, last []int32
}

// spanLoops sets the loops' spans for inLoop (newLoopSpans). The spans
// hold until a parent changes (setParentOf).
func (w *work) spanLoops() { w.spans = newLoopSpans(w.loops) }

// newLoopSpans numbers loops in a preorder of the tree their parents
// make, in time linear in the number of loops: inLoop's walk costs the
// nesting depth, which a nest as deep as the graph is long makes
// quadratic.
func newLoopSpans(loops []wloop) *loopSpans {
	n := len(loops)
	sp := &loopSpans{pre: make([]int32, n), last: make([]int32, n)}
	first := make([]int32, n+2) // children of loop x (root: -1 at 0) from first[x+1]
	for li := range loops {
		first[loops[li].parent+2]++
	}
	for i := 1; i < len(first); i++ {
		first[i] += first[i-1]
	}
	kids := make([]int32, n)
	at := slices.Clone(first)
	for li := range loops {
		p := loops[li].parent + 1
		kids[at[p]] = int32(li)
		at[p]++
	}
	// An iterative depth-first walk: a frame is a loop (root -1) and its
	// next child's place in kids.
	type frame struct{ l, next int32 }
	stack := []frame{{-1, first[0]}}
	var num int32
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < first[top.l+2] {
			c := kids[top.next]
			top.next++
			sp.pre[c] = num
			num++
			stack = append(stack, frame{c, first[c+1]})
			continue
		}
		if top.l >= 0 {
			sp.last[top.l] = num - 1
		}
		stack = stack[:len(stack)-1]
	}
	return sp
}

// setParentOf sets loop x's parent to p and clears the loops' spans.
func (w *work) setParentOf(x, p int) {
	w.loops[x].parent = p
	w.spans = nil
}

// slotIndex finds a switch's repeated cases: for slot i of a list of n
// slots, the first earlier slot with the same key (its target, and what
// else a pass tells cases apart by), or -1. A pass gives such a slot the
// earlier slot's store, clone or forwarder, so a jump table's layout grows
// by a block per target, not per case. Lists of up to 64 slots are
// scanned; a longer one is indexed, so slots must be asked in order 0, 1,
// 2, ... of one list.
type slotIndex struct {
	first map[uint64]int // long lists: key -> first slot
}

func (s *slotIndex) repeat(n, i int, key func(slot int) uint64) int {
	k := key(i)
	if n <= 64 {
		for j := range i {
			if key(j) == k {
				return j
			}
		}
		return -1
	}
	if s.first == nil {
		s.first = make(map[uint64]int, n)
	}
	if j, ok := s.first[k]; ok {
		return j
	}
	s.first[k] = i
	return -1
}
