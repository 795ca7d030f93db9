// guard_test.go: Guard gives a module without emit's lane guard one that
// validates and runs the same, leaves guarded modules alone, and never
// panics; on lavapipe before Mesa 23 the guarded module runs right where
// the unguarded one does not.
package gpu_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// unguarded is emit's module of g without the lane guard.
func unguarded(t *testing.T, g *cfg.Graph, strat string) []byte {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strat})
	if err != nil {
		t.Fatal(err)
	}
	m, err := emit.Bytes(res.Func, emit.Options{NoLaneGuard: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGuardPopulation: the mixed population, both layouts, unguarded:
// Guard's modules pass spirv-val and the rules and run as before on the
// interpreter; emit's own (guarded) modules come back unchanged.
func TestGuardPopulation(t *testing.T) {
	o, err := oracle.New(oracle.Options{Checks: []string{"rules", "spirv-val"}})
	if err != nil {
		t.Skip(err)
	}
	n := 300
	if testing.Short() {
		n = 60
	}
	const seed = 4
	t.Logf("seed %d, %d graphs per layout", seed, n)
	for _, strat := range []string{"structured", "dispatch"} {
		for i := range n {
			name, g := mixed(seed, i)
			um := unguarded(t, g, strat)
			gm, err := gpu.Guard(um)
			if err != nil {
				t.Fatalf("%s %s: %v", strat, name, err)
			}
			if bytes.Equal(gm, um) {
				t.Fatalf("%s %s: Guard left a module without the guard unchanged", strat, name)
			}
			if v := oracle.Failed(o.Check(&oracle.Subject{Graph: g, Module: gm})); v != nil {
				t.Fatalf("%s %s %s: guarded module fails %s: %s %s", strat, name, cfg.FormatCompact(g), v.Check, v.Signature, v.Detail)
			}
			walks := oracle.Walks(g, oracle.WalkOptions{Seed: uint64(i)})
			if r := oracle.CompareWalks(oracle.Interpreter{}, gm, walks); r.Signature != "" || r.Harness != nil {
				t.Fatalf("%s %s: interpreter on the guarded module: %s %s %v", strat, name, r.Signature, r.Detail, r.Harness)
			}
			own := module(t, g, structurizer.Options{Strategy: strat})
			if again, err := gpu.Guard(own); err != nil || !bytes.Equal(again, own) {
				t.Fatalf("%s %s: emit's guarded module changed (err %v)", strat, name, err)
			}
		}
	}
}

// TestGuardOnDriver: through gpu.Check, a module without the guard runs
// two loops in a row right on every driver, lavapipe 22.3 included.
func TestGuardOnDriver(t *testing.T) {
	ex := device(t)
	g := cfg.FromSuccs([][]int{{1, 0}, {2, 1}, {}})
	for _, strat := range []string{"structured", "dispatch"} {
		if v := gpu.Check(ex, g, unguarded(t, g, strat), oracle.WalkOptions{}); v.Status != oracle.Pass {
			t.Errorf("%s without the guard, through Check on %s: %s %s %s", strat, ex.Info().Driver, v.Status, v.Signature, v.Detail)
		}
	}
}

// TestGuardReusesIndex: a module that declares LocalInvocationIndex but
// does not read it in its entry block gets the guard on that variable (no
// second built-in variable), and stays valid and the same on the
// interpreter.
func TestGuardReusesIndex(t *testing.T) {
	v, g, m := twoLoops(t, "")
	// emit's guard loads the index in the entry block: make it load a
	// Private word instead, initialized to the index's 0, so the module
	// declares the index but no longer reads it there.
	var index, private, uint, zero uint32
	privateAt := -1
	for i, in := range m.Insts {
		switch {
		case in.Op == spirv.OpDecorate && in.Operands[1] == spirv.DecorationBuiltIn && in.Operands[2] == spirv.BuiltInLocalInvocationIndex:
			index = in.Operands[0]
		case in.Op == spirv.OpVariable && in.Operands[2] == spirv.StoragePrivate && private == 0:
			private, privateAt = in.Operands[1], i
		case in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0:
			uint = in.Operands[0]
		case in.Op == spirv.OpConstant && uint != 0 && in.Operands[0] == uint && in.Operands[2] == 0 && zero == 0:
			zero = in.Operands[1]
		}
	}
	if privateAt < 0 || zero == 0 {
		t.Fatal("the module has no Private variable or no uint constant 0")
	}
	m.Insts[privateAt].Operands = append(m.Insts[privateAt].Operands, zero)
	for i, in := range m.Insts {
		if in.Op == spirv.OpLoad && in.Operands[2] == index {
			m.Insts[i].Operands = []uint32{in.Operands[0], in.Operands[1], private}
		}
	}
	before := m.Bytes()
	gm, err := gpu.Guard(before)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(gm, before) {
		t.Fatal("Guard left a module that does not read the index unchanged")
	}
	out, err := spirv.Decode(gm)
	if err != nil {
		t.Fatal(err)
	}
	builtins, loads := 0, 0
	for _, in := range out.Insts {
		if in.Op == spirv.OpDecorate && in.Operands[1] == spirv.DecorationBuiltIn && in.Operands[2] == spirv.BuiltInLocalInvocationIndex {
			builtins++
		}
		if in.Op == spirv.OpLoad && in.Operands[2] == index {
			loads++
		}
	}
	if builtins != 1 || loads != 1 {
		t.Fatalf("%d LocalInvocationIndex variables and %d loads of %%%d, want 1 and 1", builtins, loads, index)
	}
	validAndSame(t, v, g, gm, "guarded module")
}

// TestGuardNeedsAWorkingGuard: a module whose entry block loads the index
// but whose branch no longer depends on it (its condition made a constant
// false) gets the guard, stays valid and the same on the interpreter, and
// runs right through Check on every driver: lavapipe before Mesa 23 would
// otherwise run its lanes past the workgroup into the all-zero walk's
// endless loop and cut the real invocation's loops.
func TestGuardNeedsAWorkingGuard(t *testing.T) {
	v, g, m := twoLoops(t, "")
	var boolType uint32
	branch := -1
	for i, in := range m.Insts {
		if in.Op == spirv.OpTypeBool {
			boolType = in.Operands[0]
		}
		if in.Op == spirv.OpBranchConditional && branch < 0 {
			branch = i // the entry block's: emit's guard
		}
	}
	if boolType == 0 || branch < 0 {
		t.Fatal("the module has no bool type or no conditional branch")
	}
	never := m.Bound
	m.Bound++
	firstFn := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpFunction })
	m.Insts[branch].Operands[0] = never
	m.Insts = slices.Insert(m.Insts, firstFn, spirv.Instruction{Op: spirv.OpConstantFalse, Operands: []uint32{boolType, never}})
	broken := m.Bytes()
	validAndSame(t, v, g, broken, "module with the guard's condition false")
	gm, err := gpu.Guard(broken)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(gm, broken) {
		t.Fatal("Guard left a module whose guard never returns unchanged")
	}
	validAndSame(t, v, g, gm, "guarded module")
	ex := device(t)
	if vd := gpu.Check(ex, g, broken, oracle.WalkOptions{}); vd.Status != oracle.Pass {
		t.Errorf("the module through Check on %s: %s %s %s", ex.Info().Driver, vd.Status, vd.Signature, vd.Detail)
	}
}
