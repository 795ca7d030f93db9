// structured_nested_regions.go: the region of a selection or switch
// header for a merge candidate, measured so that nested regions are
// walked once, not once per enclosing header.
//
// walkRegion walks a header's region block by block, so a chain of d
// nested constructs costs O(d²) blocks walked. regionOf gives the same
// answer for any merge candidate: it walks the region's blocks, but where
// it reaches a block t whose own region (stopping at t's immediate
// post-dominator and the same exits) closes, it steps over that region
// at once and resumes from where that region's walk stopped; each inner
// region is measured once per set of exits and kept (regionMemo). Two
// counts replace the walk's membership test: a region closes exactly when
// no edge returns to its header and the edges from its blocks into its
// blocks other than the header are all the edges into those blocks
// (every predecessor inside). Both counts add up over inner regions.
//
// A region that closes is entered only at its header h, so h dominates
// (over branch edges) every block of it: a walk that reaches a block h
// does not dominate stops there, the region not closing. An inner region
// R(t) is stepped over only when t dominates neither the header nor the
// header's merge candidate, so R(t) holds neither, and it holds no exit
// (its own walk stops at them). A switch's blocks must each lie in one of
// its cases (casesCover); switchRegion asks that of the blocks walked one
// by one and of each inner region's header, under which the region lies.
//
// A region that does not close keeps the block that broke its walk (its
// escape: one its header does not dominate). A walk that reaches that
// header, under the same exits and with no other stop, would reach the
// escape too, so when its own header does not dominate the escape
// either, it stops there (escapeFrom): a chain of headers thousands deep
// whose regions all run into one shared block then costs one walk, not
// one per header.
//
// TestFastMatchesTheWalks holds regionOf and switchRegion to the walks.

package structurizer

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// regionMemo returns the region memo of g (fa: g's facts), made on first
// use. A region depends only on the graph, its post-dominators and the
// exits it is measured under, so every run of the nested pass over the
// graph shares the memo (graphFacts keeps it; the runs are sequential).
func (fa *graphFacts) regionMemo(g *cfg.Graph) *regionMemo {
	if fa.regions == nil {
		ti := fa.tailIndex(g)
		n := g.Len()
		m := &regionMemo{g: g, pdom: fa.postDominators(g), ti: ti,
			facts: make([][]*regionFacts, n), indeg: make([]int, n), usable: ti.usable, mark: make([]int32, n)}
		for _, ss := range g.Succs {
			for _, t := range ss {
				m.indeg[t]++
			}
		}
		fa.regions = m
	}
	return fa.regions
}

// regionOf is regionSize(merge, limit) for header x under its exits: the
// size of x's region when it closes at merge and has at most limit
// blocks, else -1. ok is false when the memo cannot answer (the graph has
// unreachable blocks); the caller walks then.
func (hr *headerRegion) regionOf(merge, limit int) (size int, ok bool) {
	m := hr.memo()
	if !m.usable {
		return 0, false
	}
	var r *regionFacts
	if merge == m.pdom.IDom[hr.x] && limit >= hr.g.Len() {
		r = m.measure(hr.x, hr.exits)
	} else {
		rw := m.regionWalk(hr.x, merge, hr.exits)
		rw.limit = limit
		r = rw.run()
	}
	if !r.closes || r.size > limit {
		return -1, true
	}
	return r.size, true
}

// measure returns the facts of h's region stopping at h's immediate
// post-dominator and at exits, measuring them (and the inner regions it
// steps over) when not kept already for these exits.
//
// exits is one of the lists allowedExits hands out, which pushConstruct
// makes and nothing writes afterwards: the memo keeps it as it is, and a
// lookup under the same list matches it by identity before comparing
// contents (sameExits), so a lookup costs no walk of a long list of
// switch merges.
func (m *regionMemo) measure(h int, exits []int) *regionFacts {
	for _, r := range m.facts[h] {
		if sameExits(r.exits, exits) {
			return r
		}
	}
	// Until measured, h's region counts as one that does not close: a
	// walk inside it that comes back to h walks on instead of stepping.
	k := len(m.facts[h])
	m.facts[h] = append(m.facts[h], &regionFacts{h: h, exits: exits, merge: m.pdom.IDom[h], escape: -1})
	r := m.regionWalk(h, m.pdom.IDom[h], exits).run()
	m.facts[h][k] = r
	return r
}

