// structured_emit.go: the selections pass of the structured strategy. After
// the loops pass every level (a loop body, or the function) is acyclic: back
// edges go to the level's latch, exits to its merge, and a child loop is one
// node (its H) followed by its merge. Each level is laid out by a walk of its
// dominator tree in the manner of Ramsey's "Beyond Relooper" (ICFP 2022),
// adapted to SPIR-V's structured rules:
//
//   - a branching node x is a selection header; its dominator-tree children
//     with one incoming edge are its arms, emitted inside the construct;
//   - its children with several incoming edges (joins j1 < j2 < ... in
//     reverse post-order) follow the construct in order. Each join gets a
//     fresh guard block G_i: x's selection merges at G_1, and G_i merges at
//     G_i+1 (the last at a fresh exit block E_x that forwards to the
//     enclosing merge). Declared merges are therefore always fresh synthetic
//     blocks, never a loop's merge or latch (rules R1, R4 and the lesson
//     "never reuse a loop's merge or continue target");
//   - an edge to the innermost pending join branches to the innermost merge;
//     an edge that skips past a join (to a later join, or out of an inner
//     construct) stores the target's route value and branches to the
//     innermost merge; every guard it passes routes the value on to its own
//     merge, and the guard of the target runs the join (the "merge at the
//     join, route the skip, run what lies between under a test" of the
//     field's structurizers), which clears the value;
//   - skips and loop exits share the route variable: a loop merge's edge
//     to its destination carries the destination's value on, so when the
//     destination is a join further out the guards take it as a skip
//     with no store of its own (routedToJoin for the innermost pending
//     join; frame.takes for one past it, on a case of the merge's test or
//     route, whose value every run through it holds), and a destination
//     the merge branches to directly clears it (clearAfterRoute);
//   - edges to the level's latch or merge are continue and break (R6);
//     a switch reaches them through a forwarding block (R11).
//
// In a function with a route variable, every loop's latch that branches
// back unconditionally tests it for a value it never holds, naming the
// loop's merge as its other target (nameMergesAtLatches): a continue
// construct leaves only for its merge (R6), so structurizing the output
// again reads each loop's merge off its latch (the nested pass's
// loopMerge) instead of searching for it.
//
// Small return blocks reached by a skip are cloned instead, within the clone
// budget. Everything is emitted once per node: time is linear in the size of
// the working graph plus the guards' route values.
//
// A skip goes to the innermost merge, not straight to the merge of the
// nearest enclosing switch (a Route guard is one), which R6 would allow
// from a selection with no loop between. Breaking there spares the
// frames in between their tests, but few guards go: most are passed by a
// construct's arm going to one of its own later joins, through the
// construct's merge either way. The inner merges it skips are left
// unreachable or entered once, which fold and thread cannot remove, so
// layouts grow; and an inner exit entered once closes no region the
// nested pass's first run looks for, so such a layout is not always read
// back as laid out (guarantee 5).
//
// This file holds the walk (emitter). The levels it walks are analysed in
// structured_levels.go (which arms there are: isArm, twiceToLoop), and
// where a node with no joins merges at one of its arms in
// structured_arms.go; where an edge that is no arm goes (a break, a
// continue, a join, a skip) is structured_emit_joins.go, over the stack of
// pending joins of structured_frames.go; the Func it builds, block by
// block (guards and loop headers included), structured_emit_func.go; the
// reference its skips that store nothing are checked against under
// CheckPasses, structured_emit_routes.go.

package structurizer

import (
	"fmt"
)

// emitter lays out the working graph as a Func: a walk of each level's
// dominator tree, the constructs it opens routing their edges through
// routes.
type emitter struct {
	funcBuilder
	lv      *levels
	routes  joinRouter
	cur     int // current level (loop index, -1: function)
	headers []int
	placed  []bool
	// deferred: merges chosen past an arm's loop, not laid out in the arm.
	deferred map[int]bool
	depth    int // nodes being emitted (node's recursion)
}

