// sinks_undefined.go: which results of a module a correct driver may give
// otherwise than the interpreter computes them, without the interpreter
// refusing the module, and whether the module's stores and branches may
// depend on one.
//
// The interpreter refuses (an UnsupportedError, no verdict on the sinks)
// a function that reads a module-scope value it does not compute (an
// OpUndef, a constant wider than a word or of another type than a 32-bit
// integer, a composite, a specialization op) or computes a result of
// another type than a 32-bit integer, so a module that only declares
// those has its sinks compared. What it
// computes where a driver may give other bits is found here, by use: a
// shift by an amount that may reach 32, an OpUndef (it gives 0), a result
// decorated RelaxedPrecision, NoSignedWrap or NoUnsignedWrap. Such a
// result leaves the sinks uncompared only where the module's stores to
// anything but its own Private and Function variables (the trace, the
// sink's slot), or a branch's condition, may depend on it.

package gpu

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// undefinedArithmetic says why the interpreter's sinks of m are not the
// ones a correct driver must give ("" when they are): a result whose bits
// a driver may choose (undefinedResults) that the module's stores or
// branches may depend on (moduleInputs), or a relaxed member of a struct,
// which no dependence says is unused.
func undefinedArithmetic(m *spirv.Module) string {
	suspects, why := undefinedResults(m)
	if why != "" {
		return why
	}
	if len(suspects) == 0 {
		return ""
	}
	used := moduleInputs(m)
	for _, s := range suspects {
		if used[s.id] {
			return fmt.Sprintf("the module's results may depend on %%%d, %s", s.id, s.why)
		}
	}
	return ""
}

// suspect is a result a correct driver may give otherwise than the
// interpreter, and why.
type suspect struct {
	id  uint32
	why string
}

// undefinedResults lists m's suspects, in the module's order; why is set
// for a relaxed struct member, which it does not follow to its uses.
func undefinedResults(m *spirv.Module) (suspects []suspect, why string) {
	const relaxed = "decorated RelaxedPrecision, NoSignedWrap or NoUnsignedWrap, which lets a driver give other bits than 32-bit arithmetic"
	groups := map[uint32]bool{} // decoration groups, and whether they relax
	for _, in := range m.Insts {
		if in.Op == spirv.OpDecorationGroup && len(in.Operands) == 1 {
			groups[in.Operands[0]] = false
		}
	}
	for _, id := range shiftsPastWidth(m) {
		suspects = append(suspects, suspect{id, "a shift by an amount that may reach 32 bits, undefined in SPIR-V"})
	}
	for _, in := range m.Insts {
		ops := in.Operands
		switch {
		case in.Op == spirv.OpUndef && len(ops) >= 2:
			suspects = append(suspects, suspect{ops[1], "an OpUndef, whose value SPIR-V leaves to the driver"})
		case in.Op == spirv.OpDecorate && len(ops) >= 2 && relaxesArithmetic(ops[1]):
			if _, ok := groups[ops[0]]; ok {
				groups[ops[0]] = true
				continue
			}
			suspects = append(suspects, suspect{ops[0], relaxed})
		case in.Op == spirv.OpMemberDecorate && len(ops) >= 3 && relaxesArithmetic(ops[2]),
			in.Op == spirv.OpGroupMemberDecorate && len(ops) >= 1 && groups[ops[0]]:
			return nil, "the module decorates a struct member RelaxedPrecision, NoSignedWrap or NoUnsignedWrap, which lets a driver give other bits than 32-bit arithmetic"
		case in.Op == spirv.OpGroupDecorate && len(ops) >= 1 && groups[ops[0]]:
			for _, id := range ops[1:] {
				suspects = append(suspects, suspect{id, relaxed})
			}
		}
	}
	return suspects, ""
}

func relaxesArithmetic(decoration uint32) bool {
	switch decoration {
	case spirv.DecorationRelaxedPrecision, spirv.DecorationNoSignedWrap, spirv.DecorationNoUnsignedWrap:
		return true
	}
	return false
}

// shiftsPastWidth lists the results of m's shifts that take their amount
// from anything but a 32-bit constant below 32 (OpConstant: module
// constants precede the functions, so one pass sees them first); a shift
// too short to name its result is listed as id 0, which nothing uses.
func shiftsPastWidth(m *spirv.Module) []uint32 {
	small := map[uint32]bool{} // constants below 32, by result id
	var out []uint32
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpConstant:
			if len(in.Operands) == 3 && in.Operands[2] < 32 {
				small[in.Operands[1]] = true
			}
		case spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
			if len(in.Operands) != 4 || !small[in.Operands[3]] {
				out = append(out, operandOr0(in.Operands, 1))
			}
		}
	}
	return out
}

