// structured_levels.go: the analysis the selections pass lays each level
// out by. After the loops pass every level (a loop body, or the function)
// is acyclic with one entry; for each, the reverse post-order, the
// dominator tree (one pass in reverse post-order, as in Cooper, Harvey and
// Kennedy's "A Simple, Fast Dominance Algorithm", which needs no iteration
// on an acyclic graph), the distinct predecessor counts, which dominator
// subtrees an edge leaves (flows), and the arms of each branching node
// (isArm: a child entered once, not a loop header it branches to twice).
package structurizer

import "fmt"

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
}

// levelSuccs are node x's successors in its level's acyclic graph: a child
// loop's header is followed by the child's merge; the level's own latch and
// merge are sinks and left out.
func levelSuccs(w *work, x int, buf []int) []int {
	n := &w.nodes[x]
	buf = buf[:0]
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
// and the incoming edge counts.
func newLevels(w *work) *levels {
	n := len(w.nodes)
	// Each node is one node's kid at most: the kid lists are carved from
	// one array, a list getting room for this level's kids when first
	// filled (a later level's kid, were there one, would copy it).
	// Likewise the predecessor lists, from room for every level edge.
	room := 0
	for i := range w.nodes {
		room += max(len(w.nodes[i].succs), 1)
	}
	// rpo, idom, in, the kid lists' room, the counts, the post-order and
	// the predecessor lists' room in one allocation.
	ints := make([]int, 7*n+room)
	lv := &levels{rpo: ints[:n:n], idom: ints[n : 2*n : 2*n], in: ints[2*n : 3*n : 3*n], kids: make([][]int, n)}
	for i := range lv.rpo {
		lv.rpo[i], lv.idom[i] = -1, -1
	}
	kidRoom, kidCount, predCount := ints[3*n:4*n:4*n], ints[4*n:5*n:5*n], ints[5*n:6*n:6*n]
	post := ints[6*n : 6*n : 7*n]
	predRoom := ints[7*n:]
	entries := make([]int, 1, 1+len(w.loops))
	entries[0] = w.functionEntry()
	for _, l := range w.loops {
		entries = append(entries, l.entry)
	}
	preds := make([][]int, n)
	state := make([]uint8, n)
	// Each node's level successors are listed once, when the walk enters
	// it (a dispatch node has thousands), into one arena.
	type frame struct {
		b, i int
		s    []int
	}
	// The later walks read them there: at[2x] and at[2x+1] bound x's.
	arena := make([]int, 0, room)
	at := make([]int32, 2*n)
	succsOf := func(x int) []int {
		start := len(arena)
		s := levelSuccs(w, x, arena[start:])
		if len(s) <= cap(arena)-start {
			arena = arena[:start+len(s)]
		} else {
			arena = append(arena, s...) // room bounds every list: not taken
		}
		at[2*x], at[2*x+1] = int32(start), int32(len(arena))
		return s
	}
	succ := func(x int) []int { return arena[at[2*x]:at[2*x+1]] }
	stack := make([]frame, 0, n)
	for _, root := range entries {
		post = post[:0]
		stack = append(stack[:0], frame{root, 0, succsOf(root)})
		state[root] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.i < len(top.s) {
				t := top.s[top.i]
				top.i++
				if state[t] == 0 {
					state[t] = 1
					stack = append(stack, frame{t, 0, succsOf(t)})
				}
				continue
			}
			post = append(post, top.b)
			stack = stack[:len(stack)-1]
		}
		for i := len(post) - 1; i >= 0; i-- {
			lv.rpo[post[i]] = len(post) - 1 - i
		}
		for i := len(post) - 1; i >= 0; i-- {
			for _, t := range succ(post[i]) {
				predCount[t]++
			}
		}
		for i := len(post) - 1; i >= 0; i-- {
			x := post[i]
			for _, t := range succ(x) {
				if c := predCount[t]; c > 0 {
					if preds[t] == nil {
						preds[t], predRoom = predRoom[:0:c], predRoom[c:]
					}
					predCount[t] = 0
				}
				if k := len(preds[t]); k == 0 || preds[t][k-1] != x {
					preds[t] = append(preds[t], x)
					lv.in[t]++
				}
			}
		}
		for i := len(post) - 1; i >= 0; i-- {
			v := post[i]
			if v == root {
				continue
			}
			d := -1
			for _, p := range preds[v] {
				if lv.rpo[p] >= lv.rpo[v] {
					continue // not acyclic: left for the self-check to catch
				}
				if d < 0 {
					d = p
					continue
				}
				a, b := p, d
				for a != b {
					for lv.rpo[a] > lv.rpo[b] {
						a = lv.idom[a]
					}
					for lv.rpo[b] > lv.rpo[a] {
						b = lv.idom[b]
					}
				}
				d = a
			}
			lv.idom[v] = d
			if d >= 0 {
				kidCount[d]++
			}
		}
		for i := len(post) - 1; i >= 0; i-- {
			v := post[i]
			if d := lv.idom[v]; v != root && d >= 0 {
				if k := kidCount[d]; k > 0 {
					if lv.kids[d] == nil {
						lv.kids[d], kidRoom = kidRoom[:0:k], kidRoom[k:]
					}
					kidCount[d] = 0
				}
				lv.kids[d] = append(lv.kids[d], v)
			}
		}
	}
	lv.findFlows(w, entries, succ)
	lv.w, lv.twice = w, w.twiceToLoops()
	return lv
}

// findFlows numbers each level's dominator tree in pre-order and marks the
// subtrees that an edge leaves: an edge u->s with u in x's subtree leaves it
// when s's number lies outside x's interval. One pass over the edges (succ:
// a node's level successors), one bottom-up pass over the trees.
func (lv *levels) findFlows(w *work, roots []int, succ func(int) []int) {
	n := len(w.nodes)
	perNode := make([]int, 4*n) // pre, last, lo and hi in one allocation
	pre, last := perNode[:n:n], perNode[n:2*n:2*n]
	order := make([]int, 0, n)
	stack := make([]int, 0, n)
	for _, r := range roots {
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pre[x] = len(order)
			order = append(order, x)
			for i := len(lv.kids[x]) - 1; i >= 0; i-- {
				stack = append(stack, lv.kids[x][i])
			}
		}
	}
	lo, hi := perNode[2*n:3*n:3*n], perNode[3*n:]
	lv.flows = make([]bool, n)
	for i := len(order) - 1; i >= 0; i-- {
		x := order[i]
		lo[x], hi[x], last[x] = pre[x], pre[x], pre[x]
		for _, s := range succ(x) {
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

// twiceToLoops lists the pairs {x, t} of twiceToLoop: one pass over the
// edges (a node's count of edges to a header, kept in seen by target). The
// map is made on the first pair; most graphs have none.
func (w *work) twiceToLoops() map[[2]int]bool {
	var twice map[[2]int]bool
	if len(w.loops) == 0 {
		return nil
	}
	seen := make([]int, len(w.nodes)) // by target: x's edges to it counted so far
	for x := range w.nodes {
		for _, t := range w.nodes[x].succs {
			if w.nodes[t].kind != wLoopHeader {
				continue
			}
			if seen[t] > 0 {
				if twice == nil {
					twice = map[[2]int]bool{}
				}
				twice[[2]int{x, t}] = true
			}
			seen[t]++
		}
		for _, t := range w.nodes[x].succs {
			seen[t] = 0
		}
	}
	return twice
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
