// structured_nested.go: the "nested" pass, which runs before the pass table
// of structured.go. A graph that already nests is laid out as it is: every
// block placed once, no route variable, no clone, no guard, and no block
// added except the function entry, an unreachable merge for a construct
// that never falls through, and a forwarding merge for a loop whose only
// exit another construct declared (withForwarder: a loop that leaves for
// the enclosing loop's continue target or merge), and a loop's own header
// or latch where it lacks one (withLoopBlocks). This is how the strategy
// keeps DESIGN guarantee 5 (idempotence): the CFG of a structured function is a graph that nests,
// so structurizing it again finds declarations for it instead of adding
// blocks. It is also guarantee 6's best case: zero of everything.
//
// Declarations are found by a bounded search (nested): a loop's merge has
// candidates, and which one lets the selections nest shows only later, so
// the pass runs again with other choices (nestedPolicies: breadth first
// over the loops' candidate ranks under four orders, the loops a failed
// walk blames first), within nestRunWork/blocks runs per graph
// (nestMinRuns..nestMaxRuns):
//   - loops (cfg.LoopForest, which must find the graph reducible): the one
//     back-edge block is the continue target (several, or a self-loop, get
//     a latch of their own on a rerun: withLoopBlocks); the merge is the block
//     where the exits' tails close (see loopMerge: the candidates ordered
//     by a policy, the rank chosen by the search), or a fresh unreachable
//     block when the loop never exits;
//   - branch points, in a walk of the dominator tree that keeps the stack of
//     open constructs as the self-check does: a conditional with a target
//     that is a loop's merge or continue target needs no header (rule R12's
//     break and continue; SPIR-V would allow a selection's merge too, but
//     Mesa's lavapipe fails to build a pipeline from such a conditional, so
//     it gets a header like any other); any other branch point is a selection
//     header whose merge is the first candidate that closes its region
//     (below): the immediate post-dominator, then up to nestCandidates
//     blocks of its dominator subtree level by level (the shallowest level
//     with a candidate that closes wins, and in it the smallest region,
//     then the most predecessors: a join rather than an arm;
//     a deeper merge would sit inside a nested construct), then a fresh
//     unreachable block. A switch's merge must also leave every block of
//     its region in a case (casesCover). Its one target entered from elsewhere too
//     is tried first (sharedCase): it is the merge or a case another falls
//     into; cases that fall through are listed so that R11 holds
//     (orderFallThroughs).
//
// A merge M closes header X's region R (the blocks reachable from X without
// passing M or one of the exits the enclosing constructs allow, rule R6)
// when every edge out of R goes to M, to an allowed exit or nowhere (a
// return), and every block of R but X is entered only from R (rule R10).
//
// When a run fails, the pass may rerun on a reshaped graph (a loop's own
// header or latch, withLoopBlocks; a forwarding merge, withForwarder) or
// with a loop's merge forced to a later block (hintFor: a header past the
// loop's merge whose region does not close because one of its branches is
// really the loop's break).
//
// The result must pass SelfCheck; otherwise the pass declines and the pass
// table runs.
// Orders are depth-first orders over successor order, so renumbering the
// input renumbers the output. Faults are planted in its result afterwards
// (plantNestedFaults), where they can apply.
//
// The pass's files: this one holds a run (nester: the structural tree,
// declarations, the Func it builds); the search over runs is
// structured_nested_search.go, the graphs it reruns on
// structured_nested_reshape.go, the loop declarations
// structured_nested_loops.go with their tail test structured_tails.go, the
// selection declarations structured_nested_selections.go, and a switch's
// case order structured_nested_cases.go.
//
// Cost per run: one dominator computation (the structural tree's; the
// graph's post-dominators, loop forest, predecessors and the dominator
// tree's tail index are computed once per graph the search runs on:
// graphFacts), at most nestLoopCandidates+exits tail tests per loop, each
// answered from the tail index (structured_tails.go: O(1) when a count
// decides, else a walk of the smaller of the merge's dominator subtree and
// the tails, never of the rest of the function), and nestCandidates+2 region
// walks per branch point (the level walk stops a region once it is larger
// than the best found); a run whose loops repeat an earlier run's stops
// before the selections. At most nestMaxRuns runs
// per graph (fewer on large graphs), and one per shape when the loops
// themselves do not nest (irreducible, or waiting for a reshaping), which
// is where most graphs that do not nest stop.
package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestCandidates bounds the dominator-subtree candidates tried per header,
// nestLoopCandidates the blocks past a loop's exits tried as its merge.
const (
	nestCandidates     = 8
	nestLoopCandidates = 256
)

