// rules_parse.go: the block structure of a SPIR-V module as the structured
// rules checker (rules.go) sees it: each function with a body as a list of
// blocks in binary order, each block with its label, its merge instruction
// (where it sits, what follows it) and its terminator's targets in operand
// order. SPIR-V specification 2.4 (logical layout) and 2.2.5 (blocks).
//
// OpSwitch literals are one word unless the selector's type is a 64-bit
// integer: the parser tracks the ids whose type is one.

package oracle

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// ruleBlock is one block of a function.
type ruleBlock struct {
	label   uint32
	term    spirv.Op
	targets []uint32 // branch targets; OpSwitch: default first, then cases in order
	// mergeOp is OpSelectionMerge or OpLoopMerge when the block declares a
	// merge (wherever the instruction sits), else 0.
	mergeOp     spirv.Op
	merge, cont uint32
	// mergeAt is the merge instruction's distance from the terminator:
	// 1 when it is second to last (R13).
	mergeAt int
	// extraMerges counts further merge instructions in the block (R13).
	extraMerges int
}

// ruleFunc is one function with a body.
type ruleFunc struct {
	id     uint32
	blocks []ruleBlock
}

// ruleModule is what the checker needs of a module.
type ruleModule struct {
	version uint32
	src     *spirv.Module
	names   map[uint32]string // OpName by id, read from src on first use (nameOf)
	funcs   []ruleFunc
	// maximal lists the entry points that OpExecutionMode declares
	// MaximallyReconvergesKHR for (R17), in module order.
	maximal []uint32
}

// nameOf is the OpName of id: read only when a violation is reported.
func (rm *ruleModule) nameOf(id uint32) string {
	if rm.names == nil {
		rm.names = rm.src.Names()
	}
	return rm.names[id]
}

// MalformedError says a module's function bodies cannot be split into
// blocks (an instruction outside a block, a block without terminator, a
// branch to an id that labels no block of the function): the rules cannot
// be judged.
type MalformedError struct{ Msg string }

func (e *MalformedError) Error() string { return "malformed module: " + e.Msg }

// Opcodes emit/spirv does not name whose first operand is a decoration
// target or an entry point, never a result type.
const (
	opExecutionModeID      spirv.Op = 331
	opDecorateID           spirv.Op = 332
	opDecorateString       spirv.Op = 5632
	opMemberDecorateString spirv.Op = 5633
)

// executionModeMaximallyReconverges is MaximallyReconvergesKHR
// (SPV_KHR_maximal_reconvergence), the execution mode R17 applies under.
const executionModeMaximallyReconverges = 6023

// typedResult reports whether in has a result type (its first operand)
// and a result id (its second). An opcode emit/spirv names says so itself;
// any other is read as typed, the shape of nearly every opcode that
// computes a value, but for the decoration and execution mode opcodes
// above. Instructions whose first operand is a literal (OpSource's
// language, OpCapability) or their own result (OpTypeInt) are named, and
// untyped.
func typedResult(in *spirv.Instruction) bool {
	if len(in.Operands) < 2 {
		return false
	}
	if in.Op.Named() {
		_, ok := in.ResultType()
		return ok
	}
	switch in.Op {
	case spirv.OpDecorationGroup, spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate, opExecutionModeID,
		opDecorateID, opDecorateString, opMemberDecorateString:
		return false
	}
	return true
}

// wideValues returns the ids whose type is a 64-bit integer type.
func wideValues(m *spirv.Module) map[uint32]bool {
	wideTypes := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypeInt && len(in.Operands) >= 2 && in.Operands[1] == 64 {
			wideTypes[in.Operands[0]] = true
		}
	}
	if len(wideTypes) == 0 {
		return nil
	}
	wide := map[uint32]bool{}
	for i := range m.Insts {
		in := &m.Insts[i]
		if len(in.Operands) >= 2 && wideTypes[in.Operands[0]] && typedResult(in) {
			wide[in.Operands[1]] = true
		}
	}
	return wide
}

