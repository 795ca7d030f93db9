// structured_nested_search.go: the nested pass's search over declarations.
// One run (nestedWith, a nester) declares every loop and selection or
// fails with a reason; the search runs again with other loop merges
// (nestedPolicies: breadth first over the candidates' ranks under each
// merge policy, the loops a failed run blames first), on reshaped graphs
// (a loop's own header or latch, a forwarding merge:
// structured_nested_reshape.go) and with forced merges (hints), within
// nestRunWork/blocks runs per graph.

package structurizer

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nested runs the pass: a Func laid out and self-checked, or nil and the
// reason when g does not nest as found. A loop may have several merges
// whose tails close, and which one lets the selections nest shows only
// later; so the pass runs again: for each policy (mergePolicy), once as is
// and then with each such loop's second choice in turn (nestedPolicies).
// When that fails too, it reshapes the graph (a loop's own header or latch,
// once, a loop of one block's latch included; a forwarding merge) or forces a hinted loop merge, and tries again:
// at most nestForwarders times, and nestMaxRuns runs in all; then, as a
// last resort, it follows the breaks the first run found (followHints,
// nestHintRuns runs more), and last searches again with the blocks after a
// single exit as its loop's later candidates (nestMinRuns runs more). Each
// run is a full, linear-time run of the pass.
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
	room := &nestRoom{} // the runs' tables, handed from one run to the next
	f, why, fresh, first, bans, singles := searchShapes(g, facts, room)
	if f == nil && len(first)+len(bans) > 0 {
		if hf := followHints(g, facts, first, bans, room); hf != nil {
			return hf, "", false
		}
	}
	if f == nil && singles {
		// The last step: loops with one exit may merge past it (a loop
		// construct reaching over a selection whose arms break to the
		// loop's merge: our own output, structurized again). Reported as
		// fresh, so the caller keeps it only when it is no larger than the
		// pass table's layout.
		budget := nestMinRuns
		if r, _ := searchMerges(g, facts, g.Len(), nil, &budget, nestChoice{singleAlts: true}, room); r.f != nil {
			return r.f, "", true
		}
	}
	return f, why, fresh
}

// searchShapes is the search over merge choices, reshapings and forced
// merges, within nestRunWork/blocks runs; first is the breaks its first
// run on g found (breakSearch). The runs' tables come from room.
func searchShapes(g *cfg.Graph, facts *graphFacts, room *nestRoom) (f *Func, why string, fresh bool, first, bans [][2]int, singles bool) {
	cur, reshaped, bonus := g, false, false
	var force map[int]int // made when a merge is first forced
	var hints [][2]int
	budget := min(max(nestRunWork/max(g.Len(), 1), nestMinRuns), nestMaxRuns)
	for split := 0; ; split++ {
		r := nestedPolicies(cur, facts, g.Len(), force, &budget, room)
		if r.f == nil && !reshaped && hasOneBlockLoop(cur, facts.forest) {
			r.reshape = true // a latch for each loop of one block may let it nest
		}
		if split == 0 {
			first, bans, singles = r.breaks, r.banned, r.singles
		}
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
			return r.f, r.why, r.fresh, first, bans, singles
		case r.reshape && !reshaped:
			cur, facts = withLoopBlocks(cur, facts)
			reshaped, hints = true, nil
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
			return nil, r.why, false, first, bans, singles
		}
	}
}

