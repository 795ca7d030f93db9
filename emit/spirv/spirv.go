// Package spirv is the SPIR-V binary encoding shared by the emitter and the
// oracle: instructions as words, a module as a header plus instructions,
// encoding and decoding with errors that name the word offset, and a
// readable disassembly for debugging. It follows the SPIR-V specification,
// section 2.3 (physical layout) and the opcode numbers of the unified
// grammar; only the opcodes cfgfuzz and structured control flow need are
// named, every other opcode decodes and round-trips as raw words.
//
// Written by hand: no maintained Go library decodes SPIR-V, and the subset is
// small.
//
// spirv.go defines the constants, Instruction and Module.
package spirv

// Magic is the SPIR-V magic number.
const Magic = 0x07230203

// Version13 is SPIR-V 1.3 in the header's encoding.
const Version13 = 0x00010300

// Op is an opcode.
type Op uint16

// The opcodes cfgfuzz emits or inspects.
const (
	OpNop                   Op = 0
	OpUndef                 Op = 1
	OpSourceContinued       Op = 2
	OpSource                Op = 3
	OpSourceExtension       Op = 4
	OpName                  Op = 5
	OpMemberName            Op = 6
	OpString                Op = 7
	OpLine                  Op = 8
	OpExtension             Op = 10
	OpExtInstImport         Op = 11
	OpExtInst               Op = 12
	OpMemoryModel           Op = 14
	OpEntryPoint            Op = 15
	OpExecutionMode         Op = 16
	OpCapability            Op = 17
	OpTypeVoid              Op = 19
	OpTypeBool              Op = 20
	OpTypeInt               Op = 21
	OpTypeFloat             Op = 22
	OpTypeVector            Op = 23
	OpTypeArray             Op = 28
	OpTypeRuntimeArray      Op = 29
	OpTypeStruct            Op = 30
	OpTypePointer           Op = 32
	OpTypeFunction          Op = 33
	OpConstantTrue          Op = 41
	OpConstantFalse         Op = 42
	OpConstant              Op = 43
	OpConstantComposite     Op = 44
	OpConstantSampler       Op = 45
	OpConstantNull          Op = 46
	OpSpecConstantTrue      Op = 48
	OpSpecConstantFalse     Op = 49
	OpSpecConstant          Op = 50
	OpSpecConstantComposite Op = 51
	OpSpecConstantOp        Op = 52
	OpFunction              Op = 54
	OpFunctionParameter     Op = 55
	OpFunctionEnd           Op = 56
	OpFunctionCall          Op = 57
	OpVariable              Op = 59
	OpLoad                  Op = 61
	OpStore                 Op = 62
	OpAccessChain           Op = 65
	OpInBoundsAccessChain   Op = 66
	OpDecorate              Op = 71
	OpMemberDecorate        Op = 72
	OpDecorationGroup       Op = 73
	OpGroupDecorate         Op = 74
	OpGroupMemberDecorate   Op = 75
	OpCompositeExtract      Op = 81
	OpCopyObject            Op = 83
	OpBitcast               Op = 124
	OpSNegate               Op = 126
	OpIAdd                  Op = 128
	OpISub                  Op = 130
	OpIMul                  Op = 132
	OpUDiv                  Op = 134
	OpSDiv                  Op = 135
	OpUMod                  Op = 137
	OpSRem                  Op = 138
	OpSMod                  Op = 139
	OpLogicalEqual          Op = 164
	OpLogicalNotEqual       Op = 165
	OpLogicalOr             Op = 166
	OpLogicalAnd            Op = 167
	OpLogicalNot            Op = 168
	OpSelect                Op = 169
	OpIEqual                Op = 170
	OpINotEqual             Op = 171
	OpUGreaterThan          Op = 172
	OpSGreaterThan          Op = 173
	OpUGreaterThanEqual     Op = 174
	OpSGreaterThanEqual     Op = 175
	OpULessThan             Op = 176
	OpSLessThan             Op = 177
	OpULessThanEqual        Op = 178
	OpSLessThanEqual        Op = 179
	OpShiftRightLogical     Op = 194
	OpShiftRightArithmetic  Op = 195
	OpShiftLeftLogical      Op = 196
	OpBitwiseOr             Op = 197
	OpBitwiseXor            Op = 198
	OpBitwiseAnd            Op = 199
	OpNot                   Op = 200
	OpAtomicIAdd            Op = 234
	OpPhi                   Op = 245
	OpLoopMerge             Op = 246
	OpSelectionMerge        Op = 247
	OpLabel                 Op = 248
	OpBranch                Op = 249
	OpBranchConditional     Op = 250
	OpSwitch                Op = 251
	OpKill                  Op = 252
	OpReturn                Op = 253
	OpReturnValue           Op = 254
	OpUnreachable           Op = 255
	OpNoLine                Op = 317
	OpModuleProcessed       Op = 330
	OpTerminateInvocation   Op = 4416
	OpIgnoreIntersection    Op = 4448 // OpIgnoreIntersectionKHR, SPV_KHR_ray_tracing
	OpTerminateRay          Op = 4449 // OpTerminateRayKHR, SPV_KHR_ray_tracing
	OpEmitMeshTasks         Op = 5294 // OpEmitMeshTasksEXT, SPV_EXT_mesh_shader
	OpDemoteToHelper        Op = 5380 // not a terminator; listed for names
)

