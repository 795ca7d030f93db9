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
	"maps"
	"slices"
	"strconv"
	"strings"

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
	pre     []int     // depth-first preorder number over successor order (graphFacts)
	parent  []int     // the walk's tree: structural immediate dominators
	kids    [][]int   // the walk's tree's children, in preorder
	decl    []Merge   // per block (fresh ones included)
	mergeOf []int     // header declaring b as merge, -1
	contOf  []int     // loop header declaring b as continue target, -1
	fresh   int       // fresh unreachable merges
	tails   loopTails // the loop loopMerge is choosing for (structured_tails.go)
	walked  int       // blocks the tail walks visited (a cost the tests bound)

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

// nested runs the pass: a Func laid out and self-checked, or nil and the
// reason when g does not nest as found. A loop may have several merges
// whose tails close, and which one lets the selections nest shows only
// later; so the pass runs again: for each policy (mergePolicy), once as is
// and then with each such loop's second choice in turn (nestedPolicies).
// When that fails too, it reshapes the graph (a loop's own header or latch,
// once; a forwarding merge) or forces a hinted loop merge, and tries again:
// at most nestForwarders times, and nestMaxRuns runs in all. Each run is a
// full, linear-time run of the pass.
func nested(g *cfg.Graph) (*Func, string) {
	f, why, _ := nestedSearch(g)
	return f, why
}

// nestedSearch is nested, and also says whether the function was found by
// the search that allows fresh loop merges (nestedPolicies): such a layout
// may add blocks the pass table would not, so the caller compares.
func nestedSearch(g *cfg.Graph) (f *Func, why string, fresh bool) {
	return nestedSearchWith(g, factsOf(g))
}

// nestedSearchWith is nestedSearch with g's facts given (the pass table
// reads their loop forest when the search fails). The facts of each graph
// the search reshapes are computed once and shared by its runs.
func nestedSearchWith(g *cfg.Graph, facts *graphFacts) (f *Func, why string, fresh bool) {
	cur, reshaped, bonus := g, false, false
	var force map[int]int // made when a merge is first forced
	var hints [][2]int
	budget := min(max(nestRunWork/max(g.Len(), 1), nestMinRuns), nestMaxRuns)
	for split := 0; ; split++ {
		r := nestedPolicies(cur, facts, g.Len(), force, &budget)
		if budget <= 0 && !bonus && (r.forward != nil || r.reshape && !reshaped) {
			// The search spent the budget on merge choices of a shape
			// that asks for a reshaping: nestMinRuns more runs, once.
			budget, bonus = nestMinRuns, true
		}
		if len(hints) == 0 {
			hints = r.hints
		}
		switch {
		case r.f != nil || split == nestForwarders || budget <= 0:
			return r.f, r.why, r.fresh
		case r.reshape && !reshaped:
			cur, reshaped, hints = withLoopBlocks(cur, facts), true, nil
			facts = factsOf(cur)
			clear(force)
		case r.forward != nil:
			cur, hints = withForwarder(cur, facts, r.forward[0], r.forward[1]), nil
			facts = factsOf(cur)
			clear(force)
		case len(hints) > 0:
			if force == nil {
				force = map[int]int{}
			}
			force[hints[0][0]], hints = hints[0][1], hints[1:]
		default:
			return nil, r.why, false
		}
	}
}

// nestForwarders bounds the reshapings of the graph (withLoopBlocks,
// withForwarder) and the loop merges forced from hints (hintFor) per graph.
const nestForwarders = 6

// nestedPolicies searches the loops' merge choices, with the loop merges
// in force: breadth first over (policy, ranks), where ranks gives some
// loops a later candidate in the policy's order (loopMerge); the first
// run under each policy takes every loop's first candidate, and a failed
// run queues, for each loop with another candidate, the ranks with that
// loop's one step later. Runs whose loops were all declared as in an earlier
// run stop before the selections (seen). It stops at the first success, when
// the graph's loops do not nest under any choice (final), or when budget
// runs are spent. On failure it returns the first run's requests
// (forwarding merge, reshaping, hints).
func nestedPolicies(g *cfg.Graph, facts *graphFacts, orig int, force map[int]int, budget *int) nestedRun {
	first, freshable := searchMerges(g, facts, orig, force, budget, false)
	if first.f != nil || !freshable || first.final {
		return first
	}
	extra := max(*budget, nestMinRuns)
	*budget -= extra
	if r, _ := searchMerges(g, facts, orig, force, &extra, true); r.f != nil {
		r.fresh = true
		return r
	}
	return first
}

