// interp_vector_test.go: the interpreter holds one vector, the invocation
// id a load of GlobalInvocationId gives. A valid module that computes on
// a vector, loads one from a variable, or reads another built-in (an
// Input variable the interpreter does not give) is a harness limit
// (UnsupportedError): never a trap, never an undefined load, which would
// fail a correct module.
package oracle

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// withInvocationID returns a copy of m whose load of the invocation id
// (the vector load the first OpCompositeExtract reads) is rewritten by
// change, which is given the module's next free ids, the vector type and
// the Input pointer type, and returns declarations to insert before the
// first function and instructions to insert before the extraction.
func withInvocationID(t *testing.T, m *spirv.Module, change func(load, extract *spirv.Instruction, vec, inputPtr uint32, id func() uint32) (decls, before []spirv.Instruction)) []byte {
	t.Helper()
	c := &spirv.Module{Version: m.Version, Generator: m.Generator, Bound: m.Bound, Schema: m.Schema, Insts: slices.Clone(m.Insts)}
	for i := range c.Insts {
		c.Insts[i].Operands = slices.Clone(c.Insts[i].Operands)
	}
	id := func() uint32 { c.Bound++; return c.Bound - 1 }
	var vec, inputPtr uint32
	first, load, extract := -1, -1, -1
	for i, in := range c.Insts {
		switch {
		case in.Op == spirv.OpTypeVector:
			vec = in.Operands[0]
		case in.Op == spirv.OpTypePointer && in.Operands[1] == spirv.StorageInput && in.Operands[2] == vec:
			inputPtr = in.Operands[0]
		case in.Op == spirv.OpFunction && first < 0:
			first = i
		case in.Op == spirv.OpCompositeExtract && extract < 0:
			extract = i
		}
	}
	for i := range extract {
		if c.Insts[i].Op == spirv.OpLoad && c.Insts[i].Operands[1] == c.Insts[extract].Operands[2] {
			load = i
		}
	}
	if vec == 0 || inputPtr == 0 || first < 0 || load < 0 {
		t.Fatal("module without a load of the invocation id")
	}
	decls, before := change(&c.Insts[load], &c.Insts[extract], vec, inputPtr, id)
	c.Insts = slices.Insert(c.Insts, extract, before...)
	c.Insts = slices.Insert(c.Insts, first, decls...)
	return c.Bytes()
}

func TestVectorsBeyondTheInvocationIDAreUnsupported(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	for b := range g.Weights {
		g.Weights[b] = 30
	}
	m := dispatchModule(t, g)
	for _, c := range []struct {
		name   string
		change func(load, extract *spirv.Instruction, vec, inputPtr uint32, id func() uint32) (decls, before []spirv.Instruction)
	}{
		{"a vector sum", func(load, extract *spirv.Instruction, vec, _ uint32, id func() uint32) (decls, before []spirv.Instruction) {
			sum := id()
			before = []spirv.Instruction{{Op: spirv.OpIAdd, Operands: []uint32{vec, sum, load.Operands[1], load.Operands[1]}}}
			extract.Operands[2] = sum
			return nil, before
		}},
		{"a null vector loaded", func(load, _ *spirv.Instruction, vec, _ uint32, id func() uint32) (decls, before []spirv.Instruction) {
			null, ptr, v := id(), id(), id()
			load.Operands[2] = v
			return []spirv.Instruction{
				{Op: spirv.OpConstantNull, Operands: []uint32{vec, null}},
				{Op: spirv.OpTypePointer, Operands: []uint32{ptr, spirv.StoragePrivate, vec}},
				{Op: spirv.OpVariable, Operands: []uint32{ptr, v, spirv.StoragePrivate, null}},
			}, nil
		}},
		{"another built-in (WorkgroupId, say)", func(load, _ *spirv.Instruction, _, inputPtr uint32, id func() uint32) (decls, before []spirv.Instruction) {
			v := id()
			load.Operands[2] = v
			return []spirv.Instruction{{Op: spirv.OpVariable, Operands: []uint32{inputPtr, v, spirv.StorageInput}}}, nil
		}},
	} {
		r := execVerdict(g, withInvocationID(t, m, c.change))
		var unsupported *UnsupportedError
		if r.Signature != "" || !errors.As(r.Harness, &unsupported) {
			t.Errorf("%s: signature %q (%s), harness %v: want an UnsupportedError", c.name, r.Signature, r.Detail, r.Harness)
		}
	}
	// Unchanged, the module runs.
	unchanged := withInvocationID(t, m, func(*spirv.Instruction, *spirv.Instruction, uint32, uint32, func() uint32) (decls, before []spirv.Instruction) {
		return nil, nil
	})
	if r := execVerdict(g, unchanged); r.Signature != "" || r.Harness != nil {
		t.Errorf("the module as emitted: %q %v", r.Signature, r.Harness)
	}
}
