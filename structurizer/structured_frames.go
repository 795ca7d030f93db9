// structured_frames.go: the selections pass's stack of pending positions.
// Walking a construct pushes a frame for each of its joins (a guard block)
// and one for its exit; an edge to a join finds the join's frame in O(1)
// through an index by node (a node is a join of one construct at most, its
// dominator-tree parent's), and a skip past frames records how far it goes
// on the frame it passes, which pop hands down: O(1) per frame, whatever
// the skips.

package structurizer

import "fmt"

// frame is one pending position of the walk: reaching merge means going on
// with node def. A pass frame (a construct's exit block E_x) forwards to the
// enclosing frame and routes nothing itself.
type frame struct {
	merge int
	def   int
	pass  bool
	used  bool
	// crossTo is the stack index of the farthest frame a skip passing this
	// one is going to (noCross: none passes); target: a skip ends here.
	crossTo int
	target  bool
	// accept: route values besides 0 (and the join's own, when target)
	// on which the guard runs the join: a loop merge's destinations that
	// go on through the join.
	accept []uint32
	at     int // the frame's index in the stack it was pushed on
}

const noCross = int(^uint(0) >> 1)

// frameStack is the frames of the level being laid out (a loop body starts
// a stack of its own) and the index of join frames by node.
type frameStack struct {
	stack []*frame
	// pending is, by node, the frame of a join not yet popped: the lookup
	// of an edge's pending join in O(1), where a scan of the stack costs
	// its depth. A node is a join of one construct at most (its dominator
	// tree parent's), so it has one frame at most.
	pending []*frame
}

// newFrame is a pending position.
func newFrame(merge, def int, pass bool) *frame {
	return &frame{merge: merge, def: def, pass: pass, crossTo: noCross}
}

// push puts f on top of the stack; a join's frame becomes its def's
// pending frame.
func (fs *frameStack) push(f *frame) {
	f.at = len(fs.stack)
	fs.stack = append(fs.stack, f)
	if !f.pass {
		fs.pending[f.def] = f
	}
}

// pop removes the top frame and hands the skips passing it on to the frame
// below when they go further: O(1) per frame, whatever the skips.
func (fs *frameStack) pop() *frame {
	k := len(fs.stack) - 1
	f := fs.stack[k]
	fs.stack = fs.stack[:k]
	if !f.pass {
		fs.pending[f.def] = nil
	}
	if f.crossTo < k-1 {
		next := fs.stack[k-1]
		next.crossTo = min(next.crossTo, f.crossTo)
	}
	return f
}

// top is the innermost pending frame, nil for none.
func (fs *frameStack) top() *frame {
	if len(fs.stack) == 0 {
		return nil
	}
	return fs.stack[len(fs.stack)-1]
}

// pendingFor is the stack index of the frame of the current level whose
// join is t, -1 when none is. A loop body starts a stack of its own, so a
// frame of an enclosing level is not at its index in the current stack.
func (fs *frameStack) pendingFor(t int) int {
	f := fs.pending[t]
	if f == nil || f.at >= len(fs.stack) || fs.stack[f.at] != f {
		return -1
	}
	return f.at
}

// pendingScan is pendingFor's obvious reference, a scan of the stack from
// the top, run under Options.CheckPasses.
func (fs *frameStack) pendingScan(t int) int {
	for j := len(fs.stack) - 1; j >= 0; j-- {
		if !fs.stack[j].pass && fs.stack[j].def == t {
			return j
		}
	}
	return -1
}

// joinAt is pendingFor(t) for an edge x->t that skips to a pending join,
// cross-checked against pendingScan when check is set; an edge to a join
// that is not pending is a bug of the walk.
func (fs *frameStack) joinAt(x, t int, check bool) int {
	at := fs.pendingFor(t)
	if check {
		if ref := fs.pendingScan(t); ref != at {
			panic(fmt.Sprintf("bug: edge %d->%d: pending join at %d, the stack's scan says %d", x, t, at, ref))
		}
	}
	if at < 0 {
		panic(fmt.Sprintf("bug: edge %d->%d to a join that is not pending", x, t))
	}
	return at
}
