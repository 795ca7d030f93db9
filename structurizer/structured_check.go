// structured_check.go: the structured strategy's own checker of SPIR-V's
// structured control-flow rules (oracle/RULES.md,
// R1..R16, following the specification 2.11 where the validator is more
// lenient) over a Func. Dominance and post-dominance are structural: over
// branch, merge and continue edges. Constructs are found in one walk of the
// structural dominator tree that keeps a stack of open constructs: entering
// a header opens its construct, entering its merge closes it (which must then
// be the innermost open one, rule R8), entering a loop's continue target
// opens its continue construct. A loop of one block (a header whose
// conditional goes back to itself and out) is its own continue target and
// back-edge block: it may branch only to itself and its merge, its loop
// construct stands for its continue construct, and its entries reach the
// continue target through the header (R9's one-block loops aside). Every query after that is O(1), so the check
// is linear (plus the dominator computations).
//
// It is the last pass: a function it rejects is replaced by the dispatch
// loop, so a wrong rewrite never becomes an invalid module.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

type cKind uint8

const (
	cSelection cKind = iota
	cSwitch
	cLoop
	cContinue
)

type construct struct {
	kind                cKind
	header, merge, cont int
	parent              int // enclosing construct, -1 for none
	pre, post           int // interval in the construct tree
	loop                int // for continue constructs: the loop construct
}

// RuleError is a violation found by the self-check. To is the target of
// the edge a construct's exit rule (R6) names, -1 for a violation at a
// block.
type RuleError struct {
	Rule  string
	Block int
	What  string
	To    int
}

func (e *RuleError) Error() string { return fmt.Sprintf("%s at block %d: %s", e.Rule, e.Block, e.What) }

func violation(rule string, b int, format string, args ...any) error {
	return &RuleError{Rule: rule, Block: b, What: fmt.Sprintf(format, args...), To: -1}
}

// exitViolation is an R6 violation of the edge u->t.
func exitViolation(u, t int, format string, args ...any) error {
	e := violation("R6", u, format, args...).(*RuleError)
	e.To = t
	return e
}

// isSwitch reports whether block b is laid out as an OpSwitch.
func isSwitch(b *Block) bool {
	return b.Term.Kind == Route || (b.Term.Kind == Choose && b.Arity >= 3)
}

func isCond(b *Block) bool {
	return b.Term.Kind == Test || (b.Term.Kind == Choose && b.Arity == 2)
}

// funcGraphs makes branch f's branch graph and structural its structural
// graph (merge and continue declarations first, then the branch targets,
// as the validator orders them). Both share the blocks' target lists
// (a block that declares nothing has its targets as its structural
// list); a header's structural list is carved from a listArena, capped at
// its length. The blocks are read in one sweep, which makes the headers'
// lists as it meets them. With mergeOf and contOf not nil (each of f's
// length, every entry -1) it also fills them as declarers does, and with
// headers not nil (of f's length, all false) it marks the blocks that
// declare a merge. With branch nil it makes the structural graph alone.
// The graphs' list arrays are taken from room (nil: allocated).
func funcGraphs(f *Func, branch, structural *cfg.Graph, mergeOf, contOf []int, headers []bool, room *factsRoom) {
	n := len(f.Blocks)
	if branch != nil {
		*branch = cfg.Graph{Succs: room.takeLists(n)}
		for b := range n {
			branch.Succs[b] = f.Blocks[b].Term.To
		}
	}
	*structural = cfg.Graph{Succs: room.takeLists(n)}
	arena := listArena{chunk: min(listChunk, 4*n)}
	for b := range n {
		blk := &f.Blocks[b]
		to, m := blk.Term.To, &blk.Merge
		structural.Succs[b] = to
		switch m.Kind {
		case NoMerge:
			continue
		case LoopMerge:
			structural.Succs[b] = arena.list(to, m.Merge, m.Continue)
			if contOf != nil {
				contOf[m.Continue] = b
			}
		default:
			structural.Succs[b] = arena.list(to, m.Merge)
		}
		if mergeOf != nil {
			mergeOf[m.Merge] = b
		}
		if headers != nil {
			headers[b] = true
		}
	}
}

// listChunk is the most ints a listArena allocates at once (but for a
// list longer than that).
const listChunk = 8192

// listArena hands out lists carved from chunks of at most listChunk ints,
// allocated as they fill: no chunk is copied when the next one is made,
// where one array grown by append would copy what it holds at every
// doubling (at 100,000 blocks, megabytes written for each of funcGraphs'
// runs).
type listArena struct {
	chunk int // the size of the chunks, listChunk or less for a small function
	buf   []int
}

// list returns a list of first, then to, capped at its length.
func (a *listArena) list(to []int, first ...int) []int {
	k := len(first) + len(to)
	if cap(a.buf)-len(a.buf) < k {
		a.buf = make([]int, 0, max(k, a.chunk))
	}
	start := len(a.buf)
	a.buf = append(a.buf, first...)
	a.buf = append(a.buf, to...)
	return a.buf[start:len(a.buf):len(a.buf)]
}

// funcFacts are the graphs of a Func and the analyses of them that the
// self-check and orderFallThroughs read, each computed on first use. They
// stay valid while f's targets and merge declarations do (a case order may
// change).
type funcFacts struct {
	f                  *Func
	room               *factsRoom // where the arrays come from (nil: allocated)
	made               bool       // the graphs are made
	branch, structural cfg.Graph  // funcGraphs
	dom                *domTree   // structural dominators
	preds              [][]int    // the branch graph's predecessors
}

