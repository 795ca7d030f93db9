// structured_nested_selections.go: the nested pass's selection and switch
// declarations. A walk of the structural dominator tree keeps the stack of
// open constructs; each conditional that is no break or continue (rule
// R12) and each switch heads a construct, and its merge is chosen
// (selectionChoice): the region between the header and the merge must be
// entered only through the header (R10), leave only for the merge or an
// exit the open constructs allow (R6), and, for a switch, lie in its cases.
// Of the candidate merges, the one whose region closes smallest wins; a
// switch's candidates are first bounded below by the targets their region
// must hold (switchFloor), so a dispatch of thousands of cases measures
// one region, not one per case.

package structurizer

import (
	"fmt"
	"slices"
)

// declareSelections walks the dominator tree with the stack of open
// constructs and declares a merge for each branch point that needs one.
func (nt *nester) declareSelections() bool {
	return (&selectionWalk{nester: nt}).run()
}

// selectionWalk is one walk of declareSelections: the constructs open at
// the block it is at, outermost first.
type selectionWalk struct {
	*nester
	open []nestedConstruct
}

// blameOpen records the loops a failed walk suspects of a wrong merge: the
// open loops and h when h heads a loop.
func (sw *selectionWalk) blameOpen(open []nestedConstruct, h int) {
	if h >= 0 && sw.decl[h].Kind == LoopMerge {
		sw.blame = append(sw.blame, h)
	}
	for _, c := range open {
		if c.kind == cLoop {
			sw.blame = append(sw.blame, c.header)
		}
	}
}

// walkFrame is a block on the walk's stack: the next of its tree children
// to enter, the constructs pushed at it, and the construct closed at it
// (reopen: its merge is b), which is open again once b's subtree is done.
type walkFrame struct {
	b, i   int
	pushed int
	closed nestedConstruct
	reopen bool
}

// run walks the structural dominator tree depth first from block 0.
func (sw *selectionWalk) run() bool {
	fr0, ok := sw.enter(0)
	if !ok {
		return false
	}
	stack := []walkFrame{fr0}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(sw.kids[top.b]) {
			c := sw.kids[top.b][top.i]
			top.i++
			fr, ok := sw.enter(c)
			if !ok {
				return false
			}
			stack = append(stack, fr)
			continue
		}
		sw.open = sw.open[:len(sw.open)-top.pushed]
		if top.reopen {
			sw.open = append(sw.open, top.closed)
		}
		stack = stack[:len(stack)-1]
	}
	return true
}

// enter closes the construct block b merges (it must be the innermost open
// one), opens the continue construct b is the target of, and the loop or
// the selection b heads, choosing the selection's merge (chooseMerge).
func (sw *selectionWalk) enter(b int) (walkFrame, bool) {
	fr := walkFrame{b: b}
	if h := sw.mergeOf[b]; h >= 0 {
		k := len(sw.open) - 1
		if k < 0 || sw.open[k].header != h || sw.open[k].kind == cContinue {
			sw.blameOpen(sw.open, h)
			return fr, sw.fail("merge %d of %d reached inside another construct", b, h)
		}
		fr.closed, fr.reopen = sw.open[k], true
		sw.open = sw.open[:k]
	}
	if h := sw.contOf[b]; h >= 0 {
		k := len(sw.open) - 1
		if k < 0 || sw.open[k].header != h || sw.open[k].kind != cLoop {
			sw.blameOpen(sw.open, h)
			return fr, sw.fail("continue target %d of %d reached inside another construct", b, h)
		}
		sw.open = pushConstruct(sw.open, nestedConstruct{kind: cContinue, header: h, merge: -1, cont: -1})
		fr.pushed++
	}
	if d := sw.decl[b]; d.Kind == LoopMerge {
		sw.open = pushConstruct(sw.open, nestedConstruct{kind: cLoop, header: b, merge: d.Merge, cont: d.Continue})
		fr.pushed++
		return fr, true
	}
	kind, need, ok := sw.needsHeader(b, sw.open)
	if !ok {
		return fr, sw.fail("conditional %d with equal targets", b)
	}
	if need {
		m, ok := sw.chooseMerge(b, kind, sw.open)
		if !ok || !sw.declare(b, Merge{Kind: SelectionMerge, Merge: m}) {
			sw.blameOpen(sw.open, -1)
			return fr, sw.fail("no merge closes the region of %d", b)
		}
		if m < sw.n {
			sw.adopt(b, m)
		}
		sw.open = pushConstruct(sw.open, nestedConstruct{kind: kind, header: b, merge: m, cont: -1})
		fr.pushed++
	}
	return fr, true
}

