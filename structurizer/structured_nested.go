// structured_nested.go: the "nested" pass, which runs before the pass table
// of structured.go. A graph that already nests is laid out as it is: every
// block placed once, no route variable, no clone, no guard, and no block
// added except the function entry, an unreachable merge for a construct
// that never falls through, and a forwarding merge for a loop whose only
// exit another construct declared (withForwarder: a loop that leaves for
// the enclosing loop's continue target or merge), and a loop's own header
// or latch where it lacks one (withLoopBlocks). This is how the strategy
// keeps ARCHITECTURE.md's guarantee 5 (idempotence): the CFG of a structured function is a graph that nests,
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
//     back-edge block is the continue target (a loop of one block is its
//     own; several, or an unconditional self-loop, get a latch of their
//     own on a rerun: withLoopBlocks); the merge is where
//     the header's conditional or the latch leaves the loop, when one
//     does (R12, and R6 for a continue construct: our own layouts with a
//     variable name every loop's merge so), else the block where the
//     exits' tails close (see loopMerge: the candidates ordered by a
//     policy, the rank chosen by the search), or a fresh unreachable block
//     when the loop never exits;
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
// really the loop's break). When the search fails, the breaks its first
// run found are forced as a last resort (followHints, a few runs;
// breakSearch, structured_nested_breaks.go: a header whose region does not close, or that a self-check
// failure names, branches, directly or through forwarders, to a block a
// loop's header dominates outside its natural loop, or its region is
// entered there from elsewhere; for the loops it follows or lies in), and
// the loop merges a self-check failure rules out are dropped from the
// candidates (ruleBans: an inner construct's edge to the merge breaks R6):
// a break names the merge outright, where the search steps through a
// loop's candidates one by one and a loop around the whole function may
// have more whose tails close than the budget has runs.
//
// The result must pass SelfCheck; otherwise the pass declines and the pass
// table runs.
// Orders are depth-first orders over successor order, so renumbering the
// input renumbers the output. Faults are planted in its result afterwards
// (plantNestedFaults), where they can apply.
//
// The pass's files: this one holds a run (nester); its declarations and
// the Func it builds from them are structured_nested_decls.go, the tree
// its walk follows structured_nested_tree.go; the search over runs is
// structured_nested_search.go, its last resort's break search
// structured_nested_breaks.go, the graphs it reruns on
// structured_nested_reshape.go, the loop declarations
// structured_nested_loops.go with their tail test structured_tails.go, the
// selection declarations structured_nested_selections.go with the test
// whether a merge closes a header's region structured_nested_closes.go
// (its measured regions structured_nested_regions.go, the case a block of
// a switch's region lies in structured_nested_switchcases.go), and a
// switch's case order structured_nested_cases.go.
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
	nestDecls // the declarations, over g's n blocks and the fresh merges
	nestTree  // the walk's tree, once the loops are declared
	g         *cfg.Graph
	facts     *graphFacts
	preds     [][]int
	forest    *cfg.Forest // g's natural loops (graphFacts)
	pdom      *cfg.DomTree
	pre       []int // depth-first preorder number over successor order (graphFacts)

	why   string // the first reason the graph does not nest as found
	final bool   // why does not depend on the loop-merge policy

	// How the run chooses loop merges, and what its loop choices found
	// (structured_nested_loops.go).
	mergeRules
	loopFindings

	orig    int             // blocks from orig up are forwarders (withForwarder)
	forward *[2]int         // {loop header, exit}: the exit is taken; a forwarder would do
	reshape bool            // a loop needs a header or latch of its own (withLoopBlocks)
	hints   [][2]int        // {loop header, merge} worth forcing (hintFor)
	breaks  [][2]int        // {loop header, merge} the last resort forces (breakSearch)
	banned  [][2]int        // {loop header, merge} a self-check failure ruled out (ruleBans)
	seen    map[string]bool // loop declarations of earlier runs
	blame   []int           // loop headers whose merge a failed walk suspects (blameOpen)

	walkMarks // the tail and region walks' scratch
	// perBlock is the array mergeOf, contOf and mark are carved from
	// (nestRoom).
	perBlock []int
	// cases: each block's case under the header being chosen for
	// (inCase).
	cases caseMemo
	// checkFast makes every answer of regionOf and allowedExits be
	// checked against the walk it stands for (walkRegion,
	// allowedExitsWalk); a test seam.
	checkFast bool
}

// walkMarks is the scratch the walks of one run share (the tail walks and
// the region walks): mark[b] == stamp means b is in the set being walked,
// which queue lists in walk order; one stamp counter serves both kinds of
// walk, so marks left by one never count for the other.
type walkMarks struct {
	mark   []int
	stamp  int
	queue  []int
	walked int // blocks the tail walks visited (a cost the tests bound)
}

