// structured.go: the structured strategy, laid out as a table of
// passes in the manner of Go's cmd/compile/internal/ssa compile.go: each
// pass has a name, a precondition, a postcondition and a function that
// reports whether it changed anything. Options.CheckPasses runs the working
// graph's invariant checker after every graph pass and Func.Validate plus
// the self-check after the passes that build the Func.
//
// Passes, in order:
//
//	nested       a graph that already nests is laid out as it is, and the
//	             passes below do not run (structured_nested.go and the
//	             structured_nested_*.go files it names; the faults that can
//	             apply to it are planted afterwards)
//	irreducible  multi-entry cycles get one selector header each
//	             (structured_irreducible.go)
//	loops        loops first: header, one latch, one merge with routed exits
//	             (structured_loops.go; return tails placed first,
//	             structured_loops_tails.go; each loop's way out found,
//	             structured_loops_exits.go with its exit destinations and
//	             exit regions, structured_loops_dests.go and
//	             structured_loops_region.go; every edge routed,
//	             structured_loops_route.go)
//	selections   each level's dominator tree laid out as selections, joins
//	             under guards, skips routed (structured_emit.go; the
//	             levels' analysis structured_levels.go and
//	             structured_arms.go, the pending joins
//	             structured_frames.go, where an edge that is no arm goes
//	             structured_emit_joins.go, the blocks
//	             structured_emit_func.go, the routed cases' reference
//	             structured_emit_routes.go)
//	fold         store blocks folded into the block before them
//	             (structured_fold.go)
//	thread       empty forwarding blocks bypassed, chains of guards made
//	             one route, a switch's forwarders to one block shared
//	             (structured_thread.go)
//	latch        a loop's conditional back-edge block that leaves for the
//	             loop's merge is its continue target, in place of a
//	             synthetic latch (structured_latch.go)
//	lift         conditionals whose merge only forwards to the enclosing
//	             switch's or loop's merge keep no merge of their own
//	             (structured_lift.go)
//	armmerge     a conditional whose merge only forwards, reached through
//	             one arm alone, merges at that arm
//	             (structured_armmerge.go)
//	armbreak     a conditional directly in a switch or loop whose merge
//	             only forwards to that construct's merge, reached through
//	             both arms, merges at one arm and the other breaks
//	             (structured_armbreak.go)
//	oneblock     a loop of one block is its own header and continue
//	             target, in place of a synthetic header
//	             (structured_oneblock.go)
//	layout       blocks in reverse post-order of the branch graph
//	             (func_layout.go)
//	selfcheck    the structured rules R1..R16 (structured_check.go)
//	readback     a layout without a variable that the nested pass's first
//	             run would misread gets its loops' merges named at their
//	             latches (structured_nested_readback.go)
//
// What the passes share lies below them: the structured function form
// (func.go, func_layout.go), the input graph's analyses (structured_facts.go),
// the working graph (structured_graph.go), and the self-check with its
// dominator trees and rule helpers (structured_check.go, structured_dom.go).
// A pass's file uses only those and its own helpers, and what lies below
// uses no pass (layers_test.go type-checks the package and holds it so).
//
// Idempotence (ARCHITECTURE.md, guarantee 5): the CFG of a layout this
// strategy returns, structurized again, gets no block more than the
// strategy's overhead. Why it holds:
//
//   - structurizing a CFG starts with the nested pass's first run (one
//     merge policy, no search), and when that run lays the CFG out, its
//     layout is the answer: it declares merges over the CFG's own blocks
//     and adds none but the strategy's overhead (fresh merges come only
//     from the search);
//   - so it is enough that the first run lays out the CFG of every layout
//     we return. In a layout with a variable every loop's merge is named
//     where its header's conditional or its latch leaves the loop: a
//     header tests the route for a value it never holds when its loop has
//     no exit (loopEntry), and a latch that would branch back
//     unconditionally tests a variable for such a value (nameLoopMerges).
//     R12 and R6 leave such a merge no alternative, so the first run takes
//     it outright (loopMerge) instead of choosing among the loop's exits;
//     where the header goes to its own latch and out, the latch's target
//     wins, since the continue target meets R12 already;
//   - a layout of the pass table without a variable keeps its loops
//     unnamed, since naming costs a variable; the read-back step runs the
//     first run on its CFG and, when that fails, names its loops at their
//     latches with a variable of its own, keeping the named layout when
//     the first run reads it (readBack). This is checked on every such
//     layout, not argued;
//   - a layout of the nested pass is the first run's own answer when the
//     first run found it, and the first run finds it again on its CFG.
//     When the search found it instead, it may be one the first run
//     misreads (a loop whose construct reaches past a block its header
//     leaves for, with the header going to its own latch); naming its
//     loops would cost a variable on a graph that already nests
//     (guarantee 6), so such a layout is left to the search;
//   - a selection's merge is then the first candidate that closes its
//     region, in the order the selections pass itself merges: the
//     immediate post-dominator, then the joins of its dominator subtree;
//   - a conditional the lift pass left without a merge breaks from the
//     innermost switch's case or loop, and the nested pass declares
//     nothing for such a conditional (needsHeader), as for a continue.
//     The pass lifts nothing into a switch whose merge one case alone
//     reaches: the nested pass would merge that switch at the case;
//   - a conditional the arm-merge pass merged at one of its arms has a
//     region that only that arm's first block closes among its own
//     targets (the other arm returns or breaks); that the first run
//     takes it before a later candidate is what the selections' step
//     below leaves unproved too;
//   - a conditional the arm-break pass merged at one of its arms lies
//     directly in a switch that several cases leave for its merge, or in
//     a loop, and the edges of its other arm that went to its old merge
//     break to that switch's or loop's merge or continue target: to the
//     first run that arm breaks, as after the arm-merge pass, and the
//     region closes at the first arm in the same way (the same unproved
//     step);
//   - a loop of one block (the one-block pass's, or the nested pass's) is
//     its own header, continue target and back-edge block: its
//     conditional goes back to itself and out, and the first run takes it
//     as its own continue target with the other label as the merge (R12,
//     and R6 for the continue construct it is);
//   - a loop whose latch the latch pass absorbed has one back-edge block,
//     a conditional that leaves for the merge: the first run takes it as
//     the continue target and reads the merge off it (R6, R12), as off a
//     synthetic latch.
//
// What is not proved is the selections' step for layouts with a variable:
// that the first candidate that closes a region is the merge the
// selections pass declared. TestNestedFirstRunReadsOutputs holds the first
// run to every layout of the pass table and counts the nested pass's
// layouts it misreads; the bounded search stays behind both, and the
// measured margins are in BENCHMARKS.md.
//
// Any error or panic in a pass, or a self-check failure, is a bug: the
// strategy then returns the dispatch loop for the whole function, with
// Stats.Fallbacks = 1 and one Stats.PassesUsed entry "fallback: PASS:
// REASON: DETAIL" (fallbackEntry): PASS the stage that failed (a pass
// name, "validate" or "selfcheck"), REASON stable and free of ids (the
// broken rule R1..R16, "panic", "malformed", "postcondition", or the pass's
// error), DETAIL the ids. Campaigns report it as the finding
// structurize:fallback:PASS:REASON (oracle.FallbackSignature). When a fault
// is injected the self-check is skipped so the fault reaches the output.