// needsHeader says whether branch point b, inside the open constructs,
// heads a construct, and of which kind. A conditional heads none when it
// breaks or continues a loop, or when it leaves the innermost open
// switch for its merge (R12 and R6 allow both; the lift pass lays out its
// own conditionals so). ok is false for a conditional with equal targets
// (rule R15).
func (nt *nester) needsHeader(b int, open []nestedConstruct) (kind cKind, need, ok bool) {
	s := nt.g.Succs[b]
	switch {
	case len(s) < 2:
		return 0, false, true
	case len(s) > 2:
		return cSwitch, true, true
	case s[0] == s[1]:
		return 0, false, false
	}
	for _, t := range s {
		if h := nt.mergeOf[t]; h >= 0 && nt.decl[h].Kind == LoopMerge || nt.contOf[t] >= 0 {
			return 0, false, true // a break or continue (R12)
		}
	}
	if k := len(open) - 1; k >= 0 && open[k].kind == cSwitch &&
		(s[0] == open[k].merge || s[1] == open[k].merge) {
		return 0, false, true // a break from a case (R12, R6)
	}
	return cSelection, true, true
}

// allowedExits lists the blocks a new construct of kind k may leave for
// besides its own merge (rule R6): the innermost loop's merge and continue
// target and, for a selection, the merges of switches inside that loop.
// None inside a continue construct. The innermost open construct holds
// the answer (pushConstruct), so a deep nest costs no walk out per header;
// allowedExitsWalk is the walk it stands for.
func allowedExits(open []nestedConstruct, k cKind) []int {
	if len(open) == 0 {
		return nil
	}
	top := &open[len(open)-1]
	if k == cSwitch {
		return top.switchExits
	}
	return top.selExits
}

// pushConstruct opens c inside the open constructs, with what
// allowedExits gives a construct inside it worked out from the innermost
// open one's: a loop's merge and continue target; nothing in a continue
// construct; a switch adds its merge for a selection inside it; a
// selection changes nothing.
func pushConstruct(open []nestedConstruct, c nestedConstruct) []nestedConstruct {
	var below nestedConstruct
	if len(open) > 0 {
		below = open[len(open)-1]
	}
	switch c.kind {
	case cLoop:
		c.selExits, c.switchExits, c.inContinue = []int{c.merge, c.cont}, []int{c.merge, c.cont}, false
	case cContinue:
		c.selExits, c.switchExits, c.inContinue = nil, nil, true
	case cSwitch:
		c.inContinue, c.switchExits = below.inContinue, below.switchExits
		if !c.inContinue {
			c.selExits = append([]int{c.merge}, below.selExits...)
		}
	default:
		c.selExits, c.switchExits, c.inContinue = below.selExits, below.switchExits, below.inContinue
	}
	return append(open, c)
}

// allowedExitsWalk is allowedExits by a walk out through the open
// constructs (the reference that TestFastMatchesTheWalks holds it to).
func allowedExitsWalk(open []nestedConstruct, k cKind) []int {
	var ex []int
	for i := len(open) - 1; i >= 0; i-- {
		c := open[i]
		switch c.kind {
		case cLoop:
			return append(ex, c.merge, c.cont)
		case cContinue:
			return nil
		case cSwitch:
			if k != cSwitch {
				ex = append(ex, c.merge)
			}
		}
	}
	return ex
}

