// structured_loops_tails.go: the loops pass's placement of return tails
// (blocks in no cycle all of whose paths return). Each goes to the
// innermost loop holding all its predecessors, so a return inside a loop
// needs no route (rule R7 allows it outside continue constructs); a loop
// with no other way out keeps a tail outside as its merge. Where a loop's
// exits meet at a tail, the meeting point moves on past any skip over a
// join that follows it (joinSkips): the guard the emitter puts at such a
// skip would be where the exits meet when the output is structurized again.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// absorbTails places return tails: a block in no cycle whose successors are
// all tails (every path from it returns) goes to the innermost loop holding
// all its predecessors (their levels' nearest common ancestor), so a return
// inside a loop needs no route. A loop that would then have no exit at all
// keeps its first tail outside, where it becomes the loop's merge.
//
// level is each node's innermost loop (the forest's), updated in place;
// lp.preds are the nodes' predecessors (predsInOrder), which it reads.
func (lp *loopsPass) absorbTails(level []int) {
	n := len(level)
	tp := &tailPlacer{loopsPass: lp, level: level, preds: lp.preds, tail: returnTails(lp.nodes, lp.f, lp.dfs.RPO, n)}
	tp.markExits()
	tp.place(tp.tailMeets())
}

// tailPlacer is one run of absorbTails: the levels it moves tails to and
// what it reads of the graph the loops pass started from.
type tailPlacer struct {
	*loopsPass
	level   []int   // per node: its loop, -1 for the function level
	preds   [][]int // per node: its predecessors
	tail    []bool  // per node: a return tail
	hasExit []bool  // per loop: an edge leaves it for a block that is no tail (markExits)
}

// markExits fills hasExit.
func (tp *tailPlacer) markExits() {
	tp.hasExit = make([]bool, len(tp.f.Loops))
	for _, b := range tp.dfs.RPO {
		for _, t := range tp.nodes[b].succs {
			if tp.tail[t] {
				continue
			}
			for x := tp.f.LoopOf[b]; x >= 0 && !tp.f.Contains(x, t); x = tp.f.Loops[x].Parent {
				tp.hasExit[x] = true
			}
		}
	}
}

// place gives each tail its level, meet being tailMeets'.
func (tp *tailPlacer) place(meet []int) {
	level, preds, tail, hasExit := tp.level, tp.preds, tp.tail, tp.hasExit
	leaf := map[int]int{} // exit-less loop -> its first return leaf
	for _, b := range tp.dfs.RPO {
		if !tail[b] || len(preds[b]) == 0 {
			continue
		}
		l := level[preds[b][0]]
		for _, p := range preds[b][1:] {
			l = tp.commonLoop(l, level[p])
		}
		// A loop with no other way out keeps its first tail outside, where it
		// becomes the loop's merge (a fresh merge would be unreachable, and
		// structurizing the output again would add it again). A return leaf
		// with one predecessor is only chosen when nothing else is.
		for l >= 0 && !hasExit[l] {
			if meet[l] >= 0 && meet[l] != b {
				break // the loop's tails meet further on: that block is its merge
			}
			if meet[l] < 0 && len(tp.nodes[b].succs) == 0 && len(preds[b]) == 1 {
				// Prefer the leaf the loop's header branches to (or the block
				// the header only branches to, as a header an earlier
				// structurization added does): the merge of an exit-less loop
				// that an earlier structurization named by a test, or its
				// header's exit.
				if old, ok := leaf[l]; !ok || !tp.fromHeader(l, preds[old][0]) && tp.fromHeader(l, preds[b][0]) {
					leaf[l] = b
				}
				break
			}
			hasExit[l] = true
			l = tp.f.Loops[l].Parent
		}
		level[b] = l
	}
	xs := make([]int, 0, len(leaf)) // leaves last, outer loops first
	for x := range leaf {
		xs = append(xs, x)
	}
	slices.Sort(xs)
	for _, x := range xs {
		b := leaf[x]
		if hasExit[x] || !tp.inLoop(x, level[b]) {
			continue
		}
		for y := level[b]; y != tp.f.Loops[x].Parent; y = tp.f.Loops[y].Parent {
			hasExit[y] = true
		}
		level[b] = tp.f.Loops[x].Parent
	}
}

// fromHeader reports whether p is loop l's header or the one block that
// header branches to.
func (tp *tailPlacer) fromHeader(l, p int) bool {
	h := tp.f.Loops[l].Header
	return p == h || len(tp.nodes[h].succs) == 1 && tp.nodes[h].succs[0] == p
}

// returnTails marks the return tails among the first n nodes: the blocks
// in no cycle (no loop of forest f) whose successors are all tails (every
// path from them returns), found in the reverse of rpo.
func returnTails(nodes []wnode, f *cfg.Forest, rpo []int, n int) []bool {
	tail := make([]bool, n)
	for i := len(rpo) - 1; i >= 0; i-- { // successors first
		b := rpo[i]
		if f.LoopOf[b] != cfg.NoBlock {
			continue
		}
		ok := true
		for _, t := range nodes[b].succs {
			ok = ok && tail[t]
		}
		tail[b] = ok
	}
	return tail
}

