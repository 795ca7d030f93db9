// exec.go: the execution check. The module runs every walk's decisions as
// one batch (one invocation per walk, as a driver would) and must record
// exactly the walk's trace, consume exactly its decisions and return
// exactly when it returned. A walk cut at the step cap must match as a
// prefix. Each failure kind has its own stable signature.

package oracle

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// Execution failure signatures (after "exec:").
const (
	SigTrace          = "trace-mismatch"     // a different block sequence
	SigDecisions      = "decisions-mismatch" // same blocks, different decision count
	SigNoReturn       = "no-return"          // walk returned, module did not (hang or cut)
	SigEarlyReturn    = "early-return"       // module returned where the walk went on
	SigStalled        = "stalled"            // module ran on without recording (hang)
	SigTrap           = "trap"               // OpUnreachable, out-of-bounds access
	SigUndefined      = "undefined-load"     // a load of a variable never stored to, without an initializer
	SigOverflow       = "trace-overflow"     // a write outside the invocation's trace slice
	SigForeign        = "trace-foreign"      // a read outside the invocation's trace slice
	SigDecisionsStore = "decisions-store"    // a store to the decisions buffer, which walks only read
	SigSink           = "sink-mismatch"      // returned without storing the filler's sink
	SigLoad           = "unloadable"         // the interpreter cannot load the module
	// SigRegisters (registers.go): the register file's checksum differs.
)

// Executor runs a module on a batch of walks and returns each walk's
// observation. The interpreter is one; a Vulkan driver is another.
type Executor interface {
	Name() string
	Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error)
}

// Interpreter is the Executor backed by this package's SPIR-V interpreter.
// HangSteps bounds the blocks an invocation may run without appending to its
// trace before it counts as hung; 0 means 64 + 4 x the module's blocks. An
// invocation runs on past its capacity for Overrun more appends (which the
// convention sends to the overflow slot), so a module that computes its
// capacity or slice wrongly writes outside its slice; a load or store
// outside it stops the invocation (ForeignTraceError, exec_slices.go).
// It also stops after (capacity+Overrun+2)(HangSteps+1) blocks of the entry
// point, or 64 times that many blocks of every function together (a module
// that rewrites its trace count, or loops inside a helper).
type Interpreter struct {
	HangSteps int
	generic   bool // Machine.generic: the reference path, for tests
	fullReset bool // Machine.fullReset: every invocation from all the constants, for tests
	// fills, when set, is the module's filler as blockFills reads it (the
	// oracle's shared reading), so the sink check does not read it again.
	fills func() ([]blockFill, error)
	// scratch, when set, is the memory the execution makes its tables in
	// (the checking oracle's own, kept from module to module); nil takes
	// one from scratchPool.
	scratch *interpScratch
}

// Name is "interp".
func (Interpreter) Name() string { return "interp" }

// Execute runs each walk as one invocation. A trap ends that invocation
// only: it is reported through the returned error after the others ran.
func (it Interpreter) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	return it.executeDecoded(m, batch, walks)
}

// ExecuteModule is Execute on a module already decoded, for a caller
// that reads it too; the interpreter does not change m.
func (it Interpreter) ExecuteModule(m *spirv.Module, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	return it.executeDecoded(m, batch, walks)
}

// executeDecoded is Execute on a decoded module.
func (it Interpreter) executeDecoded(m *spirv.Module, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	if it.scratch != nil {
		return it.executeWith(m, batch, walks, it.scratch)
	}
	sc := scratchPool.Get().(*interpScratch)
	defer scratchPool.Put(sc)
	return it.executeWith(m, batch, walks, sc)
}

