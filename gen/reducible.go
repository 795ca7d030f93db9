// reducible.go: random reducible graphs, reducible by construction.
//
// The construction rests on the characterization of reducible flowgraphs
// by Hecht and Ullman ("Characterizations of Reducible Flow Graphs", JACM
// 1974): a flowgraph is reducible exactly when its edges split into a DAG
// that reaches every block from the entry and "back" edges whose head
// dominates their tail. So the generator
//
//  1. numbers the blocks 0..n-1 and draws a spanning tree whose parents
//     come before their children (every block reachable; half the time a
//     block's parent is the block just before it, which makes chains);
//  2. gives every block an out-degree: a switch of 3 or 4 successors with
//     probability SwitchProb, else enough for its tree children, and a
//     tree leaf returns, branches or branches conditionally;
//  3. fills the remaining successor slots with forward edges to later
//     blocks (joins, loop exits) or back edges, and the last block, which
//     has no later block, only with back edges;
//  4. computes the dominators of the DAG (tree and forward edges) in one
//     pass of Cooper, Harvey and Kennedy's intersection, exact on a DAG
//     numbered in topological order, and points every back edge at a
//     dominator of its tail: the block itself (a self-loop) or one drawn
//     uniformly from its proper dominators. A back edge to a dominator
//     changes no dominator, so one pass suffices;
//  5. gives some switches a duplicate case and a few conditionals agreeing
//     arms (a free slot repeating a tree edge), shuffles each successor
//     list (the true arm is as often the tree edge as not), and keeps the
//     graph only if every block can still reach a returning block;
//     otherwise it draws again from the same stream. After 16 rejected
//     draws (graphs of thousands of blocks, where almost no draw
//     terminates) it repairs instead: each block that cannot return and
//     has no forward edge becomes a return. Non-termination is the
//     nonterminating kind's business.
//
// Generate then widens a quarter of the switches into jump tables of 5 to
// 300 successors repeating their own targets (widen.go), which changes no
// edge of the graph as a set.
//
// Loops arise wherever a back edge lands; several back edges to one
// header, self-loops and loops left through several exits all arise with
// the frequencies below. The probabilities (reducibleParamsFor): a block's
// tree parent is the block before it 0.5; a tree leaf returns 0.55, else
// is conditional 0.35; a block with one tree child is conditional 0.5; a
// free slot is a back edge 0.12; a back edge is a self-loop 0.1; a switch
// repeats a case 0.5; a conditional's arms agree 0.03. Measured over
// 100,000 graphs of the default config (5-9 blocks, SwitchProb 0.05,
// widened; `cfgfuzz gen --count 100000 --stats`):
//
//	blocks                      5-9, 20% each
//	graphs with a loop          70.1%   (a self-loop: 15.5%)
//	max loop nesting depth      0: 29.9%  1: 46.0%  2: 19.3%  3: 4.1%  4+: 0.7%
//	exit targets per loop       1: 56.0%  2: 33.0%  3+: 11.1%
//	back edges per loop         1: 79.3%  2: 14.2%  3+: 6.4%
//	graphs with a switch        28.7%   (with a duplicate case: 17.7%)
//	a switch of 5+ successors   8.1%    (17+: 1.3%)
//	conditionals, arms agree    6.2% of graphs
//	returning blocks per graph  1: 54.3%  2: 36.3%  3+: 9.4%
//	rejected draws              0.35 per graph (a block could not return)
//
// TestReducibleDistribution keeps these within a few points; regenerate
// them with the command above after changing a probability.

package gen

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// reducibleParams are the generator's probabilities; reducibleParamsFor
// gives the documented ones.
type reducibleParams struct {
	switchProb  float64 // a block is a switch (3 or 4 successors)
	chainProb   float64 // a block's tree parent is the block before it
	retProb     float64 // a tree leaf returns
	leafCond    float64 // a tree leaf that does not return is conditional
	extraProb   float64 // a block with one tree child is conditional
	backProb    float64 // a free successor slot is a back edge
	selfProb    float64 // a back edge is a self-loop
	dupCaseProb float64 // a switch gets a duplicate case
	dupArmProb  float64 // a conditional's two arms agree
	// irreducible turns at least one back edge into a retreating edge to a
	// block that reaches its tail without dominating it (irreducible.go);
	// crossProb is the chance each further back edge is turned too.
	irreducible bool
	crossProb   float64
}

