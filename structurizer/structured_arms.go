// structured_arms.go: where the selections pass lets a branching node with
// no joins merge without a block of its own (the emitter's armMerge). When
// at most one of the node's arms goes on after it (levels.flows), the node
// merges at that arm, or at its last arm that does not go on when none
// does, and the arm's subtree follows the construct; when the arm that
// goes on is a loop, the merge is where that loop's flow leaves it
// (afterLoop). These are questions about one level of the working graph,
// answered from its analysis (structured_levels.go) and the level being
// laid out (cur: a loop index, -1 for the function).

package structurizer

// sink reports whether t is level cur's latch or merge.
func (lv *levels) sink(cur, t int) bool {
	if cur < 0 {
		return false
	}
	l := &lv.w.loops[cur]
	return t == l.C || t == l.M
}

// armMerge is the block branching node x (with no joins) of level cur can
// merge at, -1 when none: its one arm that goes on, else its last arm that
// does not, never a loop header; an edge straight to a pending join rules
// it out. pastLoop says the arm that goes on is a loop, and the merge is
// where the loop's flow leaves it: the merge is laid out after the
// construct, not in the arm.
func (lv *levels) armMerge(cur, x int) (merge int, pastLoop bool) {
	flowArm, flowing, quiet := -1, 0, -1
	for _, t := range lv.w.nodes[x].succs {
		switch {
		case lv.sink(cur, t):
		case lv.isArm(x, t):
			if lv.flows[t] {
				if flowing == 0 || flowArm != t {
					flowing++
				}
				flowArm = t
			} else if lv.w.nodes[t].kind != wLoopHeader {
				quiet = t // a loop header never becomes a selection merge
			}
		default:
			return -1, false // an edge straight to a pending join
		}
	}
	switch {
	case flowing > 1:
		return -1, false
	case flowing == 0:
		merge = quiet
	case lv.w.nodes[flowArm].kind == wLoopHeader:
		merge, pastLoop = lv.afterLoop(cur, flowArm), true
	default:
		merge = flowArm
	}
	if merge < 0 || lv.w.nodes[merge].kind == wLoopHeader {
		return -1, false
	}
	return merge, pastLoop
}

// afterLoop is where the flow out of loop header h's subtree leaves it: the
// block that the loop's merge (or, down a chain of selections each with one
// arm that goes on, that arm) only branches to, entered from there alone; -1
// when there is no such block. Progress: each step goes down the dominator
// tree.
func (lv *levels) afterLoop(cur, h int) int {
	w := lv.w
	v := w.loops[w.nodes[h].loop].M
	for {
		n := &w.nodes[v]
		if n.kind == wLoopHeader {
			return -1
		}
		if len(n.succs) == 1 {
			t := n.succs[0]
			if lv.sink(cur, t) || !lv.isArm(v, t) || w.nodes[t].kind != wPlain {
				return -1
			}
			return t
		}
		next := -1
		for _, t := range n.succs {
			switch {
			case lv.sink(cur, t):
			case !lv.isArm(v, t) || lv.in[t] >= 2:
				return -1 // a join or a pending block: the flow leaves here
			case lv.flows[t]:
				if next >= 0 && next != t {
					return -1
				}
				next = t
			}
		}
		for _, k := range lv.kids[v] {
			if lv.in[k] >= 2 {
				return -1
			}
		}
		if next < 0 {
			return -1
		}
		v = next
	}
}
