// filler_inline_test.go: filler and growth's clone budget read a module
// whose append helper is inlined into the entry point (a compiler's
// output) as they read the emitter's calls: the same reported ids, the
// same copies, dropped filler and copies past the budget still found. A
// module that appends a computed id, which neither reading follows, is
// not judged by filler nor by the clone budget, and the verdicts say so
// (Skip; growth's Unchecked) instead of passing.
package oracle

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/internal/appendedit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// inlineAppend inlines m's append helper (appendedit.Inline), failing
// the test when there is no call to inline.
func inlineAppend(t *testing.T, m *spirv.Module) {
	t.Helper()
	if appendedit.Inline(m) == 0 {
		t.Fatal("no call of the append helper")
	}
}

// computeIDs makes every append compute its id (appendedit.ComputeIDs),
// failing the test when it changed nothing.
func computeIDs(t *testing.T, m *spirv.Module) {
	t.Helper()
	if appendedit.ComputeIDs(m) == 0 {
		t.Fatal("no append helper, uint type or 0 constant")
	}
}

// rewritten is mod decoded, changed by edit and encoded again.
func rewritten(t *testing.T, mod []byte, edit func(*testing.T, *spirv.Module)) []byte {
	t.Helper()
	m, err := spirv.Decode(mod)
	if err != nil {
		t.Fatal(err)
	}
	edit(t, m)
	return m.Bytes()
}

func reportedOf(t *testing.T, mod []byte) []int {
	t.Helper()
	m, err := spirv.Decode(mod)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, f := range blockFills(m) {
		ids = append(ids, f.reported)
	}
	return ids
}

func TestInlinedAppendsAreRead(t *testing.T) {
	o, err := New(Options{Checks: []string{"rules", "exec", "filler", "growth"}})
	if err != nil {
		t.Fatal(err)
	}
	weights := []int{16, 3, 40, 0}
	for _, strategy := range []string{"dispatch", "structured"} {
		g, mod, _ := structuredModule(t, "{{1, 2}, {3}, {3}, {}}", weights, structurizer.Options{Strategy: strategy}, nil)
		inl := rewritten(t, mod, inlineAppend)
		if got, want := reportedOf(t, inl), reportedOf(t, mod); !slices.Equal(got, want) {
			t.Fatalf("%s: inlined, blocks report %v; with calls %v", strategy, got, want)
		}
		if vs := o.Check(&Subject{Graph: g, Module: inl}); Failed(vs) != nil || slices.ContainsFunc(vs, func(v Verdict) bool { return v.Status != Pass || v.Unchecked != "" }) {
			t.Fatalf("%s: inlined module: %+v", strategy, vs)
		}
		// b1's filler dropped: filler:short, inlined or not.
		g, mod, _ = structuredModule(t, "{{1, 2}, {3}, {3}, {}}", weights, structurizer.Options{Strategy: strategy}, func(f *structurizer.Func) {
			for i := range f.Blocks {
				if f.Blocks[i].Orig == 1 && f.Blocks[i].Kind != structurizer.Synthetic {
					f.Blocks[i].Weight = 0
				}
			}
		})
		vs := o.Check(&Subject{Graph: g, Module: rewritten(t, mod, inlineAppend)})
		if f := Failed(vs); f == nil || f.Signature != "filler:"+SigFillerShort || !strings.Contains(f.Detail, "b1") {
			t.Fatalf("%s: inlined, filler of b1 dropped: want filler:short on b1, got %+v", strategy, vs)
		}
	}
	// Copies past the budget: growth:clones, inlined or not.
	g, mod, _ := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{CloneBudget: 1000}, nil)
	s := &Subject{Graph: g, Module: rewritten(t, mod, inlineAppend)}
	if v := (&Oracle{}).checkGrowth(s); v.Signature != "growth:"+SigGrowthClones || !s.CopiedKnown {
		t.Errorf("inlined, copies past the budget: want growth:clones, got %+v (copies known %v)", v, s.CopiedKnown)
	}
}

func TestComputedAppendsAreNotJudged(t *testing.T) {
	o, err := New(Options{Checks: []string{"rules", "exec", "filler", "growth"}})
	if err != nil {
		t.Fatal(err)
	}
	// The filler of b1 dropped and copies past the budget: neither can
	// be seen when the ids are computed, and neither check passes.
	g, mod, _ := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{CloneBudget: 1000}, func(f *structurizer.Func) {
		for i := range f.Blocks {
			if f.Blocks[i].Orig == 1 && f.Blocks[i].Kind != structurizer.Synthetic {
				f.Blocks[i].Weight = 0
			}
		}
	})
	s := &Subject{Graph: g, Module: rewritten(t, mod, computeIDs)}
	vs := o.Check(s)
	if f := Failed(vs); f != nil {
		t.Fatalf("computed ids: %+v", f)
	}
	for _, v := range vs {
		switch {
		case v.Check == "filler" && (v.Status != Skip || !strings.Contains(v.Detail, "not judged")):
			t.Errorf("filler: %+v, want skip, not judged", v)
		case v.Check == "growth" && (v.Status != Pass || v.Unchecked != PartClones || !strings.Contains(v.Detail, "clone budget not judged")):
			t.Errorf("growth: %+v, want pass with the clone budget unchecked", v)
		case v.Check != "filler" && v.Check != "growth" && v.Status != Pass:
			t.Errorf("%s: %+v, want pass", v.Check, v)
		}
	}
	if s.CopiedKnown {
		t.Errorf("copies known %+v, want unknown", s.Copied)
	}
}