func reducibleParamsFor(c Config) reducibleParams {
	return reducibleParams{
		switchProb:  c.SwitchProb,
		chainProb:   0.5,
		retProb:     0.55,
		leafCond:    0.35,
		extraProb:   0.5,
		backProb:    0.12,
		selfProb:    0.1,
		dupCaseProb: 0.5,
		dupArmProb:  0.03,
	}
}

// redScratch holds one graph's working arrays (see makeRedScratch).
type redScratch struct {
	n                    int
	capa, kids, deg, off []int  // capacity for tree children, tree children, out-degree, first slot
	idom                 []int  // tree parent, then immediate dominator
	live                 []int  // slots used (fillForward), then reaches a return (terminates)
	predOff, preds, work []int  // terminates: predecessor index (n+1, maxSlots*n) and a stack (n)
	flat                 []int  // successor slots, off[b] .. off[b]+deg[b]
	keep, backPending    []bool // per slot: a tree or cross edge, never overwritten; a back edge to fill
	isSwitch             []bool
}

// maxSlots is the most successors a generated block has (a switch of 4).
const maxSlots = 4

// smallBlocks is the block count up to which the scratch arrays live on
// the stack.
const smallBlocks = 16

// scratchInts is the length of the int scratch for n blocks.
func scratchInts(n int) int { return (8+maxSlots)*n + 1 }

// makeRedScratch points the arrays into ints (scratchInts(n)), bools
// ((1+2*maxSlots)n) and out ((1+maxSlots)n), the array the graph keeps:
// weights and successor slots. (It returns a value, not a pointer, so the
// arrays can stay on the caller's stack.)
func makeRedScratch(n int, ints []int, bools []bool, out []int) redScratch {
	return redScratch{
		n: n, capa: ints[:n], kids: ints[n : 2*n], deg: ints[2*n : 3*n], off: ints[3*n : 4*n],
		idom: ints[4*n : 5*n], live: ints[5*n : 6*n], work: ints[6*n : 7*n],
		predOff: ints[7*n : 8*n+1], preds: ints[8*n+1 : (8+maxSlots)*n+1],
		isSwitch: bools[:n], keep: bools[n : (1+maxSlots)*n], backPending: bools[(1+maxSlots)*n:],
		flat: out[n:],
	}
}

// maxDraws bounds the draws for one graph. Every config Validate accepts
// succeeds on most draws; the bound only turns a bug into an error.
const maxDraws = 100000

// errDraws reports a generator that found no graph within maxDraws.
func errDraws(what string, n int) error {
	return fmt.Errorf("%w: no %s graph of %d blocks in %d draws", ErrConfig, what, n, maxDraws)
}

// reducibleGraph returns a reducible graph of n blocks, every block
// reachable from the entry and every block reaching a return.
func reducibleGraph(r *rng, n int, p reducibleParams) (*cfg.Graph, error) {
	var intBuf [(8+maxSlots)*smallBlocks + 1]int
	var boolBuf [(1 + 2*maxSlots) * smallBlocks]bool
	ints, bools := intBuf[:], boolBuf[:]
	if n > smallBlocks {
		ints, bools = make([]int, scratchInts(n)), make([]bool, (1+2*maxSlots)*n)
	}
	out := make([]int, (1+maxSlots)*n)
	s := makeRedScratch(n, ints, bools, out)
	for attempt := range maxDraws {
		if s.try(r, p, attempt >= repairAfter) {
			return slotGraph(out[:n:n], out[n:], s.off, s.deg), nil
		}
	}
	what := "reducible"
	if p.irreducible {
		what = "irreducible"
	}
	return nil, errDraws(what, n)
}

// repairAfter is the number of draws rejected for not terminating before
// the rest are repaired instead. Small graphs almost never get there, so
// their distribution is that of rejection sampling; large ones (thousands
// of blocks, where nearly every draw has a block that cannot return) get
// there at once.
const repairAfter = 16

// try draws one graph into s and reports whether it terminates (and, for
// irreducible graphs, has a cross edge). With repair, a draw that does not
// terminate is repaired (see repair) rather than rejected.
func (s *redScratch) try(r *rng, p reducibleParams, repair bool) bool {
	s.drawTree(r, p)
	s.drawDegrees(r, p)
	s.fillForward(r, p)
	s.dominators()
	if p.irreducible && !s.crossEdges(r, p) {
		return false
	}
	s.fillBack(r, p)
	s.shuffle(r)
	if s.terminates() {
		return true
	}
	if !repair {
		return false
	}
	s.repair()
	return s.terminates()
}

