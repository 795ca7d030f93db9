// canonical.go: the canonical order of a graph's blocks, dead blocks
// included, which GraphHash (distinct.go) and GraphFingerprint
// (fingerprint.go) hash.
//
// The blocks the entry reaches come first, numbered breadth-first from the
// entry, successors in order (gen.Canonical's numbering). The dead blocks,
// those no path from the entry reaches, follow in rounds: a round takes one
// dead block not numbered yet as its root and numbers breadth-first from it
// the blocks it reaches that are not numbered yet, so each dead block's
// edges, into live blocks or dead ones, are written as the numbers of
// their targets. A round writes a segment: for each block it numbers, in
// order, its successor count, its successors' numbers, its weight and (for
// GraphHash) a hash of its name. A segment ends where its breadth-first
// walk ends, so no segment is a proper prefix of another from the same
// numbered blocks. The root of a round is the one whose segment is least
// (word by word); where several tie, each is followed and the least
// sequence of segments kept. The order is thus the least over every choice
// of roots, and no renumbering that keeps the entry changes which order
// that is: two graphs get the same order's form exactly when such a
// renumbering maps one onto the other, the dead blocks' edges and weights
// included.
//
// Ties branch. A tied root that swapping with one already followed maps
// the graph onto itself (twins: dead blocks of one weight, and for
// GraphHash one name, with the same successors that no other block
// branches to) is not followed, its orders being the same; other ties
// are, each. The search stops past orderBudget steps of work (a step: a block or an edge a walk or a comparison
// visits, or a block copied for a branch) and reports it gave up; the
// caller then hashes the graph as it is, so a renumbering of such a graph
// is not recognized as one. Dead blocks alike that are not twins branch
// at every tie, the work growing as the factorial of their number, and
// each branch but the last copies the order (2 steps a block of the
// graph): the budget gives out at about seven alike dead blocks that are
// not twins in a small graph (seven dead 2-cycles, 16 blocks in all;
// seven dead chains p→q→live; a dead block branching to seven dead
// blocks), and at five dead 2-cycles in a graph of 5,000 live blocks. A
// campaign's 1 to gen.CampaignDeadMax dead blocks, in graphs of at most
// gen.CampaignHugeMax blocks, stay far below it.

package fuzz

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// orderBudget bounds the search for the dead blocks' order, in steps (see
// the file comment).
const orderBudget = 1 << 18

// canonicalOrder numbers g's blocks in the canonical order: id[b] is b's
// place and order lists the blocks by place. names puts a hash of each
// block's name in the segments compared. ok is false when the search for
// the dead blocks' order ran past orderBudget; id and order are then nil.
func canonicalOrder(g *cfg.Graph, names bool) (id, order []int, ok bool) {
	id, order = bfsOrder(g)
	if len(order) == g.Len() {
		return id, order, true
	}
	s := &deadOrder{g: g, names: names, budget: orderBudget, seen: make([]int, g.Len())}
	for b := range s.seen {
		s.seen[b] = -1
	}
	_, id, order, ok = s.search(id, order)
	return id, order, ok
}

// deadOrder is the search for the dead blocks' order.
type deadOrder struct {
	g      *cfg.Graph
	names  bool
	budget int
	seen   []int // a segment's numbers for the blocks its walk met, -1 elsewhere
	queue  []int
	preds  [][]int // g.Preds(), made at the first tie
}

// spend takes n steps from the budget, false once it is spent.
func (s *deadOrder) spend(n int) bool {
	s.budget -= n
	return s.budget >= 0
}

