// irreducible.go: irreducible graphs and nonterminating graphs, both
// built on the reducible generator.
//
// Irreducible. The reducible generator's graphs are a DAG numbered in
// topological order plus back edges to dominators (reducible.go). Here at
// least one back edge u->v is instead a "cross" retreating edge: v comes
// before u, reaches u along the DAG, and does not dominate u. The cycle
// v ~> u -> v then has no block that dominates the rest (v does not
// dominate u; a block after v cannot dominate v, whose DAG path from the
// entry runs through earlier blocks), so by Hecht and Ullman's
// characterization ("Characterizations of Reducible Flow Graphs", JACM
// 1974) the graph is irreducible, and more edges cannot make it
// reducible. Each further back edge turns cross with probability 0.3, when
// it can. The shapes this covers include the two-entry cycle ({{1, 2},
// {2}, {1}}), cycles entered at three or more blocks, and the jump into
// the middle of a loop (an edge into the body from outside, seen from the
// latch as a header that no longer dominates it). Out-degrees, switches
// and block counts are drawn exactly as for reducible graphs; a draw is
// kept only if a cross edge fits and every block still reaches a return,
// so irreducible graphs terminate and every block is reachable. Over
// 100,000 graphs of the default config: loop nesting depth 1: 61%, 2: 32%,
// 3+: 7%; 70% of loops have two or more back edges (edges into an entry);
// 40% of graphs have a switch (a switch has more slots to turn cross).
//
// Nonterminating. A terminating reducible base graph gets, with equal
// probability:
//
//   - a trap: a new block that loops on itself ({t} or {t, t}), entered by
//     a new edge from a block of the base;
//   - a closed loop: two new blocks t1 -> t2 -> {t1 or t1, t2}, entered from
//     the base;
//   - a closed irreducible cycle: two new blocks t1 <-> t2, entered at t1
//     from one block of the base and at t2 from another;
//   - a sealed loop: every exit edge of one loop of the base redirected to
//     its header (blocks only reachable through those exits disappear).
//
// New edges leave blocks with one successor where possible (a return
// becomes a branch into the trap only when none turns up), so out-degrees
// stay 0-2 and most graphs keep a return. Every
// variant leaves a reachable cycle from which no return is reachable
// (TestNonTerminating checks it with cfg.RefReachesExit). Over 100,000
// graphs of the default config: 51% of loops have no exit, 29% of graphs
// are also irreducible, and 24% have no returning block at all (the
// sealed loop held every return, or the only return became the way in).

package gen

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// irreducibleGraph returns a graph with at least one multi-entry loop,
// every block reachable and every block reaching a return.
func irreducibleGraph(r *rng, c Config) (*cfg.Graph, error) {
	p := reducibleParamsFor(c)
	p.irreducible, p.crossProb = true, 0.3
	lo := max(c.MinBlocks, minBlocksFor(Irreducible))
	return reducibleGraph(r, r.between(lo, c.MaxBlocks), p)
}

// crossEdges turns pending back-edge slots into cross retreating edges
// (see the file comment): the first that can be, and each further one
// with probability crossProb. It reports whether at least one was.
func (s *redScratch) crossEdges(r *rng, p reducibleParams) bool {
	done, tries := 0, 0
	for _, k := range r.perm(len(s.flat)) {
		if !s.backPending[k] || (done > 0 && !r.chance(p.crossProb)) {
			continue
		}
		if tries++; tries > maxCrossTries {
			break
		}
		u := s.flat[k] // fillForward parks a back slot's block in it
		if v, ok := s.crossTarget(r, u); ok {
			s.flat[k], s.backPending[k], s.keep[k] = v, false, true
			done++
		}
	}
	return done > 0
}

// maxCrossTries bounds the back edges crossEdges tries to turn in one
// draw (each try searches the DAG): it only matters for large graphs.
const maxCrossTries = 64

// crossTarget draws a block v before u that reaches u along the DAG and
// does not dominate it.
func (s *redScratch) crossTarget(r *rng, u int) (int, bool) {
	if u < 2 {
		return 0, false
	}
	for range 8 {
		v := 1 + r.intn(u-1) // the entry dominates everything
		if !dominates(s.idom, v, u) && s.dagReaches(v, u) {
			return v, true
		}
	}
	return 0, false
}