// repair turns each block that cannot reach a return and has neither a
// forward edge (it is a sink of the DAG) nor a cross edge into a return.
// Every block that could not return led along the DAG to such a sink, so
// a reducible draw terminates afterwards; dropping back edges changes no
// dominator, so it stays reducible. Only a region closed by cross edges
// can still fail.
func (s *redScratch) repair() {
	for b := range s.n {
		if s.live[b] != 0 {
			continue
		}
		sink := true
		for k := s.off[b]; k < s.off[b]+s.deg[b]; k++ {
			if s.keep[k] || s.flat[k] > b {
				sink = false
				break
			}
		}
		if sink {
			s.deg[b] = 0
		}
	}
}

func (s *redScratch) drawTree(r *rng, p reducibleParams) {
	for b := range s.n {
		s.kids[b], s.capa[b], s.isSwitch[b] = 0, 2, false
		if p.switchProb > 0 && r.chance(p.switchProb) {
			s.capa[b], s.isSwitch[b] = 3+r.intn(2), true
		}
	}
	for j := 1; j < s.n; j++ {
		pa := j - 1
		if s.kids[pa] >= s.capa[pa] || !r.chance(p.chainProb) {
			// At least j+1 of the 2j slots of blocks 0..j-1 are free.
			for pa = r.intn(j); s.kids[pa] >= s.capa[pa]; pa = r.intn(j) {
			}
		}
		s.idom[j] = pa // the tree parent, until dominators() overwrites it
		s.kids[pa]++
	}
}

func (s *redScratch) drawDegrees(r *rng, p reducibleParams) {
	total := 0
	for b := range s.n {
		d := s.kids[b]
		switch {
		case s.isSwitch[b]:
			d = s.capa[b]
		case d == 1 && r.chance(p.extraProb):
			d = 2
		case d == 0 && !r.chance(p.retProb):
			d = 1
			if r.chance(p.leafCond) {
				d = 2
			}
		}
		s.deg[b], s.off[b] = d, total
		total += d
	}
	s.flat = s.flat[:total]
	s.keep, s.backPending = s.keep[:total], s.backPending[:total]
}

// fillForward places the tree edges first in each block's slots, then
// draws the free slots: a duplicate of an earlier slot (see dupSlot), a
// forward edge to a later block the block does not branch to yet, or a
// back edge filled later (also when no such later block turns up in a few
// draws). Everything that changes the DAG happens here, before
// dominators().
func (s *redScratch) fillForward(r *rng, p reducibleParams) {
	used := s.live // scratch: slots used so far per block
	for b := range s.n {
		used[b] = 0
	}
	for j := 1; j < s.n; j++ {
		pa := s.idom[j]
		k := s.off[pa] + used[pa]
		s.flat[k], s.keep[k], s.backPending[k] = j, true, false
		used[pa]++
	}
	for b := range s.n {
		dup := s.dupSlot(r, p, b, used[b])
		for k := s.off[b] + used[b]; k < s.off[b]+s.deg[b]; k++ {
			s.keep[k] = false
			s.flat[k], s.backPending[k] = b, true // parked: the slot's own block
			if k == dup {
				s.flat[k], s.backPending[k] = s.flat[s.off[b]+r.intn(used[b])], false
				continue
			}
			if b == s.n-1 || r.chance(p.backProb) {
				continue
			}
			if t, ok := s.freshTarget(r, b, k, func() int { return b + 1 + r.intn(s.n-1-b) }); ok {
				s.flat[k], s.backPending[k] = t, false
			}
		}
	}
}

// dupSlot picks the free slot of block b that repeats one of its tree
// edges (a switch's duplicate case, a conditional's agreeing arms), or -1.
func (s *redScratch) dupSlot(r *rng, p reducibleParams, b, tree int) int {
	d := s.deg[b]
	prob := p.dupArmProb
	if d >= 3 {
		prob = p.dupCaseProb
	}
	if d < 2 || tree == 0 || tree == d || !r.chance(prob) {
		return -1
	}
	return s.off[b] + tree + r.intn(d-tree)
}

// freshTarget draws a target for slot k of block b that b's slots before
// k do not name yet; duplicates are left to duplicates().
func (s *redScratch) freshTarget(r *rng, b, k int, draw func() int) (int, bool) {
	for range 4 {
		t := draw()
		if !slices.Contains(s.flat[s.off[b]:k], t) {
			return t, true
		}
	}
	return 0, false
}

