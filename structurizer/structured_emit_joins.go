// structured_emit_joins.go: where the selections pass sends an edge that
// is no arm of its source (joinRouter): to the level's latch or merge, a
// continue or break (R6; a switch's goes through a forwarding block, R11);
// to the innermost pending join, through the innermost merge; or past it
// to a join further out, a skip that stores the join's route value and
// branches to the innermost merge, the guards it passes sending the value
// on (the "merge at the join, route the skip, run what lies between under
// a test" of the field's structurizers). A loop merge's edge carries its
// destination's value on, so a skip from it may store nothing
// (frame.takes, routedToJoin), and the blocks a routed value ends at clear
// the route variable (clearAfterRoute, clearRoutes).

package structurizer

import (
	"fmt"
	"slices"
)

// joinRouter is the routing state of one emitter: the Func under
// construction, the stack of pending joins, the guards made, and the
// route values under way.
type joinRouter struct {
	fb     *funcBuilder
	frames frameStack
	guards int
	clears []int // blocks a routed value ends at (a skip's join, a loop merge's destination): they clear the route variable
	// carried: the route value the edge about to be emitted holds on
	// every run, a loop merge's case (the walk sets it, toJoin reads it,
	// the walk clears it); 0 for none.
	carried uint32
	// taken counts the skips that store nothing because their join's
	// guard takes the value they carry (frame.takes); routedCases.check
	// is their reference.
	taken int
}

// selectionFrames are the pending positions a selection opens: the frame
// of its exit block E_x, above the enclosing frame (nil at the top of a
// level), and one guard frame per join, guards[i] the one of its i-th
// join.
type selectionFrames struct {
	enclosing, exit *frame
	guards          []*frame
}

// merge is where the selection's header merges: its first join's guard,
// else its exit block.
func (c selectionFrames) merge() int {
	if len(c.guards) > 0 {
		return c.guards[0].merge
	}
	return c.exit.merge
}

// open pushes the frames of a selection with joins joins (in the order
// they follow it): its exit, then a guard for each join, the first join's
// innermost.
func (jr *joinRouter) open(joins []int) selectionFrames {
	c := selectionFrames{enclosing: jr.frames.top()}
	c.exit = newFrame(jr.fb.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "exit"}), -1, true)
	if c.enclosing != nil {
		c.exit.def = c.enclosing.def
	}
	jr.frames.push(c.exit)
	c.guards = make([]*frame, len(joins))
	for i := len(joins) - 1; i >= 0; i-- {
		c.guards[i] = newFrame(jr.fb.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "guard"}), joins[i], false)
		jr.frames.push(c.guards[i])
	}
	jr.guards += len(joins)
	return c
}

// guardJoin pops the frame of c's i-th join j, which the walk lays out
// next, and fills its guard block (funcBuilder.guard); a join that skips
// end at clears the route variable.
func (jr *joinRouter) guardJoin(c selectionFrames, i, j int) {
	jr.frames.pop()
	if jb := jr.fb.guard(c.guards[i], jr.frames.top(), j); c.guards[i].target {
		jr.clears = append(jr.clears, jb)
	}
}

// close pops c's exit frame once its joins are laid out: the exit block
// forwards to the enclosing merge when an edge went there, else it is
// unreachable.
func (jr *joinRouter) close(c selectionFrames) {
	jr.frames.pop()
	if !c.exit.used {
		jr.fb.f.Blocks[c.exit.merge].Term = Term{Kind: Unreachable}
		return
	}
	if c.enclosing == nil {
		panic("bug: construct exit used at the top of a level")
	}
	c.enclosing.used = true
	jr.fb.f.Blocks[c.exit.merge].Term = Term{Kind: Branch, To: jr.fb.list(c.enclosing.merge)}
}

// toLevelEnd is the block x's edge to t branches to when t is the latch
// or the merge of loop cur, the current level (a continue or a break:
// through a forwarding block from a switch, sw); false when it is neither
// (or cur is the function level).
func (jr *joinRouter) toLevelEnd(x, t int, sw bool, cur int) (int, bool) {
	if cur < 0 {
		return 0, false
	}
	w := jr.fb.w
	l := &w.loops[cur]
	if t != l.C && t != l.M {
		return 0, false
	}
	if t == l.M && w.nodes[t].kind != wLoopMerge {
		jr.clearAfterRoute(x, t)
	}
	id := jr.fb.block(t)
	if t == l.M && w.opt.Has("exit-to-outer-merge") && l.parent >= 0 {
		id = jr.fb.block(w.loops[l.parent].M)
	}
	if sw {
		return jr.fb.forward(id), true
	}
	return id, true
}

