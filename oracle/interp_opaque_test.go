// interp_opaque_test.go: module-scope values the interpreter does not
// read (a composite, an undef, a specialization op, a constant wider than
// a word) and numeric types other than the 32-bit integer: a function
// that uses one is a harness limit (UnsupportedError), never a trap or a
// value the interpreter made up; declared and unused, they change nothing.
package oracle

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// withDeclarations returns a copy of m with decls (given the module's
// next free ids through id) inserted before its first function, and,
// when use, the last operand of its first filler OpIAdd on a constant
// replaced by the id use returns.
func withDeclarations(t *testing.T, m *spirv.Module, decls func(uintT uint32, id func() uint32) []spirv.Instruction, use func(uintT uint32, add *spirv.Instruction, id func() uint32) []spirv.Instruction) *spirv.Module {
	t.Helper()
	c := &spirv.Module{Version: m.Version, Generator: m.Generator, Bound: m.Bound, Schema: m.Schema, Insts: slices.Clone(m.Insts)}
	for i := range c.Insts {
		c.Insts[i].Operands = slices.Clone(c.Insts[i].Operands) // use rewrites one: m keeps its own
	}
	id := func() uint32 { c.Bound++; return c.Bound - 1 }
	uintT := uint32(0)
	first := -1
	for i, in := range c.Insts {
		if in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0 {
			uintT = in.Operands[0]
		}
		if in.Op == spirv.OpFunction && first < 0 {
			first = i
		}
	}
	if uintT == 0 || first < 0 {
		t.Fatal("module without a uint type or a function")
	}
	c.Insts = slices.Insert(c.Insts, first, decls(uintT, id)...)
	if use == nil {
		return c
	}
	for i := range c.Insts {
		in := &c.Insts[i]
		if in.Op == spirv.OpIAdd && len(in.Operands) == 4 && in.Operands[0] == uintT {
			before := use(uintT, in, id)
			c.Insts = slices.Insert(c.Insts, i, before...)
			return c
		}
	}
	t.Fatal("module without a filler OpIAdd")
	return nil
}

func TestOpaqueValuesAreUnsupported(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	for b := range g.Weights {
		g.Weights[b] = 30
	}
	m := dispatchModule(t, g)
	if r := execVerdict(g, m.Bytes()); r.Signature != "" || r.Harness != nil {
		t.Fatalf("the module as emitted: %q %v", r.Signature, r.Harness)
	}
	var undef, wideConst, u64 uint32
	decls := map[string]func(uintT uint32, id func() uint32) []spirv.Instruction{
		"undef": func(uintT uint32, id func() uint32) []spirv.Instruction {
			undef = id()
			return []spirv.Instruction{{Op: spirv.OpUndef, Operands: []uint32{uintT, undef}}}
		},
		"spec-op": func(uintT uint32, id func() uint32) []spirv.Instruction {
			undef = id()
			return []spirv.Instruction{{Op: spirv.OpSpecConstantOp, Operands: []uint32{uintT, undef, uint32(spirv.OpIAdd), 1, 1}}}
		},
		"64-bit constant": func(uintT uint32, id func() uint32) []spirv.Instruction {
			u64, wideConst = id(), id()
			return []spirv.Instruction{
				{Op: spirv.OpTypeInt, Operands: []uint32{u64, 64, 0}},
				{Op: spirv.OpConstant, Operands: []uint32{u64, wideConst, 7, 1}},
			}
		},
	}
	for name, decl := range decls {
		unused := withDeclarations(t, m, decl, nil)
		if r := execVerdict(g, unused.Bytes()); r.Signature != "" || r.Harness != nil {
			t.Errorf("%s declared, unused: %q %v, want a pass", name, r.Signature, r.Harness)
		}
		used := withDeclarations(t, m, decl, func(uintT uint32, add *spirv.Instruction, id func() uint32) []spirv.Instruction {
			if name == "64-bit constant" {
				add.Operands[3] = wideConst // read as its low word, it would run
				return nil
			}
			add.Operands[3] = undef
			return nil
		})
		r := execVerdict(g, used.Bytes())
		var unsupported *UnsupportedError
		if r.Signature != "" || !errors.As(r.Harness, &unsupported) {
			t.Errorf("%s used: signature %q, harness %v: want an UnsupportedError", name, r.Signature, r.Harness)
		}
	}
}