func (ff *funcFacts) graphs() (branch, structural *cfg.Graph) {
	if !ff.made {
		funcGraphs(ff.f, &ff.branch, &ff.structural, nil, nil, nil, ff.room)
		ff.made = true
	}
	return &ff.branch, &ff.structural
}

func (ff *funcFacts) structuralDom() *domTree {
	if ff.dom == nil {
		_, structural := ff.graphs()
		ff.dom = newDomTree(cfg.ImmediateDominators(structural))
	}
	return ff.dom
}

func (ff *funcFacts) branchPreds() [][]int {
	if ff.preds == nil {
		ff.preds = branchPreds(ff.f, ff.room)
	}
	return ff.preds
}

// branchPreds is the predecessor lists of f's branch graph (as its
// Preds), read off the blocks' targets, the headers' array taken from
// room (nil: allocated).
func branchPreds(f *Func, room *factsRoom) [][]int {
	return cfg.PredecessorsIn(room.takeLists(len(f.Blocks)), f.Succs)
}

// SelfCheck checks f against the structured rules. Pre: f.Validate() == nil.
func SelfCheck(f *Func) error { return selfCheck(&funcFacts{f: f}) }

// selfCheck is SelfCheck with f's facts as far as they are known, its
// arrays taken from ff.room.
func selfCheck(ff *funcFacts) error {
	f, room := ff.f, ff.room
	n := len(f.Blocks)
	isMerge := make([]bool, n)   // declared merge or continue target
	perBlock := room.take(2 * n) // mergeOf and contOf in one array
	mergeOf := perBlock[:n:n]    // header declaring b as merge, -1
	contOf := perBlock[n:]       // loop header declaring b as continue, -1
	for b := range perBlock {
		perBlock[b] = -1
	}
	branch, structural := ff.graphs()
	for b := range n {
		blk := &f.Blocks[b]
		if blk.Merge.Kind != NoMerge {
			isMerge[blk.Merge.Merge] = true
			if mergeOf[blk.Merge.Merge] >= 0 {
				return violation("R1", b, "merge %d declared again (first by %d)", blk.Merge.Merge, mergeOf[blk.Merge.Merge])
			}
			mergeOf[blk.Merge.Merge] = b
		}
		if blk.Merge.Kind == LoopMerge {
			isMerge[blk.Merge.Continue] = true
			if contOf[blk.Merge.Continue] >= 0 {
				return violation("R3", b, "continue target %d shared", blk.Merge.Continue)
			}
			contOf[blk.Merge.Continue] = b
		}
	}
	if err := checkLayout(f, branch); err != nil {
		return err
	}
	dom := ff.structuralDom()
	var pdom *cfg.DomTree // only when a back-edge block is not its continue target
	for b := range n {
		if err := checkHeader(f, b, dom, isMerge, mergeOf); err != nil {
			return err
		}
	}
	backOf, err := backEdges(f, structural, contOf)
	if err != nil {
		return err
	}
	for b := range n {
		blk := &f.Blocks[b]
		if blk.Merge.Kind != LoopMerge || !dom.InTree(b) {
			continue
		}
		c, be := blk.Merge.Continue, backOf[b]
		if be < 0 {
			return violation("R3", b, "loop header without a back edge")
		}
		if !dom.Dominates(c, be) {
			return violation("R5", b, "continue target %d does not dominate back-edge block %d", c, be)
		}
		if be != c && pdom == nil {
			pdom = cfg.PostDominators(structural)
		}
		if be != c && !pdom.Dominates(be, c) {
			return violation("R5", b, "back-edge block %d does not post-dominate continue target %d", be, c)
		}
	}
	cw, err := constructs(f, dom, mergeOf, contOf, nil, room)
	if err != nil {
		return err
	}
	cs, inner, outer := cw.cs, cw.inner, cw.outer
	if err := checkNestingDepth(cs); err != nil {
		return err
	}
	if err := checkEdges(f, dom, cs, inner, outer, backOf); err != nil {
		return err
	}
	if err := checkContinueConstructs(f, structural, cs, inner, backOf, pdom); err != nil {
		return err
	}
	return checkCases(ff)
}

// MaxNestingDepth is R16's limit: constructs nest at most 1,023 deep, the
// validator's default (spirv-val --max-control-flow-nesting-depth). A
// selection, switch or loop construct counts one level, a continue
// construct none, as in the rules check (oracle/rules_check.go).
const MaxNestingDepth = 1023

// checkNestingDepth: R16 over the construct tree cs (parents come first).
// An else-if chain of over a thousand arms that share one join nests its
// selections that deep: the function then falls back to the dispatch loop,
// whose constructs nest two deep.
func checkNestingDepth(cs []construct) error {
	depth := make([]int32, len(cs))
	for c := range cs {
		d := int32(0)
		if p := cs[c].parent; p >= 0 {
			d = depth[p]
		}
		if cs[c].kind != cContinue {
			d++
		}
		if depth[c] = d; d > MaxNestingDepth {
			return violation("R16", cs[c].header, "constructs nest %d deep, over %d", d, MaxNestingDepth)
		}
	}
	return nil
}

