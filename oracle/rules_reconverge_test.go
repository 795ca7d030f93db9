// rules_reconverge_test.go: R17, the rules of MaximallyReconvergesKHR
// (RULES.md, "Maximal reconvergence"). Hand-written modules for each
// clause, each judged with the execution mode and without it (where R17
// does not apply, and spirv-val must accept it), and a cross-check of the
// checker against a direct reading of the instructions on mutants of
// emitted modules.
//
// SPIRV-Tools v2023.1 (Debian bookworm) predates SPV_KHR_maximal_reconvergence:
// spirv-as knows neither the mode's name nor its number, and spirv-val
// rejects any module declaring it. The modules are therefore assembled
// without the mode, which the test then adds to the binary, and spirv-val
// only judges them without it.
package oracle

import (
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// reconvergePreamble declares two entry points, %main and %other; each
// case supplies their functions (and any others).
const reconvergePreamble = `OpCapability Shader
OpExtension "SPV_KHR_maximal_reconvergence"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpEntryPoint GLCompute %other "other"
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %other LocalSize 1 1 1
`

const reconvergeTypes = `%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%t = OpConstantTrue %bool
%u0 = OpConstant %uint 0
`

// trivialOther is an %other entry point that breaks nothing.
const trivialOther = `%other = OpFunction %void None %fn
%o_entry = OpLabel
OpReturn
OpFunctionEnd
`

var definedName = regexp.MustCompile(`(?m)^%(\w+) = Op(Label|Function)\b`)

// reconvergeText is the whole module: preamble, an OpName for every
// function and block (so violations read by name), types, functions.
func reconvergeText(funcs string) []byte {
	var names strings.Builder
	for _, m := range definedName.FindAllStringSubmatch(funcs, -1) {
		fmt.Fprintf(&names, "OpName %%%s %q\n", m[1], m[1])
	}
	return []byte(reconvergePreamble + names.String() + reconvergeTypes + funcs)
}

// withMaximalReconvergence adds OpExecutionMode EP MaximallyReconvergesKHR
// after the module's last OpExecutionMode for each named entry point.
func withMaximalReconvergence(t testing.TB, mod []byte, entries ...string) []byte {
	t.Helper()
	m, err := spirv.Decode(mod)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]uint32{}
	at := 0
	for i, in := range m.Insts {
		switch in.Op {
		case spirv.OpEntryPoint:
			name, _ := spirv.ReadString(in.Operands[2:])
			ids[name] = in.Operands[1]
		case spirv.OpExecutionMode:
			at = i + 1
		}
	}
	var modes []spirv.Instruction
	for _, e := range entries {
		id, ok := ids[e]
		if !ok {
			t.Fatalf("no entry point %q", e)
		}
		modes = append(modes, spirv.Instruction{Op: spirv.OpExecutionMode, Operands: []uint32{id, executionModeMaximallyReconverges}})
	}
	m.Insts = slices.Insert(slices.Clone(m.Insts), at, modes...)
	return m.Bytes()
}

// violationHeads are the violations without their messages: rule,
// function and blocks.
func violationHeads(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		s := v.String()
		out = append(out, s[:strings.Index(s, "]")+1])
	}
	sort.Strings(out)
	return out
}

