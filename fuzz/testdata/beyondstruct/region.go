// region.go: the region model (the package comment in main.go): the
// irreducible parts made reducible with dispatchers, then the dominator
// tree laid out as loops.

package main

import (
	"fmt"
	"slices"
)

// The func form (fuzz/PROTOCOL.md, "The structured function").
type fn struct {
	Blocks []fblock `json:"blocks"`
	Vars   []fvar   `json:"vars,omitempty"`
}

type fvar struct {
	Name string `json:"name"`
	Init uint32 `json:"init,omitempty"`
}

type fblock struct {
	Name   string   `json:"name,omitempty"`
	Kind   string   `json:"kind"`
	Orig   int      `json:"orig"`
	Weight int      `json:"weight,omitempty"`
	Arity  int      `json:"arity,omitempty"`
	Stores []fstore `json:"stores,omitempty"`
	Merge  fmerge   `json:"merge"`
	Term   fterm    `json:"term"`
}

type fstore struct {
	Var       int      `json:"var"`
	Value     uint32   `json:"value"`
	PerChoice []uint32 `json:"per_choice,omitempty"`
}

type fmerge struct {
	Kind     string `json:"kind"`
	Merge    int    `json:"merge"`
	Continue int    `json:"continue,omitempty"`
}

type fterm struct {
	Kind   string   `json:"kind"`
	To     []int    `json:"to,omitempty"`
	Var    int      `json:"var"`
	Values []uint32 `json:"values,omitempty"`
}

// The variables: the pending exit of a branch out of several loops, and
// the dispatchers' label.
const (
	pendVar  = 0
	labelVar = 1
)

// tnode is a node of the graph being made reducible: an original block,
// a dispatcher (orig -1) switching on the label variable among its edges
// (the first the default, edge i taken for label i), or a store node
// (orig -2) making the stores of an edge into a dispatcher.
type tnode struct {
	orig   int
	edges  []tedge
	stores []fstore
}

const (
	dispatcher = -1
	storeNode  = -2
)

// tedge is an edge with the label stores made on its way.
type tedge struct {
	to     int
	stores []fstore
}

type tgraph struct {
	g     *graph
	nodes []tnode
	entry int
}

// structurize lays g out in the region model.
func structurize(g *graph, bug string) (*fn, *stats, error) {
	t := &tgraph{g: g, entry: 0}
	reach := make([]bool, len(g.succ))
	stack := []int{0}
	reach[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range g.succ[b] {
			if !reach[s] {
				reach[s] = true
				stack = append(stack, s)
			}
		}
	}
	st := &stats{Strategy: "beyond"}
	t.nodes = make([]tnode, len(g.succ))
	var members []int
	for b := range g.succ {
		t.nodes[b].orig = b
		if !reach[b] {
			st.Dropped++
			continue
		}
		st.BlocksIn++
		st.WordsIn += g.weight[b]
		members = append(members, b)
		for _, s := range g.succ[b] {
			t.nodes[b].edges = append(t.nodes[b].edges, tedge{to: s})
		}
	}
	t.reducify(members, -1)
	t.splitStores()
	b := newBuilder(t, bug)
	if err := b.analyse(); err != nil {
		return nil, nil, err
	}
	// The first pass learns which loops a branch out of several loops
	// passes; the second lays out with what it learned.
	b.layout()
	b.reset()
	b.layout()
	f := b.finish()
	st.BlocksOut = len(f.Blocks)
	for _, blk := range f.Blocks {
		switch blk.Kind {
		case "synthetic":
			st.Synthetic++
		default:
			st.WordsOut += blk.Weight
		}
	}
	st.RouteVars = len(f.Vars)
	for _, n := range t.nodes {
		if n.orig == dispatcher {
			st.Dispatcher++
		}
	}
	return f, st, nil
}

