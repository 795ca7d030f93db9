// structured_loops_dests.go: each loop's exit destinations listed in
// full: the blocks its exit edges go to (-1 for continuing an outer loop),
// found by walking each edge up the loop tree as far as the loops it
// leaves, next to exitWalk.scan, the obvious reference that asks every
// loop on the way (Options.CheckPasses compares them). The exit search
// lists them once and keeps them across its rounds
// (structured_loops_dests_kept.go), checked against this listing.

package structurizer

import (
	"fmt"
	"math"
	"slices"
)

// exitDests lists each loop's exit destinations (-1 stands for continuing
// an outer loop), each loop's in the order of its exit edges.
func (lp *loopsPass) exitDests() [][]int {
	ew := &exitWalk{loopsPass: lp}
	ew.depth = ew.loopDepths()
	return ew.dests()
}

// exitWalk is one listing of exit destinations, with the loop tree's depths
// to find where an edge's walk stops.
type exitWalk struct {
	*loopsPass
	depth []int // per loop, at index loop+1: its depth in the loop tree (loopDepths)
}

// dests is exitDests' listing: each loop's exit edges (exitEdges, with no
// budget: exitDests is the checks' reference), each destination kept at
// its first edge.
func (ew *exitWalk) dests() [][]int {
	edges, _ := ew.exitEdges(math.MaxInt)
	seen := make([]int, len(ew.nodes)+1)
	dests := make([][]int, len(edges))
	for li, es := range edges {
		dests[li] = destsOf(es, seen, li+1)
	}
	if ew.opt.CheckPasses {
		if ref := ew.scan(); !slices.EqualFunc(dests, ref, slices.Equal) {
			panic(fmt.Sprintf("bug: exit destinations %v, the scan says %v", dests, ref))
		}
	}
	return dests
}

// exitEdge is an edge leaving a loop: its number (eachExit's order) and
// where it goes (-1 for continuing an outer loop).
type exitEdge struct{ edge, dest int }

// exitEdges lists, per loop, the edges leaving it in eachExit's order. An
// edge's walk is as long as the loops it leaves; no map, a count per loop
// instead. The edges are walked twice, counting the exits per loop and
// then placing them (a counting sort). Each loop's list is capped at its
// length, so appending to one copies it. The lists hold at most budget
// edges together (exitBudget); false, with the count stopped there, when
// they would hold more.
func (ew *exitWalk) exitEdges(budget int) ([][]exitEdge, bool) {
	start := make([]int, len(ew.loops)+1)
	total := 0
	if !ew.eachExitWhile(func(_, loop, _ int) bool {
		start[loop+1]++
		total++
		return total <= budget
	}) {
		return nil, false
	}
	for li := range ew.loops {
		start[li+1] += start[li]
	}
	all := make([]exitEdge, start[len(ew.loops)])
	at := slices.Clone(start[:len(ew.loops)])
	ew.eachExit(func(edge, loop, dest int) {
		all[at[loop]] = exitEdge{edge, dest}
		at[loop]++
	})
	edges := make([][]exitEdge, len(ew.loops))
	for li := range ew.loops {
		edges[li] = all[start[li]:start[li+1]:start[li+1]]
	}
	return edges, true
}

// destsOf is the destinations of a loop's exit edges es, each at its first
// edge (nil for none). seen holds, by destination (-1 at the end), the
// stamp of the listing that last kept it; stamp is this listing's own.
func destsOf(es []exitEdge, seen []int, stamp int) []int {
	var dests []int
	for _, e := range es {
		k := e.dest
		if k < 0 {
			k = len(seen) - 1
		}
		if seen[k] != stamp {
			seen[k] = stamp
			dests = append(dests, e.dest)
		}
	}
	return dests
}

// eachExit calls exit(edge, loop, dest) for every loop an edge leaves, in
// the order of the edges (sources in reverse post-order), each edge's
// loops innermost first: the loops from its source's level up to (not
// including) the innermost loop holding its target's too. Edges are
// numbered in that order from 0 (edgeNumbers).
func (ew *exitWalk) eachExit(exit func(edge, loop, dest int)) {
	ew.eachExitWhile(func(edge, loop, dest int) bool {
		exit(edge, loop, dest)
		return true
	})
}

// eachExitWhile is eachExit until exit returns false; it reports whether
// every exit was met.
func (ew *exitWalk) eachExitWhile(exit func(edge, loop, dest int) bool) bool {
	depth := ew.depth
	edge := -1
	for _, b := range ew.dfs.RPO {
		sl := ew.level[b]
		for _, t := range ew.nodes[b].succs {
			edge++
			tl, d := ew.level[t], t
			if lt, ok := ew.f.IsHeader(t); ok {
				tl = ew.loops[lt].parent
				if ew.within(lt, sl) {
					tl, d = lt, -1
				}
			}
			for x, y := sl, tl; x != y; {
				if depth[x+1] >= depth[y+1] {
					if !exit(edge, x, d) {
						return false
					}
					x = ew.loops[x].parent
				} else {
					y = ew.loops[y].parent
				}
			}
		}
	}
	return true
}

// within is inLoop with the loop tree's depths: level lv lies in loop l.
func (ew *exitWalk) within(l, lv int) bool {
	depth := ew.depth
	for lv >= 0 && depth[lv+1] > depth[l+1] {
		lv = ew.loops[lv].parent
	}
	return lv == l
}

// scan is dests' obvious reference: each edge walks up from
// its source's level, asking of every loop whether it holds the target's.
func (ew *exitWalk) scan() [][]int {
	dests := make([][]int, len(ew.loops))
	noted := map[[2]int]bool{} // {loop, destination}: a set, so a loop with many destinations costs no scan per edge
	note := func(x, d int) {
		if k := [2]int{x, d}; !noted[k] {
			noted[k] = true
			dests[x] = append(dests[x], d)
		}
	}
	for _, b := range ew.dfs.RPO {
		sl := ew.level[b]
		for _, t := range ew.nodes[b].succs {
			tl, d := ew.level[t], t
			if lt, ok := ew.f.IsHeader(t); ok {
				tl = ew.loops[lt].parent
				if ew.inLoop(lt, sl) {
					tl, d = lt, -1
				}
			}
			for x := sl; x >= 0 && !ew.inLoop(x, tl); x = ew.loops[x].parent {
				note(x, d)
			}
		}
	}
	return dests
}

// loopDepths is each loop's depth in the loop tree at index loop+1 (the
// function level, -1, has depth 0 at index 0): a loop's parent comes first
// or later in the list, so depths are filled by walking up to a known one.
func (ew *exitWalk) loopDepths() []int {
	depth := make([]int, len(ew.loops)+1)
	for i := range ew.loops {
		depth[i+1] = -1
	}
	var walk []int
	for i := range ew.loops {
		walk = walk[:0]
		x := i
		for x >= 0 && depth[x+1] < 0 {
			walk = append(walk, x)
			x = ew.loops[x].parent
		}
		for k := len(walk) - 1; k >= 0; k-- {
			depth[walk[k]+1] = depth[ew.loops[walk[k]].parent+1] + 1
		}
	}
	return depth
}