// nester holds the analyses and declarations of the nested pass. Blocks are
// the graph's ids; fresh unreachable merges get ids from g.Len() up.
type nester struct {
	g       *cfg.Graph
	n       int
	facts   *graphFacts
	preds   [][]int
	dom     *cfg.DomTree // the structural dominator tree (structuralTree)
	forest  *cfg.Forest  // g's natural loops (graphFacts)
	pdom    *cfg.DomTree
	pre     []int   // depth-first preorder number over successor order (graphFacts)
	parent  []int   // the walk's tree: structural immediate dominators
	kids    [][]int // the walk's tree's children, in preorder
	decl    []Merge // per block (fresh ones included)
	mergeOf []int   // header declaring b as merge, -1
	contOf  []int   // loop header declaring b as continue target, -1
	fresh   int     // fresh unreachable merges
	walked  int     // blocks the tail walks visited (a cost the tests bound)

	why   string // the first reason the graph does not nest as found
	final bool   // why does not depend on the loop-merge policy

	policy     mergePolicy     // how a loop's merge is picked among candidates (loopMerge)
	orig       int             // blocks from orig up are forwarders (withForwarder)
	forward    *[2]int         // {loop header, exit}: the exit is taken; a forwarder would do
	reshape    bool            // a loop needs a header or latch of its own (withLoopBlocks)
	force      map[int]int     // loop header -> the merge it must take when its tails close there
	hints      [][2]int        // {loop header, merge} worth forcing (hintFor)
	ranks      map[int]int     // loop header -> its merge's rank among the candidates (absent: 0)
	options    []loopOptions   // loops with more than one merge that closes, in declaration order
	seen       map[string]bool // loop declarations of earlier runs
	blame      []int           // loop headers whose merge a failed walk suspects (blameOpen)
	allowFresh bool            // a loop whose tails all return may take a fresh merge, last
	freshable  bool            // some loop had such a candidate (taken or not)

	// region walk scratch: mark[b] == stamp means b is in the region.
	mark  []int
	stamp int
	queue []int
}

// nestedConstruct is an open construct of the walk.
type nestedConstruct struct {
	kind        cKind
	header      int
	merge, cont int
}

// run is one run of the pass.
func (nt *nester) run() (*Func, string) {
	if !nt.declareLoops() {
		return nil, nt.why
	}
	if nt.seen != nil {
		k := declKey(nt.decl)
		if nt.seen[k] {
			return nil, whySeen
		}
		nt.seen[k] = true
	}
	nt.structuralTree()
	nt.pdom = nt.facts.postDominators(nt.g)
	if !nt.declareSelections() {
		return nil, nt.why
	}
	f := nt.build()
	layout(f)
	ff := &funcFacts{f: f}
	orderFallThroughs(ff, chainOrder)
	if err := f.Validate(); err != nil {
		return nil, "malformed: " + err.Error()
	}
	if err := selfCheck(ff); err != nil {
		nt.blameRule(f, err)
		return nil, "selfcheck: " + err.Error()
	}
	return f, ""
}

// fail records why the graph does not nest and returns false.
func (nt *nester) fail(format string, args ...any) bool {
	if nt.why == "" {
		nt.why = fmt.Sprintf(format, args...)
	}
	return false
}

func newNester(g *cfg.Graph) *nester { return newNesterWith(g, factsOf(g)) }

// newNesterWith is newNester with g's facts given; the nester only reads
// them.
func newNesterWith(g *cfg.Graph, facts *graphFacts) *nester {
	n := g.Len()
	nt := &nester{g: g, n: n, facts: facts, preds: facts.preds, forest: facts.forest, pre: facts.pre}
	nt.orig = n
	// Room for freshRoom fresh merges (newFresh appends; more copy).
	nt.decl = make([]Merge, n, n+freshRoom)
	perBlock := make([]int, 3*n+2*freshRoom) // mergeOf, contOf, mark
	m := n + freshRoom
	nt.mergeOf, nt.contOf, nt.mark = perBlock[:n:m], perBlock[m:m+n:2*m], perBlock[2*m:]
	for b := range n {
		nt.mergeOf[b], nt.contOf[b] = -1, -1
	}
	return nt
}

