// spirvval_cgo.go: SPIRV-Tools' validator in-process through its C API
// (spirv-tools/libspirv.h: spvContextCreate, spvValidateWithOptions,
// spvValidateBinary, spvDiagnosticDestroy, spvContextDestroy), about 30
// times faster than the executable on small modules; and its disassembler
// (spvBinaryToText, spvTextDestroy) for disasm.go, as spirv-dis runs it:
// indented, with its header comment. (One file: the C header defines a
// constant, which two cgo files including it would define twice.) Built with cgo only;
// spirvval_nocgo.go is the fallback. One LibValidator per worker: contexts
// are not shared.
//
// A module is validated first with friendly names off
// (spvValidatorOptionsSetFriendlyNames): the names only word the messages,
// and building them parses the whole module a second time, about a third
// of the validator's instructions on campaign modules. A module that pass
// rejects is validated again as the spirv-val executable does, with names,
// and that pass gives the verdict and the message.
//
//go:build cgo

package oracle

/*
#cgo LDFLAGS: -lSPIRV-Tools -lstdc++
#include <stdlib.h>
#include <spirv-tools/libspirv.h>

// validateQuiet validates words with options, no diagnostic: the binary's
// descriptor lives on C's stack, so no Go memory holds a Go pointer.
static spv_result_t validateQuiet(spv_const_context ctx, spv_const_validator_options opt, const uint32_t* words, size_t count) {
	spv_const_binary_t bin = {words, count};
	return spvValidateWithOptions(ctx, opt, &bin, NULL);
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// HaveLibValidator reports whether this build links libSPIRV-Tools.
const HaveLibValidator = true

// LibValidator validates through libSPIRV-Tools in-process. It is not safe
// for concurrent use: give each worker its own.
type LibValidator struct {
	env   string
	ctx   *libContext
	named bool // every module in one pass with friendly names, as the executable
}

// libContext owns one spv_context and the validator options of the first,
// quiet pass (friendly names off); a cleanup destroys both.
type libContext struct {
	c     C.spv_context
	quiet C.spv_validator_options
}

// NewLibValidator creates a context for the target environment ("" means
// vulkan1.1, else any name spirv-val's --target-env accepts).
func NewLibValidator(env string) (*LibValidator, error) {
	return newLibValidator(env, false)
}

// NewNamedLibValidator is NewLibValidator validating every module in one
// pass with friendly names, as the spirv-val executable runs: the same
// verdicts and messages, slower on valid modules (the throughput
// benchmark's baseline).
func NewNamedLibValidator(env string) (*LibValidator, error) {
	return newLibValidator(env, true)
}

func newLibValidator(env string, named bool) (*LibValidator, error) {
	if env == "" {
		env = DefaultTargetEnv
	}
	cs := C.CString(env)
	defer C.free(unsafe.Pointer(cs))
	var te C.spv_target_env
	if !C.spvParseTargetEnv(cs, &te) {
		return nil, fmt.Errorf("spirv-val: unknown target environment %q", env)
	}
	ctx := &libContext{c: C.spvContextCreate(te)}
	if ctx.c == nil {
		return nil, fmt.Errorf("spirv-val: cannot create a SPIRV-Tools context for %s", env)
	}
	ctx.quiet = C.spvValidatorOptionsCreate()
	C.spvValidatorOptionsSetFriendlyNames(ctx.quiet, false)
	v := &LibValidator{env: env, ctx: ctx, named: named}
	runtime.AddCleanup(v, func(c *libContext) {
		C.spvValidatorOptionsDestroy(c.quiet)
		C.spvContextDestroy(c.c)
	}, ctx)
	return v, nil
}

// Name is "spirv-val (lib)".
func (v *LibValidator) Name() string { return "spirv-val (lib)" }

// Validate runs SPIRV-Tools' validator on the module's words: the quiet
// pass, then, for a module it rejects (or for every module of a named
// validator), the pass with friendly names that gives the verdict and the
// message.
func (v *LibValidator) Validate(module []byte) (bool, string, error) {
	if len(module) < 20 || len(module)%4 != 0 {
		return false, fmt.Sprintf("error: invalid binary: %d bytes is not a SPIR-V module", len(module)), nil
	}
	// The module's bytes go to C as they are (cgo lets C read Go memory
	// that holds no Go pointers during the call) when they are aligned for
	// uint32 reads; else through a copy in C memory.
	words := unsafe.Pointer(&module[0])
	if uintptr(words)%4 != 0 {
		c := C.malloc(C.size_t(len(module)))
		defer C.free(c)
		copy(unsafe.Slice((*byte)(c), len(module)), module)
		words = c
	}
	if !v.named && C.validateQuiet(C.spv_const_context(v.ctx.c), C.spv_const_validator_options(v.ctx.quiet), (*C.uint32_t)(words), C.size_t(len(module)/4)) == C.SPV_SUCCESS {
		runtime.KeepAlive(v)
		runtime.KeepAlive(module)
		return true, "", nil
	}
	var diag C.spv_diagnostic
	res := C.spvValidateBinary(C.spv_const_context(v.ctx.c), (*C.uint32_t)(words), C.size_t(len(module)/4), &diag)
	runtime.KeepAlive(v)
	runtime.KeepAlive(module)
	msg := ""
	if diag != nil {
		if diag.error != nil {
			msg = strings.TrimSpace(C.GoString(diag.error))
		}
		C.spvDiagnosticDestroy(diag)
	}
	if res == C.SPV_SUCCESS {
		return true, "", nil
	}
	if msg == "" {
		msg = fmt.Sprintf("spvValidateBinary result %d", int(res))
	}
	return false, "error: " + msg, nil
}

// LookupValidator returns the in-process validator for env.
func LookupValidator(env string) (Validator, error) {
	return NewLibValidator(env)
}

// ValidatorVersion is the version LookupValidator's validator reports:
// libSPIRV-Tools' spvSoftwareVersionDetailsString, the line spirv-val
// --version prints first ("SPIRV-Tools v2023.1 unknown hash, DATE").
func ValidatorVersion() string {
	return strings.TrimSpace(C.GoString(C.spvSoftwareVersionDetailsString()))
}

// libDisassemble is SPIRV-Tools' text of module (any SPIR-V version up to
// 1.6), its ids by friendly names when friendly.
func libDisassemble(module []byte, friendly bool) (string, error) {
	if len(module) < 20 || len(module)%4 != 0 {
		return "", fmt.Errorf("%d bytes is not a SPIR-V module", len(module))
	}
	ctx := C.spvContextCreate(C.SPV_ENV_UNIVERSAL_1_6)
	if ctx == nil {
		return "", fmt.Errorf("cannot create a SPIRV-Tools context")
	}
	defer C.spvContextDestroy(ctx)
	words := C.malloc(C.size_t(len(module))) // aligned for uint32 reads
	defer C.free(words)
	copy(unsafe.Slice((*byte)(words), len(module)), module)
	options := C.uint32_t(C.SPV_BINARY_TO_TEXT_OPTION_INDENT)
	if friendly {
		options |= C.SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES
	}
	var text C.spv_text
	var diag C.spv_diagnostic
	res := C.spvBinaryToText(C.spv_const_context(ctx), (*C.uint32_t)(words), C.size_t(len(module)/4), options, &text, &diag)
	runtime.KeepAlive(module)
	if diag != nil {
		defer C.spvDiagnosticDestroy(diag)
	}
	if res != C.SPV_SUCCESS || text == nil {
		msg := fmt.Sprintf("spvBinaryToText result %d", int(res))
		if diag != nil && diag.error != nil {
			msg = strings.TrimSpace(C.GoString(diag.error))
		}
		return "", fmt.Errorf("disassembly: %s", msg)
	}
	defer C.spvTextDestroy(text)
	return C.GoStringN(text.str, C.int(text.length)), nil
}
