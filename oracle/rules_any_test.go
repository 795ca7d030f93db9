// rules_any_test.go: the checker on modules outside the module convention
// (testdata/any-module.spvasm: several functions, OpPhi, OpKill,
// OpTerminateInvocation, OpReturnValue, OpUnreachable, a 64-bit switch
// selector), on R16's nesting limit, and on input it cannot read.
package oracle

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestRulesAnyValidModule(t *testing.T) {
	text, err := os.ReadFile("testdata/any-module.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	mod := assembleWhole(t, text)
	vs, err := CheckRules(mod)
	if err != nil || len(vs) > 0 {
		t.Fatalf("valid module: %v %v", err, vs)
	}
	// Break the helper function (not the entry point): its selection loses
	// its merge, so R12 must name the function "pick".
	broken := strings.Replace(string(text), "OpSelectionMerge %p_merge None\n", "", 1)
	vs, err = CheckRules(assembleWhole(t, []byte(broken)))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Rule != "R12" || vs[0].Func.Name != "pick" {
		t.Fatalf("want one R12 in pick, got %v", vs)
	}
	// The 64-bit switch: literals take two words, the targets must still
	// be found (a misread would name a constant as a label: malformed).
	wide := strings.Replace(string(text), "OpSwitch %l5 %sw_d 5 %sw_kill 7 %sw_term", "OpSwitch %l5 %sw_d 7 %sw_term 5 %sw_kill", 1)
	if vs, err := CheckRules(assembleWhole(t, []byte(wide))); err != nil || len(vs) > 0 {
		t.Fatalf("64-bit switch: %v %v", err, vs)
	}
}

// nested returns a main body of depth nested selections.
func nested(depth int) []byte {
	var b strings.Builder
	b.WriteString("%entry = OpLabel\nOpBranch %h0\n")
	for k := range depth {
		fmt.Fprintf(&b, "%%h%d = OpLabel\nOpSelectionMerge %%m%d None\nOpBranchConditional %%t %%h%d %%m%d\n", k, k, k+1, k)
	}
	fmt.Fprintf(&b, "%%h%d = OpLabel\nOpBranch %%m%d\n", depth, depth-1)
	for k := depth - 1; k >= 0; k-- {
		next := fmt.Sprintf("%%m%d", k-1)
		if k == 0 {
			next = "%exit"
		}
		fmt.Fprintf(&b, "%%m%d = OpLabel\nOpBranch %s\n", k, next)
	}
	b.WriteString("%exit = OpLabel\nOpReturn\n")
	return []byte(b.String())
}

func TestRulesNestingDepth(t *testing.T) {
	val := testValidator(t, "")
	for _, c := range []struct {
		depth int
		bad   bool
	}{{MaxNestingDepth, false}, {MaxNestingDepth + 1, true}} {
		mod := assemble(t, nested(c.depth), "")
		vs, err := CheckRules(mod)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(rulesOf(vs), "R16"); got != c.bad || (!c.bad && len(vs) > 0) {
			t.Errorf("depth %d: %v", c.depth, vs)
		}
		if !c.bad {
			// spirv-val takes over a minute on the valid 1023-deep module
			// (measured: 82 s; the rules checker 0.2 s): not by default.
			t.Logf("depth %d: lint %v", c.depth, rulesOf(vs))
			continue
		}
		ok, msg, _ := val.Validate(mod)
		if ok {
			t.Errorf("spirv-val accepts depth %d", c.depth)
		}
		t.Logf("depth %d: lint %v, spirv-val: %s", c.depth, rulesOf(vs), firstLine(msg))
	}
}

func TestRulesUnreadable(t *testing.T) {
	var de *spirv.DecodeError
	if _, err := CheckRules([]byte("not spir-v at all!!")); !errors.As(err, &de) {
		t.Errorf("garbage: want a DecodeError, got %v", err)
	}
	m := &spirv.Module{Version: spirv.Version13, Bound: 10, Insts: []spirv.Instruction{
		{Op: spirv.OpFunction, Operands: []uint32{1, 2, 0, 3}},
		{Op: spirv.OpLabel, Operands: []uint32{4}},
		{Op: spirv.OpBranch, Operands: []uint32{9}}, // labels no block
		{Op: spirv.OpFunctionEnd},
	}}
	var me *MalformedError
	if _, err := CheckRules(m.Bytes()); !errors.As(err, &me) {
		t.Errorf("branch to a missing block: want a MalformedError, got %v", err)
	}
}