func TestRulesR17HandWritten(t *testing.T) {
	for _, c := range []struct {
		name  string
		env   string   // spirv-as and spirv-val target environment ("" vulkan1.1)
		modes []string // entry points declared MaximallyReconvergesKHR
		funcs string
		want  []string // violationHeads with the mode
	}{
		{"conditional names one label twice", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %m %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, []string{"R17 in %main [%entry %m]"}},
		// Two edges from one block are one predecessor: only the
		// conditional is reported, not %j.
		{"both labels on a plain block", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %j %j
%j = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, []string{"R17 in %main [%entry %j]"}},
		{"conditional with two labels", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %a %m
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, nil},
		// An OpSwitch may name one label several times.
		{"switch names one label twice", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %u0 %m 1 %a 2 %a
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, nil},
		// SPIR-V 1.6: the same branch breaks R15 as well.
		{"conditional names one label twice in 1.6", "vulkan1.3", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %m %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, []string{"R15 in %main [%entry %m]", "R17 in %main [%entry %m]"}},
		{"join that is no merge", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %a %b
%a = OpLabel
OpBranch %j
%b = OpLabel
OpBranch %j
%j = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, []string{"R17 in %main [%j %a %b]"}},
		{"join that is the merge", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %j None
OpBranchConditional %t %a %b
%a = OpLabel
OpBranch %j
%b = OpLabel
OpBranch %j
%j = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, nil},
		// A predecessor that is not reachable counts.
		{"unreachable predecessor", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %j
%j = OpLabel
OpReturn
%dead = OpLabel
OpBranch %j
OpFunctionEnd
` + trivialOther, []string{"R17 in %main [%j %entry %dead]"}},
		// So does a declaration by a header that is not reachable.
		{"merge of an unreachable header", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %j
%j = OpLabel
OpReturn
%dead = OpLabel
OpSelectionMerge %j None
OpBranchConditional %t %x %j
%x = OpLabel
OpBranch %j
OpFunctionEnd
` + trivialOther, nil},
		// Every kind of block that may join: a loop header (entry and
		// latch), a loop merge (header and latch), a continue target
		// (selection merge and a default that continues), a selection
		// merge (case and default), a case fallen into (switch and the
		// case before it), a default fallen into (switch and a case).
		{"blocks that may join", "", []string{"main"}, `%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %lmerge %cont None
OpBranchConditional %t %body %lmerge
%body = OpLabel
OpSelectionMerge %smerge None
OpSwitch %u0 %def 1 %case1 2 %case2
%case1 = OpLabel
OpBranch %case2
%case2 = OpLabel
OpBranch %smerge
%def = OpLabel
OpBranchConditional %t %cont %smerge
%smerge = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranchConditional %t %header %lmerge
%lmerge = OpLabel
OpSelectionMerge %m2 None
OpSwitch %u0 %def2 1 %c3
%c3 = OpLabel
OpBranch %def2
%def2 = OpLabel
OpBranch %m2
%m2 = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther, nil},
		// The static call tree: %main reaches %helper through %mid; %other
		// (no mode) and %lonely, which only %other calls, may join freely.
		{"call tree", "", []string{"main"}, `%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpSelectionMerge %h_m None
OpBranchConditional %t %h_a %h_b
%h_a = OpLabel
OpBranch %h_j
%h_b = OpLabel
OpBranch %h_j
%h_j = OpLabel
OpBranch %h_m
%h_m = OpLabel
OpReturn
OpFunctionEnd
%mid = OpFunction %void None %fn
%mid_entry = OpLabel
%r1 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%lonely = OpFunction %void None %fn
%l_entry = OpLabel
OpSelectionMerge %l_m None
OpBranchConditional %t %l_j %l_m
%l_j = OpLabel
OpBranch %l_m
%l_m = OpLabel
OpReturn
%l_dead = OpLabel
OpBranch %l_j
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%r2 = OpFunctionCall %void %mid
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%o_entry = OpLabel
%r3 = OpFunctionCall %void %lonely
OpSelectionMerge %o_m None
OpBranchConditional %t %o_m %o_m
%o_m = OpLabel
OpReturn
OpFunctionEnd
`, []string{"R17 in %helper [%h_j %h_a %h_b]"}},
		// The mode on %other instead: %other and %lonely are judged.
		{"call tree of the other entry point", "", []string{"other"}, `%helper = OpFunction %void None %fn
%h_entry = OpLabel
OpSelectionMerge %h_m None
OpBranchConditional %t %h_a %h_b
%h_a = OpLabel
OpBranch %h_j
%h_b = OpLabel
OpBranch %h_j
%h_j = OpLabel
OpBranch %h_m
%h_m = OpLabel
OpReturn
OpFunctionEnd
%lonely = OpFunction %void None %fn
%l_entry = OpLabel
OpSelectionMerge %l_m None
OpBranchConditional %t %l_j %l_m
%l_j = OpLabel
OpBranch %l_m
%l_m = OpLabel
OpReturn
%l_dead = OpLabel
OpBranch %l_j
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%r2 = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%o_entry = OpLabel
%r3 = OpFunctionCall %void %lonely
OpSelectionMerge %o_m None
OpBranchConditional %t %o_m %o_m
%o_m = OpLabel
OpReturn
OpFunctionEnd
`, []string{"R17 in %lonely [%l_j %l_entry %l_dead]", "R17 in %other [%o_entry %o_m]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			valEnv := c.env
			if valEnv == "" {
				valEnv = "vulkan1.1"
			}
			val := testValidator(t, valEnv)
			as := assemblerPath(t)
			plain := assembleEnv(t, as, reconvergeText(c.funcs), c.env)
			// Without the mode R17 does not apply: the module is clean,
			// but for R15, which holds in SPIR-V 1.6 whatever the mode.
			vs, err := CheckRules(plain)
			if err != nil {
				t.Fatal(err)
			}
			var wantPlain []string
			for _, w := range c.want {
				if strings.HasPrefix(w, "R15 ") {
					wantPlain = append(wantPlain, w)
				}
			}
			if got := violationHeads(vs); !slices.Equal(got, wantPlain) {
				t.Errorf("without the mode: got %v, want %v", vs, wantPlain)
			}
			ok, msg, err := val.Validate(plain)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (len(wantPlain) == 0) {
				t.Errorf("without the mode: spirv-val accepts=%v: %s", ok, msg)
			}
			mod := withMaximalReconvergence(t, plain, c.modes...)
			vs, err = CheckRules(mod)
			if err != nil {
				t.Fatal(err)
			}
			if got := violationHeads(vs); !slices.Equal(got, c.want) {
				t.Errorf("with the mode: got %v, want %v", vs, c.want)
			}
		})
	}
}

func assemblerPath(t testing.TB) string {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Skip("spirv-as not installed")
	}
	return as
}

// TestRulesR17Messages: what a violation says.
func TestRulesR17Messages(t *testing.T) {
	as := assemblerPath(t)
	mod := withMaximalReconvergence(t, assembleEnv(t, as, reconvergeText(`%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %m None
OpBranchConditional %t %a %b
%a = OpLabel
OpBranchConditional %t %j %j
%b = OpLabel
OpBranch %j
%j = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
`+trivialOther), ""), "main")
	vs, err := CheckRules(mod)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.String())
	}
	want := []string{
		"R17 in %main [%a %j]: OpBranchConditional names the same label twice (MaximallyReconvergesKHR)",
		"R17 in %main [%j %a %b]: block has 2 distinct predecessors but is no loop header, merge block, continue target or switch target (MaximallyReconvergesKHR)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	var o Oracle
	v := o.checkRules(&Subject{Module: mod})
	if v.Signature != "rules:R17" || !KnownSignature(v.Signature) {
		t.Errorf("signature %q", v.Signature)
	}
}

// TestRulesR17ValidatorVersion records what the installed spirv-val says
// of a module declaring the mode, as the disagreement table lists it:
// v2023.1 does not know the mode. A validator that knows it must accept
// this clean module.
func TestRulesR17ValidatorVersion(t *testing.T) {
	val := testValidator(t, "")
	text := reconvergeText(`%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
` + trivialOther)
	mod := withMaximalReconvergence(t, assembleWhole(t, text), "main")
	if vs, err := CheckRules(mod); err != nil || len(vs) > 0 {
		t.Fatalf("rules: %v %v", vs, err)
	}
	ok, msg, err := val.Validate(mod)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Logf("spirv-val knows MaximallyReconvergesKHR")
		return
	}
	if got, want := NormalizeValidatorMessage(msg), "Invalid execution mode operand: N"; got != want {
		t.Errorf("spirv-val rejects the mode with %q (normalized %q), want %q", msg, got, want)
	}
}

// referenceR17 reads R17 straight off the instructions, without the
// checker's parse or graphs: the functions the mode's entry points reach
// through OpFunctionCall; in each, every OpBranchConditional with equal
// labels ("cond") and every block with two or more distinct predecessors
// that is no loop header, merge block, continue target or OpSwitch target
// ("join", with its predecessors sorted). OpSwitch literals are read as
// one word: the modules it judges have no 64-bit selectors.
func referenceR17(m *spirv.Module) []string {
	var entries []uint32
	calls := map[uint32][]uint32{}
	type block struct {
		label   uint32
		targets []uint32
	}
	blocks := map[uint32][]block{}
	exempt := map[uint32]map[uint32]bool{}
	var cond []string
	var fid uint32
	var cur uint32
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpExecutionMode:
			if in.Operands[1] == executionModeMaximallyReconverges {
				entries = append(entries, in.Operands[0])
			}
		case spirv.OpFunction:
			fid = in.Operands[1]
			exempt[fid] = map[uint32]bool{}
		case spirv.OpFunctionCall:
			calls[fid] = append(calls[fid], in.Operands[2])
		case spirv.OpLabel:
			cur = in.Operands[0]
		case spirv.OpLoopMerge:
			exempt[fid][cur] = true
			exempt[fid][in.Operands[0]] = true
			exempt[fid][in.Operands[1]] = true
		case spirv.OpSelectionMerge:
			exempt[fid][in.Operands[0]] = true
		case spirv.OpBranch:
			blocks[fid] = append(blocks[fid], block{cur, in.Operands[:1]})
		case spirv.OpBranchConditional:
			blocks[fid] = append(blocks[fid], block{cur, in.Operands[1:3]})
			if in.Operands[1] == in.Operands[2] {
				cond = append(cond, fmt.Sprintf("%d:%d:cond", fid, cur))
			}
		case spirv.OpSwitch:
			var ts []uint32
			for k := 1; k < len(in.Operands); k += 2 {
				ts = append(ts, in.Operands[k])
				exempt[fid][in.Operands[k]] = true
			}
			blocks[fid] = append(blocks[fid], block{cur, ts})
		}
	}
	tree := map[uint32]bool{}
	var visit func(f uint32)
	visit = func(f uint32) {
		if !tree[f] {
			tree[f] = true
			for _, g := range calls[f] {
				visit(g)
			}
		}
	}
	for _, e := range entries {
		visit(e)
	}
	var out []string
	for _, c := range cond {
		var f uint32
		fmt.Sscanf(c, "%d:", &f)
		if tree[f] {
			out = append(out, c)
		}
	}
	for f := range tree {
		preds := map[uint32]map[uint32]bool{}
		for _, b := range blocks[f] {
			for _, t := range b.targets {
				if preds[t] == nil {
					preds[t] = map[uint32]bool{}
				}
				preds[t][b.label] = true
			}
		}
		for v, ps := range preds {
			if len(ps) < 2 || exempt[f][v] {
				continue
			}
			var ids []string
			for p := range ps {
				ids = append(ids, fmt.Sprint(p))
			}
			sort.Strings(ids)
			out = append(out, fmt.Sprintf("%d:%d:join:%s", f, v, strings.Join(ids, ",")))
		}
	}
	sort.Strings(out)
	return out
}

// r17Keys are the checker's R17 violations in referenceR17's form.
func r17Keys(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		if v.Rule != "R17" {
			continue
		}
		if strings.HasPrefix(v.Msg, "OpBranchConditional") {
			out = append(out, fmt.Sprintf("%d:%d:cond", v.Func.ID, v.Blocks[0].ID))
			continue
		}
		var ids []string
		for _, b := range v.Blocks[1:] {
			ids = append(ids, fmt.Sprint(b.ID))
		}
		sort.Strings(ids)
		out = append(out, fmt.Sprintf("%d:%d:join:%s", v.Func.ID, v.Blocks[0].ID, strings.Join(ids, ",")))
	}
	sort.Strings(out)
	return out
}

// TestRulesR17MatchesReference: on emitted modules of random graphs and
// their mutants, with the mode on the entry point, the checker's R17
// violations are the reference's; without the mode there are none.
func TestRulesR17MatchesReference(t *testing.T) {
	r := seededRand(t, 17)
	strategies := []string{"dispatch"}
	if slices.Contains(structurizer.Strategies(), "structured") {
		strategies = append(strategies, "structured")
	}
	judged, failing := 0, 0
	for i := range 200 {
		g := randomGraph(r, 2+i%12)
		for _, s := range strategies {
			res, err := structurizer.Structurize(g, structurizer.Options{Strategy: s})
			if err != nil {
				continue
			}
			plain, err := emit.Bytes(res.Func, emit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if vs, err := CheckRules(plain); err != nil || len(r17Keys(vs)) > 0 {
				t.Fatalf("%s module without the mode: %v %v", s, vs, err)
			}
			mod := withMaximalReconvergence(t, plain, "main")
			for k := range 4 {
				m, err := spirv.Decode(mod)
				if err != nil {
					t.Fatal(err)
				}
				for range k % 3 {
					mutate(r, m, mutationKinds[r.IntN(len(mutationKinds))])
				}
				vs, err := CheckRulesModule(m, RulesOptions{})
				if err != nil {
					continue // a mutant the checker cannot split into blocks
				}
				got, want := r17Keys(vs), referenceR17(m)
				if !slices.Equal(got, want) {
					t.Fatalf("graph %v (%s), mutant %d: checker %v, reference %v\n%s", g, s, k, got, want, spirv.Disassemble(m))
				}
				judged++
				if len(got) > 0 {
					failing++
				}
			}
		}
	}
	t.Logf("%d modules judged, %d break R17", judged, failing)
	if failing == 0 || failing == judged {
		t.Errorf("%d of %d modules break R17: the comparison tests one side only", failing, judged)
	}
}