// checkContinueConstructs: R6 for edges inside a continue construct as
// D5 defines it (blocks dominated by the continue target and
// post-dominated by the back-edge block; the construct walk keeps only the
// first half). An edge from a continue construct to a block the back-edge
// block does not post-dominate leaves it, so it must go to the loop's
// header or merge. pdom is computed here when first needed (nil: not yet).
func checkContinueConstructs(f *Func, structural *cfg.Graph, cs []construct, inner, backOf []int, pdom *cfg.DomTree) error {
	near := make([]int, len(cs)) // nearest continue construct around c with no loop between, -1
	for c := range cs {
		near[c] = -1
		switch {
		case cs[c].kind == cContinue:
			near[c] = c
		case cs[c].kind != cLoop && cs[c].parent >= 0:
			near[c] = near[cs[c].parent] // parents come first in cs
		}
	}
	for u := range f.Blocks {
		s := inner[u]
		if s < 0 || near[s] < 0 {
			continue
		}
		l := cs[cs[near[s]].loop]
		be := backOf[l.header]
		for _, t := range f.Blocks[u].Term.To {
			if t == l.header || t == l.merge {
				continue
			}
			if pdom == nil {
				pdom = cfg.PostDominators(structural)
			}
			if !pdom.Dominates(be, t) {
				return violation("R6", u, "continue construct of %d left for %d, which back-edge block %d does not post-dominate", l.header, t, be)
			}
		}
	}
	return nil
}

// checkCases: the case constructs of every switch (R6, R11). Every block
// the switch header immediately dominates is a case target or the merge (a
// block of the switch construct outside every case construct can only be
// entered by leaving a case for somewhere other than the merge). A case
// target other than the merge is entered only from its switch, by a back
// edge when it heads a loop, or by a fall-through from one other case (an
// edge from that case's construct; checkEdges has already refused one from
// a construct nested in it). Each case falls into at most one case and
// receives from at most one; one falls into the default target only when
// the order lists the default as a case too (Term.Order's index 0); and a
// case's last entry in the switch's target list is immediately followed by
// the case it falls into (the default target, listed first, falls into
// the first case listed).
func checkCases(ff *funcFacts) error {
	f, dom := ff.f, ff.structuralDom()
	var targets map[int]map[int]bool // of the wide switches, made on first use
	for c := range f.Blocks {
		h := dom.IDom[c]
		if h < 0 || !isSwitch(&f.Blocks[h]) {
			continue
		}
		if c != f.Blocks[h].Merge.Merge && !isTarget(&targets, f.Blocks[h].Term.To, h, c) {
			return violation("R6", c, "block in switch %d's construct outside every case", h)
		}
	}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		if !isSwitch(blk) || !dom.InTree(b) {
			continue
		}
		fall, err := fallThroughs(blk, b, dom, ff.branchPreds())
		if err != nil {
			return err
		}
		if len(fall) > 0 {
			if err := checkFallOrder(blk, b, fall); err != nil {
				return err
			}
		}
	}
	return nil
}

// wideSwitch is the number of targets from which a switch's targets are
// looked up in a set rather than scanned (a dispatch has thousands).
const wideSwitch = 16

// isTarget reports whether c is among the targets to of switch h; a wide
// switch's targets are put in a set, kept in *sets, on first use.
func isTarget(sets *map[int]map[int]bool, to []int, h, c int) bool {
	if len(to) <= wideSwitch {
		return slices.Contains(to, c)
	}
	if *sets == nil {
		*sets = map[int]map[int]bool{}
	}
	set, ok := (*sets)[h]
	if !ok {
		set = make(map[int]bool, len(to))
		for _, t := range to {
			set[t] = true
		}
		(*sets)[h] = set
	}
	return set[c]
}

// fallThroughs finds the fall-throughs of switch b: case target -> the case
// target it falls into.
func fallThroughs(blk *Block, b int, dom *domTree, preds [][]int) (map[int]int, error) {
	m := blk.Merge.Merge
	var fall, into map[int]int
	var seen map[int]bool // the targets met, for a wide switch
	if len(blk.Term.To) > wideSwitch {
		seen = make(map[int]bool, len(blk.Term.To))
	}
	for i, t := range blk.Term.To {
		if seen != nil {
			if t == m || seen[t] {
				continue
			}
			seen[t] = true
		} else if t == m || slices.Index(blk.Term.To, t) != i {
			continue
		}
		for _, p := range preds[t] {
			if p == b || dom.Dominates(t, p) {
				continue // the switch, or a back edge to a case heading a loop
			}
			from := caseOf(dom, b, p)
			switch {
			case from < 0 || from == m:
				return nil, violation("R10", p, "case %d of switch %d entered from outside its cases", t, b)
			case t == blk.Term.To[0] && !slices.Contains(blk.Term.Order, 0):
				return nil, violation("R11", p, "case %d falls into the default target %d of switch %d, which is not listed as a case", from, t, b)
			}
			if fall == nil {
				fall, into = map[int]int{}, map[int]int{}
			}
			if prev, ok := fall[from]; ok && prev != t {
				return nil, violation("R11", p, "case %d of switch %d falls into %d and %d", from, b, prev, t)
			}
			if prev, ok := into[t]; ok && prev != from {
				return nil, violation("R11", p, "cases %d and %d of switch %d both fall into %d", prev, from, b, t)
			}
			fall[from], into[t] = t, from
		}
	}
	return fall, nil
}

// caseOf is the child of switch header b on p's dominator chain: the case
// target whose construct holds p (-1: b does not dominate p).
func caseOf(dom *domTree, b, p int) int {
	for x := p; x >= 0; x = dom.IDom[x] {
		if dom.IDom[x] == b {
			return x
		}
	}
	return -1
}

// checkFallOrder: R11's order for the fall-throughs of switch b.
func checkFallOrder(blk *Block, b int, fall map[int]int) error {
	to := blk.Term.To
	order := blk.Term.Order
	if order == nil {
		order = caseOrder(to)
	}
	list := []int{to[0]}
	for _, k := range order {
		list = append(list, to[k])
	}
	for from, t := range fall {
		last := -1
		for i, x := range list {
			if x == from {
				last = i
			}
		}
		if last < 0 || last+1 >= len(list) || list[last+1] != t {
			return violation("R11", b, "case %d falls into %d, which does not follow it in the target list", from, t)
		}
	}
	return nil
}

