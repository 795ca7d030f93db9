// structured_levels.go: the analysis the selections pass lays each level
// out by. After the loops pass every level (a loop body, or the function)
// is acyclic with one entry; for each, the reverse post-order, the
// dominator tree (one pass in reverse post-order, as in Cooper, Harvey and
// Kennedy's "A Simple, Fast Dominance Algorithm", which needs no iteration
// on an acyclic graph), the distinct predecessor counts, which dominator
// subtrees an edge leaves (flows), and the arms of each branching node
// (isArm: a child entered once, not a loop header it branches to twice).

package structurizer

import (
	"fmt"
	"slices"
)

// levels holds the per-level analyses (each node belongs to one level).
type levels struct {
	rpo  []int // RPO number within the node's level, -1 if unreached
	idom []int
	in   []int // distinct predecessors in the level (a switch's cases to one block count once)
	kids [][]int
	// flows[x]: some level edge leaves x's dominator subtree (to a join of
	// an ancestor), so x's subtree can end by going on after it.
	flows []bool
	w     *work
	twice map[[2]int]bool // twiceToLoop's pairs
	entry int             // the function level's entry node (functionEntry)
}

// appendLevelSuccs appends node x's successors in its level's acyclic
// graph to buf: a child loop's header is followed by the child's merge;
// the level's own latch and merge are sinks and left out.
func appendLevelSuccs(w *work, x int, buf []int) []int {
	n := &w.nodes[x]
	switch n.kind {
	case wLoopHeader:
		return append(buf, w.loops[n.loop].M)
	case wLatch:
		return buf
	}
	lv := w.level[x]
	for _, t := range n.succs {
		if lv >= 0 && (t == w.loops[lv].C || t == w.loops[lv].M) {
			continue
		}
		buf = append(buf, t)
	}
	return buf
}

// newLevels computes, for every level of w, the reverse post-order from the
// level's entry, the dominator tree (one pass in RPO: the level is acyclic)
// and the incoming edge counts: levelWalk's steps, one level after another.
func newLevels(w *work) *levels {
	lw := newLevelWalk(w)
	for _, root := range lw.entries {
		lw.postOrder(root)
		lw.number()
		lw.fillPreds()
		lw.dominators(root)
		lw.fillKids(root)
	}
	lw.lv.findFlows(w, lw.entries, lw.succ)
	lw.lv.w, lw.lv.entry = w, lw.entries[0]
	return lw.lv
}

// levelWalk is newLevels' state. Each node is one node's kid at most: the
// kid lists are carved from one array (kidRoom), a list getting room for
// its level's kids when first filled; likewise the predecessor lists, from
// room for every level edge (predRoom): node x's are the lv.in[x] ints
// from predAt[x], an int32 a node where a slice header takes 24 bytes.
// Every node's level successors are listed once, in one sweep of the
// nodes in order (listSuccs), into one arena, where the steps read them:
// at[2x] and at[2x+1] bound x's. The depth-first walk then reads the
// arena, about a sixth of the nodes' size, instead of the nodes in the
// order it reaches them, which jumps across them: a function of 100k
// blocks has nodes larger than the last-level cache.
type levelWalk struct {
	w       *work
	lv      *levels
	entries []int // the function's entry, then each loop's body entry

	kidRoom, kidCount, predCount, predRoom []int
	predAt                                 []int32
	predNext                               int // predRoom's first int not yet carved

	post  []int // the current level's post-order
	state []uint8
	stack []levelFrame
	arena []int
	at    []int32
}

// levelFrame is a node on the depth-first walk's stack and the index of
// its next successor to enter (its successors are in the arena: succ).
type levelFrame struct {
	b, i int32
}

// newLevelWalk allocates the walk's arrays: rpo, idom, in, the kid lists'
// room, the counts, the post-order and the predecessor lists' room in one;
// and lists every node's level successors and twiceToLoop's pairs
// (listSuccs).
func newLevelWalk(w *work) *levelWalk {
	n := len(w.nodes)
	sl := listSuccs(w)
	room := len(sl.arena)
	ints := make([]int, 7*n+room)
	lv := &levels{rpo: ints[:n:n], idom: ints[n : 2*n : 2*n], in: ints[2*n : 3*n : 3*n], kids: make([][]int, n), twice: sl.twice}
	for i := range lv.rpo {
		lv.rpo[i], lv.idom[i] = -1, -1
	}
	lw := &levelWalk{w: w, lv: lv,
		kidRoom: ints[3*n : 4*n : 4*n], kidCount: ints[4*n : 5*n : 5*n], predCount: ints[5*n : 6*n : 6*n],
		post: ints[6*n : 6*n : 7*n], predRoom: ints[7*n:],
		predAt: make([]int32, n), state: make([]uint8, n), stack: make([]levelFrame, 0, n),
		arena: sl.arena, at: sl.at}
	lw.entries = make([]int, 1, 1+len(w.loops))
	lw.entries[0] = functionEntry(w.nodes, sl.entered)
	for _, l := range w.loops {
		lw.entries = append(lw.entries, l.entry)
	}
	return lw
}