// searchMerges is one breadth-first search of nestedPolicies; fresh lets a
// loop whose tails all return take a fresh unreachable merge as its last
// candidate (a second search, run when the first fails and a run reported
// such a loop: freshable).
func searchMerges(g *cfg.Graph, facts *graphFacts, orig int, force map[int]int, budget *int, fresh bool) (first nestedRun, freshable bool) {
	type try struct {
		policy mergePolicy
		ranks  map[int]int
	}
	queue := make([]try, mergePolicies, 2*mergePolicies)
	for p := range mergePolicies {
		queue[p] = try{policy: p}
	}
	var urgent []try // last in, first out
	// The first reason under each policy (when set), spelt out at the end.
	var whys [mergePolicies]string
	var set [mergePolicies]bool
	var queued map[string]bool // made on first use
	seen := map[string]bool{}
	for runs := 0; len(queue)+len(urgent) > 0 && *budget > 0; runs++ {
		*budget--
		var t try
		if n := len(urgent); n > 0 {
			t, urgent = urgent[n-1], urgent[:n-1]
		} else {
			t, queue = queue[0], queue[1:]
		}
		r := nestedWith(g, facts, orig, nestChoice{t.policy, t.ranks, fresh}, force, seen)
		if r.f != nil {
			return r, freshable
		}
		if runs == 0 {
			first = r
		}
		freshable = freshable || r.freshable
		if !set[t.policy] && r.why != whySeen {
			whys[t.policy], set[t.policy] = r.why, true
		}
		if r.final {
			return first, false // no choice changes it: the loops do not nest
		}
		for i := len(r.options) - 1; i >= 0; i-- { // outer loops end up on top of urgent
			o := r.options[i]
			if t.ranks[o.header]+1 >= o.count {
				continue
			}
			next := maps.Clone(t.ranks)
			if next == nil {
				next = map[int]int{}
			}
			next[o.header]++
			if k := fmt.Sprint(t.policy, next); !queued[k] {
				if queued == nil {
					queued = map[string]bool{}
				}
				queued[k] = true
				if slices.Contains(r.blame, o.header) {
					urgent = append(urgent, try{policy: t.policy, ranks: next})
				} else {
					queue = append(queue, try{policy: t.policy, ranks: next})
				}
			}
		}
	}
	var parts []string
	for p, why := range whys {
		if set[p] {
			parts = append(parts, policyNames[p]+": "+why)
		}
	}
	first.why = strings.Join(parts, "; ")
	return first, freshable
}

// withLoopBlocks returns g with the blocks the DESIGN's "loops first"
// gives a loop that lacks them, as synthetic blocks of the result: a loop
// whose header is a switch, or a conditional both of whose targets stay in
// the loop (R12), gets a header of its own (every edge into the
// old header goes to it; the switch becomes the loop's first block), and a
// loop with several back-edge blocks, a self-loop, or a back-edge block that
// a switch in the loop targets (R11: no continue target is a case target)
// gets a latch of its own (every back edge goes to it). No route is needed.
func withLoopBlocks(g *cfg.Graph, facts *graphFacts) *cfg.Graph {
	ng := cloneGraph(g, g.Len())
	preds, forest := facts.preds, facts.forest
	for _, l := range forest.Loops {
		if h := l.Header; len(g.Succs[h]) > 2 || headerStays(g, l) {
			p := addBlock(ng, h)
			for _, b := range preds[h] {
				redirect(ng.Succs[b], h, p)
			}
		}
	}
	if ng.Len() > g.Len() { // headers added: the loops are found again
		preds = ng.Preds()
		forest = cfg.LoopForest(ng)
	}
	g = ng
	ng = cloneGraph(g, g.Len())
	for _, l := range forest.Loops {
		h, latches := l.Header, 0
		var back []int
		for _, b := range l.Blocks {
			if slices.Contains(g.Succs[b], h) {
				back = append(back, b)
				latches++
			}
		}
		if latches > 1 || slices.Contains(back, h) || switchTargets(g, preds, l.Blocks, back[0]) {
			c := addBlock(ng, h)
			for _, b := range back {
				redirect(ng.Succs[b], h, c)
			}
		}
	}
	return ng
}

// headerStays reports whether loop l's header is a conditional whose
// targets both stay in the loop without either being a back-edge block:
// it needs a selection merge, which a loop header cannot declare (R12).
func headerStays(g *cfg.Graph, l cfg.Loop) bool {
	s := g.Succs[l.Header]
	if len(s) != 2 || s[0] == s[1] {
		return false
	}
	for _, t := range s {
		if _, in := slices.BinarySearch(l.Blocks, t); !in || slices.Contains(g.Succs[t], l.Header) {
			return false
		}
	}
	return true
}

