// sinks_undefined_test.go: a module whose sink a correct driver may give
// otherwise than the interpreter (an OpUndef, a 64-bit integer, a relaxed
// result, a shift past the width) has its sinks left uncompared, the
// verdict saying why; one that only declares such values, or computes
// them where the sink does not depend on them, or starts at a
// specialization constant, is compared.
package gpu_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// sinkStartsAt is g's module whose sink starts at the value seed computes
// (its instructions, then its result id) instead of 0; seed may declare
// globals in m. uint and boolean are the module's types.
func sinkStartsAt(t *testing.T, g *cfg.Graph, seed func(m *spirv.Module, uint, boolean uint32) ([]spirv.Instruction, uint32)) []byte {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	var sink uint32
	for id, n := range m.Names() {
		if n == "sink" {
			sink = id
		}
	}
	uintT, _ := typeOf(m, spirv.OpTypeInt, 32, 0)
	boolT, _ := typeOf(m, spirv.OpTypeBool)
	pre, v := seed(m, uintT, boolT)
	for i, in := range m.Insts {
		if in.Op == spirv.OpStore && in.Operands[0] == sink {
			m.Insts[i].Operands[1] = v
			m.Insts = append(m.Insts[:i], append(pre, m.Insts[i:]...)...)
			return encoded(t, m)
		}
	}
	t.Fatal("no store of the sink")
	return nil
}

// encoded is m in bytes.
func encoded(t *testing.T, m *spirv.Module) []byte {
	t.Helper()
	words, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 4*len(words))
	for k, w := range words {
		binary.LittleEndian.PutUint32(out[4*k:], w)
	}
	return out
}

// TestCompareSinksUndefinedArithmetic: the interpreter's sink of each
// module is not the only one a correct driver may give, so a different
// sink on the driver is no finding.
func TestCompareSinksUndefinedArithmetic(t *testing.T) {
	g, _ := weighted(t)
	for _, c := range []struct {
		name, why string
		seed      func(m *spirv.Module, uint, boolean uint32) ([]spirv.Instruction, uint32)
	}{
		{"OpUndef", "OpUndef", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			id := newID(m)
			insert(m, firstFunction(m), spirv.Instruction{Op: spirv.OpUndef, Operands: []uint32{u, id}})
			return nil, id
		}},
		{"a 64-bit comparison", "64-bit", func(m *spirv.Module, u, boolean uint32) ([]spirv.Instruction, uint32) {
			const capabilityInt64 = 11
			insert(m, 1, spirv.Instruction{Op: spirv.OpCapability, Operands: []uint32{capabilityInt64}})
			u64, big, one := newID(m), newID(m), newID(m)
			at := firstFunction(m)
			insert(m, at, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{u64, one, 1, 0}})
			insert(m, at, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{u64, big, 0, 1}}) // 2^32
			insert(m, at, spirv.Instruction{Op: spirv.OpTypeInt, Operands: []uint32{u64, 64, 0}})
			seven, nine := constant(m, u, 7), constant(m, u, 9)
			lt, v := newID(m), newID(m)
			return []spirv.Instruction{
				{Op: spirv.OpULessThan, Operands: []uint32{boolean, lt, big, one}},
				{Op: spirv.OpSelect, Operands: []uint32{u, v, lt, seven, nine}},
			}, v
		}},
		{"a 16-bit signed comparison", "other than a 32-bit integer", func(m *spirv.Module, u, boolean uint32) ([]spirv.Instruction, uint32) {
			const capabilityInt16 = 22
			insert(m, 1, spirv.Instruction{Op: spirv.OpCapability, Operands: []uint32{capabilityInt16}})
			u16, ffff, one := newID(m), newID(m), newID(m)
			at := firstFunction(m)
			insert(m, at, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{u16, one, 1}})
			insert(m, at, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{u16, ffff, 0xffff}}) // -1 to a signed comparison
			insert(m, at, spirv.Instruction{Op: spirv.OpTypeInt, Operands: []uint32{u16, 16, 0}})
			seven, nine := constant(m, u, 7), constant(m, u, 9)
			lt, v := newID(m), newID(m)
			return []spirv.Instruction{
				{Op: spirv.OpSLessThan, Operands: []uint32{boolean, lt, ffff, one}},
				{Op: spirv.OpSelect, Operands: []uint32{u, v, lt, seven, nine}},
			}, v
		}},
		{"a relaxed product", "RelaxedPrecision", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			v := relaxedProduct(m, u)
			return []spirv.Instruction{{Op: spirv.OpIMul, Operands: []uint32{u, v, constant(m, u, 0x12345), constant(m, u, 0x12345)}}}, v
		}},
		{"an OpUndef in the function", "OpUndef", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			id, v := newID(m), newID(m)
			return []spirv.Instruction{
				{Op: spirv.OpUndef, Operands: []uint32{u, id}},
				{Op: spirv.OpIAdd, Operands: []uint32{u, v, id, constant(m, u, 1)}},
			}, v
		}},
		{"a shift by a computed amount", "32 bits", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			by, v := newID(m), newID(m)
			return []spirv.Instruction{
				{Op: spirv.OpIAdd, Operands: []uint32{u, by, constant(m, u, 30), constant(m, u, 3)}},
				{Op: spirv.OpShiftLeftLogical, Operands: []uint32{u, v, constant(m, u, 1), by}},
			}, v
		}},
		{"a relaxed product through a Private variable", "RelaxedPrecision", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			v, tmp, l := relaxedProduct(m, u), privateVariable(m, u), newID(m)
			big := constant(m, u, 0x12345)
			return []spirv.Instruction{
				{Op: spirv.OpIMul, Operands: []uint32{u, v, big, big}},
				{Op: spirv.OpStore, Operands: []uint32{tmp, v}},
				{Op: spirv.OpLoad, Operands: []uint32{u, l, tmp}},
			}, l
		}},
		{"a product relaxed through a decoration group", "RelaxedPrecision", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			group, v := newID(m), newID(m)
			at := annotations(m)
			insert(m, at, spirv.Instruction{Op: spirv.OpGroupDecorate, Operands: []uint32{group, v}})
			insert(m, at, spirv.Instruction{Op: spirv.OpDecorationGroup, Operands: []uint32{group}})
			insert(m, at, spirv.Instruction{Op: spirv.OpDecorate, Operands: []uint32{group, spirv.DecorationRelaxedPrecision}})
			big := constant(m, u, 0x12345)
			return []spirv.Instruction{{Op: spirv.OpIMul, Operands: []uint32{u, v, big, big}}}, v
		}},
	} {
		m := sinkStartsAt(t, g, c.seed)
		walks := oracle.Walks(g, oracle.WalkOptions{})
		// A driver's observations: each walk returned, with a sink the
		// interpreter (which does not run such a module) cannot vouch for.
		obs := make([]spirv.Observed, len(walks))
		for i, w := range walks {
			obs[i] = spirv.Observed{Returned: w.Returned, Sink: 0x10000}
		}
		r := gpu.CompareSinks(m, walks, obs)
		if r.Signature != "" || r.Harness == nil || !strings.Contains(r.Harness.Error(), c.why) {
			t.Errorf("%s: got %+v, want the sinks uncompared, saying %q", c.name, r, c.why)
		}
	}
}