// checkLayout: R14 (entry not a branch target, each block after its
// dominator) and R15 (a conditional's labels differ).
// A layout in the branch graph's reverse post-order (what the layout pass
// makes) places every block after its dominators, so the dominators are
// computed only when the blocks are in another order.
func checkLayout(f *Func, branch *cfg.Graph) error {
	var idom []int
	if !inReversePostOrder(branch) {
		idom = cfg.ImmediateDominators(branch)
	}
	for b := range f.Blocks {
		for _, t := range f.Blocks[b].Term.To {
			if t == 0 {
				return violation("R14", b, "branch to the entry block")
			}
		}
		if idom != nil {
			if id := idom[b]; id != cfg.NoBlock && id > b {
				return violation("R14", b, "block appears before its dominator %d", id)
			}
		}
		blk := &f.Blocks[b]
		if isCond(blk) && blk.Term.To[0] == blk.Term.To[1] {
			return violation("R15", b, "conditional with equal labels")
		}
	}
	return nil
}

// inReversePostOrder reports whether the blocks g's entry reaches are
// 0, 1, ... in the reverse post-order of a depth-first search over
// successor order (the one the layout pass and cfg.DFSOrder make). In
// that order every block comes after each of its dominators (a dominator
// is an ancestor in the search tree, so it finishes later). Blocks it does
// not reach have no dominator to check.
func inReversePostOrder(g *cfg.Graph) bool {
	n := g.Len()
	state := make([]bool, n) // reached
	type fr struct{ b, i int }
	stack := make([]fr, 1, n)
	stack[0] = fr{0, 0}
	state[0] = true
	post := make([]int, 0, n)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := g.Succs[top.b]
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if !state[t] {
				state[t] = true
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, b := range post {
		if b != len(post)-1-i {
			return false
		}
	}
	return true
}

// checkHeader: R2, R4, R5a, R12, R13 for block b.
func checkHeader(f *Func, b int, dom *domTree, isMerge []bool, mergeOf []int) error {
	blk := &f.Blocks[b]
	if !dom.InTree(b) {
		return nil
	}
	switch blk.Merge.Kind {
	case SelectionMerge:
		if !isSwitch(blk) && !isCond(blk) {
			return violation("R13", b, "selection merge before a %s", blk.Term.Kind)
		}
	case LoopMerge:
		if blk.Term.Kind != Branch && !isCond(blk) {
			return violation("R13", b, "loop merge before a %s", blk.Term.Kind)
		}
		if blk.Merge.Continue == blk.Merge.Merge {
			return violation("R4", b, "continue target is the merge")
		}
		if !dom.Dominates(b, blk.Merge.Continue) {
			return violation("R5", b, "header does not dominate its continue target")
		}
		if err := checkOwnContinue(blk, b); err != nil {
			return err
		}
	}
	if blk.Merge.Kind != NoMerge && !dom.StrictlyDominates(b, blk.Merge.Merge) {
		return violation("R2", b, "header does not strictly dominate its merge %d", blk.Merge.Merge)
	}
	if isSwitch(blk) && blk.Merge.Kind != SelectionMerge {
		return violation("R12", b, "switch without a selection merge")
	}
	if isCond(blk) && blk.Merge.Kind != SelectionMerge && blk.Term.To[0] != blk.Term.To[1] {
		if !isMerge[blk.Term.To[0]] && !isMerge[blk.Term.To[1]] {
			return violation("R12", b, "conditional without a selection merge")
		}
	}
	if isSwitch(blk) {
		for _, t := range blk.Term.To {
			if t != blk.Merge.Merge && !dom.Dominates(b, t) {
				return violation("R11", b, "switch target %d not dominated by the header", t)
			}
		}
	}
	return nil
}

// checkOwnContinue: R6 for a loop header b that is its own continue
// target. Its continue construct is b alone (R5 makes b its back-edge
// block too), so b may branch only to itself and to its merge.
func checkOwnContinue(blk *Block, b int) error {
	if blk.Merge.Continue != b {
		return nil
	}
	for _, t := range blk.Term.To {
		if t != b && t != blk.Merge.Merge {
			return exitViolation(b, t, "continue construct of %d left for %d", b, t)
		}
	}
	return nil
}

// backEdges finds the back edges of a depth-first search over structural
// edges (merge and continue targets first, as the validator does) and checks
// R3: each targets a loop header, and each loop header has one back-edge
// block. It returns the back-edge block per header (-1 for none).
func backEdges(f *Func, structural *cfg.Graph, contOf []int) ([]int, error) {
	n := len(f.Blocks)
	backOf := make([]int, n)
	for i := range backOf {
		backOf[i] = -1
	}
	state := make([]uint8, n)
	type fr struct{ b, i int }
	stack := make([]fr, 1, min(n, 64))
	stack[0] = fr{0, 0}
	state[0] = 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := structural.Succs[top.b]
		if top.i < len(s) {
			t := s[top.i]
			nDecl := len(s) - len(f.Blocks[top.b].Term.To)
			isBranch := top.i >= nDecl
			top.i++
			if state[t] == 1 && isBranch {
				u := top.b
				if f.Blocks[t].Merge.Kind != LoopMerge {
					return nil, violation("R3", u, "back edge to %d, not a loop header", t)
				}
				if backOf[t] >= 0 && backOf[t] != u {
					return nil, violation("R3", t, "loop header with back edges from %d and %d", backOf[t], u)
				}
				backOf[t] = u
			}
			if state[t] == 0 {
				state[t] = 1
				stack = append(stack, fr{t, 0})
			}
			continue
		}
		state[top.b] = 2
		stack = stack[:len(stack)-1]
	}
	return backOf, nil
}

