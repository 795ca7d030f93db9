// Package cfg defines the control-flow graph every part of cfgfuzz speaks, its
// two text notations, and the analyses the structurizer and the oracle share:
// reverse post-order, dominators and post-dominators (semi-NCA, after
// Georgiadis, "Linear-Time Algorithms for Dominators and Related Problems",
// 2005), the loop nesting forest (SCC-based, after Ramalingam, "On Loops,
// Dominators, and Dominance Frontiers", 2002, Steensgaard's variant) and
// reducibility.
//
// Every fast analysis has a slow reference in reference.go that follows the
// definition literally; the tests cross-check the two on thousands of seeded
// random graphs.
//
// graph.go defines the Graph type and the execution semantics of one block.
package cfg

import (
	"fmt"
	"math"
	"slices"
)

// Graph is a control-flow graph. Block 0 is the entry. Succs[b] lists the
// successors of block b:
//
//   - 0 successors: b returns;
//   - 1: an unconditional branch;
//   - 2: a conditional branch, Succs[b][0] taken when the decision is non-zero;
//   - 3 or more: a switch; Succs[b][0] is the default and Succs[b][k] (k >= 1)
//     is taken for decision value k.
//
// Duplicate targets, self-loops, unreachable blocks, cycles without exits and
// irreducible cycles are all legal. Weights[b] is the number of SPIR-V words
// the block stands for. Names is optional (nil, or one name per block, "" for
// unnamed).
type Graph struct {
	Succs   [][]int
	Weights []int
	Names   []string
}

// New returns a graph of n blocks without edges, all weights zero.
func New(n int) *Graph {
	return &Graph{Succs: make([][]int, n), Weights: make([]int, n)}
}

// FromSuccs builds a graph from successor lists (weights zero). The lists are
// copied. It does not validate; call Validate.
func FromSuccs(succs [][]int) *Graph {
	g := New(len(succs))
	for b, s := range succs {
		g.Succs[b] = slices.Clone(s)
	}
	return g
}

// Len is the number of blocks.
func (g *Graph) Len() int { return len(g.Succs) }

// Weight is the weight of block b (0 when Weights is short).
func (g *Graph) Weight(b int) int {
	if b < len(g.Weights) {
		return g.Weights[b]
	}
	return 0
}

// Name is the name of block b, or "" when it has none.
func (g *Graph) Name(b int) string {
	if b < len(g.Names) {
		return g.Names[b]
	}
	return ""
}

// TotalWeight sums the weights of all blocks.
func (g *Graph) TotalWeight() int {
	t := 0
	for b := range g.Succs {
		t += g.Weight(b)
	}
	return t
}

// WeightList is every block's weight in block order, or nil when every
// block weighs 0: what a record beside a compact notation, which has no
// weights, must carry for the graph to be read back whole.
func (g *Graph) WeightList() []int {
	if g.TotalWeight() == 0 {
		return nil
	}
	w := make([]int, g.Len())
	for b := range w {
		w[b] = g.Weight(b)
	}
	return w
}

// Edges counts the successor entries of all blocks.
func (g *Graph) Edges() int {
	e := 0
	for _, s := range g.Succs {
		e += len(s)
	}
	return e
}

// Clone returns a deep copy.
func (g *Graph) Clone() *Graph {
	h := &Graph{Succs: make([][]int, len(g.Succs)), Weights: make([]int, len(g.Succs))}
	for b, s := range g.Succs {
		h.Succs[b] = slices.Clone(s)
		h.Weights[b] = g.Weight(b)
	}
	if g.Names != nil {
		h.Names = make([]string, len(g.Succs))
		copy(h.Names, g.Names)
	}
	return h
}

// Equal reports whether two graphs have the same blocks, edges, weights and
// names (a nil Names equals all-empty names).
func (g *Graph) Equal(h *Graph) bool {
	if g.Len() != h.Len() {
		return false
	}
	for b := range g.Succs {
		if !slices.Equal(g.Succs[b], h.Succs[b]) || g.Weight(b) != h.Weight(b) || g.Name(b) != h.Name(b) {
			return false
		}
	}
	return true
}

// Preds returns the predecessor lists: one entry per edge, so a block reached
// twice from one switch lists that switch twice. Order: by source, then by
// successor index.
func (g *Graph) Preds() [][]int { return bucketPreds(len(g.Succs), g.Succs, NoBlock) }

// Predecessors lists, for each of n blocks, the blocks whose succ names
// it, in block order (once per edge; nil for none). The lists share one
// array, each capped at its length, so appending to one copies it and
// leaves the others be. succ is called twice per block (bucketEdges).
func Predecessors(n int, succ func(b int) []int) [][]int {
	return bucketEdges(n, nil, n, succ, NoBlock, nil)
}

// PredecessorsIn is Predecessors(len(p), succ) written into p, whose
// contents may be anything: a caller that computes the lists of one
// graph after another hands on the headers' array.
func PredecessorsIn(p [][]int, succ func(b int) []int) [][]int {
	return bucketEdges(len(p), nil, len(p), succ, NoBlock, p)
}

