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
//     merge, and the guard of the target runs the join (the DESIGN's "merge
//     at the join, route the skip, run what lies between under a test");
//   - edges to the level's latch or merge are continue and break (R6);
//     a switch reaches them through a forwarding block (R11).
//
// Small return blocks reached by a skip are cloned instead, within the clone
// budget. Everything is emitted once per node: time is linear in the size of
// the working graph plus the guards' route values.
//
// The levels it walks are analysed in structured_levels.go (which arms
// there are: isArm, twiceToLoop); its stack of pending joins is
// structured_frames.go; the Func it builds, block by block,
// structured_emit_func.go.
package structurizer

import "fmt"

// neverRouted is a route value no edge stores (values are node ids plus one).
const neverRouted = ^uint32(0) - 1

// emitter lays out the working graph as a Func.
type emitter struct {
	funcBuilder
	lv      *levels
	frames  frameStack
	cur     int // current level (loop index, -1: function)
	headers []int
	clears  []int // blocks of joins that skips end at: they clear the skip variable
	placed  []bool
	// deferred: merges chosen past an arm's loop, not laid out in the arm.
	deferred map[int]bool
	guards   int
}

func newEmitter(w *work, origN int) *emitter {
	fb := funcBuilder{w: w, f: &Func{Blocks: make([]Block, 0, len(w.nodes)+len(w.nodes)/2+4)}, fb: make([]int, len(w.nodes)), origN: origN}
	e := &emitter{funcBuilder: fb, lv: newLevels(w), cur: -1, placed: make([]bool, len(w.nodes)), frames: frameStack{pending: make([]*frame, len(w.nodes))}} // deferred is made on first use
	for i := range e.fb {
		e.fb[i] = -1
	}
	return e
}

// functionEntry is the node the function level starts at: the input's
// block 0 when nothing branches to it (so structurizing a structured
// function adds no entry block), else the synthetic entry.
func (w *work) functionEntry() int {
	if len(w.nodes[wEntry].succs) != 1 || w.nodes[wEntry].succs[0] != 1 || w.nodes[1].kind != wPlain {
		return wEntry
	}
	for i := range w.nodes {
		for _, t := range w.nodes[i].succs {
			if t == 1 && i != wEntry {
				return wEntry
			}
		}
	}
	return 1
}

// run emits the function level from the entry node.
func (e *emitter) run() (*Func, error) {
	entry := e.w.functionEntry()
	e.block(entry)
	e.node(entry)
	if e.w.routeVar >= 0 && !e.w.opt.Has("route-not-cleared") {
		for _, h := range e.headers {
			e.f.Blocks[h].Stores = append([]Store{{Var: e.w.routeVar, Value: 0}}, e.f.Blocks[h].Stores...)
		}
	}
	for _, b := range e.clears {
		e.f.Blocks[b].Stores = append([]Store{{Var: e.w.skipVar, Value: 0}}, e.f.Blocks[b].Stores...)
	}
	e.f.Vars = e.w.vars
	return e.f, nil
}