// chooseMerge picks header x's merge, a construct of kind k under the open
// constructs: the first candidate that closes x's region (see the file
// comment of structured_nested.go).
func (nt *nester) chooseMerge(x int, k cKind, open []nestedConstruct) (int, bool) {
	sc := &selectionChoice{nester: nt, x: x, k: k, exits: allowedExits(open, k), inner: -1}
	if nt.checkFast {
		if walked := allowedExitsWalk(open, k); !slices.Equal(sc.exits, walked) {
			panic(fmt.Sprintf("bug: exits of %d (kind %d): %v kept, %v walked", x, k, sc.exits, walked))
		}
	}
	if len(open) > 0 {
		sc.inner = open[len(open)-1].merge
	}
	return sc.choose()
}

// selectionChoice is the choice of one selection's or switch's merge
// (chooseMerge): its header x, its kind and the exits it may leave for
// besides the merge (allowedExits).
type selectionChoice struct {
	*nester
	x     int
	k     cKind
	exits []int
	inner int // the innermost open construct's merge, -1 for none
	// caseStamp marks this choice's entries in the nester's case memo
	// (caseChild); 0 until the first.
	caseStamp int32
}

// choose tries, in order: for a switch, the one target other blocks enter
// too (sharedCase); x's immediate post-dominator; then x's dominator-tree
// descendants breadth first (nearest); a fresh merge when the region
// closes without one.
func (sc *selectionChoice) choose() (int, bool) {
	if sc.k == cSwitch {
		if t := sc.sharedCase(); t >= 0 && sc.usable(t) && sc.closes(t, sc.n) >= 0 {
			return t, true
		}
	}
	if p := sc.pdom.IDom[sc.x]; sc.usable(p) && sc.closes(p, sc.n) >= 0 {
		return p, true
	}
	if best := sc.nearest(); best >= 0 {
		return best, true
	}
	if sc.regionSize(-1, sc.n) < 0 {
		sc.hintFor()
		breakSearch{sc}.hints()
		return 0, false
	}
	return sc.newFresh(), true
}

// usable: m may be the merge: a block x strictly dominates that is no
// other construct's merge or continue target nor an allowed exit.
func (sc *selectionChoice) usable(m int) bool {
	return m >= 0 && m < sc.n && sc.dom.StrictlyDominates(sc.x, m) &&
		sc.mergeOf[m] < 0 && sc.contOf[m] < 0 && !slices.Contains(sc.exits, m)
}

// closes is regionSize, and for a switch also that every block of the
// region lies in a case (R6's case constructs: dominated by a target); a
// switch's region is measured (switchRegion) where it can be.
func (sc *selectionChoice) closes(m, limit int) int {
	if sc.k == cSwitch && m >= 0 {
		if size, small := sc.smallRegion(m, limit); small {
			if size < 0 || !sc.casesCover() {
				return -1
			}
			return size
		}
		if size, ok := sc.switchRegion(m, limit); ok {
			if sc.checkFast {
				walked := sc.walkRegion(m, limit)
				if walked >= 0 && !sc.casesCover() {
					walked = -1
				}
				if walked != size {
					panic(fmt.Sprintf("bug: switch region of %d merging at %d (exits %v): %d measured, %d walked", sc.x, m, sc.exits, size, walked))
				}
			}
			return size
		}
	}
	size := sc.regionSize(m, limit)
	if size >= 0 && sc.k == cSwitch && !sc.casesCover() {
		return -1
	}
	return size
}

