// scratch.go: the working arrays of the analyses that do not outlive a
// call (semi-NCA's numbering, predecessor lists and forest, a dominator
// tree's child lists and walk, the depth-first orders' stack, the
// predecessor lists' cursors), carved from one int32 array that calls
// hand on to one another. A structurization computes dominators,
// post-dominators and predecessors of several graphs of about the same
// size one after another; handed on, the array is already mapped and
// partly in cache, where each call would otherwise allocate fresh arrays
// that the collector must then zero and reclaim.
//
// One array is kept between calls, the longest recently released: a
// caller takes it (or makes a longer one) and releases it when done, so
// concurrent callers never share one (the one that finds none kept makes
// its own). Unlike a sync.Pool's, the kept array survives garbage
// collections, which a structurization of a large graph runs several of
// between two analyses. It is as long as the largest analysis lately
// asked for (semiScratch), a quarter more: about 25 MB after a
// structurization of a random graph of 100,000 blocks, whose largest
// analysis is the post-dominators of a function of about 390,000 nodes;
// an array past scratchKeepMax is not kept.

package cfg

import "sync/atomic"

// scratchKept is the array released last, nil while a caller holds it or
// none was released.
var scratchKept atomic.Pointer[[]int32]

// scratchKeepMax is the most int32s a kept array holds (64 MiB): a graph
// of more than about a million blocks makes its own each call.
const scratchKeepMax = 1 << 24

// scratch is an int32 array carved into a call's working arrays (take),
// handed on by release.
type scratch struct {
	buf  *[]int32
	free []int32
}

// newScratch returns room for k int32s: the kept array when it is long
// enough, else a new one a quarter longer than asked (the next graph, of
// about the size, then fits). The contents are arbitrary: each carved
// array must be written before it is read.
func newScratch(k int) scratch {
	if p := scratchKept.Swap(nil); p != nil && cap(*p) >= k {
		return scratch{buf: p, free: (*p)[:cap(*p)]}
	}
	b := make([]int32, k+k/4)
	return scratch{buf: &b, free: b}
}

// take carves the next k int32s, capped at k.
func (s *scratch) take(k int) []int32 {
	a := s.free[:k:k]
	s.free = s.free[k:]
	return a
}

// release keeps the array for the next call unless a longer one is kept
// already; nothing carved from it may be used after.
func (s *scratch) release() {
	if cap(*s.buf) <= scratchKeepMax {
		for {
			old := scratchKept.Load()
			if old != nil && cap(*old) >= cap(*s.buf) || scratchKept.CompareAndSwap(old, s.buf) {
				break
			}
		}
	}
	s.buf, s.free = nil, nil
}