// constructFacts are the analyses the latch, lift and arm-break passes
// read: the declarers of each block, the structural dominator tree, the
// constructs with each block's innermost one, and the branch
// predecessors. The arms group keeps some of them true across its
// rewrites (structured_check_kept.go): then dom and inner are nil.
type constructFacts struct {
	mergeOf, contOf []int
	dom             *domTree
	cs              []construct
	inner           []int
	preds           [][]int
	kept            keptFacts
	// arrays are the int arrays mergeOf, contOf and inner are carved
	// from, which recycle hands on.
	arrays [][]int
}

// constructFactsOf computes f's construct facts, its per-block arrays
// taken from room (nil: allocated); an error when its constructs do not
// nest (the self-check reports it).
func constructFactsOf(f *Func, room *factsRoom) (*constructFacts, error) {
	n := len(f.Blocks)
	perBlock := room.take(2 * n) // mergeOf and contOf, as declarers makes them
	mergeOf, contOf := perBlock[:n:n], perBlock[n:]
	for b := range perBlock {
		perBlock[b] = -1
	}
	headers := make([]bool, n)
	var structural cfg.Graph // the graph, the declarers and the headers in one sweep
	funcGraphs(f, nil, &structural, mergeOf, contOf, headers, room)
	dom := newDomTree(cfg.ImmediateDominators(&structural))
	room.giveLists(structural.Succs)
	cw, err := constructs(f, dom, mergeOf, contOf, headers, room)
	if err != nil {
		return nil, err
	}
	return &constructFacts{mergeOf: mergeOf, contOf: contOf, dom: dom, cs: cw.cs, inner: cw.inner, preds: branchPreds(f, room),
		arrays: [][]int{perBlock, cw.perBlock}}, nil
}

// recycle hands the facts' per-block arrays on to room, for the next
// analysis to fill: none of the facts may be read after.
func (facts *constructFacts) recycle(room *factsRoom) {
	room.give(facts.arrays...)
	room.giveLists(facts.preds)
	*facts = constructFacts{}
}

// factsRoom holds per-block arrays that nothing reads any more, int
// arrays and arrays of lists, for an analysis of a function of about the
// same size to fill instead of allocating its own: within one
// structurization the latch pass's construct facts, once the first
// round's lift pass has read them, become the arm-break pass's, and
// those the arms group keeps become the self-check's. At 100,000 blocks
// each set is megabytes that would otherwise be allocated, zeroed and
// collected again. The nil room takes none and keeps none.
type factsRoom struct {
	ints  [][]int
	lists [][][]int
}

// take returns an array of k ints, of arbitrary contents: the shortest
// of the room's at least that long, else a new one.
func (r *factsRoom) take(k int) []int {
	if r == nil {
		return make([]int, k)
	}
	return takeShortest(&r.ints, k)
}

// takeLists is take for an array of k lists.
func (r *factsRoom) takeLists(k int) [][]int {
	if r == nil {
		return make([][]int, k)
	}
	return takeShortest(&r.lists, k)
}

// takeShortest removes from free the shortest array at least k long and
// returns its first k elements; a new array when there is none.
func takeShortest[T any](free *[][]T, k int) []T {
	best := -1
	for i, a := range *free {
		if cap(a) >= k && (best < 0 || cap(a) < cap((*free)[best])) {
			best = i
		}
	}
	if best < 0 {
		return make([]T, k)
	}
	a := (*free)[best]
	*free = slices.Delete(*free, best, best+1)
	return a[:k:k]
}

// give keeps arrays for take; nothing may read them after.
func (r *factsRoom) give(arrays ...[]int) {
	if r != nil {
		r.ints = append(r.ints, arrays...)
	}
}

// giveLists keeps an array of lists for takeLists; nothing may read it
// after. The lists it holds stay reachable until overwritten.
func (r *factsRoom) giveLists(lists [][]int) {
	if r != nil && lists != nil {
		r.lists = append(r.lists, lists)
	}
}

// constructs walks the structural dominator tree and returns the walk
// done: its constructs, each block's innermost construct (a header's own
// included) and the innermost construct around it (a header's own
// excluded); -1 for none. Its per-block arrays and the tree's child
// lists come from room (nil: allocated); the child lists go back to it.
func constructs(f *Func, dom *domTree, mergeOf, contOf []int, headers []bool, room *factsRoom) (*constructWalk, error) {
	cw := newConstructWalk(f, mergeOf, contOf, room)
	cw.headers = headers
	kids := room.take(treeKidsLen(len(dom.IDom)))
	err := cw.run(treeKidsIn(dom.IDom, kids))
	room.give(kids)
	if err != nil {
		return nil, err
	}
	numberConstructs(cw.cs)
	return cw, nil
}

// constructWalk is constructs' state: the constructs found, the stack of
// open ones (indices into cs), and per block its innermost construct,
// the one around it and, for a header, its own.
type constructWalk struct {
	f               *Func
	mergeOf, contOf []int
	cs              []construct
	open            []int
	inner, outer    []int
	ofHeader        []int // header -> its construct, -1
	perBlock        []int // the array inner, outer and ofHeader are carved from
	// headers, when not nil, marks the blocks that declare a merge: the
	// walk reads only those blocks, in the order of the dominator tree.
	// At 100,000 blocks the function is larger than a cache, and reading
	// every block in that order jumps around memory.
	headers []bool
}