// maxEmitDepth bounds node's recursion, which goes one level deeper for
// each nested loop, arm and join: past it the emitter refuses the graph
// (errEmitDepth) rather than let the goroutine's stack outgrow Go's limit
// (1 GB), which ends the process. A level's frames take about 2 KB for a
// loop (node, emitNode, loop) and at most about 3 KB through a selection
// (node, emitNode, branching, edge), so the stack stays under 400 MB.
var maxEmitDepth = 1 << 17 // a variable for the tests

// emitDepthPanic is what node panics with past maxEmitDepth; run recovers
// it as an error.
type emitDepthPanic struct{}

func newEmitter(w *work, origN int) *emitter {
	lv := newLevels(w)
	fb := funcBuilder{w: w, f: &Func{Blocks: make([]Block, 0, funcBlockBound(w, lv))}, fb: make([]int, len(w.nodes)), origN: origN}
	e := &emitter{funcBuilder: fb, lv: lv, cur: -1, placed: make([]bool, len(w.nodes))} // deferred is made on first use
	e.routes = joinRouter{fb: &e.funcBuilder, frames: frameStack{pending: make([]*frame, len(w.nodes))}}
	for i := range e.fb {
		e.fb[i] = -1
	}
	return e
}

// funcBlockBound is the most blocks the emitter makes for w, whose levels
// are lv, so that the Func's blocks are allocated once: a block per node;
// for a branching node, those of its selection (selectionBlocks); for
// every edge the walk emits that is no arm, the block it may go through
// (edgeBlocks); and for each loop header a node branches to on several
// arms (twiceToLoop), its guard and a block for each of those edges,
// which the counts before took for arms.
func funcBlockBound(w *work, lv *levels) int {
	bound := len(w.nodes)
	for x := range w.nodes {
		n := &w.nodes[x]
		if n.kind == wLoopHeader || n.kind == wLatch {
			continue // their edges are the loop's own (emitter.loop)
		}
		if len(n.succs) >= 2 {
			bound += selectionBlocks(w, lv, x)
		}
		bound += edgeBlocks(w, lv, x)
	}
	for pair := range lv.twice {
		bound++
		for _, t := range w.nodes[pair[0]].succs {
			if t == pair[1] {
				bound++
			}
		}
	}
	return bound
}

// selectionBlocks is the most blocks branching node x's selection adds
// besides its edges': its exit block and a guard per join, none for a
// conditional with no join that breaks or continues on one arm
// (emitter.branchToLoop); and the forwarder of a two-way node to one
// block twice (twoBlocks).
func selectionBlocks(w *work, lv *levels, x int) int {
	succs := w.nodes[x].succs
	k := joinCount(lv, x)
	if k > 0 || len(succs) != 2 || !(lv.sink(w.level[x], succs[0]) || lv.sink(w.level[x], succs[1])) {
		k++
	}
	if len(succs) == 2 && succs[0] == succs[1] {
		k++
	}
	return k
}

// joinCount is the number of x's dominator-tree kids entered from
// several blocks, laid out behind a guard block after x's construct
// (emitter.branching; the loop headers it branches to on several arms
// are funcBlockBound's).
func joinCount(lv *levels, x int) int {
	k := 0
	for _, c := range lv.kids[x] {
		if lv.in[c] >= 2 {
			k++
		}
	}
	return k
}

// edgeBlocks is the most blocks node x's edges add that are no arm by
// their target's dominator and entries alone (levels.isArm but for
// twiceToLoop): a continue or break adds a forwarder from a switch alone
// (joinRouter.toLevelEnd); an edge to a join, a skip or a clone
// (joinRouter.toJoin).
func edgeBlocks(w *work, lv *levels, x int) int {
	n := &w.nodes[x]
	k := 0
	for _, t := range n.succs {
		switch {
		case lv.idom[t] == x && lv.in[t] == 1:
		case lv.sink(w.level[x], t):
			if len(n.succs) >= 3 {
				k++
			}
		default:
			k++
		}
	}
	return k
}