// nestedConstruct is an open construct of the walk.
type nestedConstruct struct {
	kind        cKind
	header      int
	merge, cont int
	// What allowedExits gives a new construct opened inside this one,
	// with this one the innermost open (set by pushConstruct): a new
	// selection's exits and a new switch's, and whether a continue
	// construct comes before any loop going out (then there are none).
	selExits, switchExits []int
	inContinue            bool
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
	nt.nestTree = structuralTree(nt.g, &nt.nestDecls, nt.pre)
	nt.pdom = nt.facts.postDominators(nt.g)
	if !nt.declareSelections() {
		return nil, nt.why
	}
	f := nt.build(nt.g, nt.orig)
	layout(f)
	ff := &funcFacts{f: f}
	orderFallThroughs(ff, chainOrder)
	if err := f.Validate(); err != nil {
		return nil, "malformed: " + err.Error()
	}
	if err := selfCheck(ff); err != nil {
		nt.blame = append(nt.blame, ruleSuspects(nt.forest, f, err)...)
		ruleHints(nt, f, err)
		ruleBans(nt, f, err)
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

func newNester(g *cfg.Graph) *nester { return newNesterWith(g, factsOf(g), nil) }

// newNesterWith is newNester with g's facts given; the nester only reads
// them. Its declaration tables are the arrays room holds, when long
// enough (nil: allocated).
func newNesterWith(g *cfg.Graph, facts *graphFacts, room *nestRoom) *nester {
	n := g.Len()
	nt := &nester{nestDecls: nestDecls{n: n}, g: g, facts: facts, preds: facts.preds, forest: facts.forest, pre: facts.pre}
	nt.orig = n
	// Room for freshRoom fresh merges (newFresh appends; more copy).
	m := n + freshRoom
	var perBlock []int // mergeOf, contOf, mark
	nt.decl, perBlock = room.take(n, 3*n+2*freshRoom)
	nt.mergeOf, nt.contOf, nt.mark = perBlock[:n:m], perBlock[m:m+n:2*m], perBlock[2*m:]
	for b := range n {
		nt.mergeOf[b], nt.contOf[b] = -1, -1
	}
	nt.perBlock = perBlock
	return nt
}

// nestRoom holds the declaration tables of a run of the nested pass
// that has ended, for the next run of the search to fill instead of
// allocating its own: the search runs the pass dozens of times on graphs
// of one size, and at 100,000 blocks each run's tables are megabytes.
// The nil room takes none and keeps none.
type nestRoom struct {
	decl     []Merge
	perBlock []int
}

// take returns the declarations of n blocks, all zero, with room for
// freshRoom more, and an array of k ints, all zero: the room's, where
// long enough.
func (r *nestRoom) take(n, k int) (decl []Merge, perBlock []int) {
	if r != nil {
		decl, perBlock = r.decl, r.perBlock
		r.decl, r.perBlock = nil, nil
	}
	if cap(decl) >= n+freshRoom {
		decl = decl[:n]
		clear(decl)
	} else {
		decl = make([]Merge, n, n+freshRoom)
	}
	if cap(perBlock) >= k {
		perBlock = perBlock[:k]
		clear(perBlock)
	} else {
		perBlock = make([]int, k)
	}
	return decl, perBlock
}

// keep takes nt's tables back for the next run; nt may not run after.
func (r *nestRoom) keep(nt *nester) {
	if r != nil {
		r.decl, r.perBlock = nt.decl, nt.perBlock
		nt.decl, nt.perBlock, nt.mergeOf, nt.contOf, nt.mark = nil, nil, nil, nil, nil
	}
}

// ruleSuspects are the loop headers a self-check failure err of layout f
// suspects (forest: the graph's loops):
// those around the block the broken rule names, innermost first (a loop
// merge chosen too early makes a construct in the loop break to it where a
// rule forbids, as R11 does for a switch's case). The walk of the
// selections saw nothing wrong, so no loop was blamed yet.
func ruleSuspects(forest *cfg.Forest, f *Func, err error) []int {
	re, ok := err.(*RuleError)
	if !ok || re.Block < 0 || re.Block >= len(f.Blocks) {
		return nil
	}
	b := f.Blocks[re.Block].Orig
	if b < 0 || b >= len(forest.LoopOf) {
		return nil
	}
	var hs []int
	for l := forest.LoopOf[b]; l != cfg.NoBlock; l = forest.Loops[l].Parent {
		hs = append(hs, forest.Loops[l].Header)
	}
	return hs
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
	dom := newDomTree(cfg.ImmediateDominators(branch))
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
