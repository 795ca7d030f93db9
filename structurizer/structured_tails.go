// structured_tails.go: the nested pass's tail test (loopTails.tailSize,
// used by loopMerge), answered from the graph's dominator tree instead of
// a walk of the tails, so that choosing a merge for every loop costs
// near-linear time rather than one walk of the rest of the function per
// candidate.
//
// The tails of loop L (header h) for merge m are the blocks reachable from
// the exits other than m without passing m or entering L; they close when
// none enters L and every tail's predecessors lie in the tails or in L.
// Let D be h's dominator subtree less L. When every block is reachable
// (tailIndex.usable), the dominator tree decides the test:
//   - a tail outside D means the tails do not close: its entry path from
//     block 0 avoids h, so pred-closure puts block 0 among the tails, and
//     then every path from block 0 to h passes m. So the walk stops at the
//     first such block, unless block 0 has predecessors and m dominates h
//     (then the tails are walked as defined);
//   - no block of D has an edge into L (it would lie on a cycle through h,
//     inside L: L is h's natural loop, the graph being reducible), and
//     every predecessor of a block of D lies in D or L;
//   - for m in D, a block of D is a tail exactly when m does not dominate
//     it (a path from block 0 to it passes h, leaves L through an exit and
//     stays in D), so the tails are D less m's subtree. They close when
//     every exit lies in D, no edge leaves m's subtree for the rest of D
//     (such a tail would have a predecessor past the merge), and every
//     edge leaving h's subtree from D starts in m's subtree;
//   - for m outside D and L that does not dominate h (or none), the tails are D and close when every exit
//     other than m lies in D and every edge leaving h's subtree from D
//     goes to m.
//
// The edges leaving h's subtree are counted once per graph (leaving: an
// edge p->t leaves the subtrees of the blocks on the tree path from p up
// to, not including, the nearest common dominator of p and t, which is t
// when t dominates p and t's immediate dominator otherwise); m's subtree is
// walked when it is the smaller side of D, the tails otherwise, so a test
// costs the smaller of the two; and only when the edges leaving m's
// subtree are as many as the loop's leaving edges (and some are), since
// otherwise the count alone decides. Without usable, tailWalk walks the tails as
// the definition says. The index itself (tailIndex) is one of the graph's
// facts (structured_facts.go), built once for every run of the search.

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// loopTails is the tail test of the loop loopMerge is choosing a merge
// for: the loop (its header h, its blocks in, its exits) in graph g with
// predecessors preds; what the dominator tree ti tells of it (the size of
// D, the edges leaving h's subtree from D, the exits outside D: outside,
// how many, out, one of them); and the scratch of the walks it falls back
// on (marks).
type loopTails struct {
	ti                *tailIndex
	h, dsize, leaving int
	outside, out      int
	g                 *cfg.Graph
	preds             [][]int
	exits             []int // the loop's exits (loopChoice.candidates sorts them in place)
	in                loopIn
	marks             *walkMarks
}

// newLoopTails prepares the tail test for the loop of graph g (with facts
// facts) with header h, size blocks in, exits exits and their edge counts
// targets (loopExitTargets); its walks use marks.
func newLoopTails(g *cfg.Graph, facts *graphFacts, marks *walkMarks, h, size int, in loopIn, targets []loopExit, exits []int) loopTails {
	ti := facts.tailIndex(g)
	lt := loopTails{ti: ti, h: h, g: g, preds: facts.preds, exits: exits, in: in, marks: marks}
	if !ti.usable {
		return lt
	}
	lt.dsize, lt.leaving = ti.size[h]-size, ti.leaving[h]
	// Less the loop's own edges leaving h's subtree: h dominates the
	// loop's blocks (the graph is reducible), so those are exit edges.
	for _, e := range targets {
		if !ti.dominates(h, int(e.to)) {
			lt.leaving -= int(e.n)
		}
	}
	for _, e := range exits {
		if !ti.dominates(h, e) {
			lt.outside, lt.out = lt.outside+1, e
		}
	}
	return lt
}

