// signatures.go: the table of every failure signature the oracle (and its
// callers in cmd/cfgfuzz) can report, mirrored in SIGNATURES.md; a test
// holds the two equal. A signature is "check:reason" with no ids, names or
// counts, so deduplication by signature is exact. Patterns end in
// "<message>" where the reason is a validator message normalized by
// NormalizeValidatorMessage, or "<reason>" where it is a harness reason
// normalized by NormalizeReason (normalize.go).

package oracle

import "strings"

// SignatureDoc is one row of the signature table.
type SignatureDoc struct {
	Pattern string // the signature, or a prefix followed by <message>
	Meaning string
}

// Signatures lists every signature, by check.
var Signatures = []SignatureDoc{
	{"pdom:" + SigIDomRef, "cfg.Dominators differs from the brute-force definition"},
	{"pdom:" + SigIPDomRef, "cfg.PostDominators differs from the brute-force definition"},
	{"pdom:" + SigIDomLib, "cfg.Dominators differs from gonum's Lengauer-Tarjan"},
	{"pdom:" + SigIPDomLib, "cfg.PostDominators differs from gonum on the reverse graph with a virtual exit"},
	{"rules:R1", "two headers declare the same merge block"},
	{"rules:R2", "a header does not strictly structurally dominate its merge block"},
	{"rules:R3", "a back edge to a non-header, or a loop header without exactly one back-edge block"},
	{"rules:R4", "a loop's continue target is its merge block"},
	{"rules:R5", "continue target not dominated by its header, not dominating the back-edge block, or not post-dominated by it (R7)"},
	{"rules:R6", "a branch leaves a construct other than by a structured exit"},
	{"rules:R8", "a construct holds a header but not that header's merge block"},
	{"rules:R9", "a predecessor of a continue target lies outside the loop construct"},
	{"rules:R10", "a branch enters a selection, switch or loop construct other than through its header"},
	{"rules:R11", "a switch target not dominated by its header, or a case fall-through breaking the rules"},
	{"rules:R12", "OpSwitch or a two-way OpBranchConditional without the merge the specification requires"},
	{"rules:R13", "a merge instruction not second to last or followed by the wrong terminator"},
	{"rules:R14", "a block before its dominator in the binary, or the entry block as a branch target"},
	{"rules:R15", "OpBranchConditional with equal labels in SPIR-V 1.6 or later"},
	{"rules:R16", "construct nesting deeper than 1023"},
	{"rules:R17", "under MaximallyReconvergesKHR: OpBranchConditional with equal labels, or a block with several distinct predecessors that is no loop header, merge block, continue target or switch target"},
	{"rules:bound", "the header's id bound is 0 or not above every id the module uses (specification 2.3: 0 < id < Bound)"},
	{"rules:" + SigRulesMalformed, "the module cannot be decoded or split into blocks"},
	{"spirv-val:<message>", "SPIRV-Tools' validator rejects the module"},
	{"disagree:rules-only:R<n>", "rules rejects (rule n) what spirv-val accepts"},
	{"disagree:rules-only:" + SigRulesMalformed, "rules cannot read a module spirv-val accepts"},
	{"disagree:val-only:<message>", "spirv-val rejects, for a structured control-flow reason ([valscope.go](valscope.go)), what rules accepts"},
	{"exec:" + SigTrace, "the module visits a different block sequence than the walk"},
	{"exec:" + SigDecisions, "same blocks, a different number of decisions read"},
	{"exec:" + SigRegisters, "same blocks and decisions, a different register-file checksum (--registers N)"},
	{"exec:" + SigNoReturn, "the walk returned, the module did not"},
	{"exec:" + SigEarlyReturn, "the module returned where the walk went on"},
	{"exec:" + SigStalled, "the module ran on without recording (a hang)"},
	{"exec:" + SigTrap, "OpUnreachable reached or an out-of-bounds access"},
	{"exec:" + SigUndefined, "a load of a Function or Private variable that nothing stored to and that has no initializer: its value is undefined in SPIR-V, whatever a driver happens to read"},
	{"exec:" + SigSink, "a walk returned without the filler's sink in its trace's sink slot"},
	{"exec:" + SigOverflow, "a walk wrote outside its trace slice (a wrong capacity or slice offset)"},
	{"exec:" + SigForeign, "a walk read a word of another walk's trace slice, which a driver running the walks at once may not have written yet"},
	{"exec:" + SigDecisionsStore, "a walk stored to the decisions buffer, which every walk only reads: a driver running the walks at once may let another walk read the word stored"},
	{"exec:" + SigLoad, "the interpreter cannot load the module"},
	{"growth:" + SigGrowthBlocks, "output blocks beyond the block factor (size, not correctness)"},
	{"growth:" + SigGrowthWords, "output words beyond the word factor, debug information left out (size, not correctness)"},
	{"growth:" + SigGrowthTime, "the structurizer took longer than the per-graph limit"},
	{"growth:" + SigGrowthClones, "copies of original blocks carry more words than the clone budget"},
	{"growth:" + SigCloneWeight, "a copy duplicates a block heavier than the structurizer declares (`max_clone_words`)"},
	{"filler:" + SigFillerShort, "a block carries less filler than its original's weight promises"},
	{"meta:" + SigNondeterministic, "two runs on one graph gave different bytes (a property of the structurizer, held unless it declares otherwise)"},
	{"meta:" + SigRenumbering, "a renumbered graph gave a module that is not isomorphic (a property of the structurizer, held unless it declares otherwise)"},
	{"meta:" + SigNotIdempotent, "structurizing the output's own CFG added blocks (only for a structurizer that declares idempotence)"},
	{"meta:" + SigInputMutated, "the structurizer changed its input graph"},
	{"meta:" + SigRerunFailed, "a re-run (same, renumbered or output graph) failed and its seam did not say how"},
	{"meta:" + SigRerunFailed + ":<reason>", "a re-run failed as a first run would have: the `structurize:` signature of its answer (`panic:<reason>`, `crash:<reason>`, `error:<reason>`, `timeout`, `refused`)"},
	{"meta:" + SigOutputCFG, "the module's entry-point CFG cannot be read back"},
	{SigFallback + ":<pass>:<reason>", "the structurizer fell back to the dispatch loop in PASS for REASON (its stats.passes_used; FallbackSignature)"},
	{SigFallback, "the structurizer fell back to the dispatch loop and did not say why"},
	{"structurize:panic", "the structurizer panicked with an empty message (reported by the caller)"},
	{"structurize:panic:<reason>", "the structurizer panicked (reported by the caller)"},
	{"structurize:crash:<reason>", "the structurizer's process died or broke the protocol (reported by the caller)"},
	{"structurize:error:<reason>", "the structurizer failed on a valid graph (reported by the caller)"},
	{"structurize:timeout", "no answer within the per-graph limit (reported by the caller)"},
	{"structurize:refused", "the strategy refused the graph (reported by the caller)"},
	{"emit:malformed-function", "the emitter rejected the structured function (reported by the caller)"},
}

// KnownSignature reports whether sig matches a row of the table.
func KnownSignature(sig string) bool {
	for _, d := range Signatures {
		switch {
		case d.Pattern == sig:
			return true
		case strings.HasSuffix(d.Pattern, "<message>"):
			if p := strings.TrimSuffix(d.Pattern, "<message>"); strings.HasPrefix(sig, p) && len(sig) > len(p) {
				return true
			}
		case strings.HasSuffix(d.Pattern, ":<pass>:<reason>"):
			if p := strings.TrimSuffix(d.Pattern, "<pass>:<reason>"); strings.HasPrefix(sig, p) && len(sig) > len(p) {
				return true
			}
		case strings.HasSuffix(d.Pattern, "<reason>"):
			if p := strings.TrimSuffix(d.Pattern, "<reason>"); strings.HasPrefix(sig, p) && len(sig) > len(p) {
				return true
			}
		case strings.HasSuffix(d.Pattern, "R<n>"):
			p := strings.TrimSuffix(d.Pattern, "R<n>")
			if r, ok := strings.CutPrefix(sig, p); ok && KnownSignature("rules:"+r) {
				return true
			}
		}
	}
	return false
}
