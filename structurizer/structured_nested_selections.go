// structured_nested_selections.go: the nested pass's selection and switch
// declarations. A walk of the structural dominator tree keeps the stack of
// open constructs (selectionWalk); each conditional that is no break or
// continue (rule R12) and each switch heads a construct, and its merge is
// chosen (selectionChoice): the region between the header and the merge
// must be entered only through the header (R10), leave only for the merge
// or an exit the open constructs allow (R6), and, for a switch, lie in its
// cases, which structured_nested_closes.go tests. Of the candidate merges,
// the one whose region closes smallest wins; a switch's candidates are
// first bounded below by the targets their region must hold
// (switchFloor), so a dispatch of thousands of cases measures one region,
// not one per case. When none closes, the break search
// (structured_nested_breaks.go) looks for the loop merge to blame.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
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
	kind, need, ok := needsHeader(sw.g.Succs[b], &sw.nestDecls, sw.open)
	if !ok {
		return fr, sw.fail("conditional %d with equal targets", b)
	}
	if need {
		m, ok := sw.chooseMerge(b, kind)
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

// needsHeader says whether a branch point with targets s, inside the open
// constructs under declarations d, heads a construct, and of which kind. A
// conditional heads none when it breaks or continues a loop, or when it
// leaves the innermost open switch for its merge (R12 and R6 allow both;
// the lift pass lays out its own conditionals so). ok is false for a
// conditional with equal targets (rule R15).
func needsHeader(s []int, d *nestDecls, open []nestedConstruct) (kind cKind, need, ok bool) {
	switch {
	case len(s) < 2:
		return 0, false, true
	case len(s) > 2:
		return cSwitch, true, true
	case s[0] == s[1]:
		return 0, false, false
	}
	for _, t := range s {
		if h := d.mergeOf[t]; h >= 0 && d.decl[h].Kind == LoopMerge || d.contOf[t] >= 0 {
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
// comment of structured_nested.go). When none does, the break search
// records the loops to blame and the breaks to force (hintFor, hints).
func (sw *selectionWalk) chooseMerge(x int, k cKind) (int, bool) {
	exits := allowedExits(sw.open, k)
	if sw.checkFast {
		if walked := allowedExitsWalk(sw.open, k); !slices.Equal(exits, walked) {
			panic(fmt.Sprintf("bug: exits of %d (kind %d): %v kept, %v walked", x, k, exits, walked))
		}
	}
	sc := &selectionChoice{g: sw.g, preds: sw.preds, tree: &sw.nestTree, pdom: sw.pdom, decls: &sw.nestDecls,
		x: x, k: k, exits: exits, region: sw.headerRegion(x, k, exits), checkFast: sw.checkFast}
	m, ok := sc.choose()
	if !ok {
		bs := breakSearch{nester: sw.nester, x: x, inner: -1, region: &sc.region}
		if len(sw.open) > 0 {
			bs.inner = sw.open[len(sw.open)-1].merge
		}
		bs.hintFor()
		bs.hints()
	}
	return m, ok
}

// selectionChoice is the choice of one selection's or switch's merge
// (chooseMerge): its header x, its kind, the exits it may leave for
// besides the merge (allowedExits) and its region, in graph g with
// predecessors preds, the walk's tree, the post-dominators pdom and the
// run's declarations so far (decls: the blocks other constructs took, and
// where a fresh merge comes from).
type selectionChoice struct {
	g         *cfg.Graph
	preds     [][]int
	tree      *nestTree
	pdom      *cfg.DomTree
	decls     *nestDecls
	x         int
	k         cKind
	exits     []int
	region    headerRegion
	checkFast bool // check every bound against the region it bounds (belowFloor)
}

// choose tries, in order: for a switch, the one target other blocks enter
// too (sharedCase); x's immediate post-dominator; then x's dominator-tree
// descendants breadth first (nearest); a fresh merge when the region
// closes without one. It returns false when no merge closes the region.
func (sc *selectionChoice) choose() (int, bool) {
	n := sc.decls.n
	if sc.k == cSwitch {
		if t := sc.sharedCase(); t >= 0 && sc.usable(t) && sc.region.closes(t, n) >= 0 {
			return t, true
		}
	}
	if p := sc.pdom.IDom[sc.x]; sc.usable(p) && sc.region.closes(p, n) >= 0 {
		return p, true
	}
	if best := sc.nearest(); best >= 0 {
		return best, true
	}
	if sc.region.regionSize(-1, n) < 0 {
		return 0, false
	}
	return sc.decls.newFresh(), true
}

// usable: m may be the merge: a block x strictly dominates that is no
// other construct's merge or continue target nor an allowed exit.
func (sc *selectionChoice) usable(m int) bool {
	return m >= 0 && m < sc.decls.n && sc.tree.dom.StrictlyDominates(sc.x, m) &&
		sc.decls.mergeOf[m] < 0 && sc.decls.contOf[m] < 0 && !slices.Contains(sc.exits, m)
}

// nearest is the usable descendant of x in the dominator tree, level by
// level, whose region closes smallest (ties: the most distinct
// predecessors), among the first nestCandidates tried (a switch's targets
// each a candidate on top: a route's dispatch has many); -1 when none
// closes.
func (sc *selectionChoice) nearest() int {
	best, bestSize, tried, limit := -1, sc.decls.n+1, 0, nestCandidates
	var floor switchFloor
	if sc.k == cSwitch {
		limit += len(sc.g.Succs[sc.x])
		floor = sc.switchFloor()
	}
	level := append([]int(nil), sc.tree.kids[sc.x]...)
	for len(level) > 0 && best < 0 && tried < limit {
		var next []int
		for _, m := range level {
			next = append(next, sc.tree.kids[m]...)
			if !sc.usable(m) || tried >= limit {
				continue
			}
			tried++
			if best >= 0 && sc.belowFloor(floor, m, best, bestSize) {
				continue
			}
			size := sc.region.closes(m, bestSize)
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
		if size := sc.region.closes(m, bestSize); size >= 0 && (size < bestSize || size == bestSize && more) {
			panic(fmt.Sprintf("bug: switch %d's region at %d (%d blocks) beats the best, %d blocks at %d, under its floor", sc.x, m, size, bestSize, best))
		}
	}
	return true
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
			if p != sc.x && !sc.tree.dom.Dominates(t, p) {
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