// dagReaches reports whether u is reachable from v along tree and forward
// edges.
func (s *redScratch) dagReaches(v, u int) bool {
	seen := s.live // scratch until terminates()
	for b := range s.n {
		seen[b] = 0
	}
	stack := []int{v}
	seen[v] = 1
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == u {
			return true
		}
		for k := s.off[b]; k < s.off[b]+s.deg[b]; k++ {
			if t := s.flat[k]; !s.backPending[k] && t > b && t <= u && seen[t] == 0 {
				seen[t] = 1
				stack = append(stack, t)
			}
		}
	}
	return false
}

// dominates reports whether a dominates b, walking b's dominator chain.
func dominates(idom []int, a, b int) bool {
	for x := b; x != cfg.NoBlock; x = idom[x] {
		if x == a {
			return true
		}
	}
	return false
}

// addEdge appends b->t unless b already branches to t, in which case it
// adds nothing (a duplicate adds no path).
func addEdge(g *cfg.Graph, b, t int) {
	if !slices.Contains(g.Succs[b], t) {
		g.Succs[b] = append(g.Succs[b], t)
	}
}

// Nonterminating variants and the blocks each adds.
const (
	ntTrap = iota
	ntClosedLoop
	ntClosedIrreducible
	ntSealed
	ntVariants
)

var ntAdds = [ntVariants]int{ntTrap: 1, ntClosedLoop: 2, ntClosedIrreducible: 2, ntSealed: 0}

// nonTerminatingGraph returns a graph in which some reachable block cannot
// reach a return.
func nonTerminatingGraph(r *rng, c Config) (*cfg.Graph, error) {
	p := reducibleParamsFor(c)
	lo := max(c.MinBlocks, minBlocksFor(NonTerminating))
	for range maxDraws {
		n := r.between(lo, c.MaxBlocks)
		v := r.intn(ntVariants)
		base := n - ntAdds[v]
		if base < 1 || (v == ntClosedIrreducible && base < 2) {
			continue
		}
		g, err := reducibleGraph(r, base, p)
		if err != nil {
			return nil, err
		}
		if g = addNonTermination(r, g, v); g == nil {
			continue
		}
		if g.Len() >= c.MinBlocks && stuckReachable(g, g.Reachable()) {
			return g, nil
		}
	}
	return nil, errDraws("nonterminating", c.MaxBlocks)
}

// addNonTermination applies variant v; nil when the base has no room.
func addNonTermination(r *rng, g *cfg.Graph, v int) *cfg.Graph {
	n := g.Len()
	switch v {
	case ntTrap:
		t := appendBlock(g)
		g.Succs[t] = []int{t}
		if r.chance(0.3) {
			g.Succs[t] = []int{t, t}
		}
		addEdge(g, pickSource(r, g, n, -1), t)
	case ntClosedLoop:
		t1, t2 := appendBlock(g), appendBlock(g)
		g.Succs[t1] = []int{t2}
		g.Succs[t2] = []int{t1}
		if r.chance(0.5) {
			g.Succs[t2] = []int{t1, t2}
		}
		addEdge(g, pickSource(r, g, n, -1), t1)
	case ntClosedIrreducible:
		t1, t2 := appendBlock(g), appendBlock(g)
		g.Succs[t1] = []int{t2}
		g.Succs[t2] = []int{t1}
		x := pickSource(r, g, n, -1)
		addEdge(g, x, t1)
		addEdge(g, pickSource(r, g, n, x), t2)
	default:
		return sealLoop(r, g)
	}
	return g
}

func appendBlock(g *cfg.Graph) int {
	g.Succs = append(g.Succs, nil)
	return len(g.Succs) - 1
}

// pickSource draws a block below n other than not, preferring a block
// with one successor (it becomes a conditional), then a return (it
// becomes a branch into the trap), and only then any block. n must be at
// least 2 when not is a block.
func pickSource(r *rng, g *cfg.Graph, n, not int) int {
	for try := 0; ; try++ {
		b := r.intn(n)
		d := len(g.Succs[b])
		if b != not && (d == 1 || (try >= 24 && d == 0) || try >= 32) {
			return b
		}
	}
}

// sealLoop redirects every exit edge of one loop to its header and drops
// the blocks that become unreachable; nil when the base has no loop.
func sealLoop(r *rng, g *cfg.Graph) *cfg.Graph {
	f := cfg.LoopForest(g)
	if len(f.Loops) == 0 {
		return nil
	}
	li := r.intn(len(f.Loops))
	l := &f.Loops[li]
	for _, b := range l.Blocks {
		for i, t := range g.Succs[b] {
			if !f.Contains(li, t) {
				g.Succs[b][i] = l.Header
			}
		}
	}
	h, _ := g.DropUnreachable()
	return h
}
