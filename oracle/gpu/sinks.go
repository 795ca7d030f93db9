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
// SPIR-V leaves undefined in division (no sinks compared then), but gives
// a shift by 32 or more the low five bits of the amount and an OpUndef 0,
// computes every integer as a 32-bit word and ignores the decorations
// that relax arithmetic, where a driver may give anything: such a module
// (undefinedArithmetic) has its sinks left uncompared, and says so.

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

// Decorations that let a driver give an integer result other than the
// 32-bit word the interpreter computes.
const (
	decorationRelaxedPrecision = 0
	decorationNoSignedWrap     = 4469
	decorationNoUnsignedWrap   = 4470
)

// undefinedArithmetic says why the interpreter's sinks of m are not the
// ones a correct driver must give ("" when they are): a shift by an amount
// that may reach 32 (shiftsPastWidth), an OpUndef (any value the driver
// likes), an integer type of another width (the interpreter computes every
// integer as a 32-bit word), a result a driver may compute with as few as
// 16 bits (RelaxedPrecision) or that is undefined on overflow
// (NoSignedWrap, NoUnsignedWrap).
func undefinedArithmetic(m *spirv.Module) string {
	if shiftsPastWidth(m) {
		return "the module shifts by an amount that may reach 32 bits, undefined in SPIR-V"
	}
	for _, in := range m.Insts {
		ops := in.Operands
		switch {
		case in.Op == spirv.OpUndef:
			return "the module has an OpUndef, whose value SPIR-V leaves to the driver"
		case in.Op == spirv.OpTypeInt && len(ops) >= 2 && ops[1] != 32:
			return fmt.Sprintf("the module declares a %d-bit integer type, which the interpreter computes in 32 bits", ops[1])
		case in.Op == spirv.OpDecorate && len(ops) >= 2 && relaxesArithmetic(ops[1]),
			in.Op == spirv.OpMemberDecorate && len(ops) >= 3 && relaxesArithmetic(ops[2]):
			return "the module decorates a value RelaxedPrecision, NoSignedWrap or NoUnsignedWrap, which lets a driver give other bits than 32-bit arithmetic"
		}
	}
	return ""
}

func relaxesArithmetic(decoration uint32) bool {
	switch decoration {
	case decorationRelaxedPrecision, decorationNoSignedWrap, decorationNoUnsignedWrap:
		return true
	}
	return false
}

// shiftsPastWidth reports whether a shift of m takes its amount from
// anything but a 32-bit constant below 32 (OpConstant: module constants
// precede the functions, so one pass sees them first).
func shiftsPastWidth(m *spirv.Module) bool {
	small := map[uint32]bool{} // constants below 32, by result id
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpConstant:
			if len(in.Operands) == 3 && in.Operands[2] < 32 {
				small[in.Operands[1]] = true
			}
		case spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
			if len(in.Operands) != 4 || !small[in.Operands[3]] {
				return true
			}
		}
	}
	return false
}