// nearest is the usable descendant of x in the dominator tree, level by
// level, whose region closes smallest (ties: the most distinct
// predecessors), among the first nestCandidates tried (a switch's targets
// each a candidate on top: a route's dispatch has many); -1 when none
// closes.
func (sc *selectionChoice) nearest() int {
	best, bestSize, tried, limit := -1, sc.n+1, 0, nestCandidates
	var floor switchFloor
	if sc.k == cSwitch {
		limit += len(sc.g.Succs[sc.x])
		floor = sc.switchFloor()
	}
	level := append([]int(nil), sc.kids[sc.x]...)
	for len(level) > 0 && best < 0 && tried < limit {
		var next []int
		for _, m := range level {
			next = append(next, sc.kids[m]...)
			if !sc.usable(m) || tried >= limit {
				continue
			}
			tried++
			if best >= 0 && sc.belowFloor(floor, m, best, bestSize) {
				continue
			}
			size := sc.closes(m, bestSize)
			if size >= 0 && (size < bestSize || size == bestSize && distinctPreds(sc.preds[m]) > distinctPreds(sc.preds[best])) {
				best, bestSize = m, size
			}
		}
		level = next
	}
	return best
}

// switchFloor bounds a switch's region from below without walking it: a
// region that closes at merge m holds the header and every target of the
// header but m, the exits and the header itself (each a block of its own).
// A wide switch (a dispatch of thousands of cases) then costs one region
// walk for its first closing candidate, not one per candidate.
type switchFloor struct {
	blocks  int          // 1 + the distinct targets that are neither an exit nor the header
	targets map[int]bool // those targets
}

func (sc *selectionChoice) switchFloor() switchFloor {
	f := switchFloor{blocks: 1, targets: map[int]bool{}}
	for _, t := range sc.g.Succs[sc.x] {
		if t != sc.x && !slices.Contains(sc.exits, t) && !f.targets[t] {
			f.targets[t] = true
			f.blocks++
		}
	}
	return f
}

// cannotBeat reports whether x's region at candidate m is sure not to
// replace the best so far (bestSize blocks): closes(m, bestSize) gives -1
// past bestSize, and a region of bestSize blocks wins only on more
// distinct predecessors (morePreds). The zero switchFloor (a selection)
// bounds nothing.
func (f switchFloor) cannotBeat(m, bestSize int, morePreds bool) bool {
	if f.targets == nil {
		return false
	}
	floor := f.blocks
	if f.targets[m] {
		floor--
	}
	return floor > bestSize || floor == bestSize && !morePreds
}

// belowFloor reports whether candidate m cannot replace best (bestSize
// blocks), by the switch's floor f alone. Under checkFast it measures m's
// region anyway and panics if m would have replaced best.
func (sc *selectionChoice) belowFloor(f switchFloor, m, best, bestSize int) bool {
	more := distinctPreds(sc.preds[m]) > distinctPreds(sc.preds[best])
	if !f.cannotBeat(m, bestSize, more) {
		return false
	}
	if sc.checkFast {
		if size := sc.closes(m, bestSize); size >= 0 && (size < bestSize || size == bestSize && more) {
			panic(fmt.Sprintf("bug: switch %d's region at %d (%d blocks) beats the best, %d blocks at %d, under its floor", sc.x, m, size, bestSize, best))
		}
	}
	return true
}

// hintFor is called for a header x whose region does not close. Where x
// follows a loop's merge (the nearest loop merge among its dominators)
// and branches to a block that loop's header dominates but x does not, the
// loop's merge was likely chosen too early: x's branch is the loop's break.
// It records each such {loop header, target} as a hint to force (nested),
// and blames the loop (the search tries its later merges first). Not when
// x lies inside a loop below that merge: that loop is the suspect, and the
// walk blames it (blameOpen).
func (sc *selectionChoice) hintFor() {
	if len(sc.hints) > 0 {
		return
	}
	h := -1
	for d := sc.dom.IDom[sc.x]; d >= 0 && h < 0; d = sc.dom.IDom[d] {
		if dd := sc.decl[d]; dd.Kind == LoopMerge && (dd.Merge >= sc.n || !sc.dom.Dominates(dd.Merge, sc.x)) {
			return // x is inside loop d, which the walk blames (blameOpen)
		}
		if m := sc.mergeOf[d]; m >= 0 && sc.decl[m].Kind == LoopMerge {
			h = m
		}
	}
	if h < 0 {
		return
	}
	sc.blame = append(sc.blame, h)
	for _, t := range sc.g.Succs[sc.x] {
		if sc.dom.Dominates(sc.x, t) || !sc.dom.Dominates(h, t) || sc.force[h] == t || sc.contOf[t] >= 0 {
			continue
		}
		if m := sc.mergeOf[t]; m >= 0 && sc.decl[m].Kind == LoopMerge {
			continue
		}
		sc.hints = append(sc.hints, [2]int{h, t})
	}
}

