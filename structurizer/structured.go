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
//	arms         a group of three passes run in rounds, in the manner of
//	             the block optimizer of golang.org/x/tools/go/ssa
//	             (blockopt.go), until a round changes nothing (runRounds,
//	             at most armRounds): one round's rewrites make others
//	             possible (an arm-break or arm-merge moves the blocks of an
//	             arm out of its selection, into a switch or loop where the
//	             lift and arm-break passes may then rewrite their
//	             conditionals).
//	             Each round that changes anything leaves fewer blocks
//	             structurally reachable (the group's postcondition); the
//	             rounds after the first read construct facts the passes
//	             keep (structured_check_kept.go); the hooks and, under
//	             CheckPasses, the checker follow each pass in every round:
//	  lift       conditionals whose merge only forwards to the enclosing
//	             switch's or loop's merge keep no merge of their own
//	             (structured_lift.go)
//	  armmerge   a conditional whose merge only forwards, reached through
//	             one arm alone, merges at that arm
//	             (structured_armmerge.go)
//	  armbreak   a conditional directly in a switch or loop whose merge
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
//   - the arms group runs those three passes in rounds, and a rewrite of a
//     later round meets its pass's precondition on the function the
//     rounds before it left; the three steps above speak of a rewritten
//     conditional and the constructs around it in the function returned,
//     not of the round that rewrote it, so they hold of every round's
//     rewrites. What later rounds find are mostly conditionals of a first
//     arm's chain that an arm-merge or arm-break moved out of its
//     selection into the construct around it, which the first run also
//     reads as lying directly in that construct. A switch that one case
//     alone leaves for its merge takes no such conditional in any round:
//     oneCaseMerges counts the edges of reached blocks only, not those of
//     the merges earlier rounds dropped. That the first run reads every
//     round's layout back is checked by the tests below, as for the first
//     round;
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
// name, "arms" for the group's postcondition, "validate" or "selfcheck"),
// REASON stable and free of ids (the broken rule R1..R16, "panic",
// "malformed", "postcondition", or the pass's error), DETAIL the ids.
// Campaigns report it as the finding structurize:fallback:PASS:REASON
// (oracle.FallbackSignature). When a fault is injected the self-check is
// skipped so the fault reaches the output.

package structurizer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// pass is one entry of the structured strategy's pass table: a pass
// (run), or a group of passes run in rounds (rounds, with run nil).
type pass struct {
	name string
	pre  string // what the pass needs
	post string // what it guarantees
	run  func(s *structState) (changed bool, err error)
	// rounds are a group's passes, run in order round after round until a
	// round changes nothing (runRounds); nil for a pass.
	rounds []pass
}

// armRounds caps the rounds of the arms group. Each rewrite of the
// group leaves the synthetic merge it drops entered by no edge and named
// by no header, so a round that changes anything leaves fewer blocks
// structurally reachable (the group's postcondition, checked under
// Options.CheckPasses), and the rounds reach one that changes nothing
// within as many rounds as the function has blocks. The cap bounds the
// time below that: the rounds after the first read the construct facts
// the group keeps (structured_check_kept.go) and cost a few walks of the
// blocks each. Measured, the last round changing nothing: at most 8
// rounds on 30,000 graphs of the campaign's generators (half of them of
// 48-400 blocks), at most 6 on the named shapes at 10,000 and 100,000
// blocks, 4 on an independent generator's 10,000-block graphs. A function
// the cap stops is left as valid as after any round.
const armRounds = 16