// successorLists is what listSuccs' sweep gathers: every node's level
// successors in one arena (at[2x] and at[2x+1] bound node x's),
// twiceToLoop's pairs, and whether a node other than the synthetic entry
// branches to block 0's node (functionEntry's entered).
type successorLists struct {
	arena   []int
	at      []int32
	twice   map[[2]int]bool
	entered bool
}

// listSuccs gathers w's successorLists in one sweep of its nodes in order:
// each node's level successors (appendLevelSuccs), its edges to loop
// headers (twiceScan) and to block 0's node.
func listSuccs(w *work) successorLists {
	sl := successorLists{at: make([]int32, 2*len(w.nodes)), arena: make([]int, 0, 2*len(w.nodes))}
	tw := newTwiceScan(w)
	for x := range w.nodes {
		start := len(sl.arena)
		sl.arena = appendLevelSuccs(w, x, sl.arena)
		sl.at[2*x], sl.at[2*x+1] = int32(start), int32(len(sl.arena))
		succs := w.nodes[x].succs
		tw.scan(x, succs)
		if x != wEntry && !sl.entered && slices.Contains(succs, 1) {
			sl.entered = true
		}
	}
	sl.twice = tw.twice
	return sl
}

// succ is node x's level successors as listSuccs listed them.
func (lw *levelWalk) succ(x int) []int { return lw.arena[lw.at[2*x]:lw.at[2*x+1]] }

// postOrder walks root's level depth first, listing its nodes in post.
func (lw *levelWalk) postOrder(root int) {
	lw.post = lw.post[:0]
	lw.stack = append(lw.stack[:0], levelFrame{int32(root), 0})
	lw.state[root] = 1
	for len(lw.stack) > 0 {
		top := &lw.stack[len(lw.stack)-1]
		if s := lw.succ(int(top.b)); int(top.i) < len(s) {
			t := s[top.i]
			top.i++
			if lw.state[t] == 0 {
				lw.state[t] = 1
				lw.stack = append(lw.stack, levelFrame{int32(t), 0})
			}
			continue
		}
		lw.post = append(lw.post, int(top.b))
		lw.stack = lw.stack[:len(lw.stack)-1]
	}
}

// number gives the level's nodes their reverse post-order numbers.
func (lw *levelWalk) number() {
	for i := len(lw.post) - 1; i >= 0; i-- {
		lw.lv.rpo[lw.post[i]] = len(lw.post) - 1 - i
	}
}

// fillPreds lists each node's distinct level predecessors in reverse
// post-order, counting them in lv.in.
func (lw *levelWalk) fillPreds() {
	post := lw.post
	for i := len(post) - 1; i >= 0; i-- {
		for _, t := range lw.succ(post[i]) {
			lw.predCount[t]++
		}
	}
	for i := len(post) - 1; i >= 0; i-- {
		x := post[i]
		for _, t := range lw.succ(x) {
			if c := lw.predCount[t]; c > 0 { // t's first predecessor: its room
				lw.predAt[t], lw.predNext = int32(lw.predNext), lw.predNext+c
				lw.predCount[t] = 0
			}
			at, k := int(lw.predAt[t]), lw.lv.in[t]
			if k == 0 || lw.predRoom[at+k-1] != x {
				lw.predRoom[at+k] = x
				lw.lv.in[t]++
			}
		}
	}
}

// preds is node v's distinct level predecessors as fillPreds listed them.
func (lw *levelWalk) preds(v int) []int {
	at := int(lw.predAt[v])
	return lw.predRoom[at : at+lw.lv.in[v]]
}

// dominators sets each node's immediate dominator in one pass in reverse
// post-order (the level is acyclic: every predecessor comes first), as
// Cooper, Harvey and Kennedy intersect them, counting each node's kids.
func (lw *levelWalk) dominators(root int) {
	lv := lw.lv
	for i := len(lw.post) - 1; i >= 0; i-- {
		v := lw.post[i]
		if v == root {
			continue
		}
		d := -1
		for _, p := range lw.preds(v) {
			if lv.rpo[p] >= lv.rpo[v] {
				continue // not acyclic: left for the self-check to catch
			}
			if d < 0 {
				d = p
				continue
			}
			d = lv.intersect(p, d)
		}
		lv.idom[v] = d
		if d >= 0 {
			lw.kidCount[d]++
		}
	}
}

// intersect is the nearest common dominator of a and b, walking up the
// tree by reverse post-order numbers.
func (lv *levels) intersect(a, b int) int {
	for a != b {
		for lv.rpo[a] > lv.rpo[b] {
			a = lv.idom[a]
		}
		for lv.rpo[b] > lv.rpo[a] {
			b = lv.idom[b]
		}
	}
	return a
}