// distinctPreds counts the distinct blocks in preds (a switch's cases to
// one block count once).
func distinctPreds(preds []int) int {
	n := 0
	for i, p := range preds {
		if !slices.Contains(preds[:i], p) {
			n++
		}
	}
	return n
}

// sharedCase finds the one target of switch x that is entered from
// elsewhere too (not by a back edge), -1 when none or several are. Such a
// target is the merge, or a case another case falls into; the merge is
// tried first.
func (sc *selectionChoice) sharedCase() int {
	shared := -1
	for _, t := range sc.g.Succs[sc.x] {
		if t == shared {
			continue
		}
		for _, p := range sc.preds[t] {
			if p != sc.x && !sc.dom.Dominates(t, p) {
				if shared >= 0 {
					return -1
				}
				shared = t
				break
			}
		}
	}
	return shared
}

// casesCover reports whether every block of the region regionSize just
// walked (the nester's queue, header x first) is dominated, in the walk's tree, by a
// target of x: the blocks of a switch's construct must each lie in a case.
func (sc *selectionChoice) casesCover() bool {
	for _, b := range sc.queue[1:] {
		if !sc.inCase(b) {
			return false
		}
	}
	return true
}

// inCase reports whether block b lies, in the walk's tree, under a
// target of x. The way up from b is kept for the choice (caseChild), so
// the blocks of the regions one choice measures are each walked up once.
func (sc *selectionChoice) inCase(b int) bool {
	c := sc.caseChild(b)
	in := c >= 0 && sc.cases.target[c] == sc.caseStamp
	if sc.checkFast {
		walked := sc.caseChildWalk(b)
		if walkedIn := walked >= 0 && slices.Contains(sc.g.Succs[sc.x], walked); walked != c || walkedIn != in {
			panic(fmt.Sprintf("bug: case of %d under %d: %d (a target: %v) kept, %d (%v) walked", b, sc.x, c, in, walked, walkedIn))
		}
	}
	return in
}

// caseMemo keeps, for the blocks a choice asked inCase about, their
// ancestor in the walk's tree whose parent is the choice's header (-1:
// none), and the header's targets (target[t] holds the stamp: a switch
// can have hundreds). An entry holds for the choice whose stamp it
// carries: the tree changes only between choices (adopt).
type caseMemo struct {
	stamp   []int32
	child   []int32
	target  []int32
	last    int32 // the last stamp handed out
	targets int32 // the stamp the targets in target carry
	path    []int // scratch: the blocks walked up
}

// caseChild is b's ancestor in the walk's tree whose parent is x, or -1;
// every block walked up on the way gets the same answer.
func (sc *selectionChoice) caseChild(b int) int {
	cm := &sc.cases
	if sc.caseStamp == 0 {
		if n := len(sc.parent); len(cm.stamp) != n {
			cm.stamp, cm.child, cm.target = make([]int32, n), make([]int32, n), make([]int32, n)
		}
		cm.last++
		sc.caseStamp = cm.last
	}
	if cm.targets != sc.caseStamp { // this choice's first question, or another choice asked since
		for _, t := range sc.g.Succs[sc.x] {
			cm.target[t] = sc.caseStamp
		}
		cm.targets = sc.caseStamp
	}
	path, c, ans := cm.path[:0], b, -1
	for {
		if cm.stamp[c] == sc.caseStamp {
			ans = int(cm.child[c])
			break
		}
		path = append(path, c)
		p := sc.parent[c]
		if p == sc.x {
			ans = c
			break
		}
		if p < 0 {
			break
		}
		c = p
	}
	for _, v := range path {
		cm.stamp[v], cm.child[v] = sc.caseStamp, int32(ans)
	}
	cm.path = path
	return ans
}