// switchTargets reports whether a switch among blocks targets t (preds:
// g's predecessor lists). Looks at blocks only when a switch targets t.
func switchTargets(g *cfg.Graph, preds [][]int, blocks []int, t int) bool {
	for _, p := range preds[t] {
		if len(g.Succs[p]) > 2 && slices.Contains(blocks, p) {
			return true
		}
	}
	return false
}

// cloneGraph copies g with room for more blocks (weights and names kept).
func cloneGraph(g *cfg.Graph, n int) *cfg.Graph {
	ng := cfg.New(n)
	edges := 0
	for b := range g.Len() {
		edges += len(g.Succs[b])
	}
	all := make([]int, edges) // every block's list, each capped at its length
	for b := range g.Len() {
		k := len(g.Succs[b])
		ng.Succs[b], all = all[:k:k], all[k:]
		copy(ng.Succs[b], g.Succs[b])
		ng.Weights[b] = g.Weight(b)
	}
	if g.Names != nil {
		ng.Names = make([]string, n)
		copy(ng.Names, g.Names)
	}
	return ng
}

// addBlock appends a weightless block branching to t and returns its id.
func addBlock(g *cfg.Graph, t int) int {
	g.Succs = append(g.Succs, []int{t})
	g.Weights = append(g.Weights, 0)
	if g.Names != nil {
		g.Names = append(g.Names, "")
	}
	return len(g.Succs) - 1
}

// redirect replaces target from by to in succs.
func redirect(succs []int, from, to int) {
	for i, t := range succs {
		if t == from {
			succs[i] = to
		}
	}
}

// withForwarder returns g with a new block F (id g.Len(), weight 0) that
// branches to e, and every edge into e from a block loop header h dominates
// redirected to F: the loop gets a merge of its own where its only exit is
// a block some other construct declared (the enclosing loop's continue
// target, or its merge: a break out of two loops). F becomes a synthetic
// block of the result, so the layout adds a block but no route.
func withForwarder(g *cfg.Graph, facts *graphFacts, h, e int) *cfg.Graph {
	dom := cfg.DominatorsOf(g, facts.order, facts.preds)
	ng := cloneGraph(g, g.Len())
	f := addBlock(ng, e)
	for b := range g.Len() {
		if dom.Dominates(h, b) {
			redirect(ng.Succs[b], e, f)
		}
	}
	return ng
}

// mergePolicy orders a loop's merge candidates (see loopMerge).
type mergePolicy int

const (
	preferSmallest mergePolicy = iota // smallest tails, then most breaks
	preferBreaks                      // most breaks, then smallest tails
	preferInto                        // most edges from the tails, then smallest tails, then most breaks
	preferLargest                     // largest tails, then most breaks
	mergePolicies                     // the number of policies
)

var policyNames = [...]string{"smallest tails", "most breaks", "most branched-to", "largest tails"}

// nestRunWork bounds the runs of the pass per graph: at most
// nestRunWork/blocks runs, and between nestMinRuns and nestMaxRuns, over
// every merge choice, reshaping and forced merge. The search is a bound on
// a heuristic's effort, not a rewrite loop: when it is spent the pass
// declines and the pass table runs.
const (
	nestRunWork = 1 << 16
	nestMinRuns = 16
	nestMaxRuns = 96
)

// nestedWith runs the pass once on g, whose blocks from orig up are
// forwarders (withForwarder); c.ranks gives loop headers whose merge is a
// later candidate in the policy's order (absent: the first); seen holds the
// loop declarations of earlier runs (a run that repeats them stops before
// the selections). It also returns the loops and how many merges whose
// tails close each had, whether the failure is one no choice changes
// (irreducible, a loop with two latches, a switch heading a loop), and a
// loop whose only exit another construct declared.
func nestedWith(g *cfg.Graph, facts *graphFacts, orig int, c nestChoice, force map[int]int, seen map[string]bool) nestedRun {
	nt := newNesterWith(g, facts)
	nt.orig, nt.policy, nt.ranks, nt.allowFresh, nt.force, nt.seen = orig, c.policy, c.ranks, c.fresh, force, seen
	f, why := nt.run()
	return nestedRun{f: f, why: why, options: nt.options, blame: nt.blame, freshable: nt.freshable, final: nt.final, forward: nt.forward, reshape: nt.reshape, hints: nt.hints}
}

