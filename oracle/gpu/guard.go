// guard.go: Guard, a rewrite that gives a module emit's lane guard: the
// entry point returns at once when LocalInvocationIndex is not 0. By the
// specification no such invocation exists (LocalSize 1), but lavapipe of
// Mesa before 23 runs each workgroup on a SIMD vector whose lanes past the
// workgroup execute the control flow with loads reading 0; where the
// all-zero walk loops they spin until the loop limit that every lane
// shares, and the real invocation's next loop is cut after one iteration
// (README.md, "Correctness on the driver"). Modules from emit carry the
// guard; a structurizer that emits its own modules (protocol v1's module
// form) may not, and would see false gpu failures on that driver.
//
// The entry function's first block is split after its OpVariables: the
// first part loads the index and branches (a selection whose merge is the
// rest of the block) to a block that returns or on to the rest. Nothing
// branches to an entry block (R14), so only OpPhi operands that named it
// as a predecessor move to the rest's new label.

package gpu

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// laneIndexVar is the id of the module's LocalInvocationIndex variable, 0
// when it has none.
func laneIndexVar(m *spirv.Module) uint32 {
	for _, in := range m.Insts {
		ops := in.Operands
		if in.Op == spirv.OpDecorate && len(ops) >= 3 && ops[1] == spirv.DecorationBuiltIn && ops[2] == spirv.BuiltInLocalInvocationIndex {
			return ops[0]
		}
	}
	return 0
}

// Guard returns module with the lane guard added to its entry point, or
// module itself when the entry point's first block already ends in a lane
// guard of emit's shape (laneGuarded). A module that loads the index and
// does something else with it gets the guard too: one more guard in front
// of a working one changes nothing.
func Guard(module []byte) ([]byte, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	entry, fnAt := uint32(0), -1
	for i, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint && len(in.Operands) >= 2 && entry == 0 {
			entry = in.Operands[1]
		}
		if in.Op == spirv.OpFunction && len(in.Operands) >= 2 && in.Operands[1] == entry && entry != 0 {
			fnAt = i
			break
		}
	}
	if fnAt < 0 {
		return nil, fmt.Errorf("gpu: guard: no entry-point function")
	}
	index := laneIndexVar(m)
	if index != 0 && laneGuarded(m, fnAt, index) {
		return module, nil
	}
	b := &bounder{m: m}
	b.findTypes()
	if index != 0 && pointee(m, index) != b.uint {
		return nil, fmt.Errorf("gpu: guard: LocalInvocationIndex %%%d is not a 32-bit unsigned integer here", index)
	}
	g := &guarder{b: b, index: index}
	g.declare()
	return g.rewrite(fnAt)
}

// pointee is the type a variable points to, 0 when not found.
func pointee(m *spirv.Module, v uint32) uint32 {
	ptr := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpVariable && len(in.Operands) >= 2 && in.Operands[1] == v {
			ptr = in.Operands[0]
		}
	}
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypePointer && len(in.Operands) == 3 && in.Operands[0] == ptr && ptr != 0 {
			return in.Operands[2]
		}
	}
	return 0
}

// laneGuarded reports whether the first block of the function at fnAt is
// a lane guard of emit's shape: it loads variable v, compares the value
// with a constant 0 (OpINotEqual, or OpIEqual with the arms the other way
// round) and branches on that to a block that only returns when the value
// is not 0.
func laneGuarded(m *spirv.Module, fnAt int, v uint32) bool {
	zeros := map[uint32]bool{}
	for _, in := range m.Insts[:fnAt] {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[2] == 0 {
			zeros[in.Operands[1]] = true
		}
	}
	loaded := map[uint32]bool{}
	ne, eq := map[uint32]bool{}, map[uint32]bool{} // index != 0, index == 0
	labels := 0
	for i, in := range m.Insts[fnAt:] {
		ops := in.Operands
		switch {
		case in.Op == spirv.OpLabel:
			labels++
			if labels > 1 {
				return false
			}
		case in.Op == spirv.OpFunctionEnd:
			return false
		case in.Op == spirv.OpLoad && len(ops) >= 3 && ops[2] == v:
			loaded[ops[1]] = true
		case (in.Op == spirv.OpINotEqual || in.Op == spirv.OpIEqual) && len(ops) == 4 &&
			(loaded[ops[2]] && zeros[ops[3]] || zeros[ops[2]] && loaded[ops[3]]):
			if in.Op == spirv.OpINotEqual {
				ne[ops[1]] = true
			} else {
				eq[ops[1]] = true
			}
		case in.Op == spirv.OpBranchConditional && len(ops) >= 3:
			ret := uint32(0)
			switch {
			case ne[ops[0]]:
				ret = ops[1]
			case eq[ops[0]]:
				ret = ops[2]
			}
			return ret != 0 && ops[1] != ops[2] && onlyReturns(m.Insts[fnAt+i+1:], ret)
		case spirv.IsTerminator(in.Op):
			return false
		}
	}
	return false
}

