// structured_nested_loops.go: the nested pass's loop declarations. Each
// natural loop of the graph, as it stands, gets its one latch for the
// continue target (rules R3 and R5; a loop of one block is its own) and a merge chosen among its exits and
// the blocks just after them (loopChoice): the blocks between the loop and
// its merge (the tails) must end in returns or at the merge and be entered
// only from the loop or from one another, which the tail test of
// structured_tails.go answers. A loop shape the rules reject outright (a
// switch for a header, several latches, a latch a switch targets, a header
// whose conditional stays in the loop) fails the run for the reshaping
// search to fix.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// declareLoops gives each loop its continue target and merge.
func (nt *nester) declareLoops() bool {
	forest := nt.forest
	if !forest.Reducible() {
		nt.final = true
		return nt.fail("irreducible")
	}
	exitsOf, ok := nt.facts.loopExits(nt.g)
	if !ok {
		nt.final = true
		return nt.fail("the loops' exits number more than %d, summed over the loops", exitBudget(nt.g.Len(), nt.g.Edges()))
	}
	for li, l := range forest.Loops {
		h := l.Header
		if len(nt.g.Succs[h]) > 2 {
			nt.final, nt.reshape = true, true
			return nt.fail("loop header %d is a switch", h)
		}
		in := loopIn{forest, li}
		latch, ok := -1, true
		for _, p := range nt.preds[h] {
			if in.has(p) {
				ok = ok && (latch < 0 || latch == p)
				latch = p
			}
		}
		exits := make([]int, len(exitsOf[li])) // loopMerge's own: candidates sorts it
		for i, e := range exitsOf[li] {
			exits[i] = int(e.to)
		}
		merge := nt.loopMerge(h, latch, len(l.Blocks), exitsOf[li], exits, in)
		caseLatch := latch >= 0 && caseInLoop(nt.g, nt.preds[latch], in)
		stays := headerStays(nt.g, forest, li)
		if !ok || latch < 0 || latch == h && !oneBlockLoop(nt.g, h) {
			nt.final, nt.reshape = true, latch >= 0
			return nt.fail("loop %d: several latches, or a self-loop", h)
		}
		if stays {
			// R12: the header's conditional needs a selection merge; a
			// header of its own takes the loop merge.
			nt.final, nt.reshape = true, true
			return nt.fail("loop %d: its header's conditional stays in the loop", h)
		}
		if caseLatch {
			// R11: a continue target is no case target; a latch of its
			// own leaves the old one to be the switch's merge or case.
			nt.final, nt.reshape = true, true
			return nt.fail("loop %d: its latch %d is a switch's target", h, latch)
		}
		if merge == -1 {
			return nt.fail("loop %d: no exit closes the others' tails", h)
		}
		if merge == -2 {
			merge = nt.newFresh()
		}
		if !nt.declare(h, Merge{Kind: LoopMerge, Merge: merge, Continue: latch}) {
			if merge < nt.n && (nt.mergeOf[merge] >= 0 || nt.contOf[merge] >= 0) && nt.forward == nil {
				nt.forward = &[2]int{h, merge}
			}
			return nt.fail("loop %d: merge %d or continue target %d declared twice", h, merge, latch)
		}
	}
	return true
}

// loopMerge picks the merge of the loop with header h, latch latch, size
// blocks in and exits exits (their edge counts: targets), as the run's
// rules have it (loopChoice.merge).
func (nt *nester) loopMerge(h, latch, size int, targets []loopExit, exits []int, in loopIn) int {
	lc := &loopChoice{g: nt.g, preds: nt.preds, forest: nt.forest, pre: nt.pre, decls: &nt.nestDecls,
		rules: &nt.mergeRules, found: &nt.loopFindings, h: h, exits: exits, in: in,
		tails: newLoopTails(nt.g, nt.facts, &nt.walkMarks, h, size, in, targets, exits)}
	return lc.merge(latch)
}

// mergeRules are how a run chooses loop merges, as the search sets them.
type mergeRules struct {
	policy     mergePolicy     // how a loop's merge is picked among candidates (loopChoice.merge)
	ranks      map[int]int     // loop header -> its merge's rank among the candidates (absent: 0)
	force      map[int]int     // loop header -> the merge it must take when its tails close there
	bans       map[[2]int]bool // {loop header, block} the last resort rules out as the loop's merge
	allowFresh bool            // a loop whose tails all return may take a fresh merge, last
	singleAlts bool            // a single exit's later blocks are candidates too (loopChoice.merge)
}

// loopFindings are what a run's loop choices found, for the search.
type loopFindings struct {
	options   []loopOptions // loops with more than one merge that closes, in declaration order
	freshable bool          // some loop had a fresh merge for a candidate (taken or not)
	singles   bool          // some single-exit loop took its exit without the later candidates
}