// toJoin is the block x's edge to join t branches to, t pending in the
// current level and no arm of x: the innermost merge for the innermost
// pending join; else a clone of a small return block, or a skip past the
// joins between (carried: the route value every run on the edge holds, 0
// for none).
func (jr *joinRouter) toJoin(x, t int, carried uint32) int {
	w := jr.fb.w
	top := jr.frames.top()
	if top == nil {
		panic(fmt.Sprintf("bug: edge %d->%d to a join with no pending frame", x, t))
	}
	if top.def == t {
		top.used = true
		if w.nodes[x].kind == wLoopMerge {
			jr.routedToJoin(x, t)
		}
		return top.merge
	}
	at := jr.frames.joinAt(x, t, w.opt.CheckPasses)
	if c, ok := jr.fb.cloneReturn(t); ok {
		return c
	}
	top.crossTo = min(top.crossTo, at)
	top.used = true
	if carried != 0 && jr.frames.stack[at].takes(t, carried, w) {
		jr.taken++
		return top.merge // x's own merge: a case may go there (R11)
	}
	jr.frames.stack[at].target = true
	return jr.fb.newBlock(Block{Kind: Synthetic, Orig: -1, Name: "skip",
		Stores: []Store{{Var: w.route(), Value: valueOf(t)}}, Term: Term{Kind: Branch, To: jr.fb.list(top.merge)}})
}

// caseValue is the route value loop merge n holds on its edge i (a case
// of its test or route: the value of the destination it routes there), 0
// for any other node's edge and for the default edge, whose value the
// route does not fix.
func caseValue(n *wnode, i int) uint32 {
	if n.kind != wLoopMerge || i == 0 || i > len(n.values) {
		return 0
	}
	return n.values[i-1]
}

// takes: join t's guard (frame f) can run t on the route value w that a
// skip to t carries already, so the skip stores nothing: t stores the
// route itself (a hop of w's destination: the guard accepts w, as
// routedToJoin has it), or w names t (the skip's own value: t clears it).
// Its reference is routedCases.check (structured_emit_routes.go), which
// runs each such skip through the emitted guards.
//
// Pre: every run on the skip's edge holds w (caseValue), and w names a
// destination whose one hop in this level is t, so no guard the skip
// passes before t's runs its join on w. Post: t's guard runs t on w, and
// the guards it passes send w on.
func (f *frame) takes(t int, w uint32, wk *work) bool {
	switch {
	case storesRoute(&wk.nodes[t], wk.routeVar):
		if !slices.Contains(f.accept, w) {
			f.accept = append(f.accept, w)
		}
		return true
	case w == valueOf(t):
		f.target = true
		return true
	}
	return false
}

// clearAfterRoute: the edge x->t leaves loop merge x for its destination
// t, which clears the route variable (shared with the skips) unless t
// stores it itself.
func (jr *joinRouter) clearAfterRoute(x, t int) {
	w := jr.fb.w
	if w.nodes[x].kind != wLoopMerge || w.routeVar < 0 {
		return
	}
	if storesRoute(&w.nodes[t], w.routeVar) {
		return
	}
	jr.clears = append(jr.clears, jr.fb.block(t))
}

// routedToJoin: loop merge x goes on to t, a pending join, holding the
// route value of its destination; t's guard runs t on that value too (t
// clears it, or stores its own when t is a hop further out).
func (jr *joinRouter) routedToJoin(x, t int) {
	w := jr.fb.w
	f := jr.frames.stack[jr.frames.joinAt(x, t, w.opt.CheckPasses)]
	if !storesRoute(&w.nodes[t], w.routeVar) {
		f.target = true
		return
	}
	n := &w.nodes[x]
	for i, s := range n.succs {
		v := uint32(0)
		switch {
		case s != t:
			continue
		case i > 0:
			v = n.values[i-1]
		case len(w.loops[n.loop].dests) > 0:
			v = valueOf(w.loops[n.loop].dests[0])
		}
		if v != 0 && !slices.Contains(f.accept, v) {
			f.accept = append(f.accept, v)
		}
	}
}

// storesRoute: node n stores route variable rv.
func storesRoute(n *wnode, rv int) bool {
	for _, st := range n.stores {
		if st.Var == rv {
			return true
		}
	}
	return false
}

// clearRoutes makes the blocks of the loop headers headers (unless the
// route-not-cleared fault is planted) and the blocks a routed value ends
// at clear the route variable, before their own stores.
func (jr *joinRouter) clearRoutes(headers []int) {
	w, f := jr.fb.w, jr.fb.f
	if w.routeVar >= 0 && !w.opt.Has("route-not-cleared") {
		for _, h := range headers {
			f.Blocks[h].Stores = append([]Store{{Var: w.routeVar, Value: 0}}, f.Blocks[h].Stores...)
		}
	}
	for _, b := range jr.clears {
		f.Blocks[b].Stores = append([]Store{{Var: w.route(), Value: 0}}, f.Blocks[b].Stores...)
	}
}
