// disasm.go: the text of a module for people (a findings store's
// module.spvasm and min.spvasm, a comparison's diff): SPIRV-Tools'
// disassembler where this build links the library (spirvval_cgo.go), the
// text spirv-dis prints, else emit/spirv's own (spirv.Disassemble), which
// knows only the opcodes the emitters write and prints enumerants as
// numbers.
//
// A structurizer under test names its ids as it likes: OpName strings of
// megabytes. spirv-dis prints a friendly name (the OpName made an
// identifier) at every use of its id, so such a module's text could be
// many times its size; ids are named in the text only when every OpName
// is short (at most 64 bytes: spirv.Module.NamesShort), which gives
// spirv-dis's text exactly, else the library prints numbered ids, each
// OpName's string once.

package oracle

import "github.com/cfgfuzz/cfgfuzz/emit/spirv"

// Disassemble is module's text: SPIRV-Tools' (libDisassemble) when the
// library decodes it, else emit/spirv's. An error says the module does
// not decode at all.
func Disassemble(module []byte) (string, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return "", err
	}
	if text, err := libDisassemble(module, m.NamesShort()); err == nil {
		return text, nil
	}
	return spirv.Disassemble(m), nil
}
