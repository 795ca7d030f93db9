// valscope_test.go: the control-flow message table (valscope.go) on
// messages as spirv-val prints them, and Disagreement on real modules that
// spirv-val rejects for a reason outside structured control flow.
package oracle

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestControlFlowRuleTable(t *testing.T) {
	for _, c := range []struct{ msg, rule string }{
		{"error: line 12: Block 7[%7] is already a merge block for another header", "R1"},
		{"error: line 30: The selection construct with the selection header 5[%5] does not structurally dominate the merge block 9[%9]", "R2, R5"},
		{"error: line 30: The continue construct with the continue target 5[%5] is not structurally post dominated by the back-edge block 9[%9]", "R2, R5"},
		{"error: line 8: Merge Block may not be the block containing the OpLoopMerge", "R2"},
		{"error: line 8: Back-edges (9[%9] -> 5[%5]) can only be formed between a block and a loop header.", "R3"},
		{"error: line 8: Loop header 5[%5] is targeted by 2 back-edge blocks but the standard requires exactly one", "R3"},
		{"error: line 8: Construct continue with continue target 5[%5] does not have a back-edge block. This may be a bug in the validator.", "R3"},
		{"error: line 8: Merge Block and Continue Target must be different ids", "R4"},
		{"error: line 8: block <ID> 9[%9] exits the selection headed by <ID> 5[%5], but not via a structured exit", "R6"},
		{"error: line 8: Header block 9[%9] is contained in the loop construct headed by 5[%5], but its merge block 11[%11] is not", "R8"},
		{"error: line 8: Block 9[%9] branches to the loop continue target 6[%6], but is not contained in the associated loop construct 5[%5]", "R9"},
		{"error: line 8: block <ID> 9 branches to the selection construct, but not to the selection header <ID> 5", "R10"},
		{"error: line 8: Switch header 5[%5] does not structurally dominate its case construct 9[%9]", "R11"},
		{"error: line 8: Case construct that targets 9[%9] has branches to multiple other case construct targets 10[%10] and 11[%11]", "R11"},
		{"error: line 8: Multiple case constructs have branches to the case construct that targets 9[%9]", "R11"},
		{"error: line 8: Selection must be structured", "R12"},
		{"error: line 8: OpSwitch must be preceded by an OpSelectionMerge instruction", "R12"},
		{"error: line 8: OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction. OpLoopMerge must be the second-to-last instruction in its block.", "R13"},
		{"error: line 8: Block 9[%9] appears in the binary before its dominator 5[%5]", "R14"},
		{"error: line 8: First block 5[%5] of function 4[%main] is targeted by block 9[%9]", "R14"},
		{"error: line 8: In SPIR-V 1.6 or later, True Label and False Label must be different labels", "R15"},
		{"error: line 8: Maximum Control Flow nesting depth exceeded.", "R16"},
		{"error: line 8: In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have multiple unique predecessors", "R17"},
		{"error: line 3: Invalid execution mode operand: 6023", "R17"},
		{"error: line 40: OpPhi's result type <id> 2[%uint] does not match incoming value <id> 7[%true] type <id> 3[%bool].", ""},
		{"error: line 12: Number of (literal, label) pairs in OpSwitch (16384) exceeds the limit (16383).", ""},
		{"error: line 20: ID 15[%15] has not been defined", ""},
		{"error: line 20: OpStore Pointer <id> 9[%9]'s type does not match Object <id> 11[%11]'s type.", ""},
	} {
		norm := NormalizeValidatorMessage(c.msg)
		rule, ok := ControlFlowRule(norm)
		if ok != (c.rule != "") || rule != c.rule {
			t.Errorf("ControlFlowRule(%q) = %q, %v; want %q", norm, rule, ok, c.rule)
		}
	}
}

// TestValRejectsOutsideControlFlow: a module spirv-val rejects for a type
// error or a universal limit, which rules accepts, is a spirv-val finding,
// not a disagreement between the two.
func TestValRejectsOutsideControlFlow(t *testing.T) {
	src, err := os.ReadFile("testdata/any-module.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	phi := []byte("%phi = OpPhi %uint %u0 %p_a %x %p_b")
	if !bytes.Contains(src, phi) {
		t.Fatal("any-module.spvasm has no phi to break")
	}
	badPhi := bytes.Replace(src, phi, []byte("%phi = OpPhi %uint %t %p_a %x %p_b"), 1)
	var sw strings.Builder
	sw.WriteString("OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n")
	sw.WriteString("%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%fn = OpTypeFunction %void\n%u0 = OpConstant %uint 0\n")
	sw.WriteString("%main = OpFunction %void None %fn\n%e = OpLabel\nOpSelectionMerge %m None\nOpSwitch %u0 %m")
	for i := 1; i <= 16384; i++ {
		fmt.Fprintf(&sw, " %d %%m", i)
	}
	sw.WriteString("\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n")
	o, err := New(Options{Checks: []string{"rules", "spirv-val"}})
	if err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name string
		text []byte
		want string
	}{
		{"phi of the wrong type", badPhi, "spirv-val:OpPhi's result type"},
		{"switch of 16,384 cases", []byte(sw.String()), "spirv-val:Number of (literal, label) pairs in OpSwitch"},
	} {
		vs := o.Check(&Subject{Module: assembleText(t, c.text)})
		f := Failed(vs)
		if f == nil || !strings.HasPrefix(f.Signature, c.want) {
			t.Errorf("%s: first failure %+v, want %s...", c.name, f, c.want)
		}
		for _, v := range vs {
			if v.Check == "disagree" {
				t.Errorf("%s: reported as a disagreement: %s", c.name, v.Signature)
			}
			if v.Check == "rules" && v.Status != Pass {
				t.Errorf("%s: rules %s %s, want pass (the module's structure is sound)", c.name, v.Status, v.Signature)
			}
		}
	}
}