// parseRuleModule splits every function body into blocks.
func parseRuleModule(m *spirv.Module) (*ruleModule, error) {
	rm := &ruleModule{version: m.Version, src: m}
	var wide map[uint32]bool // wideValues(m), read at the first OpSwitch
	wideRead := false
	var nonSemantic map[uint32]bool // nonSemanticSets(m), read at the first OpExtInst between blocks
	var fn *ruleFunc
	var cur *ruleBlock
	sinceMerge := -1 // instructions since the block's merge instruction
	for i := range m.Insts {
		in := &m.Insts[i]
		if cur != nil && !splitsBlocks(in.Op) {
			// The bulk of a block (the default case below).
			if sinceMerge >= 0 {
				sinceMerge++
			}
			continue
		}
		switch {
		case in.Op == spirv.OpFunction:
			if fn != nil {
				return nil, &MalformedError{fmt.Sprintf("instruction %d: OpFunction inside function %%%d, which has no OpFunctionEnd", i, fn.id)}
			}
			id := uint32(0)
			if len(in.Operands) >= 2 {
				id = in.Operands[1]
			}
			rm.funcs = append(rm.funcs, ruleFunc{id: id})
			fn = &rm.funcs[len(rm.funcs)-1]
		case in.Op == spirv.OpFunctionEnd:
			if fn == nil {
				return nil, &MalformedError{fmt.Sprintf("instruction %d: OpFunctionEnd outside a function", i)}
			}
			if cur != nil {
				return nil, &MalformedError{fmt.Sprintf("instruction %d: OpFunctionEnd inside block %%%d, %s", i, cur.label, noTerminator(m, i))}
			}
			fn = nil
		case fn == nil:
			if in.Op == spirv.OpExecutionMode && len(in.Operands) >= 2 && in.Operands[1] == executionModeMaximallyReconverges {
				rm.maximal = append(rm.maximal, in.Operands[0])
			}
		case in.Op == spirv.OpLabel:
			if len(in.Operands) < 1 {
				return nil, &MalformedError{fmt.Sprintf("instruction %d: OpLabel without a result id", i)}
			}
			if cur != nil {
				return nil, &MalformedError{fmt.Sprintf("instruction %d: OpLabel %%%d inside block %%%d, %s", i, in.Operands[0], cur.label, noTerminator(m, i))}
			}
			fn.blocks = append(fn.blocks, ruleBlock{label: in.Operands[0]})
			cur = &fn.blocks[len(fn.blocks)-1]
			sinceMerge = -1
		case cur == nil:
			if in.Op == spirv.OpExtInst && nonSemantic == nil {
				nonSemantic = nonSemanticSets(m)
			}
			if !betweenBlocks(in, nonSemantic) {
				where := "before its first OpLabel"
				if k := len(fn.blocks); k > 0 {
					where = "after the terminator of block %" + itoa(fn.blocks[k-1].label)
				}
				return nil, &MalformedError{fmt.Sprintf("instruction %d: %s outside a block, in function %%%d %s", i, in.Op, fn.id, where)}
			}
		case in.Op == spirv.OpSelectionMerge || in.Op == spirv.OpLoopMerge:
			if err := cur.setMerge(*in, i); err != nil {
				return nil, err
			}
			sinceMerge = 0
		case spirv.IsTerminator(in.Op):
			if in.Op == spirv.OpSwitch && !wideRead {
				wide, wideRead = wideValues(m), true
			}
			if err := cur.setTerminator(*in, i, wide); err != nil {
				return nil, err
			}
			if sinceMerge >= 0 {
				cur.mergeAt = sinceMerge + 1
			}
			cur = nil
		default:
			if sinceMerge >= 0 {
				sinceMerge++
			}
		}
	}
	switch {
	case cur != nil:
		return nil, &MalformedError{fmt.Sprintf("the module ends inside block %%%d of function %%%d, %s", cur.label, fn.id, noTerminator(m, len(m.Insts)))}
	case fn != nil:
		return nil, &MalformedError{fmt.Sprintf("the module ends inside function %%%d, which has no OpFunctionEnd", fn.id)}
	}
	return rm, nil
}