// TestCheckSinksSpecConstant: a specialization constant is its default on
// a driver that specializes nothing (the check's), and in the interpreter:
// a sink that starts at one is compared, and agrees.
func TestCheckSinksSpecConstant(t *testing.T) {
	g, _ := weighted(t)
	startAt := func(op spirv.Op) []byte {
		return sinkStartsAt(t, g, func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			id := newID(m)
			insert(m, firstFunction(m), spirv.Instruction{Op: op, Operands: []uint32{u, id, 0x5eed}})
			return nil, id
		})
	}
	driver := fillerDriver{module: startAt(spirv.OpConstant), spoil: -1}
	v := gpu.Check(driver, g, startAt(spirv.OpSpecConstant), oracle.WalkOptions{})
	if v.Status != oracle.Pass || !strings.Contains(v.Detail, "sinks compared") {
		t.Fatalf("a sink that starts at a specialization constant: %+v", v)
	}
}

// relaxedProduct is a new id that m decorates RelaxedPrecision.
func relaxedProduct(m *spirv.Module, u uint32) uint32 {
	v := newID(m)
	insert(m, annotations(m), spirv.Instruction{Op: spirv.OpDecorate, Operands: []uint32{v, spirv.DecorationRelaxedPrecision}})
	return v
}

// annotations is the index past m's last decoration, where new ones go.
func annotations(m *spirv.Module) int {
	at := 0
	for i, in := range m.Insts {
		if in.Op == spirv.OpDecorate || in.Op == spirv.OpMemberDecorate {
			at = i + 1
		}
	}
	return at
}