// nestChoice is how one run picks loop merges: the policy's order, the
// ranks the search gives loops in it, and whether a fresh merge is a
// candidate.
type nestChoice struct {
	policy mergePolicy
	ranks  map[int]int
	fresh  bool
}

// whySeen is the reason of a run whose loops an earlier run declared.
const whySeen = "loops declared as in an earlier run"

// loopOptions is how many merges whose tails close a loop had.
type loopOptions struct{ header, count int }

// nestedRun is what one run of the pass found.
type nestedRun struct {
	f         *Func
	why       string
	options   []loopOptions
	blame     []int // loops the failure suspects: their later merges are tried first
	freshable bool  // a loop could have taken a fresh merge (nestChoice.fresh)
	fresh     bool  // found by the search that allows fresh merges
	final     bool
	forward   *[2]int  // {loop header, exit} wanting a forwarding merge
	reshape   bool     // a loop wants a header or latch of its own
	hints     [][2]int // {loop header, merge} to force (hintFor)
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

// declKey is a key of a run's loop declarations for the seen set: the
// number of blocks, then the block and a decimal triple for each block that
// declares something (a zero Merge is left out), so equal keys mean equal
// declarations (it replaced fmt.Sprint, a tenth of a structurization's
// time; the loops declare few of the blocks).
func declKey(decl []Merge) string {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, int64(len(decl)), 10)
	b = append(b, ';')
	for i, m := range decl {
		if m == (Merge{}) {
			continue
		}
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(m.Kind), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Merge), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Continue), 10)
		b = append(b, ';')
	}
	return string(b)
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

// declareLoops gives each loop its continue target and merge.
func (nt *nester) declareLoops() bool {
	forest := nt.forest
	if !forest.Reducible() {
		nt.final = true
		return nt.fail("irreducible")
	}
	in := make([]bool, nt.n)
	for _, l := range forest.Loops {
		h := l.Header
		if len(nt.g.Succs[h]) > 2 {
			nt.final, nt.reshape = true, true
			return nt.fail("loop header %d is a switch", h)
		}
		for _, b := range l.Blocks {
			in[b] = true
		}
		latch, ok := -1, true
		for _, p := range nt.preds[h] {
			if in[p] {
				ok = ok && (latch < 0 || latch == p)
				latch = p
			}
		}
		var exits []int
		for _, b := range l.Blocks {
			for _, t := range nt.g.Succs[b] {
				if !in[t] && !slices.Contains(exits, t) {
					exits = append(exits, t)
				}
			}
		}
		nt.tails = nt.loopTails(h, l.Blocks, exits)
		merge := nt.loopMerge(h, exits, in)
		caseLatch := latch >= 0 && nt.caseOf(latch, in)
		stays := headerStays(nt.g, l)
		for _, b := range l.Blocks {
			in[b] = false
		}
		if !ok || latch < 0 || latch == h {
			nt.final, nt.reshape = true, latch >= 0
			return nt.fail("loop %d: several latches, or a self-loop", h)
		}
		if stays {
			// R12: the header's conditional needs a selection merge; a
			// header of its own takes the loop merge.
			nt.final, nt.reshape = true, true
			return nt.fail("loop %d: its header's conditional stays in the loop", h)
		}
		if caseLatch {
			// R11: a continue target is no case target; a latch of its
			// own leaves the old one to be the switch's merge or case.
			nt.final, nt.reshape = true, true
			return nt.fail("loop %d: its latch %d is a switch's target", h, latch)
		}
		if merge == -1 {
			return nt.fail("loop %d: no exit closes the others' tails", h)
		}
		if merge == -2 {
			merge = nt.newFresh()
		}
		if !nt.declare(h, Merge{Kind: LoopMerge, Merge: merge, Continue: latch}) {
			if merge < nt.n && (nt.mergeOf[merge] >= 0 || nt.contOf[merge] >= 0) && nt.forward == nil {
				nt.forward = &[2]int{h, merge}
			}
			return nt.fail("loop %d: merge %d or continue target %d declared twice", h, merge, latch)
		}
	}
	return true
}

