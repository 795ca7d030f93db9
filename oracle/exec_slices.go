// exec_slices.go: every walk keeps to its own trace slice. By the module
// convention (emit/CONVENTION.md, Buffers) walk i reads and writes only
// words i*T .. i*T+T-1 of the trace buffer, its appends past capacity all
// landing in the overflow slot. The interpreter runs the invocations one
// after the other, a driver runs them at once: a module that reads
// another walk's slice reads there what that walk left, or had not yet
// written, by the order the walks ran in, and one that writes there
// changes a walk that may still be running. The interpreter stops an
// invocation at its first load or store of a word of the trace buffer
// outside its slice (Machine.own): a load is exec:trace-foreign, a store
// exec:trace-overflow; and at its first store to the decisions buffer,
// which the walks only read (exec:decisions-store).

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// Overrun is how many appends past its capacity an invocation of the
// interpreter may make before it is stopped: enough that a module whose
// own idea of the capacity or of the overflow slot is off by up to the
// slice's overhead writes past its slice.
const Overrun = 6

// traceSlice is the running invocation's slice of the trace buffer: words
// lo to hi-1 of binding spirv.BindingTrace. The zero value is none: every
// word may be read and written (a Machine run outside the execution
// check).
type traceSlice struct{ lo, hi int32 }

// ForeignTraceError says an invocation loaded (Store false) or stored a
// word of the trace buffer outside its own slice: Word, slot Slot of walk
// Owner's slice.
type ForeignTraceError struct {
	Walk, Owner, Slot int
	Word              int32
	Store             bool
}

func (e *ForeignTraceError) Error() string {
	verb := "loaded"
	if e.Store {
		verb = "stored to"
	}
	return fmt.Sprintf("walk %d %s word %d of the trace buffer, slot %d of walk %d's slice: a walk reads and writes its own slice only (emit/CONVENTION.md, Buffers), and a driver runs the walks at once", e.Walk, verb, e.Word, e.Slot, e.Owner)
}

// foreign says whether word index of binding space lies in the trace
// buffer outside the running invocation's slice.
func (m *Machine) foreign(space, index int32) bool {
	return space == spirv.BindingTrace && m.own.hi > 0 && (index < m.own.lo || index >= m.own.hi)
}

// DecisionsStoreError says an invocation, walk Walk, stored to word Word
// of the decisions buffer, which every walk only reads.
type DecisionsStoreError struct {
	Walk int
	Word int32
}

func (e *DecisionsStoreError) Error() string {
	return fmt.Sprintf("walk %d stored to word %d of the decisions buffer: the walks only read it (emit/CONVENTION.md, Buffers), and a driver runs them at once, so another walk may read the word stored", e.Walk, e.Word)
}

// readOnly says whether a store to binding space stops the running
// invocation: the decisions buffer while it runs a walk of the execution
// check (Machine.own set).
func (m *Machine) readOnly(space int32) bool {
	return space == spirv.BindingDecisions && m.own.hi > 0
}

// decisionsStoreError is the DecisionsStoreError of the running
// invocation's store to word index of the decisions buffer (readOnly).
func (m *Machine) decisionsStoreError(index int32) error {
	return &DecisionsStoreError{Walk: int(m.own.lo / (m.own.hi - m.own.lo)), Word: index}
}

// foreignError is the ForeignTraceError of the running invocation's load
// or store of word index of the trace buffer (foreign).
func (m *Machine) foreignError(index int32, store bool) error {
	stride := m.own.hi - m.own.lo
	return &ForeignTraceError{Walk: int(m.own.lo / stride), Owner: int(index / stride), Slot: int(index % stride), Word: index, Store: store}
}