// functionEntry is the node of nodes the function level starts at: the
// input's block 0 when nothing branches to it (so structurizing a
// structured function adds no entry block), else the synthetic entry.
// entered says whether a node other than the synthetic entry branches to
// block 0's node (listSuccs' sweep finds out).
func functionEntry(nodes []wnode, entered bool) int {
	if entered || len(nodes[wEntry].succs) != 1 || nodes[wEntry].succs[0] != 1 || nodes[1].kind != wPlain {
		return wEntry
	}
	return 1
}

// run emits the function level from the entry node.
func (e *emitter) run() (f *Func, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(emitDepthPanic); !ok {
				panic(r)
			}
			f, err = nil, fmt.Errorf("nesting deeper than %d constructs, beyond the emitter's recursion limit", maxEmitDepth)
		}
	}()
	entry := e.lv.entry
	e.block(entry)
	e.node(entry)
	e.routes.clearRoutes(e.headers)
	nameMergesAtLatches(e.f, e.headers, e.w.routeVar, e.w.selVar)
	e.f.Vars = e.w.vars
	if e.w.opt.CheckPasses {
		if _, err := (routedCases{e.w, e.f, e.fb}).check(); err != nil {
			return nil, err
		}
	}
	return e.f, nil
}

// node emits node x and its dominator subtree (emitNode), within
// maxEmitDepth.
func (e *emitter) node(x int) {
	if e.depth++; e.depth > maxEmitDepth {
		panic(emitDepthPanic{})
	}
	e.emitNode(x)
	e.depth--
}

// emitNode emits node x and its dominator subtree.
func (e *emitter) emitNode(x int) {
	id := e.block(x)
	n := &e.w.nodes[x]
	if n.kind == wLoopHeader {
		e.loop(n.loop)
		e.node(e.w.loops[n.loop].M)
		return
	}
	b := e.base(x)
	switch len(n.succs) {
	case 0:
		b.Term = Term{Kind: Unreachable}
		if !n.synthetic() {
			b.Term = Term{Kind: Return}
		}
		e.f.Blocks[id] = b
	case 1:
		b.Term = Term{Kind: Branch, To: e.list(e.edge(x, n.succs[0], false))}
		e.f.Blocks[id] = b
	default:
		e.branching(x, id, b)
	}
}

// loop emits loop li: its header, its body (a level of its own, with no
// pending frames: nothing leaves a loop but through its merge) and latch.
func (e *emitter) loop(li int) {
	l := &e.w.loops[li]
	h, c, m := e.block(l.H), e.block(l.C), e.block(l.M)
	saved, savedCur := e.routes.frames.stack, e.cur
	e.routes.frames.stack, e.cur = nil, li
	e.node(l.entry)
	e.routes.frames.stack, e.cur = saved, savedCur
	e.loopBlocks(l, h, c, m)
	e.headers = append(e.headers, h)
}

// branching emits a selection header x (block id, prepared block b), its
// arms, then its joins under their guards.
func (e *emitter) branching(x, id int, b Block) {
	n := &e.w.nodes[x]
	var joins []int
	for _, k := range e.lv.kids[x] {
		if e.lv.in[k] >= 2 || e.lv.twiceToLoop(x, k) {
			joins = append(joins, k)
		}
	}
	if len(joins) == 0 && (e.branchToLoop(x, id, b) || e.armMerge(x, id, b)) {
		return
	}
	c := e.routes.open(joins)
	sw := len(n.succs) >= 3
	to := e.room.take(len(n.succs))
	caseEdges(n, to, func(i, t int) int {
		e.routes.carried = caseValue(n, i)
		return e.edge(x, t, sw)
	})
	e.twoBlocks(to)
	e.selectionHeader(id, n, b, to, c.merge(), e.cur)
	for i, j := range joins {
		e.routes.guardJoin(c, i, j)
		e.node(j)
	}
	e.routes.close(c)
}

