// distinct.go: a campaign's distinct work. Graph index i is graph number
// Place(i) of its stream's generator, so the streams of one generator at
// different weight settings take turns over one sequence of graphs: every
// graph runs at one weight setting (the settings rotate), and no two
// indices share a (graph, weights) pair by construction.
//
// On top of that the coordinator skips a graph isomorphic to one an
// earlier index already gave (Record.Skipped): its canonical hash is the
// hash of the graph in canonicalOrder's order (canonical.go: the blocks
// the entry reaches numbered breadth-first from the entry, successors in
// order, which is gen.Canonical's form; then the dead blocks, those no
// path from the entry reaches, in the least order any choice of dead roots
// gives) with the weights and names moved along: the canonical labelling
// of a rooted graph with ordered successors, exact, not a fingerprint. A
// graph with dead blocks (which a campaign gives one graph in
// gen.CampaignDeadEvery) is hashed whole, never as its reachable part: to
// a structurizer that crashes on dead code it is another input than its
// reachable part, or than the graph with its dead blocks' edges landing
// elsewhere, so it is skipped only as a repeat of a renumbering of itself.
// What it misses: a graph whose dead blocks the order's search gives up on
// (past orderBudget: about seven dead blocks alike that are not twins,
// fewer in a graph of thousands of blocks; canonical.go) is hashed as it
// is, so a renumbering of it is not skipped; two graphs that differ in the order of a conditional's arms
// are different graphs to it (and to a structurizer); a 64-bit hash
// collision (odds about n²/2⁶⁵ over n graphs) would skip a new graph. A
// renumbering of a graph is skipped without running it: the meta check
// already runs each graph renumbered, dead blocks included.
//
// The skip is decided in index order over every index of the campaign,
// whatever the shard, the worker count or a resume: index i is skipped iff
// some index below i gives the same hash on the same strategy, and i is
// not one the gpu check samples (Settings.GPUEvery), while the set of hashes holds
// fewer than DistinctCap graphs (after that, new graphs are checked and not
// remembered). The coordinator generates each index's graph in order (a
// shard generates the other shards' graphs too, for their hashes), so the
// decision is a pure function of the seed, the settings and the index.

package fuzz

import (
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// DistinctCap bounds the hashes a campaign remembers (8 bytes each, about
// 20 with the set's overhead: some 80 MB at the cap).
const DistinctCap = 1 << 22

// Place is graph index i's stream (an index into Streams) and its graph
// number within the stream's generator: the streams of one generator take
// turns over that generator's graphs 0, 1, 2, ... in Streams order.
func (s *Settings) Place(i int) (stream, number int) {
	n := len(s.Streams)
	stream, round := i%n, i/n
	kind := s.Streams[stream].Kind
	of, before := 0, 0
	for x, st := range s.Streams {
		if st.Kind == kind {
			if x < stream {
				before++
			}
			of++
		}
	}
	return stream, round*of + before
}

// GraphHash is the canonical hash of g with its weights (see the file
// comment) on a strategy: the dispatch share's graphs (Settings.GraphStrategy)
// are other work than the same graph on the campaign's strategy. It hashes
// the canonical form without building it: the block count, then the blocks
// in canonicalOrder's order, each successor as its block's place in that
// order; a graph whose order the search gave up on is hashed in its own
// numbering, marked apart.
func GraphHash(g *cfg.Graph, strategy string) uint64 {
	h := hasher(fnvOffset)
	h.text(strategy)
	id, order, ok := canonicalOrder(g, true)
	if !ok { // dead blocks past the search's budget: the graph as it is
		h.word(1)
		id = make([]int, g.Len())
		order = make([]int, g.Len())
		for b := range id {
			id[b], order[b] = b, b
		}
	} else {
		h.word(0)
	}
	n := g.Len()
	h.word(uint64(n))
	for _, b := range order {
		h.word(uint64(len(g.Succs[b])))
		for _, t := range g.Succs[b] {
			if t >= 0 && t < n {
				t = id[t]
			}
			h.word(uint64(t))
		}
		h.word(uint64(g.Weight(b)))
		h.text(g.Name(b))
	}
	return mix(uint64(h))
}

// bfsOrder numbers the blocks reachable from the entry breadth-first,
// successors in order: id[b] is b's place in order, -1 when unreachable.
func bfsOrder(g *cfg.Graph) (id, order []int) {
	n := g.Len()
	id = make([]int, n)
	for b := range id {
		id[b] = -1
	}
	if n == 0 {
		return id, nil
	}
	order = append(make([]int, 0, n), 0)
	id[0] = 0
	for q := 0; q < len(order); q++ {
		for _, t := range g.Succs[order[q]] {
			if t >= 0 && t < n && id[t] < 0 {
				id[t] = len(order)
				order = append(order, t)
			}
		}
	}
	return id, order
}

// hasher is 64-bit FNV-1a over words, finished by mix.
type hasher uint64

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func (h *hasher) word(w uint64) {
	for range 8 {
		*h = (*h ^ hasher(w&0xff)) * fnvPrime
		w >>= 8
	}
}

func (h *hasher) text(s string) {
	h.word(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		*h = (*h ^ hasher(s[i])) * fnvPrime
	}
}

// mix is splitmix64's finalizer, spreading FNV's low-entropy high bits.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// DistinctSet is the hashes of a campaign's graphs in index order, up to
// DistinctCap of them (the zero value is not ready: NewDistinctSet).
type DistinctSet struct {
	first map[uint64]int
	cap   int
}

// NewDistinctSet is an empty set remembering up to limit graphs; limit 0
// means DistinctCap.
func NewDistinctSet(limit int) *DistinctSet {
	if limit <= 0 {
		limit = DistinctCap
	}
	return &DistinctSet{first: map[uint64]int{}, cap: limit}
}

// See accounts for index i's graph hash, given in index order: it returns
// the earlier index with the same hash and true when there is one, else
// remembers i (below the cap) and returns false.
func (d *DistinctSet) See(i int, hash uint64) (sameAs int, repeat bool) {
	if j, ok := d.first[hash]; ok {
		return j, true
	}
	if len(d.first) < d.cap {
		d.first[hash] = i
	}
	return 0, false
}