// loopChoice is the choice of one loop's merge (loopMerge): the loop's
// header h, its exits, its blocks (in) and what the tail test knows of it,
// in graph g (predecessors preds, loop forest forest, depth-first preorder
// pre) under the run's declarations so far (decls: the blocks other
// constructs took) and rules; what it finds goes to found.
type loopChoice struct {
	g      *cfg.Graph
	preds  [][]int
	forest *cfg.Forest
	pre    []int
	decls  *nestDecls
	rules  *mergeRules
	found  *loopFindings
	h      int
	exits  []int
	in     loopIn // the loop's blocks
	tails  loopTails
}

// merge picks the loop's merge (-2: none, a fresh block; -1: no choice
// works); latch is its latch. Candidates are the exit targets and the
// blocks after them, in breadth-first order from the exits (at most
// nestLoopCandidates past the exits); the exits other than the merge start
// tails: blocks of the loop construct outside the natural loop, which must
// end in returns or at the merge and be entered only from the loop or the
// tails. Of the candidates whose tails close, preferSmallest takes the one
// with the smallest tails, then the one the loop branches to most often
// (breaks), then the first; preferBreaks the most breaks first; preferInto
// the one the tails branch to most often (our own layouts break through
// forwarding blocks; tails that only return are cloned return blocks),
// then the smallest tails, then the most breaks; preferLargest the largest
// tails (the loop construct reaching as far as it can: a break from deep
// in its selections), then the most breaks. The search's rank for the loop
// (mergeRules.ranks) picks the candidate in that order; loops with more
// than one are recorded (loopFindings.options). A single exit is the merge
// (first under those two orders anyway: its tails are empty and every
// break goes to it), except in the search's last step
// (mergeRules.singleAlts) and under preferInto, where the blocks after it
// are candidates too (a loop whose merge follows a tail: the selector
// stores of an irreducible region, say). A case target of a switch in the
// loop is no candidate (caseInLoop), nor a block entered from a nested
// loop (fromInnerLoop). Where the header's conditional or the latch leaves
// the loop, that target is the merge and no other is tried: R12 and R6 (a
// continue construct leaves only for its header or merge) leave no choice;
// for a loop of one block, whose header is its continue construct, not
// even a forced merge.
func (lc *loopChoice) merge(latch int) int {
	h, exits, in, rules := lc.h, lc.exits, lc.in, lc.rules
	if t := outOf(lc.g.Succs[h], in); latch == h && t >= 0 {
		return lc.closingOr(t) // a loop of one block: its continue construct leaves only for its merge (R6)
	}
	if m, ok := lc.forced(); ok {
		return m
	}
	switch {
	case len(exits) == 0:
		return -2
	case len(exits) == 1 && (rules.policy == preferSmallest || rules.policy == preferBreaks) && !caseInLoop(lc.g, lc.preds[exits[0]], in):
		if !rules.singleAlts {
			lc.found.singles = true
			return exits[0] // a case target is never the merge (caseInLoop): the search below looks past it
		}
	}
	// The latch's way out of the loop, if any: a continue construct leaves
	// only for its header or its merge (R6).
	latchOut := -1
	if latch >= 0 && latch != h {
		latchOut = outOf(lc.g.Succs[latch], in)
	}
	// The header's conditional leaves the loop: R12 wants that target to
	// be the merge, unless its other target is the latch (a continue
	// target, which R12 accepts) and the latch names the merge itself.
	if t := outOf(lc.g.Succs[h], in); t >= 0 && (latchOut < 0 || !slices.Contains(lc.g.Succs[h], latch)) {
		return lc.closingOr(t)
	}
	if latchOut >= 0 {
		return lc.closingOr(latchOut)
	}
	closing := lc.closing(lc.candidates())
	if len(closing) > 1 {
		lc.found.options = append(lc.found.options, loopOptions{h, len(closing)})
	}
	if k := rules.ranks[h]; k < len(closing) {
		return closing[k].m
	}
	return -1
}

// oneBlockLoop reports whether block h of g is a loop of one block: a
// conditional that goes back to h and out. It is its own continue target
// and back-edge block (oracle/RULES.md, R9); R12 makes its other target
// the merge.
func oneBlockLoop(g *cfg.Graph, h int) bool {
	s := g.Succs[h]
	return len(s) == 2 && s[0] != s[1] && (s[0] == h || s[1] == h)
}

// outOf is the first of targets outside the loop (in marks its blocks),
// -1 when none is.
func outOf(targets []int, in loopIn) int {
	for _, t := range targets {
		if !in.has(t) {
			return t
		}
	}
	return -1
}

// closingOr is m when its tails close, else -1: a merge the rules leave
// no alternative to.
func (lc *loopChoice) closingOr(m int) int {
	if size, _ := lc.tails.tailSize(m); size >= 0 {
		return m
	}
	return -1
}