// branchToLoop emits a two-way node x with no joins one of whose targets is
// the loop's latch or merge as a conditional without a merge (a break or
// continue, which R12 allows); its other arm stays in the current construct.
func (e *emitter) branchToLoop(x, id int, b Block) bool {
	n := &e.w.nodes[x]
	if len(n.succs) != 2 || !(e.lv.sink(e.cur, n.succs[0]) || e.lv.sink(e.cur, n.succs[1])) {
		return false
	}
	to := e.list(e.edge(x, n.succs[0], false), e.edge(x, n.succs[1], false))
	e.twoBlocks(to)
	e.setTerm(n, &b, to)
	e.f.Blocks[id] = b
	return true
}

// armMerge emits a branching node x with no joins whose arms do not go on
// after it, except perhaps one: x merges at that arm (or at its last arm
// when none goes on), whose subtree follows the construct. No block is added.
func (e *emitter) armMerge(x, id int, b Block) bool {
	merge, pastLoop := e.lv.armMerge(e.cur, x)
	if merge < 0 {
		return false
	}
	if pastLoop {
		if e.deferred == nil {
			e.deferred = map[int]bool{}
		}
		e.deferred[merge] = true
		defer delete(e.deferred, merge)
	}
	n := &e.w.nodes[x]
	sw := len(n.succs) >= 3
	to := e.room.take(len(n.succs))
	caseEdges(n, to, func(_, t int) int {
		if t != merge {
			return e.edge(x, t, sw)
		}
		id := e.block(t)
		e.routes.clearAfterRoute(x, t)
		return id
	})
	e.twoBlocks(to)
	e.selectionHeader(id, n, b, to, e.block(merge), e.cur)
	e.placed[merge] = true
	e.node(merge)
	return true
}

// caseEdges sets to[i] to edge(i, t) for each slot i of node n, of target
// t, in order; a switch's repeated case (the target and case value of an
// earlier slot, caseValue) shares that slot's block instead. A
// conditional's agreeing arms are left to twoBlocks.
func caseEdges(n *wnode, to []int, edge func(i, t int) int) {
	var cases slotIndex
	key := func(j int) uint64 { return uint64(n.succs[j])<<32 | uint64(caseValue(n, j)) }
	for i, t := range n.succs {
		if len(n.succs) >= 3 {
			if j := cases.repeat(len(n.succs), i, key); j >= 0 {
				to[i] = to[j]
				continue
			}
		}
		to[i] = edge(i, t)
	}
}

// edge returns the block that node x's edge to t branches to, emitting t's
// subtree when t is an arm of x; an edge that is no arm goes where routes
// sends it (a break, a continue, a join or a skip).
func (e *emitter) edge(x, t int, sw bool) int {
	carried := e.routes.carried
	e.routes.carried = 0
	if id, ok := e.routes.toLevelEnd(x, t, sw, e.cur); ok {
		return id
	}
	if e.deferred[t] {
		e.routes.clearAfterRoute(x, t)
		return e.block(t) // a selection's merge, laid out after it
	}
	if e.lv.isArm(x, t) {
		if e.fb[t] < 0 || !e.placed[t] {
			e.placed[t] = true
			e.node(t)
		}
		e.routes.clearAfterRoute(x, t)
		return e.fb[t]
	}
	return e.routes.toJoin(x, t, carried)
}

// nameMergesAtLatches: in a function f with a route variable routeVar
// (else an irreducible region's selector variable selVar), each loop's
// latch (of the loops headed by headers) that branches back
// unconditionally (a synthetic latch, or the input's own back-edge block)
// tests it for a value it never holds, naming the loop's merge as its
// other target; the merge is then where the continue construct may leave
// for (R6), and structurizing the output again reads it off instead of
// searching. A loop whose header's conditional leaves it is named there
// already (R12).
func nameMergesAtLatches(f *Func, headers []int, routeVar, selVar int) {
	v := routeVar
	if v < 0 {
		v = selVar // it never holds neverRouted either: its values are entry numbers
	}
	if v < 0 {
		return
	}
	nameLoopMerges(f, headers, v)
}
