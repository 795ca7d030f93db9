// switchlimit.go: the cases of a switch past SPIR-V's universal limit on
// an OpSwitch's (literal, label) pairs that a module cannot write. A
// structured function may switch on more successors than that when the
// cases past the limit go where its default goes: the module then leaves
// those pairs out (the default takes their literals, as SPIR-V defines
// it: emit/blocks.go, withoutDefaultCases), and the CFG read back from it
// has a narrower switch than the function declares. meta's idempotence
// re-run structurizes the declared control flow, so the cases left out
// are put back as edges to the default's block.

package oracle

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MaxSwitchPairs is SPIR-V's universal limit on the (literal, label)
// pairs of one OpSwitch (specification 2.17, which spirv-val enforces;
// emit.MaxSwitchCases).
const MaxSwitchPairs = 16383

// withLeftOutCases is mc's graph with, for each block that ends in an
// OpSwitch and reports an original block of g whose switch has more cases
// than MaxSwitchPairs, an edge to the switch's default for every case of
// the original block's switch the OpSwitch does not write: the graph of
// the control flow the structured function declares, up to the order of
// its cases (a layout choice, which the module's CFG keeps in operand
// order). mc's graph itself when no block is such a switch; mc is not
// changed.
func withLeftOutCases(mc *moduleCFG, g *cfg.Graph) *cfg.Graph {
	var out *cfg.Graph
	for b, succs := range mc.graph.Succs {
		missing := leftOutCases(mc, g, b)
		if missing == 0 {
			continue
		}
		if out == nil {
			out = mc.graph.Clone()
		}
		grown := slices.Grow(slices.Clone(succs), missing)
		for range missing {
			grown = append(grown, succs[0])
		}
		out.Succs[b] = grown
	}
	if out == nil {
		return mc.graph
	}
	return out
}

// leftOutCases is how many cases of block b's switch the module did not
// write: the cases past MaxSwitchPairs of the original block b reports
// (its successors but the default) less the pairs its OpSwitch writes; 0
// for a block that does not end in an OpSwitch, reports no original
// block, or whose original block's switch is within the limit.
func leftOutCases(mc *moduleCFG, g *cfg.Graph, b int) int {
	if g == nil || mc.switches == nil || !mc.switches[b] || len(mc.graph.Succs[b]) == 0 {
		return 0
	}
	orig := mc.reported[b]
	if orig < 0 || orig >= g.Len() {
		return 0
	}
	cases, written := len(g.Succs[orig])-1, len(mc.graph.Succs[b])-1
	if cases <= MaxSwitchPairs || written >= cases {
		return 0
	}
	return cases - written
}