// structState is what the passes share.
type structState struct {
	g   *cfg.Graph
	opt Options
	// w is the working graph, until the selections pass has laid it out
	// as f: nil after, so that the collector frees it.
	w     *work
	f     *Func
	guard int // guards the selections pass placed
	// latchFacts are f's construct facts as the latch pass leaves them,
	// for the first round's lift pass; nil otherwise.
	latchFacts *constructFacts
	// facts are f's construct facts as the arms group keeps them from
	// the first round's arm-break pass on (structured_check_kept.go), for
	// the later rounds; nil otherwise.
	facts *constructFacts
	// room holds the arrays of construct facts no pass reads any more,
	// for the next facts or the self-check to fill.
	room factsRoom
	used []string // the passes that changed anything, in the order they first did
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
			changed, facts := absorbLatches(s.f, &s.room)
			s.latchFacts = facts
			return changed, nil
		},
	},
	{
		name: "arms",
		pre:  "a Func whose declared merges and continue targets are distinct blocks and whose constructs nest",
		post: "a round of lift, armmerge and armbreak changes nothing (or armRounds rounds ran), and each round that changed anything left fewer blocks structurally reachable than the round before; the same runs",
		rounds: []pass{
			{
				name: "lift",
				pre:  "a Func whose declared merges are distinct blocks and whose constructs nest",
				post: "a conditional that branches to its merge, which only forwards to the merge of the switch around it (one reached from several cases) or to the merge or continue target of the loop around it, keeps no merge where R15 allows; the same runs",
				run: func(s *structState) (bool, error) {
					facts := s.latchFacts // the first round's, then the kept ones
					if facts == nil {
						return lift(s.f, s.facts), nil
					}
					s.latchFacts = nil
					changed := lift(s.f, facts)
					facts.recycle(&s.room) // the arm-break pass makes its own
					return changed, nil
				},
			},
			{
				name: "armmerge",
				pre:  "a Func whose declared merges and continue targets are distinct blocks",
				post: "a conditional whose synthetic merge only forwards, and is reached only through the chain of one arm, merges at that arm (the old merge named by nothing); the same runs",
				run:  func(s *structState) (bool, error) { return armMerges(s.f, s.facts, &s.room), nil },
			},
			{
				name: "armbreak",
				pre:  "a Func whose declared merges and continue targets are distinct blocks and whose constructs nest",
				post: "a conditional directly in a switch or loop whose synthetic merge only forwards to that construct's merge (or the loop's continue target), reached through both arms, merges at one arm, the other arm's edges to the old merge breaking to that target (the old merge named by nothing); the same runs",
				run: func(s *structState) (bool, error) {
					var changed bool
					s.facts, changed = armBreaks(s.f, s.facts, &s.room)
					return changed, nil
				},
			},
		},
	},
	{
		name: "oneblock",
		pre:  "a Func whose declared merges and continue targets are distinct blocks",
		post: "a loop whose synthetic header only branches to a conditional continue target that goes back to it and to the loop's merge is that block alone, its own header, continue target and back-edge block (the header named by nothing); the same runs",
		run:  func(s *structState) (bool, error) { return oneBlockLoops(s.f, &s.room), nil },
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
	for _, p := range structuredPasses {
		if p.rounds != nil {
			reason = s.runRounds(p, stage)
		} else {
			_, reason = s.runPass(p, stage)
		}
		if reason != "" {
			return nil, reason
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
		if err := selfCheck(&funcFacts{f: s.f, room: &s.room}); err != nil {
			return nil, errorEntry("selfcheck", err)
		}
	}
	return &Result{Func: s.f, Stats: Stats{PassesUsed: s.used}}, ""
}

// runPass runs pass p, the hook after it and, under CheckPasses, the
// invariant checker; it reports whether p changed anything, and a
// non-empty reason (fallbackEntry) to fall back. A pass that changed
// anything is named in s.used once, however many rounds it ran in.
func (s *structState) runPass(p pass, stage *string) (changed bool, reason string) {
	*stage = p.name
	changed, err := p.run(s)
	if err != nil {
		return false, errorEntry(p.name, err)
	}
	if changed && !slices.Contains(s.used, p.name) {
		s.used = append(s.used, p.name)
	}
	s.opt.Hooks.afterPass(p.name, s.f)
	if s.opt.CheckPasses {
		if err := s.check(p); err != nil {
			return false, fallbackEntry(p.name, "postcondition", fmt.Sprintf("%v (post: %s)", err, p.post))
		}
	}
	return changed, ""
}

// runRounds runs group g's passes in rounds, in the manner of the block
// optimizer of golang.org/x/tools/go/ssa (blockopt.go): small rewrites
// driven until none changes anything. The rounds stop at the first that
// changes nothing, or after armRounds. Under Options.CheckPasses each
// round that changed anything must leave fewer blocks structurally
// reachable than the round before (g's postcondition; armRounds says why
// it holds), or the strategy falls back.
func (s *structState) runRounds(g pass, stage *string) (reason string) {
	defer func() { // kept for the group's rounds alone
		if s.facts != nil {
			s.facts.recycle(&s.room)
			s.facts = nil
		}
	}()
	live := -1 // blocks structurally reachable, counted under CheckPasses
	if s.opt.CheckPasses {
		live = reachableCount(s.f)
	}
	for round := 1; round <= armRounds; round++ {
		changed := false
		for _, p := range g.rounds {
			c, reason := s.runPass(p, stage)
			if reason != "" {
				return reason
			}
			changed = changed || c
		}
		if !changed {
			return ""
		}
		if s.opt.CheckPasses {
			now := reachableCount(s.f)
			if now >= live {
				return fallbackEntry(g.name, "postcondition", fmt.Sprintf("round %d changed the function but left %d blocks structurally reachable, %d before it (post: %s)", round, now, live, g.post))
			}
			live = now
		}
	}
	return ""
}

// reachableCount is the number of f's blocks structurally reachable from
// the entry: those the layout keeps.
func reachableCount(f *Func) int {
	n := 0
	for _, r := range structurallyReachable(f) {
		if r {
			n++
		}
	}
	return n
}

// check is the invariant checker run after pass p under CheckPasses: in
// the arms group it also compares the facts the group keeps with fresh
// ones.
func (s *structState) check(p pass) error {
	if s.f == nil {
		return s.w.checkWork()
	}
	if err := s.f.Validate(); err != nil {
		return err
	}
	if s.facts != nil { // the facts the arms group keeps
		fresh, err := constructFactsOf(s.f, nil)
		if err != nil {
			return err
		}
		if err := s.facts.sameAs(fresh); err != nil {
			return err
		}
	}
	if p.name == "layout" && len(s.opt.Inject) == 0 {
		return SelfCheck(s.f)
	}
	return nil
}