// privateVariable declares a Private variable of type u in m.
func privateVariable(m *spirv.Module, u uint32) uint32 {
	ptr, ok := typeOf(m, spirv.OpTypePointer, spirv.StoragePrivate, u)
	if !ok {
		ptr = newID(m)
		insert(m, firstFunction(m), spirv.Instruction{Op: spirv.OpTypePointer, Operands: []uint32{ptr, spirv.StoragePrivate, u}})
	}
	v := newID(m)
	insert(m, firstFunction(m), spirv.Instruction{Op: spirv.OpVariable, Operands: []uint32{ptr, v, spirv.StoragePrivate}})
	return v
}

// TestCompareSinksUnusedUndefined: a module that declares what the
// interpreter does not compute (an OpUndef, a 64-bit type and constant),
// or computes a result a driver may give other bits of (an OpUndef, a
// relaxed product, a shift by a computed amount) that the sink does not
// depend on, has its sinks compared: a driver that gives another sink is
// caught, and lavapipe, where present, passes with the sinks compared.
func TestCompareSinksUnusedUndefined(t *testing.T) {
	g, _ := weighted(t)
	var ex *gpu.Executor
	if err := gpu.Available(); err == nil {
		ex = device(t)
	} else {
		t.Logf("no driver here (%v): the modules are judged against a driver played by the interpreter only", err)
	}
	zero := func(m *spirv.Module, u uint32) uint32 { return constant(m, u, 0) }
	for _, c := range []struct {
		name string
		seed func(m *spirv.Module, uint, boolean uint32) ([]spirv.Instruction, uint32)
	}{
		{"an OpUndef declared", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			insert(m, firstFunction(m), spirv.Instruction{Op: spirv.OpUndef, Operands: []uint32{u, newID(m)}})
			return nil, zero(m, u)
		}},
		{"a 64-bit type and constant declared", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			const capabilityInt64 = 11
			insert(m, 1, spirv.Instruction{Op: spirv.OpCapability, Operands: []uint32{capabilityInt64}})
			u64, big := newID(m), newID(m)
			at := firstFunction(m)
			insert(m, at, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{u64, big, 0, 1}})
			insert(m, at, spirv.Instruction{Op: spirv.OpTypeInt, Operands: []uint32{u64, 64, 0}})
			return nil, zero(m, u)
		}},
		{"an OpUndef in the function, unused", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			return []spirv.Instruction{{Op: spirv.OpUndef, Operands: []uint32{u, newID(m)}}}, zero(m, u)
		}},
		{"a relaxed product, unused", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			big := constant(m, u, 0x12345)
			return []spirv.Instruction{{Op: spirv.OpIMul, Operands: []uint32{u, relaxedProduct(m, u), big, big}}}, zero(m, u)
		}},
		{"a relaxed product stored to an unread Private variable", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			v, tmp := relaxedProduct(m, u), privateVariable(m, u)
			big := constant(m, u, 0x12345)
			return []spirv.Instruction{
				{Op: spirv.OpIMul, Operands: []uint32{u, v, big, big}},
				{Op: spirv.OpStore, Operands: []uint32{tmp, v}},
			}, zero(m, u)
		}},
		{"a shift by a computed amount, unused", func(m *spirv.Module, u, _ uint32) ([]spirv.Instruction, uint32) {
			by := newID(m)
			return []spirv.Instruction{
				{Op: spirv.OpIAdd, Operands: []uint32{u, by, constant(m, u, 30), constant(m, u, 3)}},
				{Op: spirv.OpShiftLeftLogical, Operands: []uint32{u, newID(m), constant(m, u, 1), by}},
			}, zero(m, u)
		}},
	} {
		m := sinkStartsAt(t, g, c.seed)
		walks := oracle.Walks(g, oracle.WalkOptions{})
		obs, err := oracle.Interpreter{}.Execute(m, oracle.WalkBatch(walks), len(walks))
		if err != nil {
			t.Fatalf("%s: the interpreter: %v", c.name, err)
		}
		if val, err := oracle.LookupValidator("vulkan1.1"); err == nil {
			if ok, msg, err := val.Validate(m); !ok || err != nil {
				t.Errorf("%s: spirv-val rejects the module: %s %v", c.name, msg, err)
			}
		}
		obs[0].Sink += 1 << 9
		if r := gpu.CompareSinks(m, walks, obs); r.Signature != gpu.SigSinkDiffers || r.Walk != 0 {
			t.Errorf("%s: a driver's other sink: got %+v, want %s at walk 0", c.name, r, gpu.SigSinkDiffers)
		}
		if ex == nil {
			continue
		}
		if v := gpu.Check(ex, g, m, oracle.WalkOptions{}); v.Status != oracle.Pass || !strings.Contains(v.Detail, "sinks compared") {
			t.Errorf("%s on %s: %+v, want a pass with the sinks compared", c.name, ex.Name(), v)
		}
	}
}
