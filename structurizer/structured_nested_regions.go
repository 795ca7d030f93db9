// structured_nested_regions.go: the region of a selection header for a
// merge candidate, measured so that nested regions are walked once, not
// once per enclosing header.
//
// walkRegion walks a header's region block by block, so a chain of d
// nested selections costs O(d²) blocks walked. regionOf gives the same
// answer for any merge candidate: it walks the region's blocks, but where
// it reaches a block t whose own region (stopping at t's immediate
// post-dominator and the same exits) closes, it steps over that region
// at once and resumes from where that region's walk stopped; each inner
// region is measured once and kept (regionMemo). Two counts replace the
// walk's membership test: a region closes exactly when no edge returns
// to its header and the edges from its blocks into its blocks other than
// the header are all the edges into those blocks (every predecessor
// inside). Both counts add up over inner regions.
//
// An inner region R(t) that closes is entered only at t, so t dominates
// (over branch edges) every block of it; it is stepped over only when t
// dominates neither the header nor the header's merge candidate, so
// R(t) holds neither, and holds no exit (its own walk stops at them).
// TestFastMatchesTheWalks holds regionOf to the walk (walkRegion).

package structurizer

import "slices"

// regionFacts is a region measured by regionOf: whether it closes, its
// blocks, the edges into them (the header's included), and the blocks
// outside it its edges reach, with how many edges go to each.
type regionFacts struct {
	h      int   // the header
	exits  []int // the exits it was measured with
	closes bool
	size   int
	in     int // edges into the region's blocks, header included
	leaves []regionExit
}

// regionExit is a block a region's edges leave for and how many do.
type regionExit struct{ to, edges int }

// regionMemo keeps the regions regionOf measured during one run of the
// nested pass, by header.
type regionMemo struct {
	facts  []*regionFacts // by header; nil until measured
	indeg  []int          // edges into each block
	usable bool           // the graph's dominator tree covers every block
}

// regions returns the run's region memo, made on first use.
func (sc *selectionChoice) regions() *regionMemo {
	if sc.memo == nil {
		ti := sc.facts.tailIndex(sc.g)
		m := &regionMemo{facts: make([]*regionFacts, sc.n), indeg: make([]int, sc.n), usable: ti.usable}
		for _, ss := range sc.g.Succs {
			for _, t := range ss {
				m.indeg[t]++
			}
		}
		sc.memo = m
	}
	return sc.memo
}

// regionOf is regionSize(merge, limit) for header x under sc.exits: the
// size of x's region when it closes at merge and has at most limit
// blocks, else -1. ok is false when the memo cannot answer (the graph has
// unreachable blocks); the caller walks then.
func (sc *selectionChoice) regionOf(x, merge, limit int) (size int, ok bool) {
	if !sc.regions().usable {
		return 0, false
	}
	var r *regionFacts
	if merge == sc.pdom.IDom[x] {
		r = sc.measure(x, sc.exits)
	} else {
		r = sc.walkFrom(x, merge, slices.Clone(sc.exits))
	}
	if !r.closes || r.size > limit {
		return -1, true
	}
	return r.size, true
}

// measure returns the facts of h's region stopping at h's immediate
// post-dominator and at exits, measuring them (and the inner regions it
// steps over) when not kept already for these exits.
func (sc *selectionChoice) measure(h int, exits []int) *regionFacts {
	m := sc.regions()
	if r := m.facts[h]; r != nil && slices.Equal(r.exits, exits) {
		return r
	}
	exits = slices.Clone(exits)
	// Until measured, h's region counts as one that does not close: a
	// walk inside it that comes back to h walks on instead of stepping.
	m.facts[h] = &regionFacts{h: h, exits: exits}
	r := sc.walkFrom(h, sc.pdom.IDom[h], exits)
	m.facts[h] = r
	return r
}

// walkFrom measures h's region stopping at merge and at exits, stepping
// over the inner regions that close.
func (sc *selectionChoice) walkFrom(h, merge int, exits []int) *regionFacts {
	rw := regionWalk{sc: sc, memo: sc.regions(), h: h, merge: merge, exits: exits, in: map[int]bool{h: true}, leaves: map[int]int{}}
	return rw.run()
}

// regionWalk is one measurement: the header h, its stops (merge and
// exits), the blocks walked one by one (direct, h first) and the inner
// regions stepped over (inner), with what they add up to.
type regionWalk struct {
	sc     *selectionChoice
	memo   *regionMemo
	h      int
	merge  int
	exits  []int
	in     map[int]bool // blocks of the region reached so far: direct ones and inner headers
	direct []int
	inner  []*regionFacts
	leaves map[int]int // stop -> edges reaching it
	broken bool        // an edge returns to h
}

func (rw *regionWalk) stop(t int) bool { return t == rw.merge || slices.Contains(rw.exits, t) }

// reach handles an edge (edges of them, from the region) to t.
func (rw *regionWalk) reach(t, edges int) {
	switch {
	case t == rw.h:
		rw.broken = true
	case rw.stop(t):
		rw.leaves[t] += edges
	case rw.in[t]:
	default:
		rw.in[t] = true
		if r := rw.stepOver(t); r != nil {
			rw.inner = append(rw.inner, r)
			for _, e := range r.leaves {
				rw.reach(e.to, e.edges)
			}
			return
		}
		rw.direct = append(rw.direct, t)
	}
}

// stepOver returns t's region when the walk may step over it: t branches
// two ways or more, its region closes under the same exits, and t
// dominates neither h nor h's merge.
func (rw *regionWalk) stepOver(t int) *regionFacts {
	sc := rw.sc
	if len(sc.g.Succs[t]) < 2 || t >= sc.n {
		return nil
	}
	ti := sc.facts.tailIndex(sc.g)
	if ti.dominates(t, rw.h) || rw.merge >= 0 && rw.merge < sc.n && ti.dominates(t, rw.merge) {
		return nil
	}
	if r := sc.measure(t, rw.exits); r.closes {
		return r
	}
	return nil
}

// run walks the region and adds up its facts.
func (rw *regionWalk) run() *regionFacts {
	rw.direct = append(rw.direct, rw.h)
	for i := 0; i < len(rw.direct) && !rw.broken; i++ {
		for _, t := range rw.sc.g.Succs[rw.direct[i]] {
			rw.reach(t, 1)
		}
	}
	r := &regionFacts{h: rw.h, exits: rw.exits}
	if rw.broken {
		return r
	}
	inner, into := 0, 0 // edges from the region to its blocks but h; edges into those blocks
	for _, u := range rw.direct {
		for _, t := range rw.sc.g.Succs[u] {
			if t != rw.h && rw.in[t] {
				inner++
			}
		}
	}
	for i, u := range rw.direct {
		if i > 0 {
			into += rw.memo.indeg[u]
		}
	}
	r.size = len(rw.direct)
	for _, q := range rw.inner {
		r.size += q.size
		into += q.in
		inner += q.in - rw.memo.indeg[q.h] // the edges into its blocks but its header, all from inside it (it closes)
		for _, e := range q.leaves {
			if e.to != rw.h && rw.in[e.to] {
				inner += e.edges
			}
		}
	}
	r.closes = inner == into
	r.in = into + rw.memo.indeg[rw.h]
	for to, edges := range rw.leaves {
		r.leaves = append(r.leaves, regionExit{to, edges})
	}
	slices.SortFunc(r.leaves, func(a, b regionExit) int { return a.to - b.to })
	return r
}