// node emits node x and its dominator subtree.
func (e *emitter) node(x int) {
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
	saved, savedCur := e.frames.stack, e.cur
	e.frames.stack, e.cur = nil, li
	e.node(l.entry)
	e.frames.stack, e.cur = saved, savedCur
	hb := e.base(l.H)
	hb.Merge = Merge{Kind: LoopMerge, Merge: m, Continue: c}
	hb.Term = Term{Kind: Branch, To: e.list(e.fb[l.entry])}
	hn := &e.w.nodes[l.H]
	switch {
	case hn.orig >= 0 && len(hn.succs) == 2:
		// A while loop's test: one arm is the merge.
		to := e.list(e.fb[l.entry], m)
		if hn.succs[0] == l.M {
			to[0], to[1] = m, e.fb[l.entry]
		}
		e.setTerm(hn, &hb, to)
	case !l.reusedM && len(e.w.nodes[l.M].succs) == 0:
		// A loop with no exit: a test that never holds names the merge, so
		// the merge is a branch target and structurizing the output again
		// finds it (idempotence).
		hb.Term = Term{Kind: Test, Var: e.w.route(), Values: []uint32{neverRouted}, To: e.list(m, e.fb[l.entry])}
	}
	e.f.Blocks[h] = hb
	cb := e.base(l.C)
	cb.Term = Term{Kind: Branch, To: e.list(h)}
	e.f.Blocks[c] = cb
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
	enclosing := e.frames.top()
	exit := newFrame(e.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "exit"}), -1, true)
	if enclosing != nil {
		exit.def = enclosing.def
	}
	e.frames.push(exit)
	gs := make([]*frame, len(joins))
	for i := len(joins) - 1; i >= 0; i-- {
		gs[i] = newFrame(e.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "guard"}), joins[i], false)
		e.frames.push(gs[i])
	}
	e.guards += len(joins)
	merge := exit.merge
	if len(joins) > 0 {
		merge = gs[0].merge
	}
	sw := len(n.succs) >= 3
	to := e.room.take(len(n.succs))
	for i, t := range n.succs {
		to[i] = e.edge(x, t, sw)
	}
	if len(to) == 2 && to[0] == to[1] {
		to[1] = e.forward(to[1])
	}
	b.Merge = Merge{Kind: SelectionMerge, Merge: merge}
	if e.cur >= 0 && !n.synthetic() && e.w.opt.Has("merge-at-continue") {
		b.Merge.Merge = e.block(e.w.loops[e.cur].C)
	}
	e.setTerm(n, &b, to)
	e.f.Blocks[id] = b
	for i, j := range joins {
		e.frames.pop()
		e.guard(gs[i], e.frames.top(), j)
		e.node(j)
	}
	e.frames.pop()
	if exit.used {
		if enclosing == nil {
			panic("bug: construct exit used at the top of a level")
		}
		enclosing.used = true
		e.f.Blocks[exit.merge].Term = Term{Kind: Branch, To: e.list(enclosing.merge)}
	} else {
		e.f.Blocks[exit.merge].Term = Term{Kind: Unreachable}
	}
}

// isSink reports whether t is the current level's latch or merge.
func (e *emitter) isSink(t int) bool {
	if e.cur < 0 {
		return false
	}
	l := &e.w.loops[e.cur]
	return t == l.C || t == l.M
}

// branchToLoop emits a two-way node x with no joins one of whose targets is
// the loop's latch or merge as a conditional without a merge (a break or
// continue, which R12 allows); its other arm stays in the current construct.
func (e *emitter) branchToLoop(x, id int, b Block) bool {
	n := &e.w.nodes[x]
	if len(n.succs) != 2 || !(e.isSink(n.succs[0]) || e.isSink(n.succs[1])) {
		return false
	}
	to := e.list(e.edge(x, n.succs[0], false), e.edge(x, n.succs[1], false))
	if to[0] == to[1] {
		to[1] = e.forward(to[1])
	}
	e.setTerm(n, &b, to)
	e.f.Blocks[id] = b
	return true
}

// armMerge emits a branching node x with no joins whose arms do not go on
// after it, except perhaps one: x merges at that arm (or at its last arm
// when none goes on), whose subtree follows the construct. No block is added.
func (e *emitter) armMerge(x, id int, b Block) bool {
	n := &e.w.nodes[x]
	flowArm, flowing, quiet := -1, 0, -1
	for _, t := range n.succs {
		switch {
		case e.isSink(t):
		case e.lv.isArm(x, t):
			if e.lv.flows[t] {
				if flowing == 0 || flowArm != t {
					flowing++
				}
				flowArm = t
			} else if e.w.nodes[t].kind != wLoopHeader {
				quiet = t // a loop header never becomes a selection merge
			}
		default:
			return false // an edge straight to a pending join
		}
	}
	merge := quiet
	if flowing > 0 {
		merge = flowArm
	}
	if flowing == 1 && e.w.nodes[flowArm].kind == wLoopHeader {
		// The arm that goes on is a loop: merge where its merge goes on to.
		merge = e.afterLoop(flowArm)
		if merge < 0 {
			return false
		}
		if e.deferred == nil {
			e.deferred = map[int]bool{}
		}
		e.deferred[merge] = true
		defer delete(e.deferred, merge)
	}
	if merge < 0 || flowing > 1 || e.w.nodes[merge].kind == wLoopHeader {
		return false
	}
	sw := len(n.succs) >= 3
	to := e.room.take(len(n.succs))
	for i, t := range n.succs {
		if t == merge {
			to[i] = e.block(t)
		} else {
			to[i] = e.edge(x, t, sw)
		}
	}
	if len(to) == 2 && to[0] == to[1] {
		to[1] = e.forward(to[1])
	}
	b.Merge = Merge{Kind: SelectionMerge, Merge: e.block(merge)}
	if e.cur >= 0 && !n.synthetic() && e.w.opt.Has("merge-at-continue") {
		b.Merge.Merge = e.block(e.w.loops[e.cur].C)
	}
	e.setTerm(n, &b, to)
	e.f.Blocks[id] = b
	e.placed[merge] = true
	e.node(merge)
	return true
}