package structurizer

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// pass is one entry of the structured strategy's pass table.
type pass struct {
	name string
	pre  string // what the pass needs
	post string // what it guarantees
	run  func(s *structState) (changed bool, err error)
}

// structState is what the passes share.
type structState struct {
	g   *cfg.Graph
	opt Options
	// w is the working graph, until the selections pass has laid it out
	// as f: nil after, so that the collector frees it.
	w     *work
	f     *Func
	guard int // guards the selections pass placed
	// facts are f's construct facts as the latch pass leaves them, for
	// the lift pass; nil otherwise.
	facts *constructFacts
}

var structuredPasses = []pass{
	{
		name: "irreducible",
		pre:  "working graph: node 0 a synthetic entry no edge targets",
		post: "the working graph is reducible; every multi-entry cycle is entered through one selector node",
		run:  func(s *structState) (bool, error) { return s.w.passIrreducible() },
	},
	{
		name: "loops",
		pre:  "the working graph is reducible",
		post: "every loop has one header H, one latch C and one merge M; each node has a level and its edges stay in it, continue, break or enter a child loop at H",
		run:  func(s *structState) (bool, error) { return s.w.passLoops() },
	},
	{
		name: "selections",
		pre:  "every level is acyclic with a single entry",
		post: "a Func that passes Validate; every block placed once, selections merging at fresh guard blocks",
		run: func(s *structState) (bool, error) {
			e := newEmitter(s.w, s.g.Len())
			f, err := e.run()
			s.f, s.guard = f, e.routes.guards
			changed := e.routes.guards > 0 || s.w.routeVar >= 0 || s.w.clones > 0
			s.w = nil // the passes after this one read the Func alone
			return changed, err
		},
	},
	{
		name: "fold",
		pre:  "a Func that passes Validate",
		post: "store blocks entered by one edge folded into the block before them (a conditional whose labels meet at the store block's target becoming a branch that stores by choice, a header's merge giving it its stores by choice), stores of a value already held dropped; the same runs",
		run:  func(s *structState) (bool, error) { return fold(s.f), nil },
	},
	{
		name: "thread",
		pre:  "a Func whose declared merges are distinct blocks",
		post: "empty forwarders bypassed where R1, R4, R11 and R15 allow, chained guards joined, a switch's cases sharing one forwarder to a block (its own merge when that is one); the same runs",
		run:  func(s *structState) (bool, error) { return thread(s.f), nil },
	},
	{
		name: "latch",
		pre:  "a Func whose declared merges are distinct blocks and whose constructs nest",
		post: "a loop whose synthetic latch only follows a conditional back-edge block at the loop's own level, that leaves for the loop's merge, continues at that block instead (the latch named by nothing); the same runs",
		run: func(s *structState) (bool, error) {
			changed, facts := absorbLatches(s.f)
			s.facts = facts
			return changed, nil
		},
	},
	{
		name: "lift",
		pre:  "a Func whose declared merges are distinct blocks and whose constructs nest",
		post: "a conditional that branches to its merge, which only forwards to the merge of the switch around it (one reached from several cases) or to the merge or continue target of the loop around it, keeps no merge where R15 allows; the same runs",
		run: func(s *structState) (bool, error) {
			facts := s.facts
			s.facts = nil
			return lift(s.f, facts), nil
		},
	},
	{
		name: "armmerge",
		pre:  "a Func whose declared merges and continue targets are distinct blocks",
		post: "a conditional whose synthetic merge only forwards, and is reached only through the chain of one arm, merges at that arm (the old merge named by nothing); the same runs",
		run:  func(s *structState) (bool, error) { return armMerges(s.f), nil },
	},
	{
		name: "armbreak",
		pre:  "a Func whose declared merges and continue targets are distinct blocks and whose constructs nest",
		post: "a conditional directly in a switch or loop whose synthetic merge only forwards to that construct's merge (or the loop's continue target), reached through both arms, merges at one arm, the other arm's edges to the old merge breaking to that target (the old merge named by nothing); the same runs",
		run:  func(s *structState) (bool, error) { return armBreaks(s.f), nil },
	},
	{
		name: "oneblock",
		pre:  "a Func whose declared merges and continue targets are distinct blocks",
		post: "a loop whose synthetic header only branches to a conditional continue target that goes back to it and to the loop's merge is that block alone, its own header, continue target and back-edge block (the header named by nothing); the same runs",
		run:  func(s *structState) (bool, error) { return oneBlockLoops(s.f), nil },
	},
	{
		name: "layout",
		pre:  "a Func whose block 0 is the entry, never a branch target",
		post: "blocks in reverse post-order of the branch graph, then the unreached ones; block 0 still the entry",
		run: func(s *structState) (bool, error) {
			layout(s.f)
			return false, nil
		},
	},
}