// reducify gives every strongly connected component of members with
// several entries a dispatcher, from the outside in. hd is the region's
// header, whose in-edges are its loop's back edges and are left out; -1 at
// the top, where the function's entry counts as entered from outside.
func (t *tgraph) reducify(members []int, hd int) {
	in := make(map[int]bool, len(members))
	for _, v := range members {
		in[v] = true
	}
	start := hd
	if start < 0 {
		start = t.entry
	}
	sccs, pre := t.tarjan(start, in, hd)
	for _, s := range sccs {
		inS := make(map[int]bool, len(s))
		for _, v := range s {
			inS[v] = true
		}
		if len(s) == 1 {
			self := false
			for _, e := range t.nodes[s[0]].edges {
				self = self || (e.to == s[0] && e.to != hd)
			}
			if !self {
				continue
			}
		}
		isEntry := map[int]bool{}
		if hd < 0 && inS[t.entry] {
			isEntry[t.entry] = true
		}
		for _, u := range members {
			if inS[u] {
				continue
			}
			for _, e := range t.nodes[u].edges {
				if inS[e.to] {
					isEntry[e.to] = true
				}
			}
		}
		var entries []int
		for v := range isEntry {
			entries = append(entries, v)
		}
		slices.SortFunc(entries, func(a, b int) int { return pre[a] - pre[b] })
		header := entries[0]
		if len(entries) > 1 {
			d := len(t.nodes)
			disp := tnode{orig: -1}
			number := map[int]uint32{}
			for i, e := range entries {
				disp.edges = append(disp.edges, tedge{to: e})
				number[e] = uint32(i)
			}
			t.nodes = append(t.nodes, disp)
			for _, u := range members {
				for i, e := range t.nodes[u].edges {
					if k, ok := number[e.to]; ok {
						t.nodes[u].edges[i] = tedge{to: d, stores: append(slices.Clone(e.stores), fstore{Var: labelVar, Value: k})}
					}
				}
			}
			if hd < 0 && isEntry[t.entry] {
				// The label starts at 0, the number of the old entry (the
				// first in preorder).
				t.entry = d
			}
			header = d
			s = append(s, d)
		}
		t.reducify(s, header)
	}
}

// splitStores puts a store node on every edge that stores: edges into one
// block from one block that store different numbers are different edges
// (a switch's cases cannot share a block but at their merge).
func (t *tgraph) splitStores() {
	for v := range t.nodes {
		for i, e := range t.nodes[v].edges {
			if len(e.stores) == 0 {
				continue
			}
			t.nodes = append(t.nodes, tnode{orig: storeNode, edges: []tedge{{to: e.to}}, stores: e.stores})
			t.nodes[v].edges[i] = tedge{to: len(t.nodes) - 1}
		}
	}
}

// tarjan returns the strongly connected components of the nodes of in
// reachable from start, over edges into in other than those into skip,
// and each node's preorder number.
func (t *tgraph) tarjan(start int, in map[int]bool, skip int) ([][]int, map[int]int) {
	pre := map[int]int{}
	low := map[int]int{}
	onStack := map[int]bool{}
	var stack []int
	var sccs [][]int
	var visit func(v int)
	visit = func(v int) {
		pre[v] = len(pre)
		low[v] = pre[v]
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range t.nodes[v].edges {
			w := e.to
			if !in[w] || w == skip {
				continue
			}
			if _, seen := pre[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], pre[w])
			}
		}
		if low[v] == pre[v] {
			var s []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				s = append(s, w)
				if w == v {
					break
				}
			}
			sccs = append(sccs, s)
		}
	}
	visit(start)
	return sccs, pre
}

// label names where a branch goes: the merge of the once-loop of merge
// node n, or (loop) the continue target of the loop of header n.
type label struct {
	node int
	loop bool
}

// construct is a loop of the layout: a once-loop whose merge is a merge
// node's code, or a loop around a loop header's code.
type construct struct {
	key     label
	h, c, m int
}