// executeWith is executeDecoded making its tables in the memory of sc,
// which keeps them afterwards (interpScratch).
func (it Interpreter) executeWith(m *spirv.Module, batch *spirv.Batch, walks int, sc *interpScratch) ([]spirv.Observed, error) {
	p, err := loadWith(m, sc)
	if err != nil {
		return nil, err
	}
	defer sc.keep(p)
	trace := zeroed(sc.trace, batch.TraceWords)
	sc.trace = trace
	mach := sc.machine(p, batch.Decisions, trace)
	mach.generic, mach.fullReset = it.generic, it.fullReset
	hang := it.HangSteps
	if hang <= 0 {
		hang = 64 + 4*p.Labels()
	}
	capacity := batch.Capacity()
	// A run that records every hang steps and fills the trace takes at
	// most entrySteps blocks of the entry point; more means the count
	// goes back and forth (a module that rewrites it) and would never
	// stop. Called functions get 64 blocks per entry block (MaxBlocks).
	entrySteps := (int(capacity) + Overrun + 2) * (hang + 1)
	mach.MaxBlocks = 64 * entrySteps
	var firstTrap error
	fills := it.fills
	if fills == nil {
		fills = func() ([]blockFill, error) { return blockFills(m), nil }
	}
	fl, err := fills()
	if err != nil {
		return nil, err
	}
	sinks := sinkCells(p, sinksOf(fl))
	stride := int(batch.TraceStride)
	for i := range walks {
		*mach.watch = traceWatch{count: &trace[i*stride+spirv.TraceCount], hang: hang, capacity: capacity + Overrun, entrySteps: entrySteps}
		mach.own = traceSlice{lo: int32(i * stride), hi: int32((i + 1) * stride)}
		err := mach.run(uint32(i))
		if err == nil && firstTrap == nil {
			firstTrap = checkSink(mach, sinks, trace[i*stride:(i+1)*stride], i)
		}
		var foreign *ForeignTraceError
		var decisions *DecisionsStoreError
		switch {
		case err == nil, errors.Is(err, ErrStopped):
		case errors.As(err, &foreign), errors.As(err, &decisions):
			if firstTrap == nil {
				firstTrap = err
			}
		case isTrap(err):
			if firstTrap == nil {
				firstTrap = fmt.Errorf("walk %d: %w", i, err)
			}
		default:
			return nil, err
		}
	}
	obs := make([]spirv.Observed, walks)
	for i := range obs {
		obs[i] = batch.Read(trace, i)
	}
	return obs, firstTrap
}

// isTrap says whether err is a TrapError (its variable escapes: only an
// invocation that failed pays for it).
func isTrap(err error) bool {
	var trap *TrapError
	return errors.As(err, &trap)
}

// traceWatch stops an invocation that hangs: it sees every block entry of
// the entry point (Machine.watch) and says whether the invocation may go
// on: while it appends to its trace at least every hang blocks, within the
// capacity, and for at most entrySteps blocks.
type traceWatch struct {
	count            *uint32 // the invocation's trace count word
	lastCount        uint32
	idle, steps      int
	hang, entrySteps int
	capacity         uint32
}

// goOn counts one block entry and says whether the invocation may go on.
func (w *traceWatch) goOn() bool {
	c := *w.count
	if c != w.lastCount {
		w.lastCount, w.idle = c, 0
	} else {
		w.idle++
	}
	w.steps++
	return w.idle <= w.hang && c <= w.capacity && w.steps <= w.entrySteps
}

// ExecResult is the verdict of the execution check.
type ExecResult struct {
	Signature string // "" when every walk matched
	Detail    string
	Walk      int // the first failing walk
	// Harness is set when the executor itself failed (an instruction the
	// interpreter lacks, a driver error): no verdict on the module.
	Harness error
}

// CompareWalks runs the walks through ex and compares. walks come from
// Walks on the original graph.
func CompareWalks(ex Executor, module []byte, walks []Walk) ExecResult {
	return compareWalks(ex, module, nil, nil, nil, walks)
}

