// exec_samearm_test.go: a conditional or switch whose successors are all
// one block may become a branch that still reads its decision: the module
// is valid and runs like the graph.
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestBranchReadingItsDecisionRuns(t *testing.T) {
	for _, succs := range [][][]int{{{1, 1}, {}}, {{1, 1, 1}, {}}} {
		g := cfg.FromSuccs(succs)
		f := &structurizer.Func{Blocks: []structurizer.Block{
			{Kind: structurizer.Original, Orig: 0, Arity: len(succs[0]), Term: structurizer.Term{Kind: structurizer.Branch, To: []int{1}}},
			{Kind: structurizer.Original, Orig: 1, Term: structurizer.Term{Kind: structurizer.Return}},
		}}
		mod, err := emit.Bytes(f, emit.Options{})
		if err != nil {
			t.Fatalf("%v: %v", g, err)
		}
		o, err := New(Options{Checks: []string{"rules", "spirv-val", "exec"}, Walks: WalkOptions{Seed: 7}})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range o.Check(&Subject{Graph: g, Module: mod}) {
			if v.Status != Pass {
				t.Errorf("%v: %s %s %s", g, v.Check, v.Status, v.Signature)
			}
		}
	}
}
