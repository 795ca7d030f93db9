// rules_containers.go: the constructs that hold each block (D5), listed
// once per block for the rules over edges (R6, R10) and nesting (R8, R16).
//
// A selection, switch, case or loop construct is the blocks its head
// dominates less those its merge (and, for a loop, its continue target
// other than the header) dominates. So a construct headed strictly above
// b in the dominator tree holds b exactly when it holds b's immediate
// dominator and b is neither its merge nor that continue target: b's list
// is its parent's with the constructs ending at b left out, the parent's
// list itself when none ends there, else a copy of its front up to the
// last one left out. Continue constructs are bounded by post-dominance,
// which does not pass down the dominator tree: they stay on every list
// below their head and are tested when read, as every entry is (contains),
// so a list can only hold too much, never miss a construct.
//
// The lists cost the constructs that hold a block plus the continue
// constructs whose head dominates it; a walk up the dominator tree through
// every construct head (rules_containers_test.go's reference) costs every
// head above the block, which a long sequence of selections makes
// quadratic.

package oracle

// conNode is one entry of a block's list: a construct, and the next entry
// (-1 at the end).
type conNode struct{ k, next int32 }

// conLists are the lists of every block.
type conLists struct {
	nodes []conNode
	// below[b] is b's list for the blocks it dominates: its own
	// constructs that can hold them, innermost first, then above[b].
	// above[b] is the list of the constructs headed strictly above b that
	// may hold it. -1 is the empty list.
	below, above []int32
}

// listContainers builds c.lists over the dominator tree, parents first.
// Pre: buildConstructs ran.
func (c *ruleChecker) listContainers() {
	g := c.g
	n := len(g.f.blocks)
	l := &c.lists
	l.nodes = l.nodes[:0]
	l.below, l.above = make([]int32, n), make([]int32, n)
	for b := range n {
		l.below[b], l.above[b] = -1, -1
	}
	ends := c.constructEnds()
	for _, b := range c.domPreorder() {
		if p := g.dom.idom[b]; p >= 0 {
			l.above[b] = c.without(l.below[p], ends.at(b), p)
		}
		head := l.above[b]
		for _, k := range c.at[b] { // outer first: the innermost ends in front
			if c.holdsBelow(k, b) {
				l.nodes = append(l.nodes, conNode{int32(k), head})
				head = int32(len(l.nodes) - 1)
			}
		}
		l.below[b] = head
	}
}

// holdsBelow reports whether construct k, headed at b, can hold a block b
// strictly dominates: a continue construct can; another not when its
// merge dominates b, nor a loop whose continue target (not b) does.
func (c *ruleChecker) holdsBelow(k, b int) bool {
	con := &c.cons[k]
	d := c.g.dom
	switch con.kind {
	case kContinue:
		return true
	case kLoop:
		if ct := c.g.cont[con.owner]; ct >= 0 && ct != con.owner && d.dominates(ct, b) {
			return false
		}
	}
	return !d.dominates(con.merge, b)
}

// onList reports whether construct k is on below[p]: headed at p and
// holding blocks below it, or headed above p and holding p.
func (c *ruleChecker) onList(k, p int) bool {
	if c.cons[k].head == p {
		return c.holdsBelow(k, p)
	}
	return c.contains(k, p)
}

// without is list (below[p]) less the constructs of ends that are on it;
// list itself when none is, else a copy of its front up to the last one
// left out, joined to the rest.
func (c *ruleChecker) without(list int32, ends []int32, p int) int32 {
	var drop []int32
	for _, k := range ends {
		if c.onList(int(k), p) {
			drop = append(drop, k)
		}
	}
	if len(drop) == 0 {
		return list
	}
	l := &c.lists
	var front []int32 // the kept constructs before the last dropped one
	x := list
	for ; x >= 0 && len(drop) > 0; x = l.nodes[x].next {
		k := l.nodes[x].k
		if i := indexOf(drop, k); i >= 0 {
			drop[i] = drop[len(drop)-1]
			drop = drop[:len(drop)-1]
			continue
		}
		front = append(front, k)
	}
	for i := len(front) - 1; i >= 0; i-- {
		l.nodes = append(l.nodes, conNode{front[i], x})
		x = int32(len(l.nodes) - 1)
	}
	return x
}

func indexOf(s []int32, v int32) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// conEnds lists, per block, the constructs that stop holding blocks there
// (not continue constructs): those it merges, and the loops whose
// continue target, not the header, it is.
type conEnds struct {
	first []int32 // per block, -1 none
	next  []int32 // per entry
	k     []int32 // per entry
	buf   []int32
}

func (e *conEnds) add(b, k int) {
	e.k = append(e.k, int32(k))
	e.next = append(e.next, e.first[b])
	e.first[b] = int32(len(e.k) - 1)
}

// at is the constructs ending at b (a slice reused by the next call).
func (e *conEnds) at(b int) []int32 {
	e.buf = e.buf[:0]
	for i := e.first[b]; i >= 0; i = e.next[i] {
		e.buf = append(e.buf, e.k[i])
	}
	return e.buf
}

func (c *ruleChecker) constructEnds() *conEnds {
	n := len(c.g.f.blocks)
	e := &conEnds{first: make([]int32, n)}
	for b := range e.first {
		e.first[b] = -1
	}
	for k := range c.cons {
		con := &c.cons[k]
		if con.kind == kContinue {
			continue
		}
		if con.merge >= 0 && con.merge < n {
			e.add(con.merge, k)
		}
		if ct := c.g.cont[con.owner]; con.kind == kLoop && ct >= 0 && ct != con.owner && ct != con.merge {
			e.add(ct, k)
		}
	}
	return e
}

// domPreorder is the structurally reachable blocks, each after its
// immediate dominator (by the dominator tree's interval numbers).
func (c *ruleChecker) domPreorder() []int {
	d := c.g.dom
	n := len(c.g.f.blocks)
	slot := make([]int, 2*n+1) // pre numbers share a clock with post numbers
	for i := range slot {
		slot[i] = -1
	}
	for b := range n {
		if pre := d.pre[b]; pre >= 0 && pre < len(slot) {
			slot[pre] = b
		}
	}
	order := make([]int, 0, n)
	for _, b := range slot {
		if b >= 0 {
			order = append(order, b)
		}
	}
	return order
}

// containers calls yield for each construct holding b, innermost first,
// until yield returns false.
func (c *ruleChecker) containers(b int, yield func(ki int) bool) {
	if !c.reachable(b) {
		return
	}
	at := c.at[b]
	for i := len(at) - 1; i >= 0; i-- {
		if c.contains(at[i], b) && !yield(at[i]) {
			return
		}
	}
	c.containersAbove(b, b, yield)
}

// containersAbove calls yield for each construct on above[x] that holds
// b, innermost first, until yield returns false.
func (c *ruleChecker) containersAbove(x, b int, yield func(ki int) bool) {
	l := &c.lists
	for i := l.above[x]; i >= 0; i = l.nodes[i].next {
		if k := int(l.nodes[i].k); c.contains(k, b) && !yield(k) {
			return
		}
	}
}

// enclosing calls yield for each construct that encloses construct ki
// (holds its head and is outer to it), innermost first.
func (c *ruleChecker) enclosing(ki int, yield func(ei int) bool) {
	head := c.cons[ki].head
	at := c.at[head]
	p := len(at) - 1
	for p >= 0 && at[p] != ki {
		p--
	}
	for i := p - 1; i >= 0; i-- {
		if c.contains(at[i], head) && !yield(at[i]) {
			return
		}
	}
	c.containersAbove(head, head, yield)
}
