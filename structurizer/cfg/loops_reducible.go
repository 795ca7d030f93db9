// loops_reducible.go: the loop nesting forest of a reducible graph in
// near-linear time, by Tarjan's collapse of loop bodies in reverse
// depth-first preorder with a union-find ("Testing flow graph
// reducibility", JCSS 9(3), 1974), as Havlak frames it for loop nesting
// ("Nesting of reducible and irreducible loops", TOPLAS 19(4), 1997). Each
// block is collapsed into its innermost header once and each edge is read
// a bounded number of times, so the time does not grow with the nesting
// depth, which the component search of loops.go pays for on every level.
//
// The collapse also tests reducibility: a loop body entered from a block
// that is no descendant of its header in the depth-first tree is a second
// entry. On such a graph the collapse gives up, and LoopForestOf runs the
// component search, which the forest of an irreducible graph needs (its
// loops are the strongly connected components, Steensgaard's forest).
//
// For a reducible graph the two constructions give the same forest, in the
// same order: the component search numbers the loops region by region
// (breadth first), and within a region the components in the reverse of
// the order in which Tarjan's search completes them. A region's search
// runs the graph's depth-first search restricted to the region (a
// reducible loop is entered only through its header, so nothing outside
// it is met before its blocks are all visited), and a child loop completes
// when its header does: siblings come in the order of their headers'
// reverse post-order numbers. TestReducibleForestMatchesSearch checks the
// two against each other.

package cfg

import "slices"

// reducibleForest fills f (whose LoopOf is all NoBlock) with the loop
// forest of g, reachable part, when g is reducible, and reports whether it
// was. It reads the depth-first orders o and the predecessor lists preds;
// on false, f is as it was given.
func reducibleForest(g *Graph, o Order, preds [][]int, f *Forest) bool {
	t := newDFSTree(g, o)
	c := collapse{t: t, preds: preds, rep: make([]int32, len(g.Succs)), in: make([]int32, len(g.Succs)), mark: make([]int32, len(g.Succs))}
	for b := range c.rep {
		c.rep[b], c.in[b], c.mark[b] = int32(b), -1, -1
	}
	var headers []int // in reverse preorder
	for p := len(t.order) - 1; p >= 0; p-- {
		w := t.order[p]
		isHeader, ok := c.loopAt(w)
		if !ok {
			return false
		}
		if isHeader {
			headers = append(headers, w)
		}
	}
	c.number(o, f, headers)
	return true
}

// dfsTree is the depth-first spanning tree of the blocks the entry
// reaches, the search taking successors in order (as DFSOrder does): each
// block's preorder number and the last preorder number in its subtree, so
// that "a is an ancestor of b" is an interval test.
type dfsTree struct {
	pre   []int32 // preorder number, -1 for an unreachable block
	last  []int32 // by block: the largest preorder number of its subtree
	order []int   // the blocks in preorder
}

func newDFSTree(g *Graph, o Order) *dfsTree {
	n := len(g.Succs)
	t := &dfsTree{pre: make([]int32, n), last: make([]int32, n), order: make([]int, 0, len(o.RPO))}
	for b := range t.pre {
		t.pre[b] = -1
	}
	if n == 0 {
		return t
	}
	type frame struct{ b, i int }
	stack := make([]frame, 1, n) // room for the deepest walk: append never copies it
	stack[0] = frame{0, 0}
	t.pre[0] = 0
	t.order = append(t.order, 0)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if s := g.Succs[top.b]; top.i < len(s) {
			x := s[top.i]
			top.i++
			if t.pre[x] < 0 {
				t.pre[x] = int32(len(t.order))
				t.order = append(t.order, x)
				stack = append(stack, frame{x, 0})
			}
			continue
		}
		t.last[top.b] = int32(len(t.order) - 1)
		stack = stack[:len(stack)-1]
	}
	return t
}

// ancestor reports whether a is b or an ancestor of b in the tree (both
// reachable).
func (t *dfsTree) ancestor(a, b int) bool {
	return t.pre[a] <= t.pre[b] && t.pre[b] <= t.last[a]
}

