// decode_fuzz_test.go: the native fuzz target FuzzDecode, Decode on any
// bytes (a module a structurizer answered with, or a file given to `cfgfuzz
// lint`) and the disassembly the findings store and the compare report
// print of it. Whatever the bytes, Decode returns a module or a
// *DecodeError whose word offset lies in the input, never a panic; a
// module re-encodes (Marshal, little-endian) to bytes that decode to the
// same module; its disassembly is one line an instruction (and a header
// line) and grows with the module, not faster. The seeds are modules in
// both byte orders; inputs the fuzzer found are kept under
// testdata/fuzz/FuzzDecode.
//
//	go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 150s -parallel 1 ./emit/spirv
package spirv

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sampleModule is a small module of the shapes the emitter writes: names,
// an entry point, a function of two blocks.
func sampleModule() *Module {
	return &Module{Version: 0x10300, Generator: 7, Bound: 12, Insts: []Instruction{
		{Op: OpCapability, Operands: []uint32{1}},
		{Op: OpMemoryModel, Operands: []uint32{0, 1}},
		{Op: OpEntryPoint, Operands: append(append([]uint32{5, 4}, String("main")...), 9)},
		{Op: OpName, Operands: append([]uint32{4}, String("main")...)},
		{Op: OpName, Operands: append([]uint32{6}, String("b0")...)},
		{Op: OpDecorate, Operands: []uint32{9, 11, 28}},
		{Op: OpTypeVoid, Operands: []uint32{2}},
		{Op: OpTypeFunction, Operands: []uint32{3, 2}},
		{Op: OpFunction, Operands: []uint32{2, 4, 0, 3}},
		{Op: OpLabel, Operands: []uint32{6}},
		{Op: OpBranch, Operands: []uint32{7}},
		{Op: OpLabel, Operands: []uint32{7}},
		{Op: OpReturn},
		{Op: OpFunctionEnd},
	}}
}

func FuzzDecode(f *testing.F) {
	b := sampleModule().Bytes()
	f.Add(b)
	be := make([]byte, len(b))
	for i := 0; i < len(b); i += 4 {
		binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(b[i:]))
	}
	f.Add(be)
	f.Add(b[:len(b)-4])
	f.Add(b[:len(b)-1])
	f.Add([]byte{})
	f.Add([]byte("not spirv at all"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || de.Word < 0 || de.Word > len(data)/4 || !strings.HasPrefix(err.Error(), "spirv: word ") {
				t.Fatalf("% x: error %v", data, err)
			}
			return
		}
		again, err := Decode(m.Bytes())
		if err != nil {
			t.Fatalf("% x decodes, re-encoded does not: %v", data, err)
		}
		if !reflect.DeepEqual(normalized(again), normalized(m)) {
			t.Fatalf("% x decodes to %+v, re-encoded to %+v", data, m, again)
		}
		text := Disassemble(m)
		if n := strings.Count(text, "\n"); n != len(m.Insts)+1 {
			t.Fatalf("% x: %d instructions disassemble to %d lines", data, len(m.Insts), n)
		}
		if len(text) > 64*len(data)+256 {
			t.Fatalf("% x: a %d-byte module disassembles to %d bytes", data, len(data), len(text))
		}
	})
}

// normalized is m with empty operand lists as nil.
func normalized(m *Module) *Module {
	c := *m
	c.Insts = make([]Instruction, len(m.Insts))
	for i, in := range m.Insts {
		if len(in.Operands) == 0 {
			in.Operands = nil
		}
		c.Insts[i] = in
	}
	return &c
}