// constructFrame is a block on the walk's stack: the next tree kid to
// enter and what entering it opened and closed.
type constructFrame struct {
	b, i   int
	pushed int // construct opened at b, -1
	closed int // construct closed at b (to reopen on exit), -1
	cont   int // continue construct opened at b, -1
}

func newConstructWalk(f *Func, mergeOf, contOf []int, room *factsRoom) *constructWalk {
	n := len(f.Blocks)
	perBlock := room.take(3 * n) // inner, outer and ofHeader in one allocation
	for b := range perBlock {
		perBlock[b] = -1
	}
	headers := 0 // constructs: one per header, two per loop header (fewer where declarations clash)
	for b := range n {
		if mergeOf[b] >= 0 {
			headers++
		}
		if contOf[b] >= 0 {
			headers++
		}
	}
	return &constructWalk{f: f, mergeOf: mergeOf, contOf: contOf,
		cs: make([]construct, 0, headers), open: make([]int, 0, headers),
		inner: perBlock[:n:n], outer: perBlock[n : 2*n : 2*n], ofHeader: perBlock[2*n:], perBlock: perBlock}
}

// run walks the tree depth first from block 0.
func (cw *constructWalk) run(kids children) error {
	x0, err := cw.enter(0)
	if err != nil {
		return err
	}
	stack := make([]constructFrame, 1, min(len(cw.f.Blocks), 64))
	stack[0] = x0
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if k := kids.of(top.b); top.i < len(k) {
			c := k[top.i]
			top.i++
			x, err := cw.enter(c)
			if err != nil {
				return err
			}
			stack = append(stack, x)
			continue
		}
		cw.leave(*top)
		stack = stack[:len(stack)-1]
	}
	return nil
}

// top is the innermost open construct, -1 for none.
func (cw *constructWalk) top() int {
	if len(cw.open) == 0 {
		return -1
	}
	return cw.open[len(cw.open)-1]
}

// push opens construct c inside the innermost open one.
func (cw *constructWalk) push(c construct) int {
	c.parent = cw.top()
	cw.cs = append(cw.cs, c)
	cw.open = append(cw.open, len(cw.cs)-1)
	return len(cw.cs) - 1
}

// enter closes the construct block b merges (it must be the innermost
// open one: R8), opens the continue construct b is the target of (none
// where b heads the loop itself: a one-block loop) and the construct b
// heads, and records b's innermost and outer constructs.
func (cw *constructWalk) enter(b int) (constructFrame, error) {
	x := constructFrame{b: b, pushed: -1, closed: -1, cont: -1}
	if h := cw.mergeOf[b]; h >= 0 {
		if ci := cw.ofHeader[h]; ci >= 0 {
			if cw.top() != ci {
				return x, violation("R8", b, "merge of %d reached inside a construct nested in it", h)
			}
			cw.open = cw.open[:len(cw.open)-1]
			x.closed = ci
		}
	}
	cw.outer[b] = cw.top()
	if h := cw.contOf[b]; h >= 0 && h != b {
		ci := cw.ofHeader[h]
		if ci < 0 || cw.top() != ci {
			return x, violation("R8", b, "continue target of %d reached outside its loop construct", h)
		}
		x.cont = cw.push(construct{kind: cContinue, header: h, loop: ci, merge: -1, cont: -1})
	}
	if cw.headers != nil && !cw.headers[b] {
		cw.inner[b] = cw.top()
		return x, nil
	}
	blk := &cw.f.Blocks[b]
	switch {
	case blk.Merge.Kind == LoopMerge:
		x.pushed = cw.push(construct{kind: cLoop, header: b, merge: blk.Merge.Merge, cont: blk.Merge.Continue})
	case blk.Merge.Kind == SelectionMerge && isSwitch(blk):
		x.pushed = cw.push(construct{kind: cSwitch, header: b, merge: blk.Merge.Merge, cont: -1})
	case blk.Merge.Kind == SelectionMerge:
		x.pushed = cw.push(construct{kind: cSelection, header: b, merge: blk.Merge.Merge, cont: -1})
	}
	if x.pushed >= 0 {
		cw.ofHeader[b] = x.pushed
	}
	cw.inner[b] = cw.top()
	return x, nil
}

// leave undoes enter once b's subtree is done: the constructs b opened
// close, the one b closed is open again.
func (cw *constructWalk) leave(x constructFrame) {
	if x.pushed >= 0 {
		cw.open = cw.open[:len(cw.open)-1]
	}
	if x.cont >= 0 {
		cw.open = cw.open[:len(cw.open)-1]
	}
	if x.closed >= 0 {
		cw.open = append(cw.open, x.closed)
	}
}

// children lists the children of each block of a tree, in block order,
// all in one array: block b's are all[start[b]:start[b+1]].
type children struct{ start, all []int }

// of returns b's children.
func (c children) of(b int) []int { return c.all[c.start[b]:c.start[b+1]] }

// treeKids returns the children of each block in the tree of idom.
func treeKids(idom []int) children {
	return treeKidsIn(idom, make([]int, treeKidsLen(len(idom))))
}

// treeKidsLen is the length of treeKidsIn's array for a tree of n blocks.
func treeKidsLen(n int) int { return (n + 1) + n + n }

