// interp_array_test.go: a module that holds its Function words (route
// variables, the register file, the checksum) in one Function array read
// and written through access chains, which the module convention allows,
// runs on the interpreter like the same module with a variable a word; an
// index past the array traps, and a load of the whole array is a harness
// limit, not a finding.
package oracle

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// wordsInArray rewrites m: every Function variable of one word becomes an
// element of one Function array of length words (at least their number),
// its pointer an OpAccessChain in the entry block; shift moves every
// element's index (for an out-of-bounds module). It returns the number of
// words moved.
func wordsInArray(t *testing.T, m *spirv.Module, length, shift uint32) int {
	t.Helper()
	var uintT, ptrFn uint32
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0:
			uintT = in.Operands[0]
		case in.Op == spirv.OpTypePointer && in.Operands[1] == spirv.StorageFunction && in.Operands[2] == uintT && uintT != 0:
			ptrFn = in.Operands[0]
		}
	}
	if ptrFn == 0 {
		t.Fatal("module without a Function word pointer type")
	}
	next := func() uint32 { m.Bound++; return m.Bound - 1 }
	var vars []uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpVariable && in.Operands[0] == ptrFn && in.Operands[2] == spirv.StorageFunction {
			if len(in.Operands) > 3 {
				t.Fatal("initialized Function variable")
			}
			vars = append(vars, in.Operands[1])
		}
	}
	if uint32(len(vars)) > length {
		t.Fatalf("%d words for an array of %d", len(vars), length)
	}
	lenC, arrT, ptrArr, arr := next(), next(), next(), next()
	decls := []spirv.Instruction{{Op: spirv.OpConstant, Operands: []uint32{uintT, lenC, length}}}
	var chains []spirv.Instruction
	for i, v := range vars {
		c := next()
		decls = append(decls, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{uintT, c, uint32(i) + shift}})
		chains = append(chains, spirv.Instruction{Op: spirv.OpAccessChain, Operands: []uint32{ptrFn, v, arr, c}})
	}
	decls = append(decls,
		spirv.Instruction{Op: spirv.OpTypeArray, Operands: []uint32{arrT, uintT, lenC}},
		spirv.Instruction{Op: spirv.OpTypePointer, Operands: []uint32{ptrArr, spirv.StorageFunction, arrT}})
	var out []spirv.Instruction
	placed, inFunc := false, false
	for k, in := range m.Insts {
		switch {
		case in.Op == spirv.OpFunction && !inFunc && !placed:
			out = append(out, decls...)
			inFunc = true
		case in.Op == spirv.OpVariable && slices.Contains(vars, in.Operands[1]):
			continue
		}
		out = append(out, in)
		if in.Op == spirv.OpLabel && !placed && len(vars) > 0 && ownsVars(m.Insts[k+1:], vars[0]) {
			out = append(out, spirv.Instruction{Op: spirv.OpVariable, Operands: []uint32{ptrArr, arr, spirv.StorageFunction}})
			out = append(out, chains...)
			placed = true
		}
	}
	if !placed {
		t.Fatal("no block declares the Function words")
	}
	m.Insts = out
	return len(vars)
}

// ownsVars reports whether the block starting at insts declares variable v.
func ownsVars(insts []spirv.Instruction, v uint32) bool {
	for _, in := range insts {
		if in.Op != spirv.OpVariable {
			return false
		}
		if in.Operands[1] == v {
			return true
		}
	}
	return false
}

func TestFunctionArrayOfWordsRuns(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {4, 1}, {}})
	const registers = 8
	mod, err := spirv.Decode(registerModule(t, g, "dispatch", registers))
	if err != nil {
		t.Fatal(err)
	}
	n := wordsInArray(t, mod, 16, 0)
	if n < registers {
		t.Fatalf("%d Function words moved into the array, want at least the %d registers", n, registers)
	}
	o, err := New(Options{Checks: []string{"spirv-val", "exec"}, Walks: WalkOptions{Seed: 7, Registers: registers}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range o.Check(&Subject{Graph: g, Module: mod.Bytes()}) {
		if v.Status != Pass {
			t.Errorf("%s: %s %s %s", v.Check, v.Status, v.Signature, v.Detail)
		}
	}

	// The same module with every index one further: the last word is
	// past the array, a trap.
	mod, err = spirv.Decode(registerModule(t, g, "dispatch", registers))
	if err != nil {
		t.Fatal(err)
	}
	wordsInArray(t, mod, uint32(n), 1)
	r := CompareWalks(Interpreter{}, mod.Bytes(), Walks(g, WalkOptions{Seed: 7, Registers: registers}))
	if r.Signature != "trap" {
		t.Errorf("index past the array: signature %q (harness %v), want trap", r.Signature, r.Harness)
	}
}

// TestWholeArrayLoadIsNoTrap: loading a whole array (a value the
// interpreter does not model) is a harness limit.
func TestWholeArrayLoadIsNoTrap(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {}, {}})
	mod, err := spirv.Decode(registerModule(t, g, "dispatch", 2))
	if err != nil {
		t.Fatal(err)
	}
	wordsInArray(t, mod, 8, 0)
	var arr, arrT, ptrArr uint32
	for _, in := range mod.Insts {
		switch {
		case in.Op == spirv.OpTypeArray:
			arrT = in.Operands[0]
		case in.Op == spirv.OpTypePointer && in.Operands[2] == arrT && arrT != 0:
			ptrArr = in.Operands[0]
		case in.Op == spirv.OpVariable && in.Operands[0] == ptrArr && ptrArr != 0:
			arr = in.Operands[1]
		}
	}
	for i, in := range mod.Insts {
		if in.Op == spirv.OpAccessChain && in.Operands[2] == arr {
			load := spirv.Instruction{Op: spirv.OpLoad, Operands: []uint32{arrT, mod.Bound, arr}}
			mod.Bound++
			mod.Insts = slices.Insert(mod.Insts, i, load)
			break
		}
	}
	r := CompareWalks(Interpreter{}, mod.Bytes(), Walks(g, WalkOptions{Seed: 7, Registers: 2}))
	var unsupported *UnsupportedError
	if r.Signature != "" || !errors.As(r.Harness, &unsupported) {
		t.Fatalf("signature %q, harness %v: want a harness error", r.Signature, r.Harness)
	}
}