// Structured is the structured strategy.
func Structured(g *cfg.Graph, opt Options) (*Result, error) {
	res, reason := runStructured(g, opt)
	if reason == "" {
		return res, nil
	}
	fb, err := Dispatch(g, opt)
	if err != nil {
		return nil, err
	}
	fb.Stats.Fallbacks = 1
	fb.Stats.PassesUsed = []string{"fallback: " + reason}
	return fb, nil
}

// fallbackEntry is a fallback's reason as Stats.PassesUsed carries it
// after "fallback: ": the stage, a reason free of ids, the detail.
func fallbackEntry(stage, reason, detail string) string {
	if detail == "" {
		return stage + ": " + reason
	}
	return stage + ": " + reason + ": " + detail
}

// errorEntry is fallbackEntry for an error of stage: a self-check
// violation gives its rule, any other error its text (whose numbers the
// signature replaces).
func errorEntry(stage string, err error) string {
	if re, ok := err.(*RuleError); ok {
		return fallbackEntry(stage, re.Rule, fmt.Sprintf("at block %d: %s", re.Block, re.What))
	}
	return fallbackEntry(stage, strings.TrimPrefix(err.Error(), "bug: "), "")
}

// runStructured runs the pass table; a non-empty reason (fallbackEntry)
// means fall back.
func runStructured(g *cfg.Graph, opt Options) (res *Result, reason string) {
	stage := "facts" // the stage running, named by a panic
	defer func() {
		if r := recover(); r != nil {
			res, reason = nil, fallbackEntry(stage, "panic", fmt.Sprint(r))
		}
	}()
	facts := factsOf(g)
	stage = "nested"
	nf, _, fresh := nestedSearchWith(g, facts)
	if nf != nil && !fresh {
		plantNestedFaults(nf, opt)
		return &Result{Func: nf, Stats: Stats{PassesUsed: []string{"nested"}}}, ""
	}
	res, reason = runPassTable(g, opt, facts, &stage)
	if nf != nil && (reason != "" || len(nf.Blocks) <= len(res.Func.Blocks)) {
		// A nested layout with fresh loop merges: kept unless the pass
		// table's has fewer blocks (idempotence counts blocks).
		plantNestedFaults(nf, opt)
		return &Result{Func: nf, Stats: Stats{PassesUsed: []string{"nested"}}}, ""
	}
	if reason == "" && len(opt.Inject) == 0 {
		stage = "readback"
		res.Func = readBack(res.Func)
	}
	return res, reason
}