// compareWalks is CompareWalks; when ex is the Interpreter and decoded is
// not nil, the interpreter runs the module decoded gives (the oracle's
// shared decoding of module) instead of decoding it again, reads the
// filler's sinks from fills when that is not nil (Subject.fills), and
// makes its tables in sc when that is not nil (the oracle's own memory).
func compareWalks(ex Executor, module []byte, decoded func() (*spirv.Module, error), fills func() ([]blockFill, error), sc *interpScratch, walks []Walk) ExecResult {
	batch := WalkBatch(walks)
	var obs []spirv.Observed
	var err error
	if it, ok := ex.(Interpreter); ok && decoded != nil {
		var m *spirv.Module
		if m, err = decoded(); err == nil {
			it.fills, it.scratch = fills, sc
			obs, err = it.executeDecoded(m, batch, len(walks))
		}
	} else {
		obs, err = ex.Execute(module, batch, len(walks))
	}
	var trap *TrapError
	var unsupported *UnsupportedError
	var foreign *ForeignTraceError
	var decisions *DecisionsStoreError
	var sink *SinkError
	var undefined *UndefinedLoadError
	switch {
	case errors.As(err, &undefined):
		return ExecResult{Signature: SigUndefined, Detail: err.Error(), Walk: -1}
	case errors.As(err, &sink):
		return ExecResult{Signature: SigSink, Detail: err.Error(), Walk: sink.Walk}
	case errors.As(err, &foreign):
		sig := SigForeign
		if foreign.Store {
			sig = SigOverflow
		}
		return ExecResult{Signature: sig, Detail: err.Error(), Walk: foreign.Walk}
	case errors.As(err, &decisions):
		return ExecResult{Signature: SigDecisionsStore, Detail: err.Error(), Walk: decisions.Walk}
	case errors.As(err, &trap):
		return ExecResult{Signature: SigTrap, Detail: err.Error(), Walk: -1}
	case errors.As(err, &unsupported):
		return ExecResult{Harness: err, Walk: -1}
	case err != nil:
		return ExecResult{Signature: SigLoad, Detail: err.Error(), Walk: -1}
	}
	for i, w := range walks {
		if sig, detail := compareOne(w, obs[i]); sig != "" {
			detail = fmt.Sprintf("walk %d: %s; decisions %v", i, detail, w.Decisions)
			if sig == SigRegisters {
				detail += registersHint(module, decoded, w.Registers)
			}
			return ExecResult{Signature: sig, Detail: detail, Walk: i}
		}
	}
	return ExecResult{}
}

// WalkBatch lays out the decisions of walks (from one Walks call) as
// CompareWalks does: room for every returned walk's trace and one id more,
// or Overrun+1 ids less than a longer capped walk (batchCapacity), and the
// register file's checksum slot when the walks carry one.
func WalkBatch(walks []Walk) *spirv.Batch {
	decs := make([][]uint32, len(walks))
	for i, w := range walks {
		decs[i] = w.Decisions
	}
	return spirv.NewRegisterBatch(decs, batchCapacity(walks), walksRegisters(walks))
}

// walksRegisters is the register file's size the walks were chosen for.
func walksRegisters(walks []Walk) int {
	if len(walks) == 0 {
		return 0
	}
	return walks[0].Registers
}

// batchCapacity is the trace capacity of a batch of walks: room for every
// returned walk's trace and one id more; and, when a capped walk is longer,
// Overrun+1 ids less than it, so the module, following that walk's own
// decisions, appends past its capacity and into the overflow slot (where a
// module that computes its slice wrongly writes outside it).
func batchCapacity(walks []Walk) int {
	capacity := 1
	for _, w := range walks {
		if w.Returned {
			capacity = max(capacity, len(w.Trace)+1)
		}
	}
	for _, w := range walks {
		if !w.Returned {
			capacity = max(capacity, len(w.Trace)-Overrun-1)
		}
	}
	return capacity
}

// compareOne judges one walk against what the module recorded.
func compareOne(w Walk, o spirv.Observed) (sig, detail string) {
	if !w.Returned {
		if cappedMatch(w, o) {
			return "", ""
		}
		return judgeOne(w, o)
	}
	if !sameTrace(w.Trace, o.IDs) || o.Truncated || !o.Returned || int(o.Consumed) != w.Consumed {
		return judgeOne(w, o)
	}
	if w.Registers > 0 && o.Checksum != w.Checksum {
		return SigRegisters, fmt.Sprintf("register file of %d: checksum 0x%08x, the walk's 0x%08x", w.Registers, o.Checksum, w.Checksum)
	}
	return "", ""
}