// treeKidsIn is treeKids carved from ints (treeKidsLen long, of any
// contents).
func treeKidsIn(idom []int, ints []int) children {
	n := len(idom)
	count, fill := ints[:n+1:n+1], ints[n+1:2*n+1:2*n+1] // start, fill and all in one array
	clear(count)
	for _, d := range idom {
		if d >= 0 {
			count[d+1]++
		}
	}
	for x := 1; x <= n; x++ {
		count[x] += count[x-1]
	}
	all := ints[2*n+1 : 2*n+1+count[n] : 2*n+1+count[n]]
	copy(fill, count[:n])
	for b, d := range idom {
		if d >= 0 {
			all[fill[d]] = b
			fill[d]++
		}
	}
	return children{start: count, all: all}
}

// numberConstructs gives each construct its pre/post interval in the
// construct tree (parents come before children in cs): the numbers of a
// depth-first walk that visits children in index order and ticks on
// entering and on leaving each construct (numberConstructsByWalk, which a
// test compares), from subtree sizes: a construct's interval spans two
// ticks per construct in its subtree, and its first child enters one tick
// after it, each later child one tick after the previous one leaves.
func numberConstructs(cs []construct) {
	m := len(cs)
	ints := make([]int, 2*(m+1))             // subtree sizes, then the next child's tick per construct
	size, next := ints[:m+1:m+1], ints[m+1:] // index m: the function
	for c := m - 1; c >= 0; c-- {
		size[c]++
		p := cs[c].parent
		if p < 0 {
			p = m
		}
		size[p] += size[c]
	}
	next[m] = 0 // the function takes no tick
	for c := range cs {
		p := cs[c].parent
		if p < 0 {
			p = m
		}
		cs[c].pre = next[p]
		cs[c].post = cs[c].pre + 2*size[c] - 1
		next[p] += 2 * size[c]
		next[c] = cs[c].pre + 1
	}
}

// numberConstructsByWalk is numberConstructs by the walk itself.
func numberConstructsByWalk(cs []construct) {
	parent := make([]int, len(cs)+1) // the function (index len(cs)) is the root
	for i := range cs {
		parent[i] = cs[i].parent
		if parent[i] < 0 {
			parent[i] = len(cs)
		}
	}
	parent[len(cs)] = -1
	kids := treeKids(parent)
	clock := 0
	type fr struct{ c, i int }
	stack := []fr{{len(cs), 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if k := kids.of(top.c); top.i < len(k) {
			k := k[top.i]
			top.i++
			cs[k].pre = clock
			clock++
			stack = append(stack, fr{k, 0})
			continue
		}
		if top.c < len(cs) {
			cs[top.c].post = clock
			clock++
		}
		stack = stack[:len(stack)-1]
	}
}

// within reports whether construct c is a or lies inside a (-1 is the
// function, which holds everything).
func within(cs []construct, c, a int) bool {
	if a < 0 {
		return true
	}
	if c < 0 {
		return false
	}
	return cs[a].pre <= cs[c].pre && cs[c].post <= cs[a].post
}

// checkEdges: R6 (allowed exits), R7, R9 and R10 (constructs entered only
// through their headers) for every branch edge.
func checkEdges(f *Func, dom *domTree, cs []construct, inner, outer, backOf []int) error {
	for u := range f.Blocks {
		if !dom.InTree(u) {
			continue
		}
		s := inner[u]
		if s >= 0 && cs[s].kind == cContinue && f.Blocks[u].Term.Kind == Return {
			return violation("R7", u, "return inside a continue construct")
		}
		for _, t := range f.Blocks[u].Term.To {
			if backOf[t] == u {
				continue // the back edge, checked by R3 and R5
			}
			ct := inner[t]
			if within(cs, ct, s) {
				// Inside s: t may enter one construct, only at its header.
				if ct != s && !(cs[ct].header == t && cs[ct].parent == s) && cs[ct].kind != cContinue {
					return violation("R10", u, "edge to %d enters a construct past its header %d", t, cs[ct].header)
				}
				continue
			}
			if err := checkExit(f, cs, s, u, t); err != nil {
				return err
			}
			if !within(cs, s, outer[t]) {
				return violation("R10", u, "exit to %d enters another construct", t)
			}
		}
	}
	loopOfCont := make([]int, len(f.Blocks)) // continue target -> its loop construct, -1
	for b := range loopOfCont {
		loopOfCont[b] = -1
	}
	for c := range cs {
		if cs[c].kind == cLoop {
			loopOfCont[cs[c].cont] = c
		}
	}
	for u := range f.Blocks {
		if !dom.InTree(u) {
			continue
		}
		for _, t := range f.Blocks[u].Term.To {
			c := loopOfCont[t]
			if c >= 0 && u != backOf[cs[c].header] && t != cs[c].header && !within(cs, inner[u], c) {
				return violation("R9", u, "branch to continue target %d from outside loop %d", t, cs[c].header)
			}
		}
	}
	return nil
}

// checkExit: an edge u->t leaves construct s (R6).
func checkExit(f *Func, cs []construct, s, u, t int) error {
	if s < 0 {
		return exitViolation(u, t, "edge to %d leaves the function level", t)
	}
	c := cs[s]
	switch c.kind {
	case cContinue:
		l := cs[c.loop]
		if t == l.header || t == l.merge {
			return nil
		}
		return exitViolation(u, t, "continue construct of %d left for %d", c.header, t)
	case cLoop:
		if t == c.merge || t == c.cont {
			return nil
		}
		return exitViolation(u, t, "loop %d left for %d", c.header, t)
	}
	if t == c.merge {
		return nil
	}
	for p := c.parent; p >= 0; p = cs[p].parent {
		switch cs[p].kind {
		case cLoop:
			if t == cs[p].merge || t == cs[p].cont {
				return nil
			}
			return exitViolation(u, t, "selection %d left for %d", c.header, t)
		case cSwitch:
			if t == cs[p].merge && c.kind != cSwitch {
				return nil
			}
		case cContinue:
			return exitViolation(u, t, "selection %d in a continue construct left for %d", c.header, t)
		}
	}
	return exitViolation(u, t, "selection %d left for %d", c.header, t)
}

// declarers returns, for each block, the header that names it as its
// merge and the loop header that names it as its continue target (-1 for
// none; the last one where several do, which the self-check refuses).
func declarers(f *Func) (mergeOf, contOf []int) {
	n := len(f.Blocks)
	perBlock := make([]int, 2*n)
	mergeOf, contOf = perBlock[:n:n], perBlock[n:]
	for b := range perBlock {
		perBlock[b] = -1
	}
	for b := range f.Blocks {
		m := &f.Blocks[b].Merge
		if m.Kind != NoMerge {
			mergeOf[m.Merge] = b
		}
		if m.Kind == LoopMerge {
			contOf[m.Continue] = b
		}
	}
	return mergeOf, contOf
}

// declarersAndPreds is declarers and predCounts in one sweep of the
// blocks.
func declarersAndPreds(f *Func) (mergeOf, contOf, preds []int) {
	mergeOf, contOf, preds, _ = declarersPredsAndConds(f, make([]int, 3*len(f.Blocks)))
	return mergeOf, contOf, preds
}

// declarersPredsAndConds is declarersAndPreds carved from perBlock (three
// ints a block, of any contents), and the conditionals that declare a
// selection merge (isCond) in block order, in the same sweep.
func declarersPredsAndConds(f *Func, perBlock []int) (mergeOf, contOf, preds, conds []int) {
	mergeOf, contOf, preds = declarerArrays(len(f.Blocks), perBlock)
	conds = []int{}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		noteDeclarer(mergeOf, contOf, preds, b, blk)
		if blk.Merge.Kind == SelectionMerge && isCond(blk) {
			conds = append(conds, b)
		}
	}
	return mergeOf, contOf, preds, conds
}