// noTerminator says that the block before instruction i has no
// terminator, and names its last instruction: an opcode the parser does
// not know as a terminator shows there.
func noTerminator(m *spirv.Module, i int) string {
	return "which has no terminator (its last instruction is " + m.Insts[i-1].Op.String() + ")"
}

// betweenBlocks reports the instructions a function may hold outside its
// blocks: parameters, debug lines, and the instructions of non-semantic
// extended instruction sets (SPV_KHR_non_semantic_info; glslang's -gVS
// puts NonSemantic.Shader.DebugInfo.100's DebugNoLine before a function's
// first label).
func betweenBlocks(in *spirv.Instruction, nonSemantic map[uint32]bool) bool {
	switch in.Op {
	case spirv.OpFunctionParameter, spirv.OpLine, spirv.OpNoLine:
		return true
	case spirv.OpExtInst:
		return len(in.Operands) >= 3 && nonSemantic[in.Operands[2]]
	}
	return false
}

// nonSemanticSets returns the ids of the module's extended instruction
// set imports whose names start with "NonSemantic." (never nil).
func nonSemanticSets(m *spirv.Module) map[uint32]bool {
	sets := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpExtInstImport && len(in.Operands) >= 2 {
			if name, _ := spirv.ReadString(in.Operands[1:]); strings.HasPrefix(name, "NonSemantic.") {
				sets[in.Operands[0]] = true
			}
		}
	}
	return sets
}

// splitsBlocks reports the opcodes parseRuleModule looks at inside a
// block: function bounds, labels, merge instructions, terminators.
func splitsBlocks(op spirv.Op) bool {
	switch op {
	case spirv.OpFunction, spirv.OpFunctionEnd, spirv.OpLabel, spirv.OpSelectionMerge, spirv.OpLoopMerge:
		return true
	}
	return spirv.IsTerminator(op)
}

// setMerge records a merge instruction.
func (b *ruleBlock) setMerge(in spirv.Instruction, i int) error {
	if b.mergeOp != 0 {
		b.extraMerges++
		return nil
	}
	need := 1
	if in.Op == spirv.OpLoopMerge {
		need = 2
	}
	if len(in.Operands) < need {
		return &MalformedError{fmt.Sprintf("instruction %d: %s in block %%%d has %d operands, needs at least %d", i, in.Op, b.label, len(in.Operands), need)}
	}
	b.mergeOp, b.merge = in.Op, in.Operands[0]
	if in.Op == spirv.OpLoopMerge {
		b.cont = in.Operands[1]
	}
	return nil
}

// setTerminator records the terminator and its targets.
func (b *ruleBlock) setTerminator(in spirv.Instruction, i int, wide map[uint32]bool) error {
	b.term = in.Op
	ops := in.Operands
	bad := func(need int) error {
		return &MalformedError{fmt.Sprintf("instruction %d: %s in block %%%d has %d operands, needs at least %d", i, in.Op, b.label, len(ops), need)}
	}
	switch in.Op {
	case spirv.OpBranch:
		if len(ops) < 1 {
			return bad(1)
		}
		b.targets = ops[:1:1]
	case spirv.OpBranchConditional:
		if len(ops) < 3 {
			return bad(3)
		}
		b.targets = ops[1:3:3]
	case spirv.OpSwitch:
		if len(ops) < 2 {
			return bad(2)
		}
		step, width := 2, "not a 64-bit integer: its case literals take one word"
		if wide[ops[0]] {
			step, width = 3, "a 64-bit integer: its case literals take two words"
		}
		if (len(ops)-2)%step != 0 {
			return &MalformedError{fmt.Sprintf("instruction %d: OpSwitch in block %%%d has %d operands, not a selector, a default label and (literal, label) pairs: the selector %%%d is %s", i, b.label, len(ops), ops[0], width)}
		}
		b.targets = make([]uint32, 0, 1+(len(ops)-2)/step)
		b.targets = append(b.targets, ops[1])
		for k := 2 + step - 1; k < len(ops); k += step {
			b.targets = append(b.targets, ops[k])
		}
	}
	return nil
}