func TestWideResultIsUnsupported(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	for b := range g.Weights {
		g.Weights[b] = 30
	}
	m := dispatchModule(t, g)
	var u64 uint32
	c := withDeclarations(t, m, func(uintT uint32, id func() uint32) []spirv.Instruction {
		u64 = id()
		return []spirv.Instruction{{Op: spirv.OpTypeInt, Operands: []uint32{u64, 64, 0}}}
	}, func(uintT uint32, add *spirv.Instruction, id func() uint32) []spirv.Instruction {
		n := id()
		// A copy the interpreter runs, typed 64 bits: run as a word, it
		// would pass.
		wide := spirv.Instruction{Op: spirv.OpCopyObject, Operands: []uint32{u64, n, add.Operands[2]}}
		add.Operands[2] = n
		return []spirv.Instruction{wide}
	})
	r := execVerdict(g, c.Bytes())
	var unsupported *UnsupportedError
	if r.Signature != "" || !errors.As(r.Harness, &unsupported) {
		t.Fatalf("a 64-bit result: signature %q, harness %v: want an UnsupportedError", r.Signature, r.Harness)
	}
}

// TestOpaqueInitializerIsUnsupported: a Private variable whose initializer
// is a value the interpreter does not compute (a specialization op) is
// read through a load: a harness limit too, never the 0 the initializer's
// unread value would give; declared and never loaded, it changes nothing.
func TestOpaqueInitializerIsUnsupported(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	for b := range g.Weights {
		g.Weights[b] = 30
	}
	m := dispatchModule(t, g)
	var ptr, v uint32
	decl := func(uintT uint32, id func() uint32) []spirv.Instruction {
		op := id()
		ptr, v = id(), id()
		return []spirv.Instruction{
			{Op: spirv.OpSpecConstantOp, Operands: []uint32{uintT, op, uint32(spirv.OpIAdd), 1, 1}},
			{Op: spirv.OpTypePointer, Operands: []uint32{ptr, spirv.StoragePrivate, uintT}},
			{Op: spirv.OpVariable, Operands: []uint32{ptr, v, spirv.StoragePrivate, op}},
		}
	}
	if r := execVerdict(g, withDeclarations(t, m, decl, nil).Bytes()); r.Signature != "" || r.Harness != nil {
		t.Errorf("declared, never loaded: %q %v, want a pass", r.Signature, r.Harness)
	}
	loaded := withDeclarations(t, m, decl, func(uintT uint32, add *spirv.Instruction, id func() uint32) []spirv.Instruction {
		n := id()
		add.Operands[3] = n
		return []spirv.Instruction{{Op: spirv.OpLoad, Operands: []uint32{uintT, n, v}}}
	})
	r := execVerdict(g, loaded.Bytes())
	var unsupported *UnsupportedError
	if r.Signature != "" || !errors.As(r.Harness, &unsupported) || !strings.Contains(r.Harness.Error(), "OpSpecConstantOp") {
		t.Errorf("loaded: signature %q, harness %v: want an UnsupportedError naming the initializer", r.Signature, r.Harness)
	}
}

// TestNarrowConstantIsUnsupported: a 16-bit constant fits a word, but the
// interpreter would read it as a 32-bit integer: 0xffff is -1 to a 16-bit
// signed comparison and 65535 to a 32-bit one. A function that reads one
// (here a comparison, whose result is a bool) is a harness limit, never
// the other way taken; declared and unused, it changes nothing.
func TestNarrowConstantIsUnsupported(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}})
	for b := range g.Weights {
		g.Weights[b] = 30
	}
	m := dispatchModule(t, g)
	var boolT, u16, ffff, one uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypeBool {
			boolT = in.Operands[0]
		}
	}
	decl := func(uintT uint32, id func() uint32) []spirv.Instruction {
		u16, ffff, one = id(), id(), id()
		return []spirv.Instruction{
			{Op: spirv.OpTypeInt, Operands: []uint32{u16, 16, 0}},
			{Op: spirv.OpConstant, Operands: []uint32{u16, ffff, 0xffff}},
			{Op: spirv.OpConstant, Operands: []uint32{u16, one, 1}},
		}
	}
	if r := execVerdict(g, withDeclarations(t, m, decl, nil).Bytes()); r.Signature != "" || r.Harness != nil {
		t.Errorf("declared, unused: %q %v, want a pass", r.Signature, r.Harness)
	}
	used := withDeclarations(t, m, decl, func(uintT uint32, add *spirv.Instruction, id func() uint32) []spirv.Instruction {
		lt, v := id(), id()
		old := add.Operands[3]
		add.Operands[3] = v
		return []spirv.Instruction{
			{Op: spirv.OpSLessThan, Operands: []uint32{boolT, lt, ffff, one}},
			{Op: spirv.OpSelect, Operands: []uint32{uintT, v, lt, old, old}},
		}
	})
	r := execVerdict(g, used.Bytes())
	var unsupported *UnsupportedError
	if r.Signature != "" || !errors.As(r.Harness, &unsupported) || !strings.Contains(r.Harness.Error(), "other than a 32-bit integer") {
		t.Errorf("compared: signature %q, harness %v: want an UnsupportedError naming the constant's type", r.Signature, r.Harness)
	}
}