// loopMerge picks a loop's merge (-2: none, a fresh block; -1: no choice
// works). Candidates are the exit targets and the blocks after them, in
// breadth-first order from the exits (at most nestLoopCandidates past the
// exits); the exits other than the merge start tails: blocks of the loop
// construct outside the natural loop, which must end in returns or at the
// merge and be entered only from the loop or the tails. Of the candidates
// whose tails close, preferSmallest takes the one with the smallest tails,
// then the one the loop branches to most often (breaks), then the first;
// preferBreaks the most breaks first; preferInto the one the tails branch
// to most often (our own layouts break through forwarding blocks; tails
// that only return are cloned return blocks), then the smallest tails,
// then the most breaks; preferLargest the largest tails (the loop
// construct reaching as far as it can: a break from deep in its
// selections), then the most breaks. The search's rank for the loop
// (nt.ranks) picks the candidate in that order; loops with more than one
// are recorded (nt.options). A single exit is the merge, except under
// preferInto, where the blocks after it are candidates too (a loop whose
// merge follows a tail: the selector stores of an irreducible region,
// say). A case target of a switch in the loop is no candidate (caseOf).
func (nt *nester) loopMerge(h int, exits []int, in []bool) int {
	if m, ok := nt.force[h]; ok && len(exits) > 0 && nt.mergeOf[m] < 0 && nt.contOf[m] < 0 && !nt.caseOf(m, in) {
		if size, _ := nt.tailSize(exits, m, in); size >= 0 {
			return m
		}
	}
	switch {
	case len(exits) == 0:
		return -2
	case len(exits) == 1 && (nt.policy == preferSmallest || nt.policy == preferBreaks) && !nt.caseOf(exits[0], in):
		return exits[0] // a case target is never the merge (caseOf): the search below looks past it
	}
	for _, t := range nt.g.Succs[h] {
		if !in[t] {
			// The header's conditional leaves the loop: R12 wants that
			// target to be the merge (the other is in the loop).
			if size, _ := nt.tailSize(exits, t, in); size >= 0 {
				return t
			}
			return -1
		}
	}
	slices.SortFunc(exits, func(x, y int) int { return nt.pre[x] - nt.pre[y] })
	cands := append([]int(nil), exits...)
	seen := map[int]bool{}
	for _, e := range exits {
		seen[e] = true
	}
	for i := 0; i < len(cands) && len(cands) < len(exits)+nestLoopCandidates; i++ {
		for _, t := range nt.g.Succs[cands[i]] {
			if !in[t] && !seen[t] {
				seen[t] = true
				cands = append(cands, t)
			}
		}
	}
	type score struct{ into, size, breaks int }
	better := func(a, b score) bool {
		if a.into != b.into {
			return a.into > b.into
		}
		if nt.policy == preferBreaks && a.breaks != b.breaks {
			return a.breaks > b.breaks
		}
		if a.size != b.size {
			return (a.size < b.size) != (nt.policy == preferLargest)
		}
		return a.breaks > b.breaks
	}
	type cand struct {
		m  int
		sc score
	}
	var closing []cand
	for _, m := range cands {
		if nt.caseOf(m, in) || nt.mergeOf[m] >= 0 || nt.contOf[m] >= 0 {
			continue // an enclosing loop's merge or latch is taken
		}
		size, into := nt.tailSize(exits, m, in)
		if size < 0 {
			continue
		}
		if nt.policy != preferInto {
			into = 0
		}
		sc := score{into: into, size: size}
		for _, p := range nt.preds[m] {
			if in[p] {
				sc.breaks++
			}
		}
		closing = append(closing, cand{m, sc})
	}
	slices.SortStableFunc(closing, func(a, b cand) int {
		switch {
		case better(a.sc, b.sc):
			return -1
		case better(b.sc, a.sc):
			return 1
		}
		return 0
	})
	if size, _ := nt.tailSize(exits, -1, in); size >= 0 {
		// Every tail returns: the loop may also never fall through, with
		// a fresh unreachable merge (every tail inside), the last choice
		// since it adds a block; only in the search's second round.
		nt.freshable = true
		if nt.allowFresh {
			closing = append(closing, cand{-2, score{size: size}})
		}
	}
	if len(closing) > 1 {
		nt.options = append(nt.options, loopOptions{h, len(closing)})
	}
	if k := nt.ranks[h]; k < len(closing) {
		return closing[k].m
	}
	return -1
}

// caseOf reports whether m is a case target of a switch in the loop: the
// loop header's merge edge keeps the switch from dominating m structurally,
// so the switch needs a block of its own to break through (rule R11) and m
// cannot be the merge.
func (nt *nester) caseOf(m int, in []bool) bool {
	for _, p := range nt.preds[m] {
		if in[p] && len(nt.g.Succs[p]) > 2 {
			return true
		}
	}
	return false
}

