// valscope.go: which of spirv-val's messages are about structured control
// flow, the part of validation that the rules check restates (RULES.md,
// R1-R17). A table of message families, matched on the normalized message
// (NormalizeValidatorMessage) in the manner of syzkaller's report rules,
// each with the rule it breaks. The families come from SPIRV-Tools'
// source/val/validate_cfg.cpp (construct, back-edge, case, selection,
// block-order, nesting-depth and maximal-reconvergence checks) and the
// merge-instruction position checks of its layout pass.
//
// spirv-val stops at its first error, so when it rejects a module for
// anything else (a type, an id, a capability, a universal limit such as
// OpSwitch's 16,383 pairs) it has not judged the module's structure, and
// rules accepting the module is no disagreement: the validator's verdict
// stands on its own. A control-flow message the table misses is reported
// that way too, as a plain spirv-val failure: the finding is kept, only
// its label differs.

package oracle

import "regexp"

// controlFlowMessage is one family of spirv-val's structured control-flow
// messages, and the rule of RULES.md it corresponds to.
type controlFlowMessage struct {
	re   *regexp.Regexp
	rule string
}

var controlFlowMessages = []controlFlowMessage{
	{regexp.MustCompile(`^Block N is already a merge block for another header`), "R1"},
	{regexp.MustCompile(`^The (selection|loop|continue|case) construct with the .* (does not structurally dominate|does not strictly structurally dominate|is not structurally post dominated by) the `), "R2, R5"},
	{regexp.MustCompile(`^Merge Block may not be the block containing the OpLoopMerge`), "R2"},
	{regexp.MustCompile(`^Back-edges \(.*\) can only be formed between a block and a loop header`), "R3"},
	{regexp.MustCompile(`^Loop header N is targeted by N back-edge blocks but the standard requires exactly one`), "R3"},
	{regexp.MustCompile(`^Construct (selection|loop|continue|case) with .* does not have a `), "R3"},
	{regexp.MustCompile(`^Merge Block and Continue Target must be different ids`), "R4"},
	{regexp.MustCompile(`exits the (selection|loop|continue|case) headed by .*, but not via a structured exit`), "R6"},
	{regexp.MustCompile(`^Header block N is contained in the (selection|loop|continue|case) construct headed by .*, but its merge block .* is not`), "R8"},
	{regexp.MustCompile(`branches to the loop continue target .*, but is not contained in the associated loop construct`), "R9"},
	{regexp.MustCompile(`branches to the (selection|loop|continue|case) construct, but not to the `), "R10"},
	{regexp.MustCompile(`^Switch header N does not structurally dominate its case construct`), "R11"},
	{regexp.MustCompile(`^Case construct that targets `), "R11"},
	{regexp.MustCompile(`^Multiple case constructs have branches to the case construct`), "R11"},
	{regexp.MustCompile(`^Selection must be structured`), "R12"},
	{regexp.MustCompile(`^OpSwitch must be preceded by an OpSelectionMerge`), "R12"},
	{regexp.MustCompile(`^Op(Loop|Selection)Merge must immediately precede`), "R13"},
	{regexp.MustCompile(`appears in the binary before its dominator`), "R14"},
	{regexp.MustCompile(`^First block N of function N is targeted by block`), "R14"},
	{regexp.MustCompile(`^In SPIR-V N\.N or later, True Label and False Label must be different labels`), "R15"},
	{regexp.MustCompile(`^Maximum Control Flow nesting depth exceeded`), "R16"},
	{regexp.MustCompile(`^In entry points using the MaximallyReconvergesKHR execution mode`), "R17"},
	// A validator that predates SPV_KHR_maximal_reconvergence rejects
	// the execution mode itself (DISAGREEMENTS.md).
	{regexp.MustCompile(`^Invalid execution mode operand`), "R17"},
}

// ControlFlowRule returns the rule that a normalized spirv-val message
// (without its "spirv-val:" prefix) breaks, and whether the message is
// about structured control flow at all.
func ControlFlowRule(message string) (string, bool) {
	for _, m := range controlFlowMessages {
		if m.re.MatchString(message) {
			return m.rule, true
		}
	}
	return "", false
}