// search completes the order id and order begin (the blocks numbered so
// far), returning the segments its rounds wrote and the least order.
func (s *deadOrder) search(id, order []int) (segs []uint64, bestID, bestOrder []int, ok bool) {
	n := s.g.Len()
	if len(order) == n {
		return nil, id, order, true
	}
	var least []uint64
	var roots []int
	for r := range n {
		if id[r] >= 0 {
			continue
		}
		seg, ok := s.segment(id, len(order), r)
		if !ok {
			return nil, nil, nil, false
		}
		switch c := slices.Compare(seg, least); {
		case roots == nil || c < 0:
			least, roots = seg, append(roots[:0], r)
		case c == 0:
			twin, ok := s.twinOfAny(r, roots)
			if !ok {
				return nil, nil, nil, false
			}
			if !twin {
				roots = append(roots, r)
			}
		}
	}
	var rest []uint64
	for k, r := range roots {
		bid, border := id, order
		if k < len(roots)-1 { // the last root may number in place
			if !s.spend(2 * n) {
				return nil, nil, nil, false
			}
			bid, border = slices.Clone(id), slices.Clone(order)
		}
		border = s.number(bid, border, r)
		more, fid, forder, ok := s.search(bid, border)
		if !ok {
			return nil, nil, nil, false
		}
		if bestOrder == nil || slices.Compare(more, rest) < 0 {
			rest, bestID, bestOrder = more, fid, forder
		}
	}
	return append(least, rest...), bestID, bestOrder, true
}

// twinOfAny says whether swapping r with one of roots maps g onto itself,
// which makes following r the same as following that root: r and it have
// the same weight, name (when the segments hold names) and successors
// (up to the swap), and no other block branches to either of them. ok is
// false once the budget is spent.
func (s *deadOrder) twinOfAny(r int, roots []int) (twin, ok bool) {
	g := s.g
	if s.preds == nil {
		if !s.spend(g.Len() + g.Edges()) {
			return false, false
		}
		s.preds = g.Preds()
	}
	swap := func(t, a, b int) int {
		switch t {
		case a:
			return b
		case b:
			return a
		}
		return t
	}
	onlyPair := func(x, a, b int) bool {
		for _, p := range s.preds[x] {
			if p != a && p != b {
				return false
			}
		}
		return true
	}
	for _, a := range roots {
		sa, sr := g.Succs[a], g.Succs[r]
		if !s.spend(1 + len(sa) + len(s.preds[a]) + len(s.preds[r])) {
			return false, false
		}
		if len(sa) != len(sr) || g.Weight(a) != g.Weight(r) || s.names && g.Name(a) != g.Name(r) ||
			!onlyPair(a, a, r) || !onlyPair(r, a, r) {
			continue
		}
		same := true
		for i, t := range sa {
			if swap(t, a, r) != sr[i] {
				same = false
				break
			}
		}
		if same {
			return true, true
		}
	}
	return false, true
}

// segment is the segment a round rooted at r writes, next being the first
// number it gives; it numbers nothing.
func (s *deadOrder) segment(id []int, next, r int) ([]uint64, bool) {
	n := s.g.Len()
	num := func(t int) int {
		if t < 0 || t >= n {
			return t // out of range: apart from every block's number (uint64 of a negative is past 2^63)
		}
		if id[t] >= 0 {
			return id[t]
		}
		if s.seen[t] < 0 {
			s.seen[t] = next + len(s.queue)
			s.queue = append(s.queue, t)
		}
		return s.seen[t]
	}
	var seg []uint64
	s.queue = s.queue[:0]
	num(r)
	for q := 0; q < len(s.queue); q++ {
		b := s.queue[q]
		succs := s.g.Succs[b]
		if !s.spend(1 + len(succs)) {
			break
		}
		seg = append(seg, uint64(len(succs)))
		for _, t := range succs {
			seg = append(seg, uint64(num(t)))
		}
		seg = append(seg, uint64(s.g.Weight(b)))
		if s.names {
			h := hasher(fnvOffset)
			h.text(s.g.Name(b))
			seg = append(seg, uint64(h))
		}
	}
	for _, b := range s.queue {
		s.seen[b] = -1
	}
	return seg, s.budget >= 0
}

// number numbers, from len(order) on, the blocks a round rooted at r
// reaches that id has not numbered, breadth-first, as segment does.
func (s *deadOrder) number(id, order []int, r int) []int {
	n := s.g.Len()
	id[r] = len(order)
	order = append(order, r)
	for q := id[r]; q < len(order); q++ {
		for _, t := range s.g.Succs[order[q]] {
			if t >= 0 && t < n && id[t] < 0 {
				id[t] = len(order)
				order = append(order, t)
			}
		}
	}
	return order
}
