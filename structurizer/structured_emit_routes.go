// structured_emit_routes.go: the slow, obvious reference of the selections
// pass's skips that store nothing (frame.takes, routedToJoin). A loop
// merge's case of its test or route runs only on its value, so every run
// on the case's edge holds that value; the reference follows each case of
// every loop merge through the emitted blocks, as a run does: through
// forwarding and skip blocks (a skip's store sets the value), the guards'
// tests and routes (on the value), construct exits, to the case's own
// target. It must get there, and a target it reaches through a guard must
// store the route variable (clear it, or store its own destination's), or
// the value would stay pending and route later guards wrong. It walks each
// case once, at most a step per block: run under Options.CheckPasses.

package structurizer

import (
	"fmt"
	"slices"
)

// routedCases is what the reference reads: the working graph w, the Func
// f the selections pass emitted from it, and each node's block in f (fb,
// -1 for none).
type routedCases struct {
	w  *work
	f  *Func
	fb []int
}

// check follows every case of every loop merge in f to its target, and
// says where a run goes wrong; it returns how many cases went through a
// guard.
func (rc routedCases) check() (guarded int, err error) {
	rv := rc.w.routeVar
	if rv < 0 {
		return 0, nil
	}
	for x := range rc.w.nodes {
		n := &rc.w.nodes[x]
		if n.kind != wLoopMerge || n.rvar != rv || len(n.succs) < 2 || rc.fb[x] < 0 {
			continue
		}
		term := rc.f.Blocks[rc.fb[x]].Term
		for i, t := range n.succs[1:] {
			v := n.values[i]
			from, ok := caseTarget(term, rv, v)
			if !ok {
				return guarded, fmt.Errorf("bug: loop merge %d (block %d) has no case of route value %d", x, rc.fb[x], v)
			}
			through, err := rc.follow(from, v, t)
			if err != nil {
				return guarded, fmt.Errorf("bug: loop merge %d (block %d), its case of route value %d to node %d: %w", x, rc.fb[x], v, t, err)
			}
			if through {
				guarded++
			}
		}
	}
	return guarded, nil
}

// caseTarget is the block a test or route on variable rv goes to when it
// holds v.
func caseTarget(term Term, rv int, v uint32) (int, bool) {
	if term.Var != rv {
		return 0, false
	}
	switch term.Kind {
	case Test:
		if term.Values[0] == v {
			return term.To[0], true
		}
	case Route:
		if k := slices.Index(term.Values, v); k >= 0 {
			return term.To[k+1], true
		}
	}
	return 0, false
}

// follow runs from block b with the route variable holding v until
// it reaches node t's block (or a clone of t), and says whether a guard
// (a test or route on the variable) ran on the way. Only synthetic blocks
// may come between, and t's block, reached through a guard, must store
// the variable.
func (rc routedCases) follow(b int, v uint32, t int) (guarded bool, err error) {
	rv := rc.w.routeVar
	for range len(rc.f.Blocks) + 1 {
		blk := &rc.f.Blocks[b]
		if b == rc.fb[t] || blk.Kind == Clone && blk.Orig == rc.w.nodes[t].orig && len(rc.w.nodes[t].succs) == 0 {
			if guarded && !slices.ContainsFunc(blk.Stores, func(s Store) bool { return s.Var == rv }) {
				return guarded, fmt.Errorf("block %d, run by a guard on route value %d, does not store the route variable", b, v)
			}
			return guarded, nil
		}
		if blk.Kind != Synthetic {
			return guarded, fmt.Errorf("the run on route value %d reaches block %d (original %d), not node %d's block %d", v, b, blk.Orig, t, rc.fb[t])
		}
		for _, s := range blk.Stores {
			if s.Var == rv {
				v = s.Value
			}
		}
		switch blk.Term.Kind {
		case Branch:
			b = blk.Term.To[0]
		case Test, Route:
			if blk.Term.Var != rv {
				return guarded, fmt.Errorf("the run on route value %d reaches block %d, which tests variable %d", v, b, blk.Term.Var)
			}
			next, ok := caseTarget(blk.Term, rv, v)
			if !ok { // the default
				next = blk.Term.To[0]
				if blk.Term.Kind == Test {
					next = blk.Term.To[1]
				}
			}
			guarded, b = true, next
		default:
			return guarded, fmt.Errorf("the run on route value %d reaches block %d, a %s", v, b, blk.Term.Kind)
		}
	}
	return guarded, fmt.Errorf("the run on route value %d does not end", v)
}