type builder struct {
	t   *tgraph
	bug string
	// analysis of the reducible graph
	rpo      []int
	num      []int // reverse post-order number, -1 unreachable
	idom     []int
	kids     [][]int // dominator tree children in reverse post-order
	isHeader []bool
	isMerge  []bool
	// pass state
	blocks  []fblock
	code    map[int]int // node -> entry block of its code
	passes  map[label]map[label]bool
	ids     map[label]uint32
	usesVar [2]bool
}

func newBuilder(t *tgraph, bug string) *builder {
	return &builder{t: t, bug: bug, passes: map[label]map[label]bool{}}
}

func (b *builder) reset() {
	b.blocks, b.code, b.ids, b.usesVar = nil, map[int]int{}, map[label]uint32{}, [2]bool{}
}

// analyse computes reverse post-order, dominators, loop headers and merge
// nodes, and checks that the graph is reducible now.
func (b *builder) analyse() error {
	b.reversePostorder()
	preds := b.predecessors()
	b.dominators(preds)
	return b.classify(preds)
}

// reversePostorder numbers the nodes reachable from the entry in reverse
// post-order of an iterative depth-first walk (b.rpo, b.num; -1 for the
// others).
func (b *builder) reversePostorder() {
	n := len(b.t.nodes)
	b.num = make([]int, n)
	for i := range b.num {
		b.num[i] = -1
	}
	seen := make([]bool, n)
	var post []int
	type frame struct{ v, i int }
	st := []frame{{b.t.entry, 0}}
	seen[b.t.entry] = true
	for len(st) > 0 {
		f := &st[len(st)-1]
		edges := b.t.nodes[f.v].edges
		if f.i < len(edges) {
			w := edges[f.i].to
			f.i++
			if !seen[w] {
				seen[w] = true
				st = append(st, frame{w, 0})
			}
			continue
		}
		post = append(post, f.v)
		st = st[:len(st)-1]
	}
	for i := len(post) - 1; i >= 0; i-- {
		b.num[post[i]] = len(b.rpo)
		b.rpo = append(b.rpo, post[i])
	}
}

// predecessors lists each reachable node's distinct predecessors.
func (b *builder) predecessors() [][]int {
	preds := make([][]int, len(b.t.nodes))
	for _, u := range b.rpo {
		for _, e := range b.t.nodes[u].edges {
			if !slices.Contains(preds[e.to], u) {
				preds[e.to] = append(preds[e.to], u)
			}
		}
	}
	return preds
}

// dominators computes b.idom by Cooper, Harvey and Kennedy's iteration
// ("A Simple, Fast Dominance Algorithm"), and b.kids, the dominator tree.
func (b *builder) dominators(preds [][]int) {
	n := len(b.t.nodes)
	b.idom = make([]int, n)
	for i := range b.idom {
		b.idom[i] = -1
	}
	root := b.t.entry
	b.idom[root] = root
	intersect := func(x, y int) int {
		for x != y {
			for b.num[x] > b.num[y] {
				x = b.idom[x]
			}
			for b.num[y] > b.num[x] {
				y = b.idom[y]
			}
		}
		return x
	}
	for changed := true; changed; {
		changed = false
		for _, v := range b.rpo[1:] {
			d := -1
			for _, p := range preds[v] {
				if b.idom[p] < 0 {
					continue
				}
				if d < 0 {
					d = p
				} else {
					d = intersect(p, d)
				}
			}
			if d != b.idom[v] {
				b.idom[v] = d
				changed = true
			}
		}
	}
	b.kids = make([][]int, n)
	for _, v := range b.rpo[1:] {
		b.kids[b.idom[v]] = append(b.kids[b.idom[v]], v)
	}
}

// dominates reports whether d dominates v.
func (b *builder) dominates(d, v int) bool {
	for {
		if v == d {
			return true
		}
		if v == b.t.entry {
			return false
		}
		v = b.idom[v]
	}
}