// caseChildWalk is caseChild by a walk up the tree (the reference
// checkFast holds it to).
func (sc *selectionChoice) caseChildWalk(b int) int {
	c := b
	for sc.parent[c] != sc.x {
		if c = sc.parent[c]; c < 0 {
			return -1
		}
	}
	return c
}

// regionSize returns the size of x's region for merge m (-1: none, a
// fresh block), or -1 when the region does not close or grows past limit
// blocks. A selection's region is measured (regionOf: nested regions
// once each); a switch's, and the region without a merge, are walked
// (walkRegion, which leaves the region's blocks in sc.queue for
// casesCover and the break search).
func (sc *selectionChoice) regionSize(m, limit int) int {
	if sc.k != cSwitch && m >= 0 {
		if size, small := sc.smallRegion(m, limit); small {
			return size
		}
		if size, ok := sc.regionOf(sc.x, m, limit); ok {
			if sc.checkFast {
				if walked := sc.walkRegion(m, limit); walked != size {
					panic(fmt.Sprintf("bug: region of %d merging at %d (exits %v): %d measured, %d walked", sc.x, m, sc.exits, size, walked))
				}
			}
			return size
		}
	}
	return sc.walkRegion(m, limit)
}

// smallRegionBlocks is the largest region walked before it is measured: a walk
// that closes within it costs no allocation, and most regions are small.
const smallRegionBlocks = 64

// smallRegion walks x's region for merge m up to smallRegionBlocks
// blocks: small is true when the walk decides within them (size is then
// regionSize's answer, and sc.queue holds the region's blocks when it
// closes). Under checkFast it checks that answer against the full walk
// and reports no answer, so that every region is measured and checked
// too.
func (sc *selectionChoice) smallRegion(m, limit int) (size int, small bool) {
	size, cut := sc.walkRegionCut(m, min(limit, smallRegionBlocks))
	if sc.checkFast {
		if full := sc.walkRegion(m, limit); !cut && full != size {
			panic(fmt.Sprintf("bug: region of %d merging at %d: %d walked within %d blocks, %d walked", sc.x, m, size, smallRegionBlocks, full))
		}
		return 0, false
	}
	return size, !cut
}

// walkRegion is regionSize, walking the region block by block.
func (sc *selectionChoice) walkRegion(m, limit int) int {
	size, _ := sc.walkRegionCut(m, limit)
	return size
}

// walkRegionCut is walkRegion, also saying whether the region was cut at
// limit (size is then -1 whatever a longer walk would find); any other
// -1 is the answer under every larger limit too.
func (sc *selectionChoice) walkRegionCut(m, limit int) (size int, cut bool) {
	sc.stamp++
	st := sc.stamp
	stop := func(t int) bool { return t == m || slices.Contains(sc.exits, t) }
	sc.queue = append(sc.queue[:0], sc.x)
	sc.mark[sc.x] = st
	for i := 0; i < len(sc.queue); i++ {
		if len(sc.queue) > limit {
			return -1, true
		}
		for _, t := range sc.g.Succs[sc.queue[i]] {
			if t == sc.x {
				return -1, false // a cycle through the header: x is not a selection
			}
			if stop(t) || sc.mark[t] == st {
				continue
			}
			sc.mark[t] = st
			sc.queue = append(sc.queue, t)
		}
	}
	for _, b := range sc.queue[1:] {
		for _, p := range sc.preds[b] {
			if sc.mark[p] != st {
				return -1, false // entered past the header (R10)
			}
		}
	}
	return len(sc.queue), false
}