// tailSize returns the size of the tails of the exits other than m (-1
// when they do not close) and how many of their edges go to m; m -1 means
// no merge. See the file comment.
func (lt *loopTails) tailSize(m int) (size, into int) {
	ti := lt.ti
	if ti == nil || !ti.usable {
		return lt.tailWalk(m, false)
	}
	h := lt.h
	switch {
	case m >= 0 && lt.in.has(m):
		return lt.tailWalk(m, !ti.entered)
	case m >= 0 && ti.entered && ti.dominates(m, h):
		return lt.tailWalk(m, false)
	}
	if m < 0 || !ti.dominates(h, m) {
		// The tails are D: every exit but m inside it, every edge leaving
		// h's subtree from D going to m.
		if lt.outside > 1 || lt.outside == 1 && lt.out != m {
			return -1, 0
		}
		if m >= 0 {
			for _, p := range lt.preds[m] {
				if ti.dominates(h, p) && !lt.in.has(p) {
					into++
				}
			}
		}
		if into != lt.leaving {
			return -1, 0
		}
		return lt.dsize, into
	}
	if lt.outside > 0 {
		return -1, 0
	}
	// The tails are D less m's subtree. The edges leaving m's subtree
	// (none enters L) are those leaving h's subtree and those to tails;
	// when their count is not the loop's, some edge goes to a tail or
	// leaves h's subtree from a tail.
	if ti.leaving[m] != lt.leaving {
		return -1, 0
	}
	sub := ti.size[m]
	if lt.leaving == 0 {
		return lt.dsize - sub, lt.into(m)
	}
	if sub > lt.dsize-sub {
		return lt.tailWalk(m, true)
	}
	leaving := 0 // walk the subtree: do the loop's leaving edges start there?
	for _, p := range ti.byPre[ti.pre[m] : ti.pre[m]+sub] {
		lt.marks.walked++
		for _, t := range lt.g.Succs[p] {
			switch {
			case !ti.dominates(h, t):
				leaving++
			case !ti.dominates(m, t) && !lt.in.has(t):
				return -1, 0 // a tail entered from past the merge
			}
		}
	}
	if leaving != lt.leaving {
		return -1, 0
	}
	return lt.dsize - sub, lt.into(m)
}

// into counts the edges to m from the tails D less m's subtree (m in D).
func (lt *loopTails) into(m int) int {
	into := 0
	for _, p := range lt.preds[m] {
		if !lt.ti.dominates(m, p) && !lt.in.has(p) {
			into++
		}
	}
	return into
}

// tailWalk walks the tails of the exits other than m and returns their
// size (-1 when they do not close) and how many of their edges go to m.
// stopOutside stops the walk at a block the loop header does not dominate
// (the tails then do not close: see the file comment; only with a usable
// index).
func (lt *loopTails) tailWalk(m int, stopOutside bool) (size, into int) {
	ti, wm := lt.ti, lt.marks
	wm.stamp++
	st := wm.stamp
	wm.queue = wm.queue[:0]
	for _, e := range lt.exits {
		if e != m {
			if stopOutside && !ti.dominates(lt.h, e) {
				return -1, 0
			}
			wm.mark[e] = st
			wm.queue = append(wm.queue, e)
		}
	}
	for i := 0; i < len(wm.queue); i++ {
		wm.walked++
		for _, t := range lt.g.Succs[wm.queue[i]] {
			if t == m {
				into++
				continue
			}
			if wm.mark[t] == st {
				continue
			}
			if lt.in.has(t) || stopOutside && !ti.dominates(lt.h, t) {
				return -1, 0
			}
			wm.mark[t] = st
			wm.queue = append(wm.queue, t)
		}
	}
	for _, b := range wm.queue {
		for _, p := range lt.preds[b] {
			if wm.mark[p] != st && !lt.in.has(p) {
				return -1, 0
			}
		}
	}
	return len(wm.queue), into
}
