// rules_reconverge.go: R17, the rules SPV_KHR_maximal_reconvergence adds
// for the functions an entry point with the MaximallyReconvergesKHR
// execution mode reaches (RULES.md, "Maximal reconvergence"): no
// OpBranchConditional names one label twice, and a block with several
// distinct predecessors is a loop header, a declared merge block or
// continue target, or a target of an OpSwitch.

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// reconvergent returns the ids of the functions R17 applies to: the entry
// points declared MaximallyReconvergesKHR and every function they reach
// through OpFunctionCall (the static call tree). Nil when no entry point
// declares the mode.
func (rm *ruleModule) reconvergent() map[uint32]bool {
	if len(rm.maximal) == 0 {
		return nil
	}
	calls := map[uint32][]uint32{} // caller -> callees, in module order
	var cur uint32
	for i := range rm.src.Insts {
		in := &rm.src.Insts[i]
		switch in.Op {
		case spirv.OpFunction:
			cur = 0
			if len(in.Operands) >= 2 {
				cur = in.Operands[1]
			}
		case spirv.OpFunctionEnd:
			cur = 0
		case spirv.OpFunctionCall:
			if cur != 0 && len(in.Operands) >= 3 {
				calls[cur] = append(calls[cur], in.Operands[2])
			}
		}
	}
	in := map[uint32]bool{}
	stack := append([]uint32(nil), rm.maximal...)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[f] {
			continue
		}
		in[f] = true
		stack = append(stack, calls[f]...)
	}
	return in
}

// checkReconvergence: R17. (a) OpBranchConditional names two different
// labels, in any SPIR-V version. (b) Only loop headers, declared merge
// blocks and continue targets, and OpSwitch targets (the default
// included) have two or more distinct predecessors. Every block counts,
// reachable or not, as do the declarations of unreachable headers: the
// extension does not restrict the rule to reachable code.
func (c *ruleChecker) checkReconvergence() {
	g := c.g
	n := len(g.f.blocks)
	exempt := make([]bool, n)
	for h := range n {
		blk := &g.f.blocks[h]
		if blk.mergeOp == spirv.OpLoopMerge {
			exempt[h] = true
		}
		if m := g.merge[h]; m >= 0 {
			exempt[m] = true
		}
		if ct := g.cont[h]; ct >= 0 {
			exempt[ct] = true
		}
		switch s := g.succ[h]; blk.term {
		case spirv.OpSwitch:
			for _, t := range s {
				exempt[t] = true
			}
		case spirv.OpBranchConditional:
			if s[0] == s[1] {
				c.report("R17", "OpBranchConditional names the same label twice (MaximallyReconvergesKHR)", h, s[0])
			}
		}
	}
	for v := range n {
		if exempt[v] {
			continue
		}
		// g.pred lists a predecessor once per edge, in block order: the
		// edges of one predecessor sit side by side.
		p := g.pred[v]
		distinct := 0
		for i := range p {
			if i == 0 || p[i] != p[i-1] {
				distinct++
			}
		}
		if distinct < 2 {
			continue
		}
		blocks := make([]int, 0, 1+distinct)
		blocks = append(blocks, v)
		for i := range p {
			if i == 0 || p[i] != p[i-1] {
				blocks = append(blocks, p[i])
			}
		}
		c.report("R17", fmt.Sprintf("block has %d distinct predecessors but is no loop header, merge block, continue target or switch target (MaximallyReconvergesKHR)", distinct), blocks...)
	}
}
