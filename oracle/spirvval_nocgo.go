// spirvval_nocgo.go: without cgo there is no in-process validator; the
// spirv-val executable stands in (spirvval_cgo.go is the default build).
//
//go:build !cgo

package oracle

import "errors"

// HaveLibValidator reports whether this build links libSPIRV-Tools.
const HaveLibValidator = false

// NewLibValidator fails: this build has no cgo.
func NewLibValidator(env string) (Validator, error) {
	return nil, errors.New("spirv-val: built without cgo, no in-process validator (use the executable)")
}

// NewNamedLibValidator fails: this build has no cgo.
func NewNamedLibValidator(env string) (Validator, error) {
	return NewLibValidator(env)
}

// LookupValidator returns the executable validator for env, or an error
// that says how to get one.
func LookupValidator(env string) (Validator, error) {
	return LookupExecValidator(env)
}

// ValidatorVersion is the version LookupValidator's validator reports:
// the first line of spirv-val --version.
func ValidatorVersion() string {
	return execValidatorVersion()
}