// forced is the merge the search forces on the loop (mergeRules.force),
// when it is free and its tails close.
func (lc *loopChoice) forced() (int, bool) {
	m, ok := lc.rules.force[lc.h]
	if !ok || len(lc.exits) == 0 || lc.decls.mergeOf[m] >= 0 || lc.decls.contOf[m] >= 0 || caseInLoop(lc.g, lc.preds[m], lc.in) || lc.rules.bans[[2]int{lc.h, m}] {
		return 0, false
	}
	size, _ := lc.tails.tailSize(m)
	return m, size >= 0
}

// candidates are the exits in preorder, then the blocks after them
// breadth first, at most nestLoopCandidates of those. It sorts lc.exits.
func (lc *loopChoice) candidates() []int {
	exits := lc.exits
	slices.SortFunc(exits, func(x, y int) int { return lc.pre[x] - lc.pre[y] })
	cands := append([]int(nil), exits...)
	seen := map[int]bool{}
	for _, e := range exits {
		seen[e] = true
	}
	for i := 0; i < len(cands) && len(cands) < len(exits)+nestLoopCandidates; i++ {
		for _, t := range lc.g.Succs[cands[i]] {
			if !lc.in.has(t) && !seen[t] {
				seen[t] = true
				cands = append(cands, t)
			}
		}
	}
	return cands
}

// mergeScore ranks a candidate whose tails close: edges from the tails to
// it (preferInto only), the tails' size, edges from the loop to it.
type mergeScore struct{ into, size, breaks int }

// mergeCand is a candidate merge m (-2: a fresh one) with its score.
type mergeCand struct {
	m  int
	sc mergeScore
}

// better orders scores under the run's policy (see loopMerge).
func (lc *loopChoice) better(a, b mergeScore) bool {
	if a.into != b.into {
		return a.into > b.into
	}
	if lc.rules.policy == preferBreaks && a.breaks != b.breaks {
		return a.breaks > b.breaks
	}
	if a.size != b.size {
		return (a.size < b.size) != (lc.rules.policy == preferLargest)
	}
	return a.breaks > b.breaks
}

// closing lists the candidates whose tails close, best first (a stable
// sort, so ties keep the candidates' order), then a fresh merge when every
// tail returns and the run allows one (the last choice: it adds a block).
func (lc *loopChoice) closing(cands []int) []mergeCand {
	var closing []mergeCand
	for _, m := range cands {
		if caseInLoop(lc.g, lc.preds[m], lc.in) || lc.decls.mergeOf[m] >= 0 || lc.decls.contOf[m] >= 0 {
			continue // an enclosing loop's merge or latch is taken
		}
		if fromInnerLoop(lc.forest, lc.preds[m], lc.in, lc.h) || lc.rules.bans[[2]int{lc.h, m}] {
			continue
		}
		size, into := lc.tails.tailSize(m)
		if size < 0 {
			continue
		}
		if lc.rules.policy != preferInto {
			into = 0
		}
		sc := mergeScore{into: into, size: size}
		for _, p := range lc.preds[m] {
			if lc.in.has(p) {
				sc.breaks++
			}
		}
		closing = append(closing, mergeCand{m, sc})
	}
	slices.SortStableFunc(closing, func(a, b mergeCand) int {
		switch {
		case lc.better(a.sc, b.sc):
			return -1
		case lc.better(b.sc, a.sc):
			return 1
		}
		return 0
	})
	if size, _ := lc.tails.tailSize(-1); size >= 0 {
		// Every tail returns: the loop may also never fall through, with
		// a fresh unreachable merge (every tail inside), the last choice
		// since it adds a block; only in the search's second round.
		lc.found.freshable = true
		if lc.rules.allowFresh {
			closing = append(closing, mergeCand{-2, mergeScore{size: size}})
		}
	}
	return closing
}

// fromInnerLoop reports whether a block m with predecessors preds is
// entered from a block of a loop nested in the one headed by h (in marks
// that loop's blocks): such an edge leaves the inner loop, whose breaks go
// to its own merge, so m lies in the inner loop's construct (a return tail
// of it, say) and cannot be h's merge, which lies past h's construct.
func fromInnerLoop(f *cfg.Forest, preds []int, in loopIn, h int) bool {
	own := f.LoopOf[h]
	for _, p := range preds {
		if in.has(p) && f.LoopOf[p] != own {
			return true
		}
	}
	return false
}

// caseInLoop reports whether a block of g with predecessors preds is a
// case target of a switch in the loop (in marks its blocks): the loop
// header's merge edge keeps the switch from dominating it structurally, so
// the switch needs a block of its own to break through (rule R11) and it
// cannot be the merge.
func caseInLoop(g *cfg.Graph, preds []int, in loopIn) bool {
	for _, p := range preds {
		if in.has(p) && len(g.Succs[p]) > 2 {
			return true
		}
	}
	return false
}

// loopIn is the membership of loop li of a forest: a range test
// (cfg.Forest.Contains), whatever the loop's size.
type loopIn struct {
	f  *cfg.Forest
	li int
}

func (in loopIn) has(b int) bool { return in.f.Contains(in.li, b) }