// declareSelections walks the dominator tree with the stack of open
// constructs and declares a merge for each branch point that needs one.
func (nt *nester) declareSelections() bool {
	var open []nestedConstruct
	type frame struct {
		b, i   int
		pushed int             // constructs pushed at b
		closed nestedConstruct // when reopen: the construct closed at b
		reopen bool
	}
	enter := func(b int) (frame, bool) {
		fr := frame{b: b}
		if h := nt.mergeOf[b]; h >= 0 {
			k := len(open) - 1
			if k < 0 || open[k].header != h || open[k].kind == cContinue {
				nt.blameOpen(open, h)
				return fr, nt.fail("merge %d of %d reached inside another construct", b, h)
			}
			c := open[k]
			fr.closed, fr.reopen = c, true
			open = open[:k]
		}
		if h := nt.contOf[b]; h >= 0 {
			k := len(open) - 1
			if k < 0 || open[k].header != h || open[k].kind != cLoop {
				nt.blameOpen(open, h)
				return fr, nt.fail("continue target %d of %d reached inside another construct", b, h)
			}
			open = append(open, nestedConstruct{kind: cContinue, header: h, merge: -1, cont: -1})
			fr.pushed++
		}
		if d := nt.decl[b]; d.Kind == LoopMerge {
			open = append(open, nestedConstruct{kind: cLoop, header: b, merge: d.Merge, cont: d.Continue})
			fr.pushed++
			return fr, true
		}
		kind, need, ok := nt.needsHeader(b)
		if !ok {
			return fr, nt.fail("conditional %d with equal targets", b)
		}
		if need {
			m, ok := nt.chooseMerge(b, kind, open)
			if !ok || !nt.declare(b, Merge{Kind: SelectionMerge, Merge: m}) {
				nt.blameOpen(open, -1)
				return fr, nt.fail("no merge closes the region of %d", b)
			}
			if m < nt.n {
				nt.adopt(b, m)
			}
			open = append(open, nestedConstruct{kind: kind, header: b, merge: m, cont: -1})
			fr.pushed++
		}
		return fr, true
	}
	fr0, ok := enter(0)
	if !ok {
		return false
	}
	stack := []frame{fr0}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(nt.kids[top.b]) {
			c := nt.kids[top.b][top.i]
			top.i++
			fr, ok := enter(c)
			if !ok {
				return false
			}
			stack = append(stack, fr)
			continue
		}
		open = open[:len(open)-top.pushed]
		if top.reopen {
			open = append(open, top.closed)
		}
		stack = stack[:len(stack)-1]
	}
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

// needsHeader says whether branch point b heads a construct, and of which
// kind. ok is false for a conditional with equal targets (rule R15).
func (nt *nester) needsHeader(b int) (kind cKind, need, ok bool) {
	s := nt.g.Succs[b]
	switch {
	case len(s) < 2:
		return 0, false, true
	case len(s) > 2:
		return cSwitch, true, true
	case s[0] == s[1]:
		return 0, false, false
	}
	for _, t := range s {
		if h := nt.mergeOf[t]; h >= 0 && nt.decl[h].Kind == LoopMerge || nt.contOf[t] >= 0 {
			return 0, false, true // a break or continue (R12)
		}
	}
	return cSelection, true, true
}

// allowedExits lists the blocks a new construct of kind k may leave for
// besides its own merge (rule R6): the innermost loop's merge and continue
// target and, for a selection, the merges of switches inside that loop.
// None inside a continue construct.
func allowedExits(open []nestedConstruct, k cKind) []int {
	var ex []int
	for i := len(open) - 1; i >= 0; i-- {
		c := open[i]
		switch c.kind {
		case cLoop:
			return append(ex, c.merge, c.cont)
		case cContinue:
			return nil
		case cSwitch:
			if k != cSwitch {
				ex = append(ex, c.merge)
			}
		}
	}
	return ex
}