// bucketPreds is the predecessor lists of n blocks over the edges of
// succs (len(succs) <= n), plus, when exit is a block, an edge from every
// block without successors to exit (bucketEdges).
func bucketPreds(n int, succs [][]int, exit int) [][]int {
	return bucketEdges(n, nil, len(succs), func(b int) []int { return succs[b] }, exit, nil)
}

// PredecessorsInOrder lists, for each of n blocks, the blocks of order
// whose succ names it, in the order of order (once per edge; nil for
// none): the edges of blocks not in order do not count. The lists share
// one array, each capped at its length, as Predecessors's do.
func PredecessorsInOrder(n int, order []int, succ func(b int) []int) [][]int {
	return bucketEdges(n, order, len(order), succ, NoBlock, nil)
}

// bucketEdges is the predecessor lists of n blocks over the edges of m
// sources, the blocks of order (nil: blocks 0 to m-1), block b's
// successors succ(b), plus, when exit is a block, an edge from every
// source without successors to exit: a counting sort of the edges by
// target, in the order of their sources. The edges go into one array
// through a cursor per target (at, an int32 array of scratch.go), so the
// scattered writes touch that array and the edge array, not the lists'
// 24-byte headers, which are then written in order, into p when it is
// not nil (n long, of any contents).
func bucketEdges(n int, order []int, m int, succ func(b int) []int, exit int, p [][]int) [][]int {
	source := func(i int) int {
		if order == nil {
			return i
		}
		return order[i]
	}
	sc := newScratch(n + 1) // at (scratch.go)
	defer sc.release()
	at := sc.take(n + 1)
	clear(at)
	edges := 0
	for i := range m { // one sweep counts the edges and each target's
		s := succ(source(i))
		edges += len(s)
		if len(s) == 0 && exit != NoBlock {
			edges++
			at[exit+1]++
		}
		for _, t := range s {
			at[t+1]++
		}
	}
	if edges > math.MaxInt32 {
		panic(fmt.Errorf("cfg: predecessor lists of %d edges: at most %d (int32 cursors)", edges, math.MaxInt32))
	}
	all := make([]int, edges)
	for t := 1; t <= n; t++ {
		at[t] += at[t-1] // at[t]: where t's list starts
	}
	for i := range m {
		b := source(i)
		s := succ(b)
		if len(s) == 0 && exit != NoBlock {
			all[at[exit]] = b
			at[exit]++
		}
		for _, t := range s {
			all[at[t]] = b
			at[t]++ // at[t]: where t's list ends
		}
	}
	if p == nil {
		p = make([][]int, n)
	}
	start := 0
	for t := range n {
		if end := int(at[t]); end > start {
			p[t] = all[start:end:end]
			start = end
		} else {
			p[t] = nil
		}
	}
	return p
}

// Choice maps a decision value to the index of the successor that a block of
// the given out-degree takes. It returns -1 for a returning block and 0 for an
// unconditional branch.
func Choice(outDegree int, decision uint32) int {
	switch {
	case outDegree == 0:
		return -1
	case outDegree == 1:
		return 0
	case outDegree == 2:
		if decision != 0 {
			return 0
		}
		return 1
	default:
		if decision >= 1 && uint64(decision) < uint64(outDegree) {
			return int(decision)
		}
		return 0
	}
}

// Decides reports whether block b consumes a decision (a conditional or a
// switch).
func (g *Graph) Decides(b int) bool { return len(g.Succs[b]) >= 2 }

// Next returns the block that b branches to for the given decision, or -1
// when b returns. For blocks with fewer than two successors the decision is
// ignored.
func (g *Graph) Next(b int, decision uint32) int {
	c := Choice(len(g.Succs[b]), decision)
	if c < 0 {
		return -1
	}
	return g.Succs[b][c]
}

// DecisionFor returns a decision value that makes block b take successor
// index i (the inverse of Choice).
func DecisionFor(outDegree, i int) uint32 {
	switch {
	case outDegree == 2 && i == 0:
		return 1
	case outDegree == 2:
		return 0
	default:
		return uint32(i)
	}
}

// Limits bounds what Validate and the parsers accept. The zero value means
// DefaultLimits.
type Limits struct {
	MaxBlocks int // number of blocks; 0: DefaultLimits.MaxBlocks
	MaxSuccs  int // successors of one block; 0: DefaultLimits.MaxSuccs
	MaxWeight int // weight of one block in words; 0: DefaultLimits.MaxWeight
}

// DefaultLimits are generous for real shaders and keep one graph's memory
// bounded: a million blocks, 65,536 successors per block, a million words per
// block. The compact notation's implicit returning blocks count: an 11-byte
// {{1048575}} is a graph of 1<<20 blocks, the most these limits allow.
var DefaultLimits = Limits{MaxBlocks: 1 << 20, MaxSuccs: 1 << 16, MaxWeight: 1 << 20}

