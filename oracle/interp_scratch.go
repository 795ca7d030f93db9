// interp_scratch.go: the tables Load and a Machine make for every module
// (the Program, its maps and functions, constant values, label tables,
// resolved steps, fused chains, id uses, the value table, the chain memo),
// kept between the modules the
// execution check runs (interpScratch) so each graph reuses the last one's
// memory instead of allocating its own. Load on its own gets fresh tables.

package oracle

import (
	"sync"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// interpScratch holds the tables of one loaded module and its machine
// while it runs, and their memory between runs: the checking oracle's own
// (Oracle.interp), else one of scratchPool.
type interpScratch struct {
	prog    Program
	fns     []*function // functions, the first nfns those of prog
	nfns    int
	consts  []value
	at      []int32
	steps   []step
	undo    []uint32
	params  []uint32
	segs    []chainSeg
	chains  []chain
	callees []*function
	count   []uint32
	written []bool
	mach    Machine // its value table, cells, buffers and chain memo too
	watch   traceWatch
	trace   []uint32
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

// program is a Program with nothing read yet, for a module of that id
// bound: s's own, its maps emptied, and no function of s in use.
func (s *interpScratch) program(bound uint32) *Program {
	p := &s.prog
	funcs, globals, bindings := p.funcs, p.globals, p.bindings
	if funcs == nil {
		funcs, globals, bindings = map[uint32]*function{}, map[uint32]int{}, map[uint32]uint32{}
	}
	clear(funcs)
	clear(globals)
	clear(bindings)
	*p = Program{funcs: funcs, globals: globals, bindings: bindings, bound: bound}
	s.nfns = 0
	return p
}

// function is a function with nothing read yet but its id: the next of
// s's functions, its parameter and block lists emptied, or a new one.
func (s *interpScratch) function(id uint32) *function {
	if s.nfns == len(s.fns) {
		s.fns = append(s.fns, new(function))
	}
	f := s.fns[s.nfns]
	s.nfns++
	*f = function{id: id, params: f.params[:0], blocks: f.blocks[:0]}
	return f
}

// machine is a Machine that runs p over the batch's decisions and trace
// buffers (by binding, as bindBuffers would take them; Buffers is nil):
// s's own, its value table and memo emptied, its watch s's.
func (s *interpScratch) machine(p *Program, decisions, trace []uint32) *Machine {
	m := &s.mach
	memo := m.memo
	if memo != nil {
		clear(memo)
	}
	ran := m.ran[:cap(m.ran)]
	clear(ran) // no block of an earlier program stays reachable
	bufs := zeroed(m.bufs, max(spirv.BindingDecisions, spirv.BindingTrace)+1)
	bufs[spirv.BindingDecisions], bufs[spirv.BindingTrace] = decisions, trace
	*m = Machine{p: p, vals: zeroed(m.vals, int(p.bound+1)), cells: m.cells[:0], defined: m.defined[:0], bufs: bufs, memo: memo, watch: &s.watch, ran: ran[:0], seen: zeroed(m.seen, p.blocks)}
	return m
}

// keep takes back the memory of p's tables once p is not used again;
// callees are cleared so that the pool holds no function of p beyond
// s's own.
func (s *interpScratch) keep(p *Program) {
	s.consts, s.at, s.steps, s.undo, s.params = p.consts, p.at, p.steps, p.undo, p.params
	s.segs, s.chains = p.segs[:0], p.chains[:0]
	clear(p.callees)
	s.callees = p.callees[:0]
}
