// exhaustive.go: every small graph, once each up to isomorphism, in a
// stable order; and the canonical form that defines "once each".
//
// What is enumerated. A graph of n blocks (1 <= n <= N) in which every
// block has 0, 1 or 2 successors, in order (the first successor of a
// conditional is its true arm, so {1, 2} and {2, 1} differ unless a
// renumbering maps one onto the other), a conditional's two successors may
// be the same block ({2, 2}, arms that agree), self-loops are allowed, and
// every block is reachable from the entry. Graphs with unreachable blocks
// are left out of the enumeration: their number grows far faster than the
// all-reachable graphs' (each dead block may branch anywhere), and what a
// structurizer makes of dead code is exercised by the random kinds, which
// give dead blocks to a share of their graphs (dead.go); a structurizer
// that drops dead blocks sees such a graph as its reachable part, one of
// the graphs here. Two graphs are the same up to
// isomorphism when a renumbering of the blocks that keeps block 0 the
// entry maps each block's successor list, in order, onto the other's.
//
// Canonical form. Because the entry is fixed, every block is reachable
// and successors are ordered, a breadth-first search from the entry that
// visits successors in order numbers the blocks the same way in any two
// isomorphic graphs: that numbering is the canonical form (the standard
// canonical labelling of rooted, ordered graphs). The enumeration
// generates exactly the graphs already in canonical form: block i's
// successor list may name any block discovered so far or the next new
// one, and a block must be discovered before its own list is drawn. The
// test cross-checks this against brute force: all (1+n+n²)^n successor
// assignments, canonicalized by trying every permutation that fixes the
// entry.
//
// Order: by block count, then by the successor lists of blocks 0, 1, ...
// compared in turn, a shorter list first and equal lengths by their
// targets. Counting the completions of each partial graph (a table over
// (block, blocks discovered)) ranks and unranks in O(n³) without
// enumerating, so Generate picks the graph of any index directly.
//
// Counts (graphs of exactly n blocks; ExhaustiveCount sums 1..n):
//
//	n = 1           3        up to 1:           3
//	n = 2          28        up to 2:          31
//	n = 3         481        up to 3:         512
//	n = 4      11,508        up to 4:      12,020
//	n = 5     350,548        up to 5:     362,568
//	n = 6  12,927,692        up to 6:  13,290,260
//	n = 7  558,735,033       up to 7:  572,025,293
//	n = 8  27,662,670,808    up to 8:  28,234,696,101 (by index only)
//
// For n = 2: block 0 must reach block 1, so it is {1}, {0, 1}, {1, 0} or
// {1, 1}, and block 1 is any of the 7 lists over two blocks: 4 x 7 = 28.

package gen