func operandOr0(ops []uint32, i int) uint32 {
	if i < len(ops) {
		return ops[i]
	}
	return 0
}

// moduleInputs is every id that m's stores to anything but its own
// Private and Function variables, its branches' conditions and its
// atomics may depend on, through results, loads, stores, calls and
// returns (a superset: a variable depends on every value stored to it,
// wherever).
func moduleInputs(m *spirv.Module) map[uint32]bool {
	d := newDataflow(m)
	seen := map[uint32]bool{}
	todo := d.roots
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		todo = append(todo, d.deps[id]...)
	}
	return seen
}

// dataflow is m's values as a graph: what each id depends on, and the
// ids the module's effects read.
type dataflow struct {
	deps  map[uint32][]uint32
	roots []uint32
	// local are the Private and Function variables: a store to one is a
	// dependence of the variable, not an effect.
	local  map[uint32]bool
	base   map[uint32]uint32   // an access chain's base
	params map[uint32][]uint32 // each function's parameters
	calls  [][]uint32          // each call's callee and arguments
}

// newDataflow reads m's functions into a dataflow.
func newDataflow(m *spirv.Module) *dataflow {
	d := &dataflow{deps: map[uint32][]uint32{}, local: map[uint32]bool{}, base: map[uint32]uint32{}, params: map[uint32][]uint32{}}
	var fn uint32
	inFunction := false
	for _, in := range m.Insts {
		ops := in.Operands
		switch in.Op {
		case spirv.OpFunction:
			fn, inFunction = operandOr0(ops, 1), true
		case spirv.OpFunctionEnd:
			inFunction = false
		case spirv.OpFunctionParameter:
			if len(ops) >= 2 {
				d.params[fn] = append(d.params[fn], ops[1])
			}
		case spirv.OpVariable:
			d.variable(ops)
		case spirv.OpSpecConstantOp, spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
			if len(ops) >= 2 {
				d.dep(ops[1], ops[2:]...)
			}
		default:
			if inFunction {
				d.inst(fn, in)
			}
		}
	}
	for _, c := range d.calls {
		ps := d.params[c[0]]
		for i, arg := range c[1:] {
			if i < len(ps) {
				d.dep(ps[i], arg)
			}
		}
	}
	return d
}

func (d *dataflow) dep(id uint32, on ...uint32) { d.deps[id] = append(d.deps[id], on...) }

// variable notes a variable (ops: type, id, storage class, initializer):
// it depends on its initializer, and is local when Private or Function.
func (d *dataflow) variable(ops []uint32) {
	if len(ops) < 3 {
		return
	}
	if ops[2] == spirv.StoragePrivate || ops[2] == spirv.StorageFunction {
		d.local[ops[1]] = true
	}
	d.dep(ops[1], ops[3:]...)
}

// inst reads one instruction of function fn.
func (d *dataflow) inst(fn uint32, in spirv.Instruction) {
	ops := in.Operands
	switch in.Op {
	case spirv.OpLabel, spirv.OpBranch, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpReturn,
		spirv.OpUnreachable, spirv.OpKill, spirv.OpNop, spirv.OpLine, spirv.OpNoLine, spirv.OpName:
	case spirv.OpBranchConditional, spirv.OpSwitch:
		d.roots = append(d.roots, operandOr0(ops, 0))
	case spirv.OpReturnValue:
		d.dep(fn, ops...) // a call's result depends on the callee's id
	case spirv.OpStore:
		if len(ops) < 2 {
			return
		}
		if v := d.variableOf(ops[0]); d.local[v] {
			d.dep(v, ops[0], ops[1])
			return
		}
		d.roots = append(d.roots, ops[0], ops[1])
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		if len(ops) >= 3 {
			d.base[ops[1]] = ops[2]
			d.dep(ops[1], ops[2:]...)
		}
	case spirv.OpCompositeExtract: // the literals are indexes
		if len(ops) >= 3 {
			d.dep(ops[1], ops[2])
		}
	case spirv.OpFunctionCall:
		if len(ops) >= 3 {
			d.dep(ops[1], ops[2])
			d.calls = append(d.calls, ops[2:])
		}
	default:
		id, ok := in.ResultID()
		if !ok || in.Op == spirv.OpAtomicIAdd || len(ops) < 2 || ops[1] != id {
			// An effect, or an instruction not known here: whatever it
			// reads counts.
			d.roots = append(d.roots, ops...)
			return
		}
		d.dep(id, ops[2:]...)
	}
}

// variableOf is the variable (or parameter, or other base) that pointer
// p's access chains start at.
func (d *dataflow) variableOf(p uint32) uint32 {
	for range len(d.base) + 1 {
		b, ok := d.base[p]
		if !ok {
			return p
		}
		p = b
	}
	return p
}
