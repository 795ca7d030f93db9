// registers_test.go: the register-file workload (convention 1.1) through
// the checks: modules of both strategies with files of 1 to 1,024
// registers pass every module check, and a module with block 0's second
// register write dropped, or its multiplier changed, fails exec with
// exec:registers-mismatch while the same module unmutated passes.
package oracle

import (
	"fmt"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// registerModule structurizes g with strategy and emits it with a file of
// n registers.
func registerModule(t *testing.T, g *cfg.Graph, strategy string, n int) []byte {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
	if err != nil {
		t.Fatalf("%s: %v", strategy, err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{Registers: n})
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

func TestRegisterWorkloadPassesChecks(t *testing.T) {
	r := seededRand(t, 20)
	o, err := New(Options{Checks: []string{"rules", "spirv-val", "exec", "filler", "growth"}, Walks: WalkOptions{Registers: 64}})
	if err != nil {
		t.Skip(err)
	}
	for _, n := range []int{1, 7, 64, 1024} {
		o.opt.Walks.Registers = n
		for i := range 12 {
			g := randomGraph(r, 2+i)
			for _, strat := range []string{"structured", "dispatch"} {
				mod := registerModule(t, g, strat, n)
				for _, v := range o.Check(&Subject{Graph: g, Module: mod}) {
					if v.Status == Fail || v.Status == Error {
						t.Fatalf("%d registers, %s, graph %v: %s %s %s", n, strat, g.Succs, v.Check, v.Signature, v.Detail)
					}
				}
			}
		}
	}
}

// TestRegisterWorkloadIsChecked: a module without its file (or with one of
// another size) is judged against the walks' checksums and fails.
func TestRegisterWorkloadIsChecked(t *testing.T) {
	g := cfg.New(3)
	g.Succs[0], g.Succs[1] = []int{1, 2}, []int{2}
	walks := Walks(g, WalkOptions{Registers: 16})
	for _, n := range []int{16, 15} {
		res := CompareWalks(Interpreter{}, registerModule(t, g, "structured", n), walks)
		if (res.Signature == "") != (n == 16) {
			t.Errorf("file of %d against walks for 16: %q %s", n, res.Signature, res.Detail)
		}
	}
}

func TestRegisterMutantsFailExec(t *testing.T) {
	r := seededRand(t, 21)
	tried := 0
	defer func() {
		if tried == 0 {
			t.Error("no graph with a returning walk")
		}
	}()
	for i := range 8 {
		g := randomGraph(r, 3+i)
		for _, strat := range []string{"structured", "dispatch"} {
			mod := registerModule(t, g, strat, 64)
			walks := Walks(g, WalkOptions{Registers: 64})
			if !anyReturns(walks) {
				continue // no checksum to compare
			}
			if res := CompareWalks(Interpreter{}, mod, walks); res.Signature != "" {
				t.Fatalf("%s unmutated: %s %s", strat, res.Signature, res.Detail)
			}
			tried++
			for _, mut := range []string{"drop-write", "wrong-constant"} {
				mutant, err := MutateRegisterStep(mod, 0, mut)
				if err != nil {
					t.Fatalf("%s %s: %v", strat, mut, err)
				}
				res := CompareWalks(Interpreter{}, mutant, walks)
				if res.Signature != SigRegisters {
					t.Errorf("%s, graph %v, %s: got %q, want %s", strat, g.Succs, mut, res.Signature, SigRegisters)
				}
			}
		}
	}
}

func anyReturns(walks []Walk) bool {
	for _, w := range walks {
		if w.Returned {
			return true
		}
	}
	return false
}

// MutateRegisterStep returns mod with the register step of the first block
// reporting original id orig changed: "drop-write" removes its second
// register store, "wrong-constant" gives its multiplication a new constant
// (the old one plus 2).
func MutateRegisterStep(mod []byte, orig int, kind string) ([]byte, error) {
	m, err := spirv.Decode(mod)
	if err != nil {
		return nil, err
	}
	consts, named := map[uint32]uint32{}, map[uint32]bool{}
	vars := map[uint32]bool{} // the register file: main's unnamed Function variables
	appendFn := uint32(0)
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpConstant:
			consts[in.Operands[1]] = in.Operands[2]
		case spirv.OpName:
			if s, _ := spirv.ReadString(in.Operands[1:]); s == "append" {
				appendFn = in.Operands[0]
			}
			named[in.Operands[0]] = true
		case spirv.OpVariable:
			if in.Operands[2] == spirv.StorageFunction && !named[in.Operands[1]] {
				vars[in.Operands[1]] = true
			}
		}
	}
	in := -1 // inside the block of orig: -1 before, 0 inside
	loaded := map[uint32]bool{}
	for k, ins := range m.Insts {
		switch {
		case ins.Op == spirv.OpLabel:
			in = -1
		case ins.Op == spirv.OpFunctionCall && ins.Operands[2] == appendFn:
			if c, ok := consts[ins.Operands[3]]; ok && c == uint32(orig) {
				in = 0
			}
		case in < 0:
		case ins.Op == spirv.OpLoad && vars[ins.Operands[2]]:
			loaded[ins.Operands[1]] = true
		case kind == "wrong-constant" && ins.Op == spirv.OpIMul && loaded[ins.Operands[2]]:
			id := m.Bound
			m.Bound++
			c := spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{m.Insts[firstConst(m)].Operands[0], id, consts[ins.Operands[3]] + 2}}
			m.Insts[k].Operands = []uint32{ins.Operands[0], ins.Operands[1], ins.Operands[2], id}
			at := firstConst(m)
			m.Insts = append(m.Insts[:at], append([]spirv.Instruction{c}, m.Insts[at:]...)...)
			return m.Bytes(), nil
		case kind == "drop-write" && ins.Op == spirv.OpStore && vars[ins.Operands[0]]:
			in++
			if in == 2 {
				m.Insts = append(m.Insts[:k], m.Insts[k+1:]...)
				return m.Bytes(), nil
			}
		}
	}
	return nil, fmt.Errorf("no register step %s for block %d", kind, orig)
}

// firstConst is the index of the module's first OpConstant.
func firstConst(m *spirv.Module) int {
	for k, in := range m.Insts {
		if in.Op == spirv.OpConstant {
			return k
		}
	}
	return -1
}