// onlyReturns reports whether the block labelled l among insts (the rest of
// a function) is an OpReturn and nothing else.
func onlyReturns(insts []spirv.Instruction, l uint32) bool {
	for i, in := range insts {
		if in.Op == spirv.OpFunctionEnd {
			return false
		}
		if in.Op == spirv.OpLabel && len(in.Operands) == 1 && in.Operands[0] == l {
			return i+1 < len(insts) && insts[i+1].Op == spirv.OpReturn
		}
	}
	return false
}

// guarder adds the built-in variable (index 0: none yet) and splits the
// entry block.
type guarder struct {
	b            *bounder
	ptrIn, index uint32
	declared     bool // the variable and its decoration are new
}

// declare adds the constant 0 and, where the module has no
// LocalInvocationIndex variable, the Input pointer type (unless there is
// one) and the variable.
func (g *guarder) declare() {
	b := g.b
	b.ensureScalarTypes()
	b.zero = b.id()
	b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{b.uint, b.zero, 0}})
	if g.index != 0 {
		return
	}
	for _, in := range b.m.Insts {
		ops := in.Operands
		if in.Op == spirv.OpTypePointer && len(ops) == 3 && ops[1] == spirv.StorageInput && ops[2] == b.uint && b.uint != 0 {
			g.ptrIn = ops[0]
		}
	}
	if g.ptrIn == 0 {
		g.ptrIn = b.id()
		b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpTypePointer, Operands: []uint32{g.ptrIn, spirv.StorageInput, b.uint}})
	}
	g.index, g.declared = b.id(), true
	b.decls = append(b.decls, spirv.Instruction{Op: spirv.OpVariable, Operands: []uint32{g.ptrIn, g.index, spirv.StorageInput}})
}

// rewrite builds the guarded module: the decoration with the others, the
// declarations before the first function, the variable in every entry
// point's interface (Input variables are listed in every version), and the
// entry block split.
func (g *guarder) rewrite(fnAt int) ([]byte, error) {
	b := g.b
	in := b.m.Insts
	label := -1
	for i := fnAt; i < len(in); i++ {
		if in[i].Op == spirv.OpLabel {
			label = i
			break
		}
		if in[i].Op == spirv.OpFunctionEnd {
			break
		}
	}
	if label < 0 {
		return nil, fmt.Errorf("gpu: guard: the entry point has no blocks")
	}
	split := label + 1
	for split < len(in) && (in[split].Op == spirv.OpVariable || in[split].Op == spirv.OpLine || in[split].Op == spirv.OpNoLine) {
		split++
	}
	entryLabel := in[label].Operands[0]
	loaded, past, ret, rest := b.id(), b.id(), b.id(), b.id()
	firstFn := -1
	for i, x := range in {
		if x.Op == spirv.OpFunction {
			firstFn = i
			break
		}
	}
	annotAt, firstType := -1, firstFn // after the last decoration, else before the first type
	for i, x := range in[:firstFn] {
		if x.Op == spirv.OpDecorate || x.Op == spirv.OpMemberDecorate {
			annotAt = i + 1
		}
		if x.Op >= spirv.OpTypeVoid && x.Op <= spirv.OpTypeFunction && firstType == firstFn {
			firstType = i
		}
	}
	if annotAt < 0 {
		annotAt = firstType
	}
	out := make([]spirv.Instruction, 0, len(in)+len(b.decls)+8)
	for i, x := range in {
		if i == annotAt && g.declared {
			out = append(out, spirv.Instruction{Op: spirv.OpDecorate, Operands: []uint32{g.index, spirv.DecorationBuiltIn, spirv.BuiltInLocalInvocationIndex}})
		}
		if i == firstFn {
			out = append(out, b.decls...)
		}
		if i == split {
			out = append(out,
				spirv.Instruction{Op: spirv.OpLoad, Operands: []uint32{b.uint, loaded, g.index}},
				spirv.Instruction{Op: spirv.OpINotEqual, Operands: []uint32{b.boolean, past, loaded, b.zero}},
				spirv.Instruction{Op: spirv.OpSelectionMerge, Operands: []uint32{rest, spirv.SelectionControlNone}},
				spirv.Instruction{Op: spirv.OpBranchConditional, Operands: []uint32{past, ret, rest}},
				spirv.Instruction{Op: spirv.OpLabel, Operands: []uint32{ret}},
				spirv.Instruction{Op: spirv.OpReturn},
				spirv.Instruction{Op: spirv.OpLabel, Operands: []uint32{rest}},
			)
		}
		switch {
		case x.Op == spirv.OpEntryPoint && !slices.Contains(x.Operands[2:], g.index):
			x = spirv.Instruction{Op: x.Op, Operands: append(append([]uint32(nil), x.Operands...), g.index)}
		case x.Op == spirv.OpPhi && i > split:
			x = spirv.Instruction{Op: x.Op, Operands: append([]uint32(nil), x.Operands...)}
			for k := 3; k < len(x.Operands); k += 2 {
				if x.Operands[k] == entryLabel {
					x.Operands[k] = rest
				}
			}
		}
		out = append(out, x)
	}
	return (&spirv.Module{Version: b.m.Version, Generator: b.m.Generator, Bound: b.m.Bound, Schema: b.m.Schema, Insts: out}).Marshal()
}
