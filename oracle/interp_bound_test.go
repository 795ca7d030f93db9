// interp_bound_test.go: a module whose header claims a huge id bound runs
// as the same module with its true bound: the interpreter sizes its tables
// by the ids the module defines (tableBound), not by the claim; one that
// defines ids far past its size is a harness limit, and label tables grow
// with the module alone.
package oracle

import (
	bin "encoding/binary"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestExecHugeClaimedBound(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3, 0}, {}})
	mod, _, err := dispatchSeam("dispatch")(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, bound := range []uint32{0x7fffffff, 0xfffffffe, 0xffffffff} {
		m := append([]byte(nil), mod...)
		bin.LittleEndian.PutUint32(m[12:], bound)
		if v := execVerdict(g, m); v.Signature != "" || v.Harness != nil {
			t.Errorf("bound %#x: %+v", bound, v)
		}
	}
}

// TestExecSparseIDs: a module that defines an id far past its size (valid
// SPIR-V: ids need not be dense) is a harness limit of the interpreter,
// said as such, not tables of gigabytes; the other checks of the module
// run as on any module.
func TestExecSparseIDs(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3, 0}, {}})
	mod, _, err := dispatchSeam("dispatch")(g)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(mod)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpDecorate })
	m.Insts = slices.Insert(m.Insts, i, spirv.Instruction{Op: spirv.OpString, Operands: append([]uint32{0x7ffffff0}, spirv.String("x")...)})
	m.Bound = 0x7ffffff1
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v := execVerdict(g, m.Bytes())
	runtime.ReadMemStats(&after)
	var unsupported *UnsupportedError
	if !errors.As(v.Harness, &unsupported) || !strings.Contains(v.Harness.Error(), "ids up to %2147483632") {
		t.Errorf("exec on ids up to 2^31: %+v", v)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("exec on ids up to 2^31 allocated %d MB", n>>20)
	}
	if vs, err := CheckRules(m.Bytes()); err != nil || len(vs) > 0 {
		t.Errorf("rules on ids up to 2^31: %v %v", vs, err)
	}
}

// TestLoadSharedLabelsLinear: a module whose functions share a label id
// (invalid: ids are unique) loads in memory that grows with the module,
// not with its functions times its ids.
func TestLoadSharedLabelsLinear(t *testing.T) {
	const functions = 3000
	insts := []spirv.Instruction{
		{Op: spirv.OpCapability, Operands: []uint32{1}},
		{Op: spirv.OpMemoryModel, Operands: []uint32{0, 1}},
		{Op: spirv.OpEntryPoint, Operands: []uint32{5, 10}},
		{Op: spirv.OpTypeVoid, Operands: []uint32{2}},
		{Op: spirv.OpTypeFunction, Operands: []uint32{3, 2}},
	}
	for i := range functions {
		insts = append(insts, spirv.Instruction{Op: spirv.OpFunction, Operands: []uint32{2, uint32(10 + i), 0, 3}},
			spirv.Instruction{Op: spirv.OpLabel, Operands: []uint32{4}},
			spirv.Instruction{Op: spirv.OpReturn},
			spirv.Instruction{Op: spirv.OpFunctionEnd})
	}
	m := &spirv.Module{Version: 0x10000, Bound: uint32(4*len(insts) + 64), Insts: insts}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := Load(m)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("a %d-function module with one label id took %d MB to load", functions, n>>20)
	}
	for id, f := range p.funcs {
		if b, ok := f.blockOf(4); !ok || b != 0 {
			t.Fatalf("function %%%d: block of label %%4 = %d, %v", id, b, ok)
		}
		if _, ok := f.blockOf(5); ok {
			t.Fatalf("function %%%d has a block labelled %%5", id)
		}
	}
}