// fillKids lists each node's dominator-tree kids in reverse post-order.
func (lw *levelWalk) fillKids(root int) {
	lv := lw.lv
	for i := len(lw.post) - 1; i >= 0; i-- {
		v := lw.post[i]
		if d := lv.idom[v]; v != root && d >= 0 {
			if k := lw.kidCount[d]; k > 0 {
				if lv.kids[d] == nil {
					lv.kids[d], lw.kidRoom = lw.kidRoom[:0:k], lw.kidRoom[k:]
				}
				lw.kidCount[d] = 0
			}
			lv.kids[d] = append(lv.kids[d], v)
		}
	}
}

// findFlows numbers each level's dominator tree in pre-order and marks the
// subtrees that an edge leaves: an edge u->s with u in x's subtree leaves it
// when s's number lies outside x's interval. One pass over the edges (succ:
// a node's level successors), one bottom-up pass over the trees.
func (lv *levels) findFlows(w *work, roots []int, succ func(int) []int) {
	n := len(w.nodes)
	perNode := make([]int32, 6*n) // pre, last, lo, hi, the preorder and the stack in one allocation
	pre, last := perNode[:n:n], perNode[n:2*n:2*n]
	order := perNode[4*n : 4*n : 5*n]
	stack := perNode[5*n : 5*n : 6*n]
	for _, r := range roots {
		stack = append(stack[:0], int32(r))
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pre[x] = int32(len(order))
			order = append(order, x)
			for i := len(lv.kids[x]) - 1; i >= 0; i-- {
				stack = append(stack, int32(lv.kids[x][i]))
			}
		}
	}
	lo, hi := perNode[2*n:3*n:3*n], perNode[3*n:4*n:4*n]
	lv.flows = make([]bool, n)
	for i := len(order) - 1; i >= 0; i-- {
		x := order[i]
		lo[x], hi[x], last[x] = pre[x], pre[x], pre[x]
		for _, s := range succ(int(x)) {
			lo[x], hi[x] = min(lo[x], pre[s]), max(hi[x], pre[s])
		}
		for _, k := range lv.kids[x] {
			lo[x], hi[x], last[x] = min(lo[x], lo[k]), max(hi[x], hi[k]), max(last[x], last[k])
		}
		lv.flows[x] = lo[x] < pre[x] || hi[x] > last[x]
	}
}

func (lv *levels) isArm(x, t int) bool {
	return lv.idom[t] == x && lv.in[t] == 1 && !lv.twiceToLoop(x, t)
}

// twiceToLoop: x branches to loop header t on several arms. t is then laid
// out as a join (behind a guard block), so that t keeps a single entry edge.
func (lv *levels) twiceToLoop(x, t int) bool {
	twice := lv.twice[[2]int{x, t}]
	if lv.w.opt.CheckPasses && twice != lv.twiceToLoopScan(x, t) {
		panic(fmt.Sprintf("bug: twiceToLoop(%d, %d) = %v, the count of edges says otherwise", x, t, twice))
	}
	return twice
}

// twiceScan finds the pairs {x, t} of twiceToLoop, one node's edges at a
// time (scan), from the loops' headers alone: a node's count of edges to a
// header is kept by the header's loop, so the scan reads no target's
// node. The map is made on the first pair; most graphs have none.
type twiceScan struct {
	loopOf []int32 // by node: its loop's index plus one when it heads one, else 0
	seen   []int32 // by loop: the scanned node's edges to its header so far
	twice  map[[2]int]bool
}

func newTwiceScan(w *work) *twiceScan {
	tw := &twiceScan{}
	if len(w.loops) == 0 {
		return tw
	}
	tw.loopOf, tw.seen = make([]int32, len(w.nodes)), make([]int32, len(w.loops))
	for li, l := range w.loops {
		tw.loopOf[l.H] = int32(li + 1)
	}
	return tw
}

// scan counts node x's edges (to succs) to each loop header, noting a
// header it reaches by more than one.
func (tw *twiceScan) scan(x int, succs []int) {
	if tw.loopOf == nil {
		return
	}
	for _, t := range succs {
		l := tw.loopOf[t] - 1
		if l < 0 {
			continue
		}
		if tw.seen[l] > 0 {
			if tw.twice == nil {
				tw.twice = map[[2]int]bool{}
			}
			tw.twice[[2]int{x, t}] = true
		}
		tw.seen[l]++
	}
	for _, t := range succs {
		if l := tw.loopOf[t] - 1; l >= 0 {
			tw.seen[l] = 0
		}
	}
}

// twiceToLoopScan is twiceToLoop's obvious reference, a count of x's
// edges, run under Options.CheckPasses.
func (lv *levels) twiceToLoopScan(x, t int) bool {
	if lv.w.nodes[t].kind != wLoopHeader {
		return false
	}
	k := 0
	for _, s := range lv.w.nodes[x].succs {
		if s == t {
			k++
		}
	}
	return k >= 2
}