// classify marks loop headers (targets of back edges, each from a block
// they dominate: the graph must be reducible by now) and merge nodes
// (two or more forward predecessors).
func (b *builder) classify(preds [][]int) error {
	n := len(b.t.nodes)
	b.isHeader = make([]bool, n)
	b.isMerge = make([]bool, n)
	for _, v := range b.rpo {
		forward := 0
		for _, p := range preds[v] {
			if b.num[p] >= b.num[v] {
				if !b.dominates(v, p) {
					return fmt.Errorf("internal: still irreducible: edge into %d not from a block it dominates", v)
				}
				b.isHeader[v] = true
			} else {
				forward++
			}
		}
		b.isMerge[v] = forward >= 2
	}
	return nil
}

func (b *builder) add(blk fblock) int {
	b.blocks = append(b.blocks, blk)
	return len(b.blocks) - 1
}

func synthetic(name string) fblock {
	return fblock{Name: name, Kind: "synthetic", Orig: -1, Merge: fmerge{Kind: "none"}, Term: fterm{Kind: "unreachable"}}
}

func (b *builder) id(l label) uint32 {
	if v, ok := b.ids[l]; ok {
		return v
	}
	b.ids[l] = uint32(len(b.ids) + 1)
	return b.ids[l]
}

func (b *builder) passing(c *construct) []label {
	var ls []label
	for l := range b.passes[c.key] {
		ls = append(ls, l)
	}
	return ls
}

func (b *builder) layout() {
	b.reset()
	b.doTree(b.t.entry, nil)
}

// doTree lays out node x and its dominator tree; it returns the entry
// block of the code.
func (b *builder) doTree(x int, ctx []*construct) int {
	if e, ok := b.code[x]; ok {
		return e
	}
	var ys []int
	for _, k := range b.kids[x] {
		if b.isMerge[k] {
			ys = append(ys, k)
		}
	}
	var entry int
	if b.isHeader[x] {
		c := &construct{key: label{x, true}}
		c.h = b.add(synthetic("loop"))
		c.c = b.add(synthetic("continue"))
		b.blocks[c.c].Term = fterm{Kind: "branch", To: []int{c.h}}
		c.m = b.add(synthetic("loop-merge"))
		inner := b.nodeWithin(x, ys, append(slices.Clip(ctx), c))
		b.blocks[c.h].Merge = fmerge{Kind: "loop", Merge: c.m, Continue: c.c}
		b.blocks[c.h].Term = fterm{Kind: "branch", To: []int{inner}}
		b.exitTests(c, -1, ctx)
		entry = c.h
	} else {
		entry = b.nodeWithin(x, ys, ctx)
	}
	b.code[x] = entry
	return entry
}

// nodeWithin lays out x inside once-loops for its merge children ys
// (reverse post-order: the last outermost).
func (b *builder) nodeWithin(x int, ys []int, ctx []*construct) int {
	if len(ys) == 0 {
		return b.emitNode(x, ctx)
	}
	y := ys[len(ys)-1]
	yEntry := b.doTree(y, ctx)
	c := &construct{key: label{y, false}}
	c.h = b.add(synthetic("once"))
	c.c = b.add(synthetic("once-continue"))
	b.blocks[c.c].Term = fterm{Kind: "branch", To: []int{c.h}}
	if len(b.passes[c.key]) == 0 || b.bug == "skip-merge" {
		c.m = yEntry
	} else {
		c.m = b.add(synthetic("once-merge"))
	}
	inner := b.nodeWithin(x, ys[:len(ys)-1], append(slices.Clip(ctx), c))
	b.blocks[c.h].Merge = fmerge{Kind: "loop", Merge: c.m, Continue: c.c}
	b.blocks[c.h].Term = fterm{Kind: "branch", To: []int{inner}}
	if c.m != yEntry {
		b.exitTests(c, yEntry, ctx)
	}
	return c.h
}

