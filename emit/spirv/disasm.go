// disasm.go: a readable disassembly in the style of spirv-dis (%name = OpX
// operands), using OpName for ids, for debugging and for reports. Opcodes
// outside the named subset print their raw operand words.

package spirv

import (
	"fmt"
	"strings"
)

// opInfo says how an opcode's operands start.
type opInfo struct {
	name      string
	hasType   bool // operand 0 is a result type
	hasResult bool // next operand is a result id
}

var opInfos = map[Op]opInfo{
	OpNop: {"OpNop", false, false}, OpUndef: {"OpUndef", true, true},
	OpSourceContinued: {"OpSourceContinued", false, false}, OpSourceExtension: {"OpSourceExtension", false, false},
	OpSource: {"OpSource", false, false}, OpName: {"OpName", false, false},
	OpMemberName: {"OpMemberName", false, false}, OpString: {"OpString", false, true},
	OpLine: {"OpLine", false, false}, OpExtension: {"OpExtension", false, false},
	OpExtInstImport: {"OpExtInstImport", false, true}, OpExtInst: {"OpExtInst", true, true},
	OpMemoryModel: {"OpMemoryModel", false, false}, OpEntryPoint: {"OpEntryPoint", false, false},
	OpExecutionMode: {"OpExecutionMode", false, false}, OpCapability: {"OpCapability", false, false},
	OpTypeVoid: {"OpTypeVoid", false, true}, OpTypeBool: {"OpTypeBool", false, true},
	OpTypeInt: {"OpTypeInt", false, true}, OpTypeFloat: {"OpTypeFloat", false, true},
	OpTypeVector: {"OpTypeVector", false, true}, OpTypeArray: {"OpTypeArray", false, true},
	OpTypeRuntimeArray: {"OpTypeRuntimeArray", false, true}, OpTypeStruct: {"OpTypeStruct", false, true},
	OpTypePointer: {"OpTypePointer", false, true}, OpTypeFunction: {"OpTypeFunction", false, true},
	OpConstantTrue: {"OpConstantTrue", true, true}, OpConstantFalse: {"OpConstantFalse", true, true},
	OpConstant: {"OpConstant", true, true}, OpConstantComposite: {"OpConstantComposite", true, true},
	OpConstantNull: {"OpConstantNull", true, true}, OpFunction: {"OpFunction", true, true},
	OpSpecConstantTrue: {"OpSpecConstantTrue", true, true}, OpSpecConstantFalse: {"OpSpecConstantFalse", true, true},
	OpSpecConstant:    {"OpSpecConstant", true, true},
	OpConstantSampler: {"OpConstantSampler", true, true}, OpSpecConstantComposite: {"OpSpecConstantComposite", true, true},
	OpSpecConstantOp:    {"OpSpecConstantOp", true, true},
	OpFunctionParameter: {"OpFunctionParameter", true, true}, OpFunctionEnd: {"OpFunctionEnd", false, false},
	OpFunctionCall: {"OpFunctionCall", true, true}, OpVariable: {"OpVariable", true, true},
	OpLoad: {"OpLoad", true, true}, OpStore: {"OpStore", false, false},
	OpAccessChain: {"OpAccessChain", true, true}, OpInBoundsAccessChain: {"OpInBoundsAccessChain", true, true},
	OpDecorate: {"OpDecorate", false, false}, OpMemberDecorate: {"OpMemberDecorate", false, false},
	OpCompositeExtract: {"OpCompositeExtract", true, true}, OpCopyObject: {"OpCopyObject", true, true},
	OpBitcast: {"OpBitcast", true, true}, OpSNegate: {"OpSNegate", true, true},
	OpSDiv: {"OpSDiv", true, true}, OpSRem: {"OpSRem", true, true}, OpSMod: {"OpSMod", true, true},
	OpShiftRightArithmetic: {"OpShiftRightArithmetic", true, true},
	OpIAdd:                 {"OpIAdd", true, true}, OpISub: {"OpISub", true, true}, OpIMul: {"OpIMul", true, true},
	OpUDiv: {"OpUDiv", true, true}, OpUMod: {"OpUMod", true, true},
	OpLogicalEqual: {"OpLogicalEqual", true, true}, OpLogicalNotEqual: {"OpLogicalNotEqual", true, true},
	OpLogicalOr: {"OpLogicalOr", true, true}, OpLogicalAnd: {"OpLogicalAnd", true, true},
	OpLogicalNot: {"OpLogicalNot", true, true}, OpSelect: {"OpSelect", true, true},
	OpIEqual: {"OpIEqual", true, true}, OpINotEqual: {"OpINotEqual", true, true},
	OpUGreaterThan: {"OpUGreaterThan", true, true}, OpSGreaterThan: {"OpSGreaterThan", true, true},
	OpUGreaterThanEqual: {"OpUGreaterThanEqual", true, true}, OpSGreaterThanEqual: {"OpSGreaterThanEqual", true, true},
	OpULessThan: {"OpULessThan", true, true}, OpSLessThan: {"OpSLessThan", true, true},
	OpULessThanEqual: {"OpULessThanEqual", true, true}, OpSLessThanEqual: {"OpSLessThanEqual", true, true},
	OpShiftRightLogical: {"OpShiftRightLogical", true, true}, OpShiftLeftLogical: {"OpShiftLeftLogical", true, true},
	OpBitwiseOr: {"OpBitwiseOr", true, true}, OpBitwiseXor: {"OpBitwiseXor", true, true},
	OpBitwiseAnd: {"OpBitwiseAnd", true, true}, OpNot: {"OpNot", true, true},
	OpAtomicIAdd: {"OpAtomicIAdd", true, true}, OpPhi: {"OpPhi", true, true},
	OpLoopMerge: {"OpLoopMerge", false, false}, OpSelectionMerge: {"OpSelectionMerge", false, false},
	OpLabel: {"OpLabel", false, true}, OpBranch: {"OpBranch", false, false},
	OpBranchConditional: {"OpBranchConditional", false, false}, OpSwitch: {"OpSwitch", false, false},
	OpKill: {"OpKill", false, false}, OpReturn: {"OpReturn", false, false},
	OpReturnValue: {"OpReturnValue", false, false}, OpUnreachable: {"OpUnreachable", false, false},
	OpNoLine: {"OpNoLine", false, false}, OpModuleProcessed: {"OpModuleProcessed", false, false},
	OpTerminateInvocation: {"OpTerminateInvocation", false, false},
	OpIgnoreIntersection:  {"OpIgnoreIntersectionKHR", false, false}, OpTerminateRay: {"OpTerminateRayKHR", false, false},
	OpEmitMeshTasks: {"OpEmitMeshTasksEXT", false, false},
}