// sameExits reports whether two lists of exits hold the same blocks in
// the same order: at once when they are one list.
func sameExits(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// regionWalk starts a measurement of h's region at merge under exits,
// without a limit.
func (m *regionMemo) regionWalk(h, merge int, exits []int) *regionWalk {
	m.walks++
	m.mark[h] = m.walks
	return &regionWalk{memo: m, id: m.walks, h: h, merge: merge, exits: exits, limit: m.g.Len(), ti: m.ti, escape: -1}
}

// switchRegion is closes(m, limit) for switch x: the size of its region
// when it closes at m, has at most limit blocks and lies in x's cases,
// else -1. It checks the cases of the blocks measured one by one and of
// each inner region's header: an inner region that closes lies under its
// header in the walk's tree too. ok is false when the memo cannot answer.
func (hr *headerRegion) switchRegion(m, limit int) (size int, ok bool) {
	memo := hr.memo()
	if !memo.usable {
		return 0, false
	}
	rw := memo.regionWalk(hr.x, m, hr.exits)
	rw.limit = limit
	r := rw.run()
	if !r.closes || r.size > limit {
		return -1, true
	}
	for _, b := range rw.direct[1:] {
		if !hr.cases.inCase(b) {
			return -1, true
		}
	}
	for _, q := range rw.inner {
		if !hr.cases.inCase(q.h) {
			return -1, true
		}
	}
	return r.size, true
}

// regionWalk is one measurement: the header h, its stops (merge and
// exits), the blocks walked one by one (direct, h first) and the inner
// regions stepped over (inner), with what they add up to.
type regionWalk struct {
	memo   *regionMemo
	h      int
	merge  int
	exits  []int
	id     int32 // marks the blocks of the region reached so far (memo.mark): direct ones and inner headers
	direct []int
	inner  []*regionFacts
	leaves []regionExit // the stops reached, with the edges reaching each
	broken bool         // an edge returns to h, or a block h does not dominate is reached, or the region grew past limit
	escape int          // the block h does not dominate that broke the walk, -1 for none
	size   int          // blocks so far, the inner regions' included
	limit  int          // past this many blocks the walk stops, as regionSize's does
	ti     *tailIndex   // the graph's dominator tree (branch edges)
}

func (rw *regionWalk) stop(t int) bool { return t == rw.merge || slices.Contains(rw.exits, t) }

// in reports whether t is a block of the region reached so far.
func (rw *regionWalk) in(t int) bool { return rw.memo.mark[t] == rw.id }

// leave counts edges from the region to stop t.
func (rw *regionWalk) leave(t, edges int) {
	for i := range rw.leaves {
		if rw.leaves[i].to == t {
			rw.leaves[i].edges += edges
			return
		}
	}
	rw.leaves = append(rw.leaves, regionExit{t, edges})
}

// reach handles an edge (edges of them, from the region) to t.
func (rw *regionWalk) reach(t, edges int) {
	rw.memo.reached++
	switch {
	case t == rw.h:
		rw.broken = true
	case rw.stop(t):
		rw.leave(t, edges)
	case rw.in(t):
	case !rw.ti.dominates(rw.h, t):
		// A region that closes is entered only at h, so h dominates
		// every block of it: this one does not close.
		rw.broken, rw.escape = true, t
	default:
		rw.size++
		r, escape := rw.stepOver(t)
		rw.memo.mark[t] = rw.id // after t's own walk, which marks t with its id
		if escape >= 0 {
			rw.broken, rw.escape = true, escape
			return
		}
		if r != nil {
			rw.inner = append(rw.inner, r)
			rw.size += r.size - 1
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
// dominates neither h nor h's merge. When t's region does not close
// instead, escape is a block this walk would reach from t and that
// breaks it too (escapeFrom), else -1.
func (rw *regionWalk) stepOver(t int) (r *regionFacts, escape int) {
	g := rw.memo.g
	if len(g.Succs[t]) < 2 || t >= g.Len() {
		return nil, -1
	}
	ti := rw.ti
	if ti.dominates(t, rw.h) || rw.merge >= 0 && rw.merge < g.Len() && ti.dominates(t, rw.merge) {
		return nil, -1
	}
	r = rw.memo.measure(t, rw.exits)
	if !r.closes {
		return nil, rw.escapeFrom(r)
	}
	return r, -1
}

// escapeFrom is the escape of t's region r (regionFacts.escape) when it
// breaks this walk too, else -1. r's walk went from t to the escape
// without passing its merge or an exit; this walk has the same exits
// and stops at no other block (its merge is r's, or no block: a fresh
// merge or the virtual exit), so having reached t it reaches the escape
// too, and h does not dominate it. Without this, each header of a long
// chain whose regions do not close walks everything below it again.
func (rw *regionWalk) escapeFrom(r *regionFacts) int {
	b := r.escape
	if b < 0 || b == rw.h {
		return -1
	}
	if m := rw.merge; m != r.merge && m >= 0 && m < rw.memo.g.Len() {
		return -1
	}
	if rw.ti.dominates(rw.h, b) {
		return -1
	}
	return b
}

// run walks the region and adds up its facts.
func (rw *regionWalk) run() *regionFacts {
	rw.direct = append(rw.direct, rw.h)
	rw.size = 1
	for i := 0; i < len(rw.direct) && !rw.broken; i++ {
		if rw.size > rw.limit {
			rw.broken = true // past the limit: as if it did not close
			break
		}
		for _, t := range rw.memo.g.Succs[rw.direct[i]] {
			rw.reach(t, 1)
		}
	}
	r := &regionFacts{h: rw.h, exits: rw.exits, merge: rw.merge, escape: rw.escape}
	if rw.broken {
		return r
	}
	inner, into := 0, 0 // edges from the region to its blocks but h; edges into those blocks
	for _, u := range rw.direct {
		for _, t := range rw.memo.g.Succs[u] {
			if t != rw.h && rw.in(t) {
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
			if e.to != rw.h && rw.in(e.to) {
				inner += e.edges
			}
		}
	}
	r.closes = inner == into
	r.in = into + rw.memo.indeg[rw.h]
	r.leaves = rw.leaves
	return r
}
