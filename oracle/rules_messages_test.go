// rules_messages_test.go: what the rules checker says about modules it
// cannot split into blocks, and about rules of the whole module: each
// message names the instruction, the block and the function involved,
// and why.
package oracle

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestRulesMalformedMessages(t *testing.T) {
	fn := spirv.Instruction{Op: spirv.OpFunction, Operands: []uint32{1, 2, 0, 3}}
	end := spirv.Instruction{Op: spirv.OpFunctionEnd}
	label := func(id uint32) spirv.Instruction { return spirv.Instruction{Op: spirv.OpLabel, Operands: []uint32{id}} }
	ret := spirv.Instruction{Op: spirv.OpReturn}
	wideInt := spirv.Instruction{Op: spirv.OpTypeInt, Operands: []uint32{20, 64, 0}}
	wideConst := spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{20, 21, 5, 0}}
	for _, c := range []struct {
		name  string
		insts []spirv.Instruction
		want  []string
	}{
		{"block without terminator", []spirv.Instruction{fn, label(4), {Op: 4460}, label(5), ret, end},
			[]string{"instruction 3", "OpLabel %5 inside block %4", "no terminator", "Op4460"}},
		{"function end inside a block", []spirv.Instruction{fn, label(4), {Op: spirv.OpNop}, end},
			[]string{"OpFunctionEnd inside block %4", "OpNop"}},
		{"module ends inside a block", []spirv.Instruction{fn, label(4)},
			[]string{"ends inside block %4 of function %2"}},
		{"module ends inside a function", []spirv.Instruction{fn, label(4), ret},
			[]string{"ends inside function %2", "no OpFunctionEnd"}},
		{"instruction after a terminator", []spirv.Instruction{fn, label(4), ret, {Op: spirv.OpNop}, label(5), ret, end},
			[]string{"instruction 3: OpNop outside a block", "function %2", "after the terminator of block %4"}},
		{"instruction before the first label", []spirv.Instruction{fn, {Op: spirv.OpNop}, label(4), ret, end},
			[]string{"OpNop outside a block", "before its first OpLabel"}},
		{"switch of 32-bit literals", []spirv.Instruction{fn, label(4), {Op: spirv.OpSwitch, Operands: []uint32{9, 5, 1}}, label(5), ret, end},
			[]string{"OpSwitch in block %4 has 3 operands", "selector %9 is not a 64-bit integer"}},
		{"switch of 64-bit literals", []spirv.Instruction{wideInt, wideConst, fn, label(4), {Op: spirv.OpSwitch, Operands: []uint32{21, 5, 1, 5}}, label(5), ret, end},
			[]string{"OpSwitch in block %4 has 4 operands", "selector %21 is a 64-bit integer", "two words"}},
		{"branch without target", []spirv.Instruction{fn, label(4), {Op: spirv.OpBranch}, end},
			[]string{"OpBranch in block %4 has 0 operands, needs at least 1"}},
		{"function inside a function", []spirv.Instruction{fn, label(4), ret, fn, end},
			[]string{"OpFunction inside function %2"}},
	} {
		m := &spirv.Module{Version: spirv.Version13, Bound: 30, Insts: c.insts}
		_, err := CheckRules(m.Bytes())
		var me *MalformedError
		if !errors.As(err, &me) {
			t.Errorf("%s: want a MalformedError, got %v", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

// TestRulesModuleViolationString: a rule of the whole module (the id
// bound) prints without a function or blocks.
func TestRulesModuleViolationString(t *testing.T) {
	m := &spirv.Module{Version: spirv.Version13, Bound: 3, Insts: []spirv.Instruction{
		{Op: spirv.OpFunction, Operands: []uint32{1, 2, 0, 3}},
		{Op: spirv.OpLabel, Operands: []uint32{4}},
		{Op: spirv.OpReturn},
		{Op: spirv.OpFunctionEnd},
	}}
	vs, err := CheckRules(m.Bytes())
	if err != nil || len(vs) != 1 {
		t.Fatalf("want one bound violation, got %v %v", vs, err)
	}
	if got, want := vs[0].String(), "bound: id 4 is not below the id bound 3 (0 < id < Bound)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
