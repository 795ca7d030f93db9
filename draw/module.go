// module.go reads the entry point's control flow back from a SPIR-V
// module into the structured function form, for the "after" picture of a
// finding whose structurizer answered with a module (a baseline revision, an
// external structurizer) rather than with its structured function. Blocks
// report the original id of their first append call (the module
// convention); blocks without one are synthetic, named by their label's
// OpName. It is for drawing only: no
// weights, stores or route variables.

package draw

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// ModuleFunc decodes module's entry-point function.
func ModuleFunc(module []byte) (*structurizer.Func, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	entry, consts := uint32(0), map[uint32]uint32{}
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpEntryPoint && len(in.Operands) >= 2 && entry == 0:
			entry = in.Operands[1]
		case in.Op == spirv.OpConstant && len(in.Operands) == 3:
			consts[in.Operands[1]] = in.Operands[2]
		}
	}
	type block struct {
		label uint32
		blk   structurizer.Block
		to    []uint32 // labels; resolved below
		merge [2]uint32
	}
	names := m.Names()
	var blocks []*block
	var cur *block
	inEntry := false
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			inEntry = len(in.Operands) >= 2 && in.Operands[1] == entry
		case spirv.OpFunctionEnd:
			inEntry = false
		}
		if !inEntry {
			continue
		}
		ops := in.Operands
		switch in.Op {
		case spirv.OpLabel:
			cur = &block{label: ops[0], blk: structurizer.Block{Kind: structurizer.Synthetic, Orig: -1, Name: names[ops[0]]}}
			blocks = append(blocks, cur)
		case spirv.OpFunctionCall:
			if cur != nil && cur.blk.Orig < 0 && len(ops) == 4 {
				if v, ok := consts[ops[3]]; ok {
					cur.blk.Kind, cur.blk.Orig = structurizer.Original, int(v)
				}
			}
		case spirv.OpSelectionMerge:
			cur.blk.Merge.Kind, cur.merge = structurizer.SelectionMerge, [2]uint32{ops[0]}
		case spirv.OpLoopMerge:
			cur.blk.Merge.Kind, cur.merge = structurizer.LoopMerge, [2]uint32{ops[0], ops[1]}
		case spirv.OpBranch:
			cur.blk.Term.Kind, cur.to = structurizer.Branch, ops[:1]
		case spirv.OpBranchConditional:
			cur.blk.Term.Kind, cur.to = structurizer.Choose, ops[1:3]
		case spirv.OpSwitch:
			cur.blk.Term.Kind, cur.to = structurizer.Route, []uint32{ops[1]}
			for k := 2; k+1 < len(ops); k += 2 {
				cur.blk.Term.Values = append(cur.blk.Term.Values, ops[k])
				cur.to = append(cur.to, ops[k+1])
			}
		case spirv.OpReturn:
			cur.blk.Term.Kind = structurizer.Return
		case spirv.OpUnreachable:
			cur.blk.Term.Kind = structurizer.Unreachable
		}
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("no entry-point function")
	}
	index := map[uint32]int{}
	for i, b := range blocks {
		index[b.label] = i
	}
	f := &structurizer.Func{}
	seen := map[int]bool{}
	for _, b := range blocks {
		for _, l := range b.to {
			b.blk.Term.To = append(b.blk.Term.To, index[l])
		}
		b.blk.Merge.Merge, b.blk.Merge.Continue = index[b.merge[0]], index[b.merge[1]]
		if b.blk.Kind == structurizer.Original && seen[b.blk.Orig] {
			b.blk.Kind = structurizer.Clone
		}
		seen[b.blk.Orig] = true
		f.Blocks = append(f.Blocks, b.blk)
	}
	return f, nil
}

// FromModule is the picture of a module's entry-point function: the
// "after" picture when only the module is at hand (a stored finding, a
// baseline revision, an external structurizer).
func FromModule(module []byte) (*Picture, error) {
	f, err := ModuleFunc(module)
	if err != nil {
		return nil, err
	}
	return FromFunc(f), nil
}