// noteDeclarer notes block b (blk) in declarersAndPreds' results: what
// it declares and the edges it adds to its targets' counts.
func noteDeclarer(mergeOf, contOf, preds []int, b int, blk *Block) {
	if m := &blk.Merge; m.Kind != NoMerge {
		mergeOf[m.Merge] = b
		if m.Kind == LoopMerge {
			contOf[m.Continue] = b
		}
	}
	for _, t := range blk.Term.To {
		preds[t]++
	}
}

// declarerArrays is room for declarersAndPreds' results on n blocks,
// carved from perBlock (3n ints of any contents): mergeOf and contOf all
// -1, preds all 0.
func declarerArrays(n int, perBlock []int) (mergeOf, contOf, preds []int) {
	mergeOf, contOf, preds = perBlock[:n:n], perBlock[n:2*n:2*n], perBlock[2*n:3*n:3*n]
	for b := range perBlock[:2*n] {
		perBlock[b] = -1
	}
	clear(preds)
	return mergeOf, contOf, preds
}

// predCounts is the number of branch edges into each block of f.
func predCounts(f *Func) []int {
	n := make([]int, len(f.Blocks))
	for b := range f.Blocks {
		for _, t := range f.Blocks[b].Term.To {
			n[t]++
		}
	}
	return n
}

// declaredBlocks marks the blocks some header names as its merge or
// continue target.
func declaredBlocks(f *Func) []bool {
	declared := make([]bool, len(f.Blocks))
	for b := range f.Blocks {
		declare(declared, &f.Blocks[b].Merge)
	}
	return declared
}

// declare marks in declared the blocks m names as its merge or continue
// target.
func declare(declared []bool, m *Merge) {
	if m.Kind != NoMerge {
		declared[m.Merge] = true
	}
	if m.Kind == LoopMerge {
		declared[m.Continue] = true
	}
}

// retargetable: edge i of block blk may go to t instead (R15: a
// conditional's two labels stay distinct; R11: a switch's case goes on only
// to the switch's own merge, and a switch with its own case order keeps it).
func retargetable(blk *Block, i, t int) bool {
	to := blk.Term.To
	if len(to) == 2 && to[1-i] == t {
		return false
	}
	return !isSwitch(blk) || t == blk.Merge.Merge && blk.Term.Order == nil
}

// oneCaseMerges reports whether every edge into switch w's merge comes
// from one case (the blocks one target of w dominates), among the edges
// from blocks the entry still reaches (a merge a pass dropped keeps its
// edge until the layout drops it). Its other cases then all leave, so
// that case's target closes w's region too, and the nested pass, which
// takes the nearest block that closes a region, would merge w there when
// it lays out the output again: the conditionals the lift and arm-break
// passes moved out of that case would be left in a selection (neither
// pass moves one into a selection, structured_lift.go says why), with no
// block for a merge of their own.
func oneCaseMerges(f *Func, w construct, dom *domTree, preds [][]int) bool {
	c := -1
	for _, u := range preds[w.merge] {
		if !dom.InTree(u) {
			continue // dropped: no edge of the layout
		}
		if c < 0 {
			for _, t := range f.Blocks[w.header].Term.To {
				if t != w.merge && dom.Dominates(t, u) {
					c = t
					break
				}
			}
			if c < 0 {
				return false
			}
		}
		if !dom.Dominates(c, u) {
			return false
		}
	}
	return c >= 0
}
