// growth_debug_test.go: growth measures a module's code, not its debug
// information: an OpSource with the program's text and an OpLine at every
// terminator, which a compiler adds as it likes, cost no words, while the
// same words of instructions do.
package oracle

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// withDebugInfo is m with an OpString, an OpSource of text after the
// execution modes, and an OpLine before every block's merge instruction or
// terminator.
func withDebugInfo(m *spirv.Module, text string) *spirv.Module {
	out := *m
	file := out.Bound
	out.Bound++
	at := 0
	for i, in := range m.Insts {
		if in.Op == spirv.OpExecutionMode || in.Op == spirv.OpEntryPoint {
			at = i + 1
		}
	}
	out.Insts = slices.Clone(m.Insts[:at])
	out.Insts = append(out.Insts,
		spirv.Instruction{Op: spirv.OpString, Operands: append([]uint32{file}, spirv.String("f.src")...)},
		spirv.Instruction{Op: spirv.OpSource, Operands: append([]uint32{0, 100, file}, spirv.String(text)...)})
	for _, in := range m.Insts[at:] {
		if spirv.IsTerminator(in.Op) {
			l := spirv.Instruction{Op: spirv.OpLine, Operands: []uint32{file, 1, 1}}
			if k := len(out.Insts) - 1; out.Insts[k].Op == spirv.OpSelectionMerge || out.Insts[k].Op == spirv.OpLoopMerge {
				out.Insts = slices.Insert(out.Insts, k, l)
			} else {
				out.Insts = append(out.Insts, l)
			}
		}
		out.Insts = append(out.Insts, in)
	}
	return &out
}

func TestGrowthIgnoresDebugInformation(t *testing.T) {
	s := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
	m, err := spirv.Decode(s.Module)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("x = x * 3 + 1; // a line of the program\n", 200)
	debug := withDebugInfo(m, text).Bytes()
	added := (len(debug) - len(s.Module)) / 4
	if got := debugWords(debug) - debugWords(s.Module); got != added {
		t.Fatalf("debugWords counts %d words more, the debug information added %d", got, added)
	}
	s.Module = debug
	if v := (&Oracle{}).checkGrowth(s); v.Status != Pass {
		t.Fatalf("%d words of debug information: %+v", added, v)
	}
	if v, err := LookupValidator("vulkan1.1"); err == nil {
		if ok, msg, err := v.Validate(debug); err != nil || !ok {
			t.Fatalf("the module with debug information is invalid: %s %v", msg, err)
		}
	}
	// The same words as instructions that run (OpNop before the entry
	// point's first terminator) count.
	code := *m
	code.Insts = slices.Clone(m.Insts)
	for i := len(code.Insts) - 1; i >= 0; i-- {
		if spirv.IsTerminator(code.Insts[i].Op) {
			code.Insts = slices.Insert(code.Insts, i, slices.Repeat([]spirv.Instruction{{Op: spirv.OpNop}}, added)...)
			break
		}
	}
	s.Module = code.Bytes()
	if v := (&Oracle{}).checkGrowth(s); v.Signature != "growth:"+SigGrowthWords {
		t.Fatalf("%d words of OpNop: %+v, want growth:%s", added, v, SigGrowthWords)
	}
}