// afterLoop is where the flow out of loop header h's subtree leaves it: the
// block that the loop's merge (or, down a chain of selections each with one
// arm that goes on, that arm) only branches to, entered from there alone; -1
// when there is no such block. Progress: each step goes down the dominator
// tree.
func (e *emitter) afterLoop(h int) int {
	v := e.w.loops[e.w.nodes[h].loop].M
	for {
		n := &e.w.nodes[v]
		if n.kind == wLoopHeader {
			return -1
		}
		if len(n.succs) == 1 {
			t := n.succs[0]
			if e.isSink(t) || !e.lv.isArm(v, t) || e.w.nodes[t].kind != wPlain {
				return -1
			}
			return t
		}
		next := -1
		for _, t := range n.succs {
			switch {
			case e.isSink(t):
			case !e.lv.isArm(v, t) || e.lv.in[t] >= 2:
				return -1 // a join or a pending block: the flow leaves here
			case e.lv.flows[t]:
				if next >= 0 && next != t {
					return -1
				}
				next = t
			}
		}
		for _, k := range e.lv.kids[v] {
			if e.lv.in[k] >= 2 {
				return -1
			}
		}
		if next < 0 {
			return -1
		}
		v = next
	}
}

// guard fills frame f's guard block: a plain branch to join j when no skip
// passes it, else a selection on the skip variable that runs j when no skip
// is pending (0) or the pending one is j's, and sends every other value on
// to the next frame's merge. A join that skips end at clears the variable.
func (e *emitter) guard(f, next *frame, j int) {
	b := Block{Kind: Synthetic, Orig: -1, Name: "guard"}
	jb := e.block(j)
	switch {
	case f.crossTo == noCross:
		b.Term = Term{Kind: Branch, To: e.list(jb)}
	case !f.target:
		next.used = true
		b.Merge = Merge{Kind: SelectionMerge, Merge: next.merge}
		b.Term = Term{Kind: Test, Var: e.w.skip(), Values: []uint32{0}, To: e.list(jb, next.merge)}
	default:
		next.used = true
		b.Merge = Merge{Kind: SelectionMerge, Merge: next.merge}
		to := jb
		if e.w.nodes[j].kind == wLoopHeader {
			to = e.forward(jb) // a loop header keeps one entry edge
		}
		b.Term = Term{Kind: Route, Var: e.w.skip(), Values: []uint32{0, valueOf(j)}, To: e.list(next.merge, to, to)}
	}
	if f.target {
		e.clears = append(e.clears, jb)
	}
	e.f.Blocks[f.merge] = b
}

// edge returns the block that node x's edge to t branches to, emitting t's
// subtree when t is an arm of x.
func (e *emitter) edge(x, t int, sw bool) int {
	if e.cur >= 0 {
		l := &e.w.loops[e.cur]
		if t == l.C || t == l.M {
			id := e.block(t)
			if t == l.M && e.w.opt.Has("exit-to-outer-merge") && l.parent >= 0 {
				id = e.block(e.w.loops[l.parent].M)
			}
			if sw {
				return e.forward(id)
			}
			return id
		}
	}
	if e.deferred[t] {
		return e.block(t) // a selection's merge, laid out after it
	}
	if e.lv.isArm(x, t) {
		if e.fb[t] < 0 || !e.placed[t] {
			e.placed[t] = true
			e.node(t)
		}
		return e.fb[t]
	}
	top := e.frames.top()
	if top == nil {
		panic(fmt.Sprintf("bug: edge %d->%d to a join with no pending frame", x, t))
	}
	if top.def == t {
		top.used = true
		return top.merge
	}
	at := e.frames.pendingFor(t)
	if e.w.opt.CheckPasses {
		if ref := e.frames.pendingScan(t); ref != at {
			panic(fmt.Sprintf("bug: edge %d->%d: pending join at %d, the stack's scan says %d", x, t, at, ref))
		}
	}
	if at < 0 {
		panic(fmt.Sprintf("bug: edge %d->%d to a join that is not pending", x, t))
	}
	if c, ok := e.cloneReturn(t); ok {
		return c
	}
	e.frames.stack[at].target = true
	top.crossTo = min(top.crossTo, at)
	top.used = true
	return e.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "skip",
		Stores: []Store{{Var: e.w.skip(), Value: valueOf(t)}}, Term: Term{Kind: Branch, To: e.list(top.merge)}})
}
