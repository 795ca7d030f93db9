// interp_recursion_test.go: a module whose function calls itself, which
// SPIR-V forbids but a damaged or foreign module may do, traps on both
// paths instead of growing the interpreter's stack until the process dies.
package oracle

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// selfCall makes the callee of m's first call call itself (with its own
// parameters) at the start of its first block.
func selfCall(t *testing.T, m *spirv.Module) {
	t.Helper()
	i := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool { return in.Op == spirv.OpFunctionCall })
	if i < 0 {
		t.Fatal("module without a call")
	}
	call := m.Insts[i]
	f := slices.IndexFunc(m.Insts, func(in spirv.Instruction) bool {
		return in.Op == spirv.OpFunction && in.Operands[1] == call.Operands[2]
	})
	ops := []uint32{call.Operands[0], m.Bound, call.Operands[2]}
	m.Bound++
	at := f + 1
	for ; m.Insts[at].Op != spirv.OpLabel; at++ {
		if m.Insts[at].Op == spirv.OpFunctionParameter {
			ops = append(ops, m.Insts[at].Operands[1])
		}
	}
	m.Insts = slices.Insert(m.Insts, at+1, spirv.Instruction{Op: spirv.OpFunctionCall, Operands: ops})
}

// diamondModule is the structured strategy's module of a diamond,
// {{1, 2}, {2}, {}}, decoded.
func diamondModule(t *testing.T) (*cfg.Graph, *spirv.Module) {
	t.Helper()
	g := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "structured"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := emit.Module(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

func TestRecursiveCallTraps(t *testing.T) {
	g, m := diamondModule(t)
	selfCall(t, m)
	walks := Walks(g, WalkOptions{Seed: 1})
	decs := make([][]uint32, len(walks))
	for i, w := range walks {
		decs[i] = w.Decisions
	}
	for _, generic := range []bool{false, true} {
		_, err := Interpreter{generic: generic}.executeDecoded(m, spirv.NewBatch(decs, 400), len(walks))
		var trap *TrapError
		if !errors.As(err, &trap) {
			t.Fatalf("generic %v: %v, not a trap", generic, err)
		}
		t.Logf("generic %v: %v", generic, err)
	}
}