func (op Op) String() string {
	if info, ok := opInfos[op]; ok {
		return info.name
	}
	return fmt.Sprintf("Op%d", uint16(op))
}

// resultShapes is opInfos' typing as a dense table by opcode (the opcodes
// opInfos knows are below 512 but a few): ResultID and ResultType run once
// an instruction on the checks' paths.
var resultShapes = func() (t [512]struct{ known, hasType, hasResult bool }) {
	for op, info := range opInfos {
		if int(op) < len(t) {
			t[op] = struct{ known, hasType, hasResult bool }{true, info.hasType, info.hasResult}
		}
	}
	return t
}()

// Named reports whether the package knows op's name and operand shape
// (String prints any other opcode by number).
func (op Op) Named() bool {
	_, ok := opInfos[op]
	return ok
}

// shape is in's entry of resultShapes, or of opInfos past the table.
func (in Instruction) shape() (hasType, hasResult, known bool) {
	if int(in.Op) >= len(resultShapes) {
		info, ok := opInfos[in.Op]
		return info.hasType, info.hasResult, ok
	}
	s := resultShapes[in.Op]
	return s.hasType, s.hasResult, s.known
}

// ResultID returns the instruction's result id, if its opcode is known to
// have one.
func (in Instruction) ResultID() (uint32, bool) {
	hasType, hasResult, ok := in.shape()
	info := opInfo{hasType: hasType, hasResult: hasResult}
	if !ok || !info.hasResult {
		return 0, false
	}
	i := 0
	if info.hasType {
		i = 1
	}
	if i >= len(in.Operands) {
		return 0, false
	}
	return in.Operands[i], true
}

// ResultType returns the instruction's result type id, if its opcode is
// known to have one.
func (in Instruction) ResultType() (uint32, bool) {
	hasType, _, ok := in.shape()
	info := opInfo{hasType: hasType}
	if !ok || !info.hasType || len(in.Operands) == 0 {
		return 0, false
	}
	return in.Operands[0], true
}

// LargestResultID is the largest result id or result type id of the
// instructions whose opcodes are known (ResultID, ResultType), 0 for none.
func (m *Module) LargestResultID() uint32 {
	largest := uint32(0)
	for i := range m.Insts {
		in := &m.Insts[i]
		var hasType, hasResult bool
		if int(in.Op) < len(resultShapes) {
			sh := &resultShapes[in.Op]
			hasType, hasResult = sh.hasType, sh.hasResult
		} else {
			hasType, hasResult, _ = in.shape()
		}
		k := 0
		if hasType {
			if len(in.Operands) == 0 {
				continue
			}
			largest = max(largest, in.Operands[0])
			k = 1
		}
		if hasResult && k < len(in.Operands) {
			largest = max(largest, in.Operands[k])
		}
	}
	return largest
}

// Names maps ids to their OpName strings.
func (m *Module) Names() map[uint32]string {
	names := map[uint32]string{}
	for _, in := range m.Insts {
		if in.Op == OpName && len(in.Operands) >= 1 {
			s, _ := ReadString(in.Operands[1:])
			names[in.Operands[0]] = s
		}
	}
	return names
}