// collapse is the state of Tarjan's collapse: the union-find of blocks
// into the headers that hold them, and the header each block or inner
// header was collapsed into.
type collapse struct {
	t     *dfsTree
	preds [][]int
	rep   []int32 // union-find parent; a block collapsed into header w points towards w
	in    []int32 // the header a block or header was collapsed into (its loop's parent's, for a header); -1 for none
	mark  []int32 // the header whose body last took the block
	work  []int
	body  []int
}

// find returns the representative of b's set: the outermost header b has
// been collapsed into so far, or b itself (with path halving).
func (c *collapse) find(b int) int {
	x := int32(b)
	for c.rep[x] != x {
		c.rep[x] = c.rep[c.rep[x]]
		x = c.rep[x]
	}
	return int(x)
}

// loopAt collapses the loop headed by w, if any: the blocks (or inner
// headers standing for their loops) that reach a back edge into w without
// passing through it. isHeader is false when no back edge enters w; ok is
// false when the body is entered other than through w (irreducible).
func (c *collapse) loopAt(w int) (isHeader, ok bool) {
	t := c.t
	c.body, c.work = c.body[:0], c.work[:0]
	for _, v := range c.preds[w] {
		if t.pre[v] < 0 || !t.ancestor(w, v) {
			continue // unreachable, or no back edge
		}
		isHeader = true
		if v == w {
			continue // a self-loop
		}
		if x := c.find(v); c.mark[x] != int32(w) {
			c.mark[x] = int32(w)
			c.body = append(c.body, x)
			c.work = append(c.work, x)
		}
	}
	for len(c.work) > 0 {
		x := c.work[len(c.work)-1]
		c.work = c.work[:len(c.work)-1]
		for _, y := range c.preds[x] {
			if t.pre[y] < 0 || t.ancestor(x, y) {
				continue // unreachable, or a back edge into x: inside x's own loop
			}
			r := c.find(y)
			if !t.ancestor(w, r) {
				return false, false // an entry other than w
			}
			if r != w && c.mark[r] != int32(w) {
				c.mark[r] = int32(w)
				c.body = append(c.body, r)
				c.work = append(c.work, r)
			}
		}
	}
	for _, x := range c.body {
		c.in[x] = int32(w)
		c.rep[x] = int32(w)
	}
	return isHeader, true
}

// number builds the forest from the collapse: the loops breadth first
// from the roots, each level's siblings by their headers' reverse
// post-order numbers (the component search's order), LoopOf the innermost
// loop, then the loops' block lists (fillBlocks).
func (c *collapse) number(o Order, f *Forest, headers []int) {
	if len(headers) == 0 {
		return
	}
	byRPO := func(a, b int) int { return o.RPONum[a] - o.RPONum[b] }
	kids := headerKids(c.in, headers)
	loopOf := make([]int32, len(c.in)) // header -> loop index, -1 for any other block
	for b := range loopOf {
		loopOf[b] = -1
	}
	f.Loops = make([]Loop, 0, len(headers))
	entries := make([]int, len(headers)) // each loop's one entry, its header
	queue := make([]int, 1, len(headers)+1)
	queue[0] = -1
	for len(queue) > 0 {
		ph := queue[0]
		queue = queue[1:]
		ks := kids.of(ph)
		slices.SortFunc(ks, byRPO)
		parent, depth := NoBlock, 1
		if ph >= 0 {
			parent = int(loopOf[ph])
			depth = f.Loops[parent].Depth + 1
		}
		for _, h := range ks {
			li := len(f.Loops)
			loopOf[h] = int32(li)
			entries[li] = h
			f.Loops = append(f.Loops, Loop{Header: h, Entries: entries[li : li+1 : li+1], Parent: parent, Depth: depth})
			if parent != NoBlock {
				f.Loops[parent].Children = append(f.Loops[parent].Children, li)
			}
			queue = append(queue, h)
		}
	}
	c.fillLoopOf(f, loopOf)
}

// kidHeaders lists the headers of a collapse under each parent header
// (-1: the roots), all in one array: parent p's are
// all[first[p+1]:first[p+2]], in the order of the headers given.
type kidHeaders struct {
	first []int32
	all   []int
}

// of returns parent header p's children's headers (-1: the roots).
func (k kidHeaders) of(p int) []int { return k.all[k.first[p+1]:k.first[p+2]] }