// exitTests fills in the merge block of c: on to yEntry (a once-loop's
// merge node) when the pending exit is c's own, else on to the loop around
// it, whose continue target or merge block the pending exit names.
func (b *builder) exitTests(c *construct, yEntry int, ctx []*construct) {
	passing := b.passing(c)
	m := &b.blocks[c.m]
	if len(passing) == 0 {
		if yEntry >= 0 {
			m.Term = fterm{Kind: "branch", To: []int{yEntry}}
		}
		return // a loop nothing leaves: its merge stays unreachable
	}
	o := ctx[len(ctx)-1]
	toCont, toMerge := false, false
	for _, l := range passing {
		if l == o.key && l.loop {
			toCont = true
		} else {
			toMerge = true
		}
	}
	b.usesVar[pendVar] = true
	var out int // where a pending exit goes from here
	switch {
	case toCont && toMerge:
		if yEntry < 0 {
			m.Term = fterm{Kind: "test", Var: pendVar, Values: []uint32{b.id(o.key)}, To: []int{o.c, o.m}}
			return
		}
		q := synthetic("exit-test")
		q.Term = fterm{Kind: "test", Var: pendVar, Values: []uint32{b.id(o.key)}, To: []int{o.c, o.m}}
		out = b.add(q)
		m = &b.blocks[c.m]
		m.Merge = fmerge{Kind: "selection", Merge: yEntry}
	case toCont:
		out = o.c
	default:
		out = o.m
	}
	if yEntry < 0 {
		m.Term = fterm{Kind: "branch", To: []int{out}}
		return
	}
	m.Term = fterm{Kind: "test", Var: pendVar, Values: []uint32{b.id(c.key)}, To: []int{yEntry, out}}
}

// emitNode lays out node x itself: its block and its edges.
func (b *builder) emitNode(x int, ctx []*construct) int {
	n := b.t.nodes[x]
	var blk fblock
	switch n.orig {
	case dispatcher:
		blk = synthetic("dispatch")
	case storeNode:
		blk = synthetic("label")
		blk.Stores = slices.Clone(n.stores)
		b.usesVar[labelVar] = true
	default:
		blk = fblock{Kind: "original", Orig: n.orig, Weight: b.t.g.weight[n.orig], Merge: fmerge{Kind: "none"}, Term: fterm{Kind: "return"}}
		if len(n.edges) >= 2 {
			blk.Arity = len(n.edges)
		}
	}
	self := b.add(blk)
	switch len(n.edges) {
	case 0:
		return self
	case 1:
		to, stores := b.edge(x, n.edges[0], ctx, false)
		b.blocks[self].Stores = append(b.blocks[self].Stores, stores...)
		b.blocks[self].Term = fterm{Kind: "branch", To: []int{to}}
		return self
	}
	sw := len(n.edges) > 2 || n.orig == dispatcher
	var to []int
	arm := map[int]int{} // target node -> its arm, for repeated successors
	for _, e := range n.edges {
		key := e.to
		if a, ok := arm[key]; ok {
			to = append(to, a)
			continue
		}
		t, stores := b.edge(x, e, ctx, sw)
		if len(stores) > 0 {
			fwd := synthetic("edge")
			fwd.Stores = stores
			fwd.Term = fterm{Kind: "branch", To: []int{t}}
			t = b.add(fwd)
		}
		arm[key] = t
		to = append(to, t)
	}
	if b.bug == "swap-arms" && len(to) == 2 && n.orig >= 0 {
		to[0], to[1] = to[1], to[0]
	}
	blk2 := &b.blocks[self]
	same := true
	for _, t := range to {
		same = same && t == to[0]
	}
	if same {
		blk2.Term = fterm{Kind: "branch", To: []int{to[0]}}
		return self
	}
	merge := b.add(synthetic("selection-merge"))
	blk2 = &b.blocks[self]
	blk2.Merge = fmerge{Kind: "selection", Merge: merge}
	if n.orig == dispatcher {
		b.usesVar[labelVar] = true
		vals := make([]uint32, len(to)-1)
		for i := range vals {
			vals[i] = uint32(i + 1)
		}
		blk2.Term = fterm{Kind: "route", Var: labelVar, Values: vals, To: to}
	} else {
		blk2.Term = fterm{Kind: "choose", To: to}
	}
	return self
}

