// exec_sink.go: the filler's result reaches the trace. By the module
// convention (emit/CONVENTION.md, Blocks) the filler works on one Private
// sink variable, and before every return of main the sink is stored to the
// trace's sink slot, so no compiler may drop the filler. The interpreter
// holds every invocation that returned to it: the sink slot must hold the
// value the sink variable has when main returns.

package oracle

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// SinkError says a walk returned without its sink slot holding the
// filler's sink.
type SinkError struct {
	Walk       int
	Slot, Sink uint32
}

func (e *SinkError) Error() string {
	return fmt.Sprintf("walk %d returned with sink slot %d; the filler's sink holds %d", e.Walk, e.Slot, e.Sink)
}

// fillerSinks are the Private variables m's filler stores: those stored in
// an entry-point block after its report call (filler.go's blocks). Empty
// when no block reports an id and stores after it.
func fillerSinks(m *spirv.Module) []uint32 { return sinksOf(blockFills(m)) }

// sinksOf is fillerSinks of the module whose filler is fills.
func sinksOf(fills []blockFill) []uint32 {
	var out []uint32
	for _, f := range fills {
		for _, v := range f.sinks {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// sinkCells are the interpreter's cells of the sink variables.
func sinkCells(p *Program, sinks []uint32) []int {
	var cells []int
	for _, v := range sinks {
		if g, ok := p.globals[v]; ok && g < 0 {
			cells = append(cells, -1-g)
		}
	}
	return cells
}

// checkSink judges walk i's returned invocation: its sink slot must hold
// the value of a sink variable (one, in the convention's module).
func checkSink(m *Machine, cells []int, slice []uint32, i int) error {
	if len(cells) == 0 || slice[spirv.TraceReturned] != 1 {
		return nil
	}
	slot := slice[spirv.TraceSink]
	for _, c := range cells {
		if c < len(m.cells) && m.cells[c] == slot {
			return nil
		}
	}
	return &SinkError{Walk: i, Slot: slot, Sink: m.cells[cells[0]]}
}