// Enumerants used by the module convention.
const (
	CapabilityShader             = 1
	AddressingLogical            = 0
	MemoryGLSL450                = 1
	ExecutionModelGLCompute      = 5
	ExecutionModeLocalSize       = 17
	StorageInput                 = 1
	StoragePrivate               = 6
	StorageFunction              = 7
	StorageStorageBuffer         = 12
	DecorationBlock              = 2
	DecorationArrayStride        = 6
	DecorationBuiltIn            = 11
	DecorationBinding            = 33
	DecorationDescriptorSet      = 34
	DecorationOffset             = 35
	DecorationRelaxedPrecision   = 0
	DecorationNoSignedWrap       = 4469
	DecorationNoUnsignedWrap     = 4470
	BuiltInGlobalInvocationID    = 28
	BuiltInLocalInvocationIndex  = 29
	FunctionControlNone          = 0
	SelectionControlNone         = 0
	LoopControlNone              = 0
	MemorySemanticsNone          = 0
	ScopeDevice                  = 1
	ScopeInvocation              = 4
	SourceLanguageUnknown        = 0
	ExecutionModeOriginUpperLeft = 7
)

// Instruction is one instruction: its opcode and its operand words (the
// word count and opcode word excluded).
type Instruction struct {
	Op       Op
	Operands []uint32
}

// Words is the instruction's length in words, the first word included.
func (in Instruction) Words() int { return 1 + len(in.Operands) }

// Module is a decoded SPIR-V module.
type Module struct {
	Version   uint32
	Generator uint32
	Bound     uint32
	Schema    uint32
	Insts     []Instruction
}

// IsTerminator reports whether op ends a block: the branches, and the
// function exits of IsFunctionExit.
func IsTerminator(op Op) bool {
	switch op {
	case OpBranch, OpBranchConditional, OpSwitch:
		return true
	}
	return IsFunctionExit(op)
}

// IsFunctionExit reports whether op leaves the function (post-dominance in
// the SPIR-V sense runs towards these): the returns and the unified
// grammar's other terminators without a target, OpKill, OpUnreachable,
// OpTerminateInvocation, and the ray tracing and mesh shading extensions'
// OpIgnoreIntersectionKHR, OpTerminateRayKHR and OpEmitMeshTasksEXT.
func IsFunctionExit(op Op) bool {
	switch op {
	case OpReturn, OpReturnValue, OpKill, OpUnreachable, OpTerminateInvocation,
		OpIgnoreIntersection, OpTerminateRay, OpEmitMeshTasks:
		return true
	}
	return false
}