// structuralTree replaces the dominator tree by the structural one once
// the loops are declared: over branch edges and each loop header's edges
// to its merge and continue target (the self-check's dominance, rule D3).
// Selections' merge edges are added as they are declared (adopt).
func (nt *nester) structuralTree() {
	succs := make([][]int, nt.n)
	edges := 0
	for b := range nt.n {
		edges += len(nt.g.Succs[b]) + 2
	}
	all := make([]int, 0, edges) // every block's list, each capped at its length
	for b := range nt.n {
		start := len(all)
		if d := nt.decl[b]; d.Kind == LoopMerge {
			if d.Merge < nt.n {
				all = append(all, d.Merge)
			}
			all = append(all, d.Continue)
		}
		all = append(all, nt.g.Succs[b]...)
		if len(all) > start {
			succs[b] = all[start:len(all):len(all)]
		}
	}
	nt.dom = cfg.TreeFromIDom(dominatorTree(&cfg.Graph{Succs: succs})) // the semi-NCA tree: the same, fewer allocations
	nt.parent = slices.Clone(nt.dom.IDom)
	kids := treeKids(nt.parent) // adopt appends to a list: each is capped at its length
	nt.kids = make([][]int, nt.n)
	for b := range nt.n {
		if k := kids.of(b); len(k) > 0 {
			nt.kids[b] = k[:len(k):len(k)]
			slices.SortFunc(nt.kids[b], func(x, y int) int { return nt.pre[x] - nt.pre[y] })
		}
	}
}

// adopt makes merge m a child of its header x in the walk's tree: the
// structural edge x->m makes x m's immediate dominator, and m's subtree
// moves with it. Pre: x strictly dominates m and the walk has not entered
// m's parent yet.
func (nt *nester) adopt(x, m int) {
	p := nt.parent[m]
	if p == x {
		return
	}
	i := slices.Index(nt.kids[p], m)
	nt.kids[p] = slices.Delete(nt.kids[p], i, i+1)
	nt.kids[x] = append(nt.kids[x], m)
	nt.parent[m] = x
}

// freshRoom is how many fresh merges a run's tables have room for.
const freshRoom = 4

// newFresh adds a fresh unreachable merge block.
func (nt *nester) newFresh() int {
	id := nt.n + nt.fresh
	nt.fresh++
	nt.decl = append(nt.decl, Merge{})
	nt.mergeOf = append(nt.mergeOf, -1)
	nt.contOf = append(nt.contOf, -1)
	return id
}

// declare records header h's declaration.
func (nt *nester) declare(h int, m Merge) bool {
	if nt.mergeOf[m.Merge] >= 0 || nt.contOf[m.Merge] >= 0 {
		return false
	}
	if m.Kind == LoopMerge {
		if nt.contOf[m.Continue] >= 0 || nt.mergeOf[m.Continue] >= 0 {
			return false
		}
		nt.contOf[m.Continue] = h
	}
	nt.mergeOf[m.Merge] = h
	nt.decl[h] = m
	return true
}

// blameOpen records the loops a failed walk suspects of a wrong merge: the
// open loops and h when h heads a loop.
func (nt *nester) blameOpen(open []nestedConstruct, h int) {
	if h >= 0 && nt.decl[h].Kind == LoopMerge {
		nt.blame = append(nt.blame, h)
	}
	for _, c := range open {
		if c.kind == cLoop {
			nt.blame = append(nt.blame, c.header)
		}
	}
}

// blameRule records the loops a self-check failure of layout f suspects:
// those around the block the broken rule names, innermost first (a loop
// merge chosen too early makes a construct in the loop break to it where a
// rule forbids, as R11 does for a switch's case). The walk of the
// selections saw nothing wrong, so no loop was blamed yet.
func (nt *nester) blameRule(f *Func, err error) {
	re, ok := err.(*RuleError)
	if !ok || re.Block < 0 || re.Block >= len(f.Blocks) {
		return
	}
	b := f.Blocks[re.Block].Orig
	if b < 0 || b >= len(nt.forest.LoopOf) {
		return
	}
	for l := nt.forest.LoopOf[b]; l != cfg.NoBlock; l = nt.forest.Loops[l].Parent {
		nt.blame = append(nt.blame, nt.forest.Loops[l].Header)
	}
}

