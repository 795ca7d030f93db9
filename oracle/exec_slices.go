// exec_slices.go: the trace slices of a batch stay apart. By the module
// convention (emit/CONVENTION.md, Buffers) walk i writes only words
// i*T .. i*T+T-1 of the trace buffer, its appends past capacity all landing
// in the overflow slot. The interpreter runs the invocations one after the
// other over one zeroed buffer, so a write outside the running invocation's
// slice shows as a later slice that is not zero when its invocation starts,
// or an earlier slice that changed after its invocation ended.

package oracle

import (
	"fmt"
	"slices"
)

// Overrun is how many appends past its capacity an invocation of the
// interpreter may make before it is stopped: enough that a module whose
// own idea of the capacity or of the overflow slot is off by up to the
// slice's overhead writes past its slice.
const Overrun = 6

// TraceOverflowError says a module wrote outside an invocation's trace
// slice: Walk is the slice found changed.
type TraceOverflowError struct {
	Walk   int
	Detail string
}

func (e *TraceOverflowError) Error() string {
	return fmt.Sprintf("walk %d's trace slice: %s", e.Walk, e.Detail)
}

// sliceGuard keeps what each finished invocation left in its slice.
type sliceGuard struct {
	trace  []uint32
	stride int
	own    []uint32 // the slices of the finished invocations, as they ended
}

// slice is walk i's slice of the trace buffer.
func (g *sliceGuard) slice(i int) []uint32 { return g.trace[i*g.stride : (i+1)*g.stride] }

// before checks that walk i's slice is untouched when its invocation starts.
func (g *sliceGuard) before(i int) error {
	for k, w := range g.slice(i) {
		if w != 0 {
			return &TraceOverflowError{Walk: i, Detail: fmt.Sprintf("slot %d is %d before walk %d ran (an earlier walk wrote past its slice)", k, w, i)}
		}
	}
	return nil
}

// after keeps what walk i's invocation left in its slice.
func (g *sliceGuard) after(i int) { g.own = append(g.own, g.slice(i)...) }

// end checks that no slice changed after its own invocation ended.
func (g *sliceGuard) end(walks int) error {
	for i := range walks {
		got, want := g.slice(i), g.own[i*g.stride:(i+1)*g.stride]
		if !slices.Equal(got, want) {
			k := 0
			for got[k] == want[k] {
				k++
			}
			return &TraceOverflowError{Walk: i, Detail: fmt.Sprintf("slot %d changed from %d to %d after walk %d ended (a later walk wrote outside its slice)", k, want[k], got[k], i)}
		}
	}
	return nil
}