import (
	"iter"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MaxExhaustiveN is the largest N the enumeration supports (its counts
// fit in an int64 with room to spare).
const MaxExhaustiveN = 8

// completions[i][d] counts the ways to finish a canonical graph of n
// blocks whose blocks 0..i-1 have successor lists and in which d blocks
// are discovered.
type completions [][]int

// completionsOf[n] is countCompletions(n), computed once (the tables are
// read-only): Generate unranks one graph per call.
var completionsOf = func() (t [MaxExhaustiveN + 1]func() completions) {
	for n := range t {
		t[n] = sync.OnceValue(func() completions { return countCompletions(n) })
	}
	return t
}()

func countCompletions(n int) completions {
	c := make(completions, n+1)
	for i := range c {
		c[i] = make([]int, n+2)
	}
	c[n][n] = 1
	for i := n - 1; i >= 0; i-- {
		for d := i + 1; d <= n; d++ {
			total := 0
			eachOption(d, n, func(_ []int, nd int) bool {
				total += c[i+1][nd]
				return true
			})
			c[i][d] = total
		}
	}
	return c
}

// eachOption calls f with each successor list a block may have when d of
// n blocks are discovered, in the stable order, and the number of blocks
// discovered after it. f returns false to stop. The list is reused.
func eachOption(d, n int, f func(succ []int, nd int) bool) {
	var buf [2]int
	if !f(buf[:0], d) {
		return
	}
	limit := func(d int) int { // targets 0..d-1 known, d new if there is room
		if d < n {
			return d
		}
		return d - 1
	}
	for t := 0; t <= limit(d); t++ {
		buf[0] = t
		if !f(buf[:1], max(d, t+1)) {
			return
		}
	}
	for t1 := 0; t1 <= limit(d); t1++ {
		d1 := max(d, t1+1)
		for t2 := 0; t2 <= limit(d1); t2++ {
			buf[0], buf[1] = t1, t2
			if !f(buf[:2], max(d1, t2+1)) {
				return
			}
		}
	}
}

// exhaustiveExact is the number of canonical graphs of exactly n blocks.
func exhaustiveExact(n int) int {
	return completionsOf[n]()[0][1]
}

// ExhaustiveCount is the number of graphs of 1 to n blocks the
// enumeration holds (see the file comment); 0 for n outside
// 1..MaxExhaustiveN.
func ExhaustiveCount(n int) int {
	if n < 1 || n > MaxExhaustiveN {
		return 0
	}
	total := 0
	for k := 1; k <= n; k++ {
		total += exhaustiveExact(k)
	}
	return total
}

// ExhaustiveAt returns the graph of index i (0 <= i < ExhaustiveCount(n))
// in the stable order, without enumerating the others; nil when i or n is
// out of range.
func ExhaustiveAt(n, i int) *cfg.Graph {
	if n < 1 || n > MaxExhaustiveN || i < 0 {
		return nil
	}
	for k := 1; k <= n; k++ {
		c := completionsOf[k]()
		if i < c[0][1] {
			return unrank(k, c, i)
		}
		i -= c[0][1]
	}
	return nil
}

func unrank(n int, c completions, r int) *cfg.Graph {
	g := cfg.New(n)
	d := 1
	for b := range n {
		eachOption(d, n, func(succ []int, nd int) bool {
			if r < c[b+1][nd] {
				g.Succs[b] = append([]int{}, succ...)
				d = nd
				return false
			}
			r -= c[b+1][nd]
			return true
		})
	}
	return g
}

// ExhaustiveGraphs returns every graph of 1 to n blocks in the stable
// order: ExhaustiveCount(n) graphs (mind memory above 5). (It cannot be
// called Exhaustive: that is the Kind.)
func ExhaustiveGraphs(n int) []*cfg.Graph {
	var out []*cfg.Graph
	for g := range ExhaustiveAll(n) {
		out = append(out, g)
	}
	return out
}

// ExhaustiveAll yields every graph of 1 to n blocks in the stable order,
// a fresh graph each time.
func ExhaustiveAll(n int) iter.Seq[*cfg.Graph] {
	return func(yield func(*cfg.Graph) bool) {
		if n < 1 || n > MaxExhaustiveN {
			return
		}
		for k := 1; k <= n; k++ {
			e := enumerator{n: k, succs: make([][]int, k), yield: yield}
			if !e.block(0, 1) {
				return
			}
		}
	}
}

type enumerator struct {
	n     int
	succs [][]int
	yield func(*cfg.Graph) bool
}

// block draws every successor list of block b with d blocks discovered;
// false when the consumer stopped.
func (e *enumerator) block(b, d int) bool {
	if b == e.n {
		if d < e.n {
			return true
		}
		return e.yield(cfg.FromSuccs(e.succs))
	}
	if b >= d {
		return true // block b is not reachable
	}
	more := true
	eachOption(d, e.n, func(succ []int, nd int) bool {
		e.succs[b] = succ
		more = e.block(b+1, nd)
		return more
	})
	return more
}

// Canonical returns the canonical form of g's reachable part (see the
// file comment): blocks renumbered in breadth-first order from the entry,
// successors visited in order; weights and names move with their blocks.
// Two graphs whose reachable parts are isomorphic with the entry fixed
// have equal canonical forms.
func Canonical(g *cfg.Graph) *cfg.Graph {
	n := g.Len()
	if n == 0 {
		return g.Clone()
	}
	id := make([]int, n)
	for b := range id {
		id[b] = -1
	}
	order := []int{0}
	id[0] = 0
	for q := 0; q < len(order); q++ {
		for _, t := range g.Succs[order[q]] {
			if id[t] < 0 {
				id[t] = len(order)
				order = append(order, t)
			}
		}
	}
	h, old := g.DropUnreachable()
	perm := make([]int, h.Len())
	for nb, ob := range old {
		perm[nb] = id[ob]
	}
	return h.Permute(perm)
}