// followHints is the search's last resort on g: the breaks its first run
// found (breakSearch), each forced on top of those before it, and the
// breaks each forced run finds followed in turn; the loop merges a run's
// self-check failure rules out (bans, ruleBans) are no candidates in the
// runs after it, and when no break is left to force but a merge was newly
// ruled out, it runs again; nestHintRuns runs at most. A break names a loop's merge outright where the search steps
// through a loop's candidates one rank at a time: a loop around the whole
// function may have dozens whose tails close, more than the budget. It
// returns the first layout found, nil when none. The runs' tables come
// from room and go back to it.
func followHints(g *cfg.Graph, facts *graphFacts, hints, bans [][2]int, room *nestRoom) *Func {
	force, banned := map[int]int{}, map[[2]int]bool{}
	for range nestHintRuns {
		fresh := false
		for _, b := range bans {
			fresh = fresh || !banned[b]
			banned[b] = true
		}
		switch {
		case len(hints) > 0:
			force[hints[0][0]], hints = hints[0][1], hints[1:]
		case !fresh:
			return nil
		}
		nt := newNesterWith(g, facts, room)
		nt.orig, nt.force, nt.bans = g.Len(), force, banned
		f, _ := nt.run()
		room.keep(nt)
		if f != nil {
			return f
		}
		hints, bans = append(hints, nt.breaks...), nt.banned
	}
	return nil
}

// nestHintRuns bounds followHints' runs.
const nestHintRuns = 8

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
// (forwarding merge, reshaping, hints). The runs' tables come from room
// and go back to it.
func nestedPolicies(g *cfg.Graph, facts *graphFacts, orig int, force map[int]int, budget *int, room *nestRoom) nestedRun {
	first, freshable := searchMerges(g, facts, orig, force, budget, nestChoice{}, room)
	if first.f != nil || !freshable || first.final {
		return first
	}
	extra := max(*budget, nestMinRuns)
	*budget -= extra
	if r, _ := searchMerges(g, facts, orig, force, &extra, nestChoice{fresh: true}, room); r.f != nil {
		r.fresh = true
		return r
	}
	return first
}

// searchMerges is one breadth-first search of nestedPolicies (and of the
// search's last step); mode's fresh lets a loop whose tails all return take
// a fresh unreachable merge as its last candidate (a second search, run
// when the first fails and a run reported such a loop: freshable), and its
// singleAlts gives single-exit loops the blocks after their exit as later
// candidates (mergeRules.singleAlts).
func searchMerges(g *cfg.Graph, facts *graphFacts, orig int, force map[int]int, budget *int, mode nestChoice, room *nestRoom) (first nestedRun, freshable bool) {
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
		r := nestedWith(g, facts, orig, nestChoice{t.policy, t.ranks, mode.fresh, mode.singleAlts}, force, seen, room)
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

// nestedWith runs the pass once on g, whose blocks from orig up are
// forwarders (withForwarder); c.ranks gives loop headers whose merge is a
// later candidate in the policy's order (absent: the first); seen holds the
// loop declarations of earlier runs (a run that repeats them stops before
// the selections). It also returns the loops and how many merges whose
// tails close each had, whether the failure is one no choice changes
// (irreducible, a loop with two latches, a switch heading a loop), and a
// loop whose only exit another construct declared. The run's tables come
// from room and go back to it.
func nestedWith(g *cfg.Graph, facts *graphFacts, orig int, c nestChoice, force map[int]int, seen map[string]bool, room *nestRoom) nestedRun {
	nt := newNesterWith(g, facts, room)
	nt.orig, nt.policy, nt.ranks, nt.allowFresh, nt.singleAlts, nt.force, nt.seen = orig, c.policy, c.ranks, c.fresh, c.singleAlts, force, seen
	f, why := nt.run()
	room.keep(nt)
	return nestedRun{f: f, why: why, options: nt.options, blame: nt.blame, freshable: nt.freshable, final: nt.final, forward: nt.forward, reshape: nt.reshape, hints: nt.hints, breaks: nt.breaks, banned: nt.banned, singles: nt.singles}
}

// nestChoice is how one run picks loop merges: the policy's order, the
// ranks the search gives loops in it, and whether a fresh merge is a
// candidate.
type nestChoice struct {
	policy     mergePolicy
	ranks      map[int]int
	fresh      bool
	singleAlts bool // a single exit's later blocks are candidates too
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
	breaks    [][2]int // {loop header, merge} the last resort forces (breakSearch)
	banned    [][2]int // {loop header, merge} the last resort rules out (ruleBans)
	singles   bool     // a single-exit loop took its exit without the later candidates
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
