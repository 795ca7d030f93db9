// sinks.go: the filler's results on the driver against the interpreter's.
//
// The module convention (emit/CONVENTION.md, "Blocks") has every block's
// filler compute on one Private sink that main stores to the trace's sink
// slot when it returns. The value is defined by the module, not by the
// graph (each structurizer writes its own filler), so the walks cannot say
// what it must be; the interpreter, running the very module, can. A walk
// that returns on both sides must leave the same sink: a driver that
// miscompiles the filler's arithmetic (or an interpreter that evaluates it
// wrong) shows here and nowhere else, since the trace and the decisions
// consumed do not depend on it.
//
// The interpreter runs the module as given, not the one Prepare bounded or
// guarded for the driver: those add a counter and a guard, never a store
// to the sink, so a returned walk's sink is the same in both.
//
// Only defined arithmetic is compared. The interpreter traps on what
// SPIR-V leaves undefined in division, and refuses a function that reads
// a module-scope value it does not compute or computes a result of
// another type than a 32-bit integer (no sinks compared then); but it
// gives a shift by 32 or more the low five bits of the amount and an
// OpUndef 0, and ignores the decorations that relax arithmetic, where a
// driver may give anything: a module whose stores or branches may depend
// on such a result (undefinedArithmetic, sinks_undefined.go) has its
// sinks left uncompared, and says so.

package gpu

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// SigSinkDiffers is the gpu check's signature (after "gpu:") for a walk
// that returned on the driver and in the interpreter with different
// filler results.
const SigSinkDiffers = "sink-differs"

// CompareSinks judges the sinks of obs, the driver's observations of walks
// (one each, as oracle.CompareWalks sent them), against the interpreter's
// run of module. Only walks that returned on both sides are compared.
// Result: the zero ExecResult when every such sink agrees; Signature
// SigSinkDiffers with the first walk that differs; Harness set when the
// interpreter cannot run the module (no verdict on the sinks).
func CompareSinks(module []byte, walks []oracle.Walk, obs []spirv.Observed) oracle.ExecResult {
	if len(obs) != len(walks) {
		return oracle.ExecResult{Harness: fmt.Errorf("gpu: %d observations for %d walks", len(obs), len(walks)), Walk: -1}
	}
	compared := 0
	for i, w := range walks {
		if w.Returned && obs[i].Returned {
			compared++
		}
	}
	if compared == 0 {
		return oracle.ExecResult{}
	}
	m, err := spirv.Decode(module)
	if err != nil {
		return oracle.ExecResult{Harness: fmt.Errorf("gpu: decoding the module, for the filler's sinks: %w", err), Walk: -1}
	}
	if why := undefinedArithmetic(m); why != "" {
		return oracle.ExecResult{Harness: fmt.Errorf("gpu: %s", why), Walk: -1}
	}
	// Every walk runs as the invocation, and in the batch, the driver ran
	// it in: the filler may read its invocation id or the strides.
	want, err := oracle.Interpreter{}.ExecuteModule(m, oracle.WalkBatch(walks), len(walks))
	if err != nil {
		return oracle.ExecResult{Harness: fmt.Errorf("gpu: the interpreter, for the filler's sinks: %w", err), Walk: -1}
	}
	for i, w := range walks {
		if w.Returned && obs[i].Returned && want[i].Returned && want[i].Sink != obs[i].Sink {
			return oracle.ExecResult{Signature: SigSinkDiffers, Walk: i,
				Detail: fmt.Sprintf("walk %d: the filler's sink is 0x%08x on the driver, 0x%08x in the interpreter; decisions %v", i, obs[i].Sink, want[i].Sink, walks[i].Decisions)}
		}
	}
	return oracle.ExecResult{}
}
