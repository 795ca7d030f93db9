// modulecfg_layout_test.go: the block order of a module is a layout
// choice, so the canonical form meta's renumbering check compares ignores
// it: a structurizer laying its blocks out by the original ids they report
// (a decompiler's address order) passes meta on a renumbered graph, and a
// module whose entry point comes before its helper functions reads as the
// same CFG as one whose entry point comes last.
package oracle

import (
	"cmp"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// reorderFunc lays f's blocks out in order (indices of f.Blocks, the entry
// first), every reference renumbered.
func reorderFunc(f *structurizer.Func, order []int) *structurizer.Func {
	at := make([]int, len(order))
	for i, b := range order {
		at[b] = i
	}
	out := &structurizer.Func{Vars: f.Vars}
	for _, b := range order {
		blk := f.Blocks[b]
		blk.Term.To = slices.Clone(blk.Term.To)
		for j, t := range blk.Term.To {
			blk.Term.To[j] = at[t]
		}
		if blk.Merge.Kind != structurizer.NoMerge {
			blk.Merge.Merge = at[blk.Merge.Merge]
			if blk.Merge.Kind == structurizer.LoopMerge {
				blk.Merge.Continue = at[blk.Merge.Continue]
			}
		}
		out.Blocks = append(out.Blocks, blk)
	}
	return out
}

// byOriginalID is a seam laying the structured strategy's blocks out by
// the original id each reports (synthetic blocks after them), the entry
// first: the layout follows the numbering, the CFG does not.
func byOriginalID(g *cfg.Graph) ([]byte, ResultInfo, error) {
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		return nil, ResultInfo{}, err
	}
	f := res.Func
	order := make([]int, 0, len(f.Blocks))
	for b := 1; b < len(f.Blocks); b++ {
		order = append(order, b)
	}
	key := func(b int) int {
		if f.Blocks[b].Kind == structurizer.Synthetic {
			return 1<<30 + b
		}
		return f.Blocks[b].Orig<<16 + b
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(key(x), key(y)) })
	mod, err := emit.Bytes(reorderFunc(f, append([]int{0}, order...)), emit.Options{})
	return mod, ResultInfo{Strategy: "structured"}, err
}

func TestRenumberingIgnoresLayout(t *testing.T) {
	for _, src := range []string{
		"{{2, 1}, {2, 3}, {5, 3}, {4}, {}, {0}}",
		loopGraph,
		"{{1, 2}, {3}, {3}, {}}",
		"{{1, 2, 3}, {4}, {4}, {5}, {5}, {}}",
	} {
		s := subjectOf(t, src, byOriginalID)
		if v := (&Oracle{}).checkMeta(s); v.Status != Pass {
			t.Errorf("%s laid out by original id: %+v", src, v)
		}
	}
}

// TestModuleCFGIgnoresWhatFollowsTheLastBlock: moving the entry point's
// function in front of the helpers changes no block's shape, on the scan
// and on the decoding path.
func TestModuleCFGIgnoresWhatFollowsTheLastBlock(t *testing.T) {
	g := cfg.FromSuccs([][]int{{2, 1}, {2, 3}, {5, 3}, {4}, {}, {0}})
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := emit.Module(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Move the last function (the entry point, as emit lays it out) in
	// front of the first.
	var starts []int
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction {
			starts = append(starts, i)
		}
	}
	if len(starts) < 2 {
		t.Fatalf("want helper functions before the entry point, got %d functions", len(starts))
	}
	first, last := starts[0], starts[len(starts)-1]
	moved := slices.Concat(m.Insts[:first], m.Insts[last:], m.Insts[first:last])
	m2 := *m
	m2.Insts = moved
	for _, c := range []struct {
		name string
		read func([]byte) (*moduleCFG, error)
	}{
		{"scan", func(b []byte) (*moduleCFG, error) {
			mc, ok := scanModuleCFG(b)
			if !ok {
				t.Fatal("the scan gives up")
			}
			return mc, nil
		}},
		{"decode", decodeModuleCFG},
	} {
		a, err := c.read(m.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.read(m2.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !equalColours(a.canonicalColours(nil, metaRounds), b.canonicalColours(nil, metaRounds)) {
			t.Errorf("%s: the entry point moved before its helpers reads as another CFG", c.name)
		}
	}
}
