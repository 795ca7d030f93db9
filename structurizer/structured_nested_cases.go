// structured_nested_cases.go: the order of a switch's cases in the nested
// pass's output. SPIR-V lets a case fall through only into the case listed
// next (rule R11), so the cases that fall through are listed as chains
// (chainOrder), and checkCaseOrder states the order's postcondition.

package structurizer

import (
	"fmt"
	"slices"
)

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
