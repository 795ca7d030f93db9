// modulecfg_layout_test.go: the block order of a module and which way a
// conditional tests are layout choices, so the canonical form meta's
// renumbering check compares ignores them: a structurizer laying its
// blocks out by the original ids they report (a decompiler's address
// order), or testing each conditional so that the lower id comes second,
// passes meta on a renumbered graph, and a module whose entry point comes
// before its helper functions reads as the same CFG as one whose entry
// point comes last.
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

// labelIDs maps each block label of m to the original id it reports.
func labelIDs(m *spirv.Module) map[uint32]int {
	consts := map[uint32]uint32{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 {
			consts[in.Operands[1]] = in.Operands[2]
		}
	}
	out := map[uint32]int{}
	label, found := uint32(0), false
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpLabel:
			label, found = in.Operands[0], false
		case in.Op == spirv.OpFunctionCall && len(in.Operands) == 4 && !found:
			if v, ok := consts[in.Operands[3]]; ok {
				out[label], found = int(v), true
			}
		}
	}
	return out
}

// byFallThrough is a seam whose conditional branches put the target of the
// higher original id first by testing the other way: with an OpLogicalNot
// of the condition (negate false) or by the comparison's negation, OpIEqual
// for OpINotEqual (negate true), the targets swapped. Which way it tests
// follows the numbering; the control flow does not.
func byFallThrough(negate bool) StructurizeFunc {
	return func(g *cfg.Graph) ([]byte, ResultInfo, error) {
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			return nil, ResultInfo{}, err
		}
		m, err := emit.Module(res.Func, emit.Options{})
		if err != nil {
			return nil, ResultInfo{}, err
		}
		ids := labelIDs(m)
		boolT := uint32(0)
		for _, in := range m.Insts {
			if in.Op == spirv.OpTypeBool {
				boolT = in.Operands[0]
			}
		}
		var out []spirv.Instruction
		cmp := map[uint32]int{} // an OpINotEqual's result: its index in out (emit uses it for one branch)
		for _, in := range m.Insts {
			if in.Op == spirv.OpINotEqual {
				cmp[in.Operands[1]] = len(out)
			}
			if in.Op == spirv.OpBranchConditional {
				c, a, b := in.Operands[0], in.Operands[1], in.Operands[2]
				ia, oka := ids[a]
				ib, okb := ids[b]
				if oka && okb && ia > ib {
					if k, ok := cmp[c]; ok && negate {
						out[k].Op = spirv.OpIEqual
					} else {
						n := m.Bound
						m.Bound++
						not := spirv.Instruction{Op: spirv.OpLogicalNot, Operands: []uint32{boolT, n, c}}
						if k := len(out) - 1; out[k].Op == spirv.OpSelectionMerge || out[k].Op == spirv.OpLoopMerge {
							out = slices.Insert(out, k, not)
						} else {
							out = append(out, not)
						}
						c = n
					}
					in = spirv.Instruction{Op: in.Op, Operands: []uint32{c, b, a}}
				}
			}
			out = append(out, in)
		}
		m.Insts = out
		return m.Bytes(), ResultInfo{Strategy: "structured"}, nil
	}
}

// TestRenumberingIgnoresBranchPolarity: a structurizer that chooses which
// way a conditional tests by the original ids passes meta's renumbering
// check, and its modules are valid and run like the graph.
func TestRenumberingIgnoresBranchPolarity(t *testing.T) {
	o, err := New(Options{Checks: []string{"rules", "spirv-val", "exec", "meta"}, Walks: WalkOptions{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	for _, negate := range []bool{false, true} {
		for _, src := range []string{
			"{{2, 1}, {2, 3}, {5, 3}, {4}, {}, {0}}",
			loopGraph,
			"{{1, 2}, {3}, {3}, {}}",
			"{{1, 3}, {2, 5}, {3, 5}, {5, 4}, {5}, {}}",
		} {
			s := subjectOf(t, src, byFallThrough(negate))
			for _, v := range o.Check(s) {
				if v.Status != Pass && v.Status != Skip {
					t.Errorf("%s, negated comparison %v: %s %s %s", src, negate, v.Check, v.Signature, v.Detail)
				}
			}
		}
	}
}