func (l Limits) withDefaults() Limits {
	if l.MaxBlocks <= 0 {
		l.MaxBlocks = DefaultLimits.MaxBlocks
	}
	if l.MaxSuccs <= 0 {
		l.MaxSuccs = DefaultLimits.MaxSuccs
	}
	if l.MaxWeight <= 0 {
		l.MaxWeight = DefaultLimits.MaxWeight
	}
	return l
}

// Validate checks that g has at least one block, that every target is a
// block, and that the limits hold. The error names the first offending block.
func (g *Graph) Validate(lim Limits) error {
	lim = lim.withDefaults()
	n := len(g.Succs)
	if n == 0 {
		return fmt.Errorf("graph has no blocks (block 0 is the entry)")
	}
	if n > lim.MaxBlocks {
		return fmt.Errorf("graph has %d blocks, more than the limit of %d", n, lim.MaxBlocks)
	}
	if g.Weights != nil && len(g.Weights) != n {
		return fmt.Errorf("graph has %d blocks but %d weights", n, len(g.Weights))
	}
	if g.Names != nil && len(g.Names) != n {
		return fmt.Errorf("graph has %d blocks but %d names", n, len(g.Names))
	}
	for b, s := range g.Succs {
		if len(s) > lim.MaxSuccs {
			return fmt.Errorf("block %d has %d successors, more than the limit of %d", b, len(s), lim.MaxSuccs)
		}
		for i, t := range s {
			if t < 0 || t >= n {
				return fmt.Errorf("block %d: successor %d is %d, not a block (0..%d)", b, i, t, n-1)
			}
		}
		if w := g.Weight(b); w < 0 || w > lim.MaxWeight {
			return fmt.Errorf("block %d: weight %d outside 0..%d", b, w, lim.MaxWeight)
		}
	}
	return nil
}

// Reachable marks the blocks reachable from the entry.
func (g *Graph) Reachable() []bool {
	if len(g.Succs) == 0 {
		return []bool{}
	}
	return g.ReachableFrom(0)
}

// ReachableFrom marks the blocks reachable from any of roots (each a
// block of g), the roots included.
func (g *Graph) ReachableFrom(roots ...int) []bool {
	seen := make([]bool, len(g.Succs))
	stack := make([]int, 0, len(roots))
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			stack = append(stack, r)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range g.Succs[b] {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// DropUnreachable returns the subgraph of blocks reachable from the entry,
// renumbered in increasing order of their old ids, and old[newID] = oldID.
// The entry stays block 0.
func (g *Graph) DropUnreachable() (h *Graph, old []int) {
	reach := g.Reachable()
	kept := 0
	for _, r := range reach {
		if r {
			kept++
		}
	}
	old = make([]int, 0, kept)
	for b, r := range reach {
		if r {
			old = append(old, b)
		}
	}
	return g.Subgraph(old), old
}

// InRPO returns the subgraph of blocks reachable from the entry, renumbered
// in reverse post-order (DFSOrder: successors in order), and old[newID] =
// oldID; nil old when g already is that graph (every block reachable and
// numbered in reverse post-order), and h is g. Walks that follow edges in
// that order then visit blocks in about increasing id, and a graph
// renumbered (the entry kept, successor order kept) gives the same h.
func (g *Graph) InRPO() (h *Graph, old []int) {
	rpo := DFSOrder(g).RPO
	same := len(rpo) == len(g.Succs)
	for i, b := range rpo {
		same = same && i == b
	}
	if same {
		return g, nil
	}
	return g.Subgraph(rpo), rpo
}

// Subgraph is the graph of blocks old[0], old[1], ... renumbered 0, 1,
// ... with their weights and names; every successor of a listed block
// must be listed (old[0] is the new entry).
func (g *Graph) Subgraph(old []int) *Graph {
	newID := make([]int, len(g.Succs))
	edges := 0
	for nb, ob := range old {
		newID[ob] = nb
		edges += len(g.Succs[ob])
	}
	h := New(len(old))
	if g.Names != nil {
		h.Names = make([]string, len(old))
	}
	all := make([]int, edges) // every block's list, each capped at its length
	for nb, ob := range old {
		k := len(g.Succs[ob])
		h.Succs[nb], all = all[:k:k], all[k:]
		for i, t := range g.Succs[ob] {
			h.Succs[nb][i] = newID[t]
		}
		h.Weights[nb] = g.Weight(ob)
		if h.Names != nil {
			h.Names[nb] = g.Names[ob]
		}
	}
	return h
}

// Permute returns the graph with block b renamed perm[b]. perm must be a
// permutation with perm[0] == 0 (the entry stays the entry).
func (g *Graph) Permute(perm []int) *Graph {
	h := New(len(g.Succs))
	if g.Names != nil {
		h.Names = make([]string, len(g.Succs))
	}
	for b, s := range g.Succs {
		nb := perm[b]
		h.Succs[nb] = make([]int, len(s))
		for i, t := range s {
			h.Succs[nb][i] = perm[t]
		}
		h.Weights[nb] = g.Weight(b)
		if h.Names != nil {
			h.Names[nb] = g.Names[b]
		}
	}
	return h
}