// build makes the Func: a synthetic entry, then block b of g as block b+1,
// then the fresh merges.
func (nt *nester) build() *Func {
	g := nt.g
	f := &Func{Blocks: make([]Block, 1+nt.n+nt.fresh)}
	f.Blocks[0] = Block{Name: "entry", Kind: Synthetic, Orig: -1, Term: Term{Kind: Branch, To: []int{1}}}
	edges := 0
	for b := range nt.n {
		edges += len(g.Succs[b])
	}
	all := make([]int, edges) // every block's targets, each capped at its length
	for b := range nt.n {
		blk := Block{Name: g.Name(b), Kind: Original, Orig: b, Weight: g.Weight(b)}
		if b >= nt.orig {
			blk = Block{Name: "fwd", Kind: Synthetic, Orig: -1}
		}
		s := g.Succs[b]
		to := all[:len(s):len(s)]
		all = all[len(s):]
		for i, t := range s {
			to[i] = t + 1
		}
		switch len(s) {
		case 0:
			blk.Term = Term{Kind: Return}
		case 1:
			blk.Term = Term{Kind: Branch, To: to}
		default:
			blk.Arity = len(s)
			blk.Term = Term{Kind: Choose, To: to}
		}
		if d := nt.decl[b]; d.Kind != NoMerge {
			blk.Merge = Merge{Kind: d.Kind, Merge: d.Merge + 1}
			if d.Kind == LoopMerge {
				blk.Merge.Continue = d.Continue + 1
			}
		}
		f.Blocks[b+1] = blk
	}
	for i := range nt.fresh {
		f.Blocks[1+nt.n+i] = Block{Name: "merge", Kind: Synthetic, Orig: -1, Term: Term{Kind: Unreachable}}
	}
	return f
}

// plantNestedFaults plants the injected faults that apply to a function
// the nested pass laid out (no route variable, no clone, so
// route-not-cleared and clone-wrong-id have nothing to act on), as the pass
// table plants them: swap-arms on every original conditional,
// merge-at-continue on every selection header inside a loop,
// exit-to-outer-merge on every break out of a loop nested in another, and
// drop-merge on the first selection header.
func plantNestedFaults(f *Func, opt Options) {
	if len(opt.Inject) == 0 {
		return
	}
	n := len(f.Blocks)
	branch := cfg.New(n)
	for b := range n {
		branch.Succs[b] = f.Blocks[b].Term.To
	}
	dom := newDomTree(dominatorTree(branch))
	// loopOf is the innermost loop header around b (-1): the nearest
	// dominator heading a loop whose merge does not dominate b.
	loopOf := func(b int) int {
		for h := dom.IDom[b]; h >= 0; h = dom.IDom[h] {
			if m := f.Blocks[h].Merge; m.Kind == LoopMerge && !dom.Dominates(m.Merge, b) {
				return h
			}
		}
		return -1
	}
	var breaks [][2]int // {block, target index} of breaks to redirect
	outer := map[int]int{}
	for b := range n {
		blk := &f.Blocks[b]
		if opt.Has("merge-at-continue") && blk.Merge.Kind == SelectionMerge {
			if h := loopOf(b); h >= 0 {
				blk.Merge.Merge = f.Blocks[h].Merge.Continue
			}
		}
		if opt.Has("exit-to-outer-merge") && blk.Merge.Kind == LoopMerge {
			if p := loopOf(b); p >= 0 {
				outer[blk.Merge.Merge] = f.Blocks[p].Merge.Merge
			}
		}
	}
	for b := range n {
		for i, t := range f.Blocks[b].Term.To {
			if _, ok := outer[t]; ok {
				breaks = append(breaks, [2]int{b, i})
			}
		}
	}
	for _, br := range breaks {
		to := f.Blocks[br[0]].Term.To
		to[br[1]] = outer[to[br[1]]]
	}
	if opt.Has("swap-arms") {
		for b := range n {
			if blk := &f.Blocks[b]; blk.Kind == Original && blk.Term.Kind == Choose && len(blk.Term.To) == 2 {
				blk.Term.To[0], blk.Term.To[1] = blk.Term.To[1], blk.Term.To[0]
			}
		}
	}
	if opt.Has("drop-merge") {
		dropFirstMerge(f)
	}
}