// maxIDName is the longest OpName Disassemble prints in place of an id.
const maxIDName = 64

// NamesShort says whether every OpName of m is at most maxIDName bytes
// long: a disassembler that makes each an identifier printed at every use
// of its id gives a text a small factor of the module's size.
func (m *Module) NamesShort() bool {
	for _, in := range m.Insts {
		if in.Op == OpName && len(in.Operands) > 1 {
			if s, _ := ReadString(in.Operands[1:]); len(s) > maxIDName {
				return false
			}
		}
	}
	return true
}

// PrintableName says whether an OpName prints in place of its id: a name of
// letters, digits, '_' and '.' of at most maxIDName bytes. Any other (a
// structurizer's own, with a newline or a space, or of megabytes) prints
// as the id's number, so that the listing stays one line an instruction
// and its size a small factor of the module's; OpName itself still
// quotes it.
func PrintableName(n string) bool {
	if n == "" || len(n) > maxIDName {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// Disassemble prints the module one instruction a line.
func Disassemble(m *Module) string {
	names := m.Names()
	id := func(x uint32) string {
		if n, ok := names[x]; ok && PrintableName(n) {
			return "%" + n
		}
		return fmt.Sprintf("%%%d", x)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "; SPIR-V %d.%d, generator 0x%08x, bound %d\n", m.Version>>16&0xff, m.Version>>8&0xff, m.Generator, m.Bound)
	for _, in := range m.Insts {
		info, known := opInfos[in.Op]
		ops := in.Operands
		prefix := "               "
		if r, ok := in.ResultID(); ok {
			prefix = fmt.Sprintf("%14s = ", id(r))
		}
		sb.WriteString(prefix)
		sb.WriteString(in.Op.String())
		if known && info.hasType && len(ops) > 0 {
			sb.WriteString(" " + id(ops[0]))
			ops = ops[1:]
		}
		if known && info.hasResult && len(ops) > 0 {
			ops = ops[1:]
		}
		sb.WriteString(formatOperands(in.Op, ops, id))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// leadingIDs is how many ids lead the operands (after result type and
// id) of an opcode whose others are literals; 0 for one absent.
var leadingIDs = map[Op]int{OpLoopMerge: 2, OpSelectionMerge: 1, OpDecorate: 1, OpMemberDecorate: 1, OpExecutionMode: 1,
	OpTypeVector: 1, OpLine: 1, OpLoad: 1, OpStore: 2, OpCompositeExtract: 1, OpExtInst: 1}

// formatOperands prints the operands after result type and id: labels and
// ids as %names, literals as numbers, strings quoted.
func formatOperands(op Op, ops []uint32, id func(uint32) string) string {
	var sb strings.Builder
	lit := func(x uint32) { fmt.Fprintf(&sb, " %d", x) }
	ref := func(x uint32) { sb.WriteString(" " + id(x)) }
	switch op {
	case OpName:
		if len(ops) > 0 {
			ref(ops[0])
			s, _ := ReadString(ops[1:])
			fmt.Fprintf(&sb, " %q", s)
		}
	case OpEntryPoint:
		if len(ops) >= 2 {
			lit(ops[0])
			ref(ops[1])
			s, n := ReadString(ops[2:])
			fmt.Fprintf(&sb, " %q", s)
			for _, x := range ops[2+n:] {
				ref(x)
			}
		}
	case OpExtension, OpExtInstImport, OpString, OpSourceExtension, OpModuleProcessed:
		s, _ := ReadString(ops)
		fmt.Fprintf(&sb, " %q", s)
	case OpMemberName:
		if len(ops) >= 2 {
			ref(ops[0])
			lit(ops[1])
			s, _ := ReadString(ops[2:])
			fmt.Fprintf(&sb, " %q", s)
		}
	case OpConstant, OpTypeInt, OpTypeFloat, OpCapability, OpMemoryModel, OpSource,
		OpLoopMerge, OpSelectionMerge, OpDecorate, OpMemberDecorate, OpExecutionMode,
		OpTypeVector, OpLine, OpLoad, OpStore, OpCompositeExtract, OpExtInst:
		// Leading ids, then literals (a component count, a line and
		// column, memory operands, indices; OpExtInst's instruction
		// number, then ids again).
		nIDs := leadingIDs[op]
		for i, x := range ops {
			if i < nIDs || op == OpExtInst && i > 1 {
				ref(x)
			} else {
				lit(x)
			}
		}
	case OpSwitch:
		for i, x := range ops {
			if i < 2 || i%2 == 1 {
				ref(x)
			} else {
				lit(x)
			}
		}
	case OpTypePointer, OpVariable, OpFunction:
		for i, x := range ops {
			if i == 0 {
				lit(x)
			} else {
				ref(x)
			}
		}
	default:
		for _, x := range ops {
			ref(x)
		}
	}
	return sb.String()
}