// tailMeets finds, for each loop whose only exits go to tails, the block
// where those tails meet (the nearest common post-dominator of the exits'
// targets), or -1 when they never meet or the loop has other exits. Where
// the exits go to several tails, the meeting point moves on past any skip
// over a join that follows it (joinSkips).
func (tp *tailPlacer) tailMeets() []int {
	preds, tail, hasExit := tp.preds, tp.tail, tp.hasExit
	meet := make([]int, len(tp.f.Loops))
	for i := range meet {
		meet[i] = -2
	}
	joined := make([]bool, len(tp.f.Loops)) // the exits go to several tails
	var pdom *cfg.DomTree
	for _, b := range tp.dfs.RPO {
		for _, t := range tp.nodes[b].succs {
			if !tail[t] {
				continue
			}
			for x := tp.f.LoopOf[b]; x >= 0 && !hasExit[x]; x = tp.f.Loops[x].Parent {
				if pdom == nil {
					pdom = cfg.PostDominators(tp.graph())
				}
				switch {
				case meet[x] == -2:
					meet[x] = t
				case meet[x] >= 0 && meet[x] != t:
					meet[x] = max(-1, pdom.NearestCommon(meet[x], t))
					joined[x] = true
				}
			}
		}
	}
	skips := newJoinSkips(tp.nodes, pdom, preds, tail)
	for i := range meet {
		if meet[i] < 0 || !tail[meet[i]] {
			meet[i] = -1
			continue
		}
		for joined[i] && skips.after(meet[i]) {
			meet[i] = pdom.IDom[meet[i]]
		}
	}
	return meet
}

// joinSkips finds where a meeting point of loop exits skips past a join:
// over the nodes of one graph, its post-dominators, predecessors and return
// tails, each block's answer kept as callers ask again further down the
// post-dominator tree.
type joinSkips struct {
	nodes []wnode
	pdom  *cfg.DomTree
	preds [][]int
	tail  []bool
	memo  map[int]bool
}

func newJoinSkips(nodes []wnode, pdom *cfg.DomTree, preds [][]int, tail []bool) *joinSkips {
	return &joinSkips{nodes: nodes, pdom: pdom, preds: preds, tail: tail, memo: map[int]bool{}}
}

// after reports whether m, a tail short of the function's end, or a
// block after it skips past a join (join; memo keeps each block's
// answer, as the caller asks again from m's post-dominators). The guard the
// emitter puts at such a skip would lie between the exits and their
// meeting point on the second run, so the meeting point moves on (to m's
// immediate post-dominator, a tail too) until no skip follows it.
// Progress: each step goes strictly down the finite post-dominator tree.
func (j *joinSkips) after(m int) bool {
	pdom, tail, memo := j.pdom, j.tail, j.memo
	ip := pdom.IDom[m]
	if ip < 0 || ip >= len(tail) || !tail[ip] {
		return false
	}
	seen := map[int]bool{m: true}
	stack := []int{m}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		skip, ok := memo[b]
		if !ok {
			skip = j.join(b)
			memo[b] = skip
		}
		if skip {
			return true
		}
		for _, t := range j.nodes[b].succs {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return false
}

// join reports whether tail m branches straight to a block j short of
// its immediate post-dominator that another block after m also enters (m
// skips past a join): where the emitter puts a guard, a block that the
// second run sees as a point where paths meet. When the first run takes a
// loop's tails in up to a later meeting point, that guard lands inside the
// loop, and the second run would take it for the meeting point and make a
// smaller loop (adding a clone or an exit block).
func (j *joinSkips) join(m int) bool {
	pdom, preds, tail := j.pdom, j.preds, j.tail
	ip := pdom.IDom[m]
	if ip < 0 || ip >= len(tail) || !tail[ip] {
		return false
	}
	// The blocks after m, short of ip.
	region := map[int]bool{}
	stack := []int{m}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range j.nodes[b].succs {
			if t != ip && t != m && !region[t] {
				region[t] = true
				stack = append(stack, t)
			}
		}
	}
	for _, j := range j.nodes[m].succs {
		if j == ip {
			continue
		}
		for _, p := range preds[j] {
			if p != m && region[p] {
				return true
			}
		}
	}
	return false
}

// commonLoop is the innermost loop containing both loops a and b (-1:
// none): the first of a and the loops around it that holds b's header, a
// range test each (cfg.Forest.Contains). place asks it with a that only
// moves outwards, so its walks together cost the nesting depth once, not
// once a predecessor.
func (tp *tailPlacer) commonLoop(a, b int) int {
	if b < 0 {
		return -1
	}
	for a >= 0 && !tp.f.Contains(a, tp.f.Loops[b].Header) {
		a = tp.f.Loops[a].Parent
	}
	return a
}