// chooseMerge picks header x's merge: the first candidate that closes x's
// region (see the file comment).
func (nt *nester) chooseMerge(x int, k cKind, open []nestedConstruct) (int, bool) {
	exits := allowedExits(open, k)
	usable := func(m int) bool {
		return m >= 0 && m < nt.n && nt.dom.StrictlyDominates(x, m) &&
			nt.mergeOf[m] < 0 && nt.contOf[m] < 0 && !slices.Contains(exits, m)
	}
	// closes is regionSize, and for a switch also that every block of the
	// region lies in a case (R6's case constructs: dominated by a target).
	closes := func(m, limit int) int {
		size := nt.regionSize(x, m, exits, limit)
		if size >= 0 && k == cSwitch && !nt.casesCover(x) {
			return -1
		}
		return size
	}
	if k == cSwitch {
		if t := nt.sharedCase(x); t >= 0 && usable(t) && closes(t, nt.n) >= 0 {
			return t, true
		}
	}
	if p := nt.pdom.IDom[x]; usable(p) && closes(p, nt.n) >= 0 {
		return p, true
	}
	// A switch's targets are each a candidate (a route's dispatch has
	// many), on top of nestCandidates others.
	best, bestSize, tried, limit := -1, nt.n+1, 0, nestCandidates
	if k == cSwitch {
		limit += len(nt.g.Succs[x])
	}
	level := append([]int(nil), nt.kids[x]...)
	for len(level) > 0 && best < 0 && tried < limit {
		var next []int
		for _, m := range level {
			next = append(next, nt.kids[m]...)
			if !usable(m) || tried >= limit {
				continue
			}
			tried++
			size := closes(m, bestSize)
			if size >= 0 && (size < bestSize || size == bestSize && distinctPreds(nt.preds[m]) > distinctPreds(nt.preds[best])) {
				best, bestSize = m, size
			}
		}
		level = next
	}
	if best >= 0 {
		return best, true
	}
	if nt.regionSize(x, -1, exits, nt.n) < 0 {
		nt.hintFor(x)
		return 0, false
	}
	return nt.newFresh(), true
}

// hintFor is called for a header x whose region does not close. Where x
// follows a loop's merge (the nearest loop merge among its dominators)
// and branches to a block that loop's header dominates but x does not, the
// loop's merge was likely chosen too early: x's branch is the loop's break.
// It records each such {loop header, target} as a hint to force (nested),
// and blames the loop (the search tries its later merges first). Not when
// x lies inside a loop below that merge: that loop is the suspect, and the
// walk blames it (blameOpen).
func (nt *nester) hintFor(x int) {
	if len(nt.hints) > 0 {
		return
	}
	h := -1
	for d := nt.dom.IDom[x]; d >= 0 && h < 0; d = nt.dom.IDom[d] {
		if dd := nt.decl[d]; dd.Kind == LoopMerge && (dd.Merge >= nt.n || !nt.dom.Dominates(dd.Merge, x)) {
			return // x is inside loop d, which the walk blames (blameOpen)
		}
		if m := nt.mergeOf[d]; m >= 0 && nt.decl[m].Kind == LoopMerge {
			h = m
		}
	}
	if h < 0 {
		return
	}
	nt.blame = append(nt.blame, h)
	for _, t := range nt.g.Succs[x] {
		if nt.dom.Dominates(x, t) || !nt.dom.Dominates(h, t) || nt.force[h] == t || nt.contOf[t] >= 0 {
			continue
		}
		if m := nt.mergeOf[t]; m >= 0 && nt.decl[m].Kind == LoopMerge {
			continue
		}
		nt.hints = append(nt.hints, [2]int{h, t})
	}
}

// distinctPreds counts the distinct blocks in preds (a switch's cases to
// one block count once).
func distinctPreds(preds []int) int {
	n := 0
	for i, p := range preds {
		if !slices.Contains(preds[:i], p) {
			n++
		}
	}
	return n
}

// sharedCase finds the one target of switch x that is entered from
// elsewhere too (not by a back edge), -1 when none or several are. Such a
// target is the merge, or a case another case falls into; the merge is
// tried first.
func (nt *nester) sharedCase(x int) int {
	shared := -1
	for _, t := range nt.g.Succs[x] {
		if t == shared {
			continue
		}
		for _, p := range nt.preds[t] {
			if p != x && !nt.dom.Dominates(t, p) {
				if shared >= 0 {
					return -1
				}
				shared = t
				break
			}
		}
	}
	return shared
}

// orderFallThroughs gives each switch of f whose cases fall through a case
// order that lists a case right before the case it falls into (rule R11):
// the default target's chain first, then the other chains in the order of
// their first case; a case falling into the default target lists the
// default as case 0 right after it. A switch whose fall-throughs break R11
// in another way keeps the default order, and the self-check refuses it.
// Post: where the fall-throughs can be listed in line (fallsInLine), the
// order meets R11 (checkCaseOrder); otherwise it is a bug and panics, which
// the strategy reports as the fallback nested:panic.
// order is the case-order rule (chainOrder; tests pass others to see the
// postcondition hold it).
func orderFallThroughs(ff *funcFacts, order func(to []int, fall map[int]int) []int) {
	f := ff.f
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		if !isSwitch(blk) {
			continue
		}
		dom, preds := ff.structuralDom(), ff.branchPreds()
		if blk.Term.Kind == Choose {
			blk.Term.Order = []int{0} // provisional: lets fallThroughs see a fall into the default
		}
		fall, err := fallThroughs(blk, b, dom, preds)
		blk.Term.Order = nil
		if err == nil && len(fall) > 0 {
			blk.Term.Order = order(blk.Term.To, fall)
		}
		if err == nil && len(fall) > 0 && fallsInLine(fall, blk.Term.To) {
			if bad := checkCaseOrder(blk, b, dom, preds); bad != nil {
				panic(fmt.Sprintf("bug: orderFallThroughs: %v (targets %v, order %v)", bad, blk.Term.To, blk.Term.Order))
			}
		}
	}
}