// headerKids groups headers by their parent header in (the collapse's
// in), a counting sort: one array where a map of lists would allocate a
// list per parent.
func headerKids(in []int32, headers []int) kidHeaders {
	k := len(in) + 1 // parents -1 (the roots) and every block, at p+1
	first := make([]int32, 2*k+1)
	first, next := first[:k+1:k+1], first[k+1:]
	for _, h := range headers {
		first[in[h]+2]++
	}
	for i := 1; i <= k; i++ {
		first[i] += first[i-1]
	}
	copy(next, first[:k])
	all := make([]int, len(headers))
	for _, h := range headers {
		p := in[h] + 1
		all[next[p]] = h
		next[p]++
	}
	return kidHeaders{first: first, all: all}
}

// fillLoopOf sets LoopOf, each block's innermost loop, and then each
// loop's blocks (fillBlocks).
func (c *collapse) fillLoopOf(f *Forest, loopOf []int32) {
	for b := range f.LoopOf {
		switch {
		case loopOf[b] >= 0:
			f.LoopOf[b] = int(loopOf[b])
		case c.in[b] >= 0:
			f.LoopOf[b] = int(loopOf[c.in[b]])
		}
	}
	fillBlocks(f)
}

// fillBlocks sets each loop's block list from LoopOf and the loops'
// parents and children (parents come before their children in the loop
// indices): the ranges of one array that lists the blocks in a preorder of
// the loop tree (see Forest), sized by a count per loop, so the lists take
// O(V) memory and time whatever the nesting depth.
func fillBlocks(f *Forest) {
	nl := len(f.Loops)
	if nl == 0 {
		return
	}
	size := make([]int32, nl)
	at := make([]int32, nl) // each loop's next place for its own blocks
	for _, l := range f.LoopOf {
		if l != NoBlock {
			size[l]++
		}
	}
	for li := nl - 1; li >= 0; li-- { // children after parents: sizes
		if p := f.Loops[li].Parent; p != NoBlock {
			size[p] += size[li]
		}
	}
	f.first = make([]int32, nl)
	var total int32
	for li := range f.Loops { // the roots, in index order
		if f.Loops[li].Parent == NoBlock {
			f.first[li], total = total, total+size[li]
		}
	}
	for li := range f.Loops { // each loop's own blocks, then its children
		next := f.first[li] + size[li]
		for _, c := range slices.Backward(f.Loops[li].Children) {
			next -= size[c]
			f.first[c] = next
		}
		at[li] = f.first[li]
	}
	f.all = make([]int, total)
	f.pos = make([]int32, len(f.LoopOf))
	for b, l := range f.LoopOf {
		f.pos[b] = -1
		if l != NoBlock {
			f.all[at[l]], f.pos[b] = b, at[l]
			at[l]++
		}
	}
	for li := range f.Loops {
		lo, hi := f.first[li], f.first[li]+size[li]
		f.Loops[li].Blocks = f.all[lo:hi:hi]
	}
}

// Shifted returns the forest of the graph with k blocks in no loop put
// before f's, f's blocks numbered k higher. It shares the loops' Children
// lists with f.
func (f *Forest) Shifted(k int) *Forest {
	n := len(f.LoopOf)
	s := &Forest{LoopOf: make([]int, n+k)}
	for b := range k {
		s.LoopOf[b] = NoBlock
	}
	copy(s.LoopOf[k:], f.LoopOf)
	if len(f.Loops) == 0 {
		return s
	}
	s.Loops = make([]Loop, len(f.Loops))
	s.all = make([]int, len(f.all))
	for i, b := range f.all {
		s.all[i] = b + k
	}
	if f.pos != nil {
		s.pos = make([]int32, n+k)
		for b := range k {
			s.pos[b] = -1
		}
		copy(s.pos[k:], f.pos)
		s.first = f.first
	}
	for i, l := range f.Loops {
		l.Header += k
		es := make([]int, len(l.Entries))
		for j, e := range l.Entries {
			es[j] = e + k
		}
		l.Entries = es
		if f.pos != nil {
			lo, hi := f.first[i], f.first[i]+int32(len(l.Blocks))
			l.Blocks = s.all[lo:hi:hi]
		} else {
			bs := make([]int, len(l.Blocks))
			for j, b := range l.Blocks {
				bs[j] = b + k
			}
			l.Blocks = bs
		}
		s.Loops[i] = l
	}
	return s
}
