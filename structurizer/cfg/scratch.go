// scratch.go: the working arrays of the analyses that do not outlive a
// call (semi-NCA's numbering, predecessor lists and forest, a dominator
// tree's child lists and walk), drawn from a pool of int32 arrays. A
// structurization computes dominators or post-dominators of several
// graphs of about the same size one after another; with the pool they
// reuse one array, already mapped and partly in cache, where each call
// would otherwise allocate fresh arrays that the collector must then
// zero and reclaim. The pool (sync.Pool) is safe for concurrent callers
// and drops what it holds at garbage collections, so an idle process
// keeps nothing.

package cfg

import "sync"

// scratchPool holds *[]int32 arrays that no caller uses any more.
var scratchPool sync.Pool

// scratch is a pooled int32 array carved into a call's working arrays
// (take), returned to the pool by release.
type scratch struct {
	buf  *[]int32
	free []int32
}

// newScratch returns room for k int32s, from the pool when an array
// there is long enough. The contents are arbitrary: each carved array
// must be written before it is read.
func newScratch(k int) *scratch {
	if p, ok := scratchPool.Get().(*[]int32); ok && cap(*p) >= k {
		return &scratch{buf: p, free: (*p)[:cap(*p)]}
	}
	// An array too short is dropped: the pool then holds the longest
	// recent one, which the next graph, of about the size, fits.
	b := make([]int32, k+k/4)
	return &scratch{buf: &b, free: b}
}

// take carves the next k int32s, capped at k.
func (s *scratch) take(k int) []int32 {
	a := s.free[:k:k]
	s.free = s.free[k:]
	return a
}

// release returns the array to the pool; nothing carved from it may be
// used after.
func (s *scratch) release() {
	scratchPool.Put(s.buf)
	s.buf, s.free = nil, nil
}
