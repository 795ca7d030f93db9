// sinks_dataflow_test.go: what a module's stores and branches may depend
// on, through calls, returns, access chains and variables.
package gpu

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestModuleInputs(t *testing.T) {
	const (
		u, boolean, void, ptr, fnType uint32 = 1, 2, 3, 4, 5
		buf, private, callee, param   uint32 = 40, 41, 10, 11
	)
	in := func(op spirv.Op, ops ...uint32) spirv.Instruction { return spirv.Instruction{Op: op, Operands: ops} }
	m := &spirv.Module{Insts: []spirv.Instruction{
		in(spirv.OpVariable, ptr, buf, spirv.StorageStorageBuffer),
		in(spirv.OpVariable, ptr, private, spirv.StoragePrivate),
		// callee(p) = p + %5
		in(spirv.OpFunction, u, callee, 0, fnType),
		in(spirv.OpFunctionParameter, u, param),
		in(spirv.OpLabel, 12),
		in(spirv.OpIAdd, u, 13, param, 50),
		in(spirv.OpReturnValue, 13),
		in(spirv.OpFunctionEnd),
		in(spirv.OpFunction, void, 20, 0, fnType),
		in(spirv.OpLabel, 21),
		in(spirv.OpIMul, u, 22, 60, 60), // reaches the buffer through the call
		in(spirv.OpFunctionCall, u, 23, callee, 22),
		in(spirv.OpAccessChain, ptr, 24, buf, 61), // the index counts too
		in(spirv.OpStore, 24, 23),
		in(spirv.OpIAdd, u, 26, 62, 62),            // unused
		in(spirv.OpStore, private, 63),             // a Private variable nothing loads
		in(spirv.OpULessThan, boolean, 25, 64, 65), // a branch's condition
		in(spirv.OpSelectionMerge, 28, 0),
		in(spirv.OpBranchConditional, 25, 27, 28),
		in(spirv.OpLabel, 27),
		in(spirv.OpLoad, u, 29, private), // loaded, but only into an unused sum
		in(spirv.OpIAdd, u, 30, 29, 29),
		in(spirv.OpBranch, 28),
		in(spirv.OpLabel, 28),
		in(spirv.OpReturn),
		in(spirv.OpFunctionEnd),
	}}
	inputs := moduleInputs(m)
	for id, want := range map[uint32]bool{50: true, 60: true, 22: true, 61: true, 64: true, 65: true, 62: false, 63: false, 26: false, 30: false} {
		if inputs[id] != want {
			t.Errorf("%%%d: an input %t, want %t", id, inputs[id], want)
		}
	}
}