// parting says where the module's trace leaves the walk's: the first
// position (from 0) at which they differ, after the last few blocks they
// share, so that a long trace's mismatch reads without counting.
func parting(graph, module []int) string {
	i := 0
	for i < len(graph) && i < len(module) && graph[i] == module[i] {
		i++
	}
	after := "at the start"
	if i > 0 {
		shared := graph[max(0, i-partingShared):i]
		more := ""
		if i > partingShared {
			more = "... "
		}
		after = fmt.Sprintf("after %s%s", more, strings.Trim(fmt.Sprint(shared), "[]"))
	}
	switch {
	case i < len(graph) && i < len(module):
		return fmt.Sprintf("the traces part at position %d, %s: the graph goes to b%d, the module to b%d", i, after, graph[i], module[i])
	case i < len(graph):
		return fmt.Sprintf("the module's trace ends at position %d, %s: the graph goes on to b%d", i, after, graph[i])
	case i < len(module):
		return fmt.Sprintf("the graph's trace ends at position %d, %s: the module goes on to b%d", i, after, module[i])
	}
	return "the traces agree as far as recorded"
}

// partingShared is how many shared blocks parting shows before the parting.
const partingShared = 4

// sameTrace says whether the module recorded exactly the walk's trace.
func sameTrace(trace []int, ids []uint32) bool {
	if len(trace) != len(ids) {
		return false
	}
	for i, id := range ids {
		if trace[i] != int(id) {
			return false
		}
	}
	return true
}

// cappedMatch says whether the module passed a walk cut at the step cap
// (judgeOne's first case) without copying what it recorded: it recorded
// the walk's trace as far as both go, at least all of it (its count when
// it ran past the capacity), and did not return before the walk's last
// block.
func cappedMatch(w Walk, o spirv.Observed) bool {
	n := min(len(w.Trace), len(o.IDs))
	if !sameTrace(w.Trace[:n], o.IDs[:n]) {
		return false
	}
	recorded := len(o.IDs)
	if o.Truncated {
		recorded = int(o.Count)
	}
	return recorded >= len(w.Trace) && !(o.Returned && recorded <= len(w.Trace))
}

// judgeOne is compareOne for a walk that is cut or does not simply match:
// the reference judgement, on the recorded ids as ints.
func judgeOne(w Walk, o spirv.Observed) (sig, detail string) {
	got := make([]int, len(o.IDs))
	for i, id := range o.IDs {
		got[i] = int(id)
	}
	if !w.Returned {
		// The walk was cut at the step cap: the module must record at
		// least as much, the same, and not return.
		// The batch's capacity may be shorter than the walk: then the
		// module's count, which goes on past capacity, says how far it
		// recorded, and the ids it kept must match.
		n := min(len(w.Trace), len(got))
		recorded := len(got)
		if o.Truncated {
			recorded = int(o.Count)
		}
		switch {
		case !slices.Equal(w.Trace[:n], got[:n]):
			return SigTrace, fmt.Sprintf("capped walk, %s: graph %v, module %v", parting(w.Trace, got), w.Trace, got)
		case o.Returned && recorded <= len(w.Trace):
			// Past the walk's last block the module runs on decisions
			// the walk never chose; only returning before it is wrong.
			return SigEarlyReturn, fmt.Sprintf("module returned after %v; the walk went on: %v", got, w.Trace)
		case recorded < len(w.Trace):
			return SigStalled, fmt.Sprintf("module stopped recording after %v; the walk went on: %v", got, w.Trace)
		}
		return "", ""
	}
	if !slices.Equal(w.Trace, got) || o.Truncated {
		if o.Returned || len(got) >= len(w.Trace) {
			return SigTrace, fmt.Sprintf("%s: graph %v, module %v", parting(w.Trace, got), w.Trace, got)
		}
		if slices.Equal(w.Trace[:len(got)], got) {
			return SigStalled, fmt.Sprintf("module stopped recording after %v; graph returned after %v", got, w.Trace)
		}
		return SigTrace, fmt.Sprintf("%s: graph %v, module %v", parting(w.Trace, got), w.Trace, got)
	}
	if !o.Returned {
		return SigNoReturn, fmt.Sprintf("module recorded the whole trace %v but did not return", got)
	}
	if int(o.Consumed) != w.Consumed {
		return SigDecisions, fmt.Sprintf("graph read %d decisions, module %d", w.Consumed, o.Consumed)
	}
	return "", ""
}