// dominators computes the immediate dominators of the DAG of tree and
// forward edges: blocks are numbered topologically, so every predecessor
// of a block is final when the block is reached.
func (s *redScratch) dominators() {
	idom := s.idom
	for b := range s.n {
		idom[b] = cfg.NoBlock
	}
	for b := range s.n {
		for k := s.off[b]; k < s.off[b]+s.deg[b]; k++ {
			t := s.flat[k]
			if s.backPending[k] || t <= b {
				continue
			}
			if idom[t] == cfg.NoBlock {
				idom[t] = b
				continue
			}
			x, y := b, idom[t]
			for x != y {
				if x > y {
					x = idom[x]
				} else {
					y = idom[y]
				}
			}
			idom[t] = x
		}
	}
}

// fillBack points each pending back edge at a dominator of its block,
// one the block does not branch to yet where a few draws find one.
func (s *redScratch) fillBack(r *rng, p reducibleParams) {
	for b := range s.n {
		for k := s.off[b]; k < s.off[b]+s.deg[b]; k++ {
			if !s.backPending[k] {
				continue
			}
			draw := func() int { return s.backTarget(r, p, b) }
			t, ok := s.freshTarget(r, b, k, draw)
			if !ok {
				t = draw()
			}
			s.flat[k], s.backPending[k] = t, false
		}
	}
}

// backTarget draws a dominator of b: b itself with probability
// selfProb (and for the entry), else one of its proper dominators.
func (s *redScratch) backTarget(r *rng, p reducibleParams, b int) int {
	depth := 0
	for x := s.idom[b]; x != cfg.NoBlock; x = s.idom[x] {
		depth++
	}
	if depth == 0 || r.chance(p.selfProb) {
		return b
	}
	t := b
	for range 1 + r.intn(depth) {
		t = s.idom[t]
	}
	return t
}

func (s *redScratch) shuffle(r *rng) {
	for b := range s.n {
		sl := s.flat[s.off[b] : s.off[b]+s.deg[b]]
		for i := len(sl) - 1; i > 0; i-- {
			j := r.intn(i + 1)
			sl[i], sl[j] = sl[j], sl[i]
		}
	}
}

// terminates marks in s.live the blocks that reach a returning block and
// reports whether all do. One pass from the last block to the first
// settles the common case (every block returns or has a later successor
// that does); otherwise a search backwards from the returns over a
// predecessor index decides.
func (s *redScratch) terminates() bool {
	if s.allLiveInOnePass() {
		return true
	}
	n := s.n
	off := s.predOff
	for i := range off {
		off[i] = 0
	}
	for b := range n {
		for _, t := range s.flat[s.off[b] : s.off[b]+s.deg[b]] {
			off[t+1]++
		}
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	cursor := s.live // scratch until the search below
	copy(cursor, off[:n])
	for b := range n {
		for _, t := range s.flat[s.off[b] : s.off[b]+s.deg[b]] {
			s.preds[cursor[t]] = b
			cursor[t]++
		}
	}
	live, stack := s.live, s.work[:0]
	for b := range n {
		live[b] = 0
		if s.deg[b] == 0 {
			live[b] = 1
			stack = append(stack, b)
		}
	}
	count := len(stack)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range s.preds[off[b]:off[b+1]] {
			if live[p] == 0 {
				live[p] = 1
				count++
				stack = append(stack, p)
			}
		}
	}
	return count == n
}

// allLiveInOnePass marks blocks live from the last to the first, each when
// it returns or has a successor already marked, and reports whether all
// got marked. A marked block does reach a return; an unmarked one may
// still (through a back edge to a block marked later).
func (s *redScratch) allLiveInOnePass() bool {
	for b := s.n - 1; b >= 0; b-- {
		s.live[b] = 0
		if s.deg[b] == 0 {
			s.live[b] = 1
			continue
		}
		for _, t := range s.flat[s.off[b] : s.off[b]+s.deg[b]] {
			if t > b && s.live[t] != 0 {
				s.live[b] = 1
				break
			}
		}
		if s.live[b] == 0 {
			return false
		}
	}
	return true
}

// slotGraph makes the graph whose weights are weights and whose block b
// has the successors flat[off[b] : off[b]+deg[b]]; it keeps both arrays.
// (A function of slices rather than a method, so that escape analysis
// keeps the scratch arrays on the stack.)
func slotGraph(weights, flat, off, deg []int) *cfg.Graph {
	g := &cfg.Graph{Succs: make([][]int, len(weights)), Weights: weights}
	for b := range g.Succs {
		g.Succs[b] = flat[off[b] : off[b]+deg[b] : off[b]+deg[b]]
	}
	return g
}
