// interp_scratch.go: the tables Load and a Machine make for every module
// (constant values, label tables, resolved steps, fused chains, id uses,
// the value table, the chain memo), kept between the modules the
// execution check runs (interpScratch) so each graph reuses the last one's
// memory instead of allocating its own. Load on its own gets fresh tables.
package oracle

import "sync"

// interpScratch holds the tables of one loaded module and its machine
// while it runs, and their memory between runs (scratchPool).
type interpScratch struct {
	consts  []value
	at      []int32
	steps   []step
	segs    []chainSeg
	chains  []chain
	callees []*function
	count   []uint32
	written []bool
	vals    []value
	memo    []chainMemo
}

// scratchPool keeps interpScratch between executions; each execution
// takes its own (the oracle's workers run concurrently).
var scratchPool = sync.Pool{New: func() any { return new(interpScratch) }}

// zeroed is buf with length n, every element zero: buf's memory when it
// is large enough, new memory otherwise.
func zeroed[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// keep takes back the memory of p's tables and of mach's (which ran p)
// once neither is used again; callees are cleared so that the pool holds
// no function of p.
func (s *interpScratch) keep(p *Program, mach *Machine) {
	s.consts, s.at, s.steps = p.consts, p.at, p.steps
	s.segs, s.chains = p.segs[:0], p.chains[:0]
	clear(p.callees)
	s.callees = p.callees[:0]
	s.vals = mach.vals
	if mach.memo != nil {
		s.memo = mach.memo
	}
}
