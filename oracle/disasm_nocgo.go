// disasm_nocgo.go: without cgo there is no SPIRV-Tools disassembler in
// process; Disassemble uses emit/spirv's (disasm.go).
//
//go:build !cgo

package oracle

import "errors"

// libDisassemble fails: this build has no cgo.
func libDisassemble(module []byte, friendly bool) (string, error) {
	return "", errors.New("built without cgo: no SPIRV-Tools disassembler")
}