// fallsInLine says whether fall-throughs (case construct -> the target it
// falls into) of a switch with targets to can all be listed in line: each
// falls from a target (not from a block the header dominates that no case
// names), and none into a chain that leads back to it. (fallThroughs
// already refuses a construct falling into two, or two into one.)
func fallsInLine(fall map[int]int, to []int) bool {
	for from := range fall {
		if !slices.Contains(to, from) {
			return false
		}
		t, steps := from, 0
		for {
			next, ok := fall[t]
			if !ok {
				break
			}
			if t = next; t == from || steps > len(fall) {
				return false
			}
			steps++
		}
	}
	return true
}

// checkCaseOrder is orderFallThroughs' postcondition for switch b: under
// the order it chose, the switch's fall-throughs meet R11 (fallThroughs and
// checkFallOrder, the self-check's own reading).
func checkCaseOrder(blk *Block, b int, dom *domTree, preds [][]int) error {
	fall, err := fallThroughs(blk, b, dom, preds)
	if err != nil {
		return err
	}
	return checkFallOrder(blk, b, fall)
}

// chainOrder lists the case indices of a switch with targets to so that
// each fall-through pair (fall: target -> target) is adjacent, equal
// targets stay together, and the default target's chain comes first.
func chainOrder(to []int, fall map[int]int) []int {
	into := map[int]bool{}
	for _, t := range fall {
		into[t] = true
	}
	byTarget := map[int][]int{}
	var targets []int // distinct case targets, first appearance first
	if into[to[0]] {
		// A case falls into the default target: list it as case 0 too.
		targets, byTarget[to[0]] = append(targets, to[0]), []int{0}
	}
	for _, k := range caseOrder(to) {
		if _, ok := byTarget[to[k]]; !ok {
			targets = append(targets, to[k])
		}
		byTarget[to[k]] = append(byTarget[to[k]], k)
	}
	var order []int
	placed := map[int]bool{}
	chain := func(t int) {
		for ; !placed[t]; t = fall[t] {
			placed[t] = true
			order = append(order, byTarget[t]...)
			if _, ok := fall[t]; !ok {
				return
			}
		}
	}
	if !into[to[0]] {
		chain(to[0]) // the default's chain first: it is listed first
	}
	for _, t := range targets {
		if !into[t] {
			chain(t)
		}
	}
	for _, t := range targets { // a cycle: left for the self-check to refuse
		if !placed[t] {
			chain(t)
		}
	}
	return order
}

// casesCover reports whether every block of the region regionSize just
// walked (nt.queue, header x first) is dominated, in the walk's tree, by a
// target of x: the blocks of a switch's construct must each lie in a case.
func (nt *nester) casesCover(x int) bool {
	for _, b := range nt.queue[1:] {
		c := b
		for nt.parent[c] != x {
			if c = nt.parent[c]; c < 0 {
				return false
			}
		}
		if !slices.Contains(nt.g.Succs[x], c) {
			return false
		}
	}
	return true
}

// regionSize walks x's region for merge m (-1: none, a fresh block) and
// returns its size, or -1 when the region does not close or grows past
// limit blocks.
func (nt *nester) regionSize(x, m int, exits []int, limit int) int {
	nt.stamp++
	st := nt.stamp
	stop := func(t int) bool { return t == m || slices.Contains(exits, t) }
	nt.queue = append(nt.queue[:0], x)
	nt.mark[x] = st
	for i := 0; i < len(nt.queue); i++ {
		if len(nt.queue) > limit {
			return -1
		}
		for _, t := range nt.g.Succs[nt.queue[i]] {
			if t == x {
				return -1 // a cycle through the header: x is not a selection
			}
			if stop(t) || nt.mark[t] == st {
				continue
			}
			nt.mark[t] = st
			nt.queue = append(nt.queue, t)
		}
	}
	for _, b := range nt.queue[1:] {
		for _, p := range nt.preds[b] {
			if nt.mark[p] != st {
				return -1 // entered past the header (R10)
			}
		}
	}
	return len(nt.queue)
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