// runPassTable runs the passes of structuredPasses and the final checks;
// facts are g's (factsOf), which the irreducible pass reads. *stage names
// the stage running (for a panic's reason).
func runPassTable(g *cfg.Graph, opt Options, facts *graphFacts, stage *string) (res *Result, reason string) {
	s := &structState{g: g, opt: opt, w: newWork(g, opt)}
	s.w.input = facts
	var used []string
	for _, p := range structuredPasses {
		*stage = p.name
		changed, err := p.run(s)
		if err != nil {
			return nil, errorEntry(p.name, err)
		}
		if changed {
			used = append(used, p.name)
		}
		opt.Hooks.afterPass(p.name, s.f)
		if opt.CheckPasses {
			if err := s.check(p); err != nil {
				return nil, fallbackEntry(p.name, "postcondition", fmt.Sprintf("%v (post: %s)", err, p.post))
			}
		}
	}
	if opt.Has("drop-merge") {
		dropFirstMerge(s.f)
	}
	*stage = "validate"
	if err := s.f.Validate(); err != nil {
		return nil, fallbackEntry("validate", "malformed", err.Error())
	}
	if len(opt.Inject) == 0 {
		*stage = "selfcheck"
		if err := SelfCheck(s.f); err != nil {
			return nil, errorEntry("selfcheck", err)
		}
	}
	return &Result{Func: s.f, Stats: Stats{PassesUsed: used}}, ""
}

// check is the invariant checker run after pass p under CheckPasses.
func (s *structState) check(p pass) error {
	if s.f == nil {
		return s.w.checkWork()
	}
	if err := s.f.Validate(); err != nil {
		return err
	}
	if p.name == "layout" && len(s.opt.Inject) == 0 {
		return SelfCheck(s.f)
	}
	return nil
}
