// spirvval_cgo.go: SPIRV-Tools' validator in-process through its C API
// (spirv-tools/libspirv.h: spvContextCreate, spvValidateBinary,
// spvDiagnosticDestroy, spvContextDestroy), about 30 times faster than the
// executable on small modules. Built with cgo only; spirvval_nocgo.go is the
// fallback. One LibValidator per worker: contexts are not shared.
//
//go:build cgo

package oracle

/*
#cgo LDFLAGS: -lSPIRV-Tools -lstdc++
#include <stdlib.h>
#include <spirv-tools/libspirv.h>
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
	env string
	ctx *libContext
}

// libContext owns one spv_context; a cleanup destroys it.
type libContext struct{ c C.spv_context }

// NewLibValidator creates a context for the target environment ("" means
// vulkan1.1, else any name spirv-val's --target-env accepts).
func NewLibValidator(env string) (*LibValidator, error) {
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
	v := &LibValidator{env: env, ctx: ctx}
	runtime.AddCleanup(v, func(c *libContext) { C.spvContextDestroy(c.c) }, ctx)
	return v, nil
}

// Name is "spirv-val (lib)".
func (v *LibValidator) Name() string { return "spirv-val (lib)" }

// Validate runs spvValidateBinary on the module's words.
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