// edge resolves edge e of node x: the block to branch to and the stores
// to make on the way. own asks for a block of the arm's own when the edge
// leaves (a switch's case must be dominated by its header).
func (b *builder) edge(x int, e tedge, ctx []*construct, own bool) (int, []fstore) {
	var stores []fstore
	y := e.to
	if b.num[y] > b.num[x] && !b.isMerge[y] {
		return b.doTree(y, ctx), nil
	}
	l := label{y, b.num[y] <= b.num[x]}
	j := len(ctx) - 1
	for j >= 0 && ctx[j].key != l {
		j--
	}
	if j < 0 {
		panic(fmt.Sprintf("beyondstruct: no construct for the edge %d -> %d", x, y))
	}
	inner := ctx[len(ctx)-1]
	var to int
	switch {
	case j == len(ctx)-1 && l.loop:
		to = inner.c
	case j == len(ctx)-1 && len(b.passes[inner.key]) == 0:
		to = inner.m
	default:
		for k := j + 1; k < len(ctx); k++ {
			if b.passes[ctx[k].key] == nil {
				b.passes[ctx[k].key] = map[label]bool{}
			}
			b.passes[ctx[k].key][l] = true
		}
		if b.bug != "no-pend" || j == len(ctx)-1 {
			stores = append(stores, fstore{Var: pendVar, Value: b.id(l)})
			b.usesVar[pendVar] = true
		}
		to = inner.m
	}
	if own && len(stores) == 0 {
		fwd := synthetic("leave")
		fwd.Term = fterm{Kind: "branch", To: []int{to}}
		return b.add(fwd), nil
	}
	return to, stores
}

// finish lays the blocks out: reverse post-order of the branches from the
// entry (a synthetic one when the code's entry is a branch target), then
// the blocks no branch reaches.
func (b *builder) finish() *fn {
	entry := b.code[b.t.entry]
	targeted := false
	for _, blk := range b.blocks {
		targeted = targeted || slices.Contains(blk.Term.To, entry)
	}
	if targeted {
		e := synthetic("entry")
		e.Term = fterm{Kind: "branch", To: []int{entry}}
		entry = b.add(e)
	}
	n := len(b.blocks)
	seen := make([]bool, n)
	var post []int
	type frame struct{ v, i int }
	st := []frame{{entry, 0}}
	seen[entry] = true
	for len(st) > 0 {
		f := &st[len(st)-1]
		to := b.blocks[f.v].Term.To
		if f.i < len(to) {
			w := to[f.i]
			f.i++
			if !seen[w] {
				seen[w] = true
				st = append(st, frame{w, 0})
			}
			continue
		}
		post = append(post, f.v)
		st = st[:len(st)-1]
	}
	var order []int
	for i := len(post) - 1; i >= 0; i-- {
		order = append(order, post[i])
	}
	for v := range b.blocks {
		if !seen[v] {
			order = append(order, v)
		}
	}
	at := make([]int, n)
	for i, v := range order {
		at[v] = i
	}
	// Variables: only those used, pend first.
	varAt := [2]int{-1, -1}
	f := &fn{}
	for v, used := range b.usesVar {
		if used {
			varAt[v] = len(f.Vars)
			f.Vars = append(f.Vars, fvar{Name: [2]string{"pending_exit", "label"}[v]})
		}
	}
	for _, v := range order {
		blk := b.blocks[v]
		for i := range blk.Term.To {
			blk.Term.To[i] = at[blk.Term.To[i]]
		}
		if blk.Merge.Kind != "none" {
			blk.Merge.Merge = at[blk.Merge.Merge]
			if blk.Merge.Kind == "loop" {
				blk.Merge.Continue = at[blk.Merge.Continue]
			}
		}
		if blk.Term.Kind == "test" || blk.Term.Kind == "route" {
			blk.Term.Var = varAt[blk.Term.Var]
		}
		for i := range blk.Stores {
			blk.Stores[i].Var = varAt[blk.Stores[i].Var]
		}
		f.Blocks = append(f.Blocks, blk)
	}
	return f
}
