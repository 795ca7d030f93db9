// registers_test.go: the register-file workload (convention 1.1) through
// the checks: modules of both strategies with files of 1 to 1,024
// registers pass every module check, and a module with block 0's second
// register write dropped (where block 1 reads it next), or its multiplier
// changed, fails exec with exec:registers-mismatch while the same module
// unmutated passes.
package oracle

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle/internal/regmutant"
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
		// Block 0 branches to block 1, which reads what block 0's second
		// write defines (r[3], its first source on 64 registers): the
		// module keeps its checksum as it goes, so a dropped write shows
		// where the register is read again.
		g := randomGraph(r, 3+i)
		g.Succs[0] = []int{1}
		if s := spirv.StepOf(1, 64); s.Src1 != spirv.StepOf(0, 64).Dst2 {
			t.Fatalf("block 1 reads r[%d], block 0 writes r[%d]", s.Src1, spirv.StepOf(0, 64).Dst2)
		}
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
				mutant, err := regmutant.Mutate(mod, 0, mut)
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

// TestRegistersMismatchHintsAtAModuleWithoutTheFile: a module without the
// file (a 1.0 module, as a structurizer ignoring options.registers
// answers) fails registers-mismatch with a detail that says its variables
// cannot hold the registers asked; a module with a file of one register
// too few, which holds as many words, gets no such hint.
func TestRegistersMismatchHintsAtAModuleWithoutTheFile(t *testing.T) {
	g := cfg.New(3)
	g.Succs[0], g.Succs[1] = []int{1, 2}, []int{2}
	walks := Walks(g, WalkOptions{Registers: 16})
	const hint = "fewer than the 16 registers asked: it carries no register file, as a module does whose structurizer ignores options.registers"
	for _, c := range []struct {
		n    int
		hint bool
	}{{0, true}, {15, false}} {
		res := CompareWalks(Interpreter{}, registerModule(t, g, "dispatch", c.n), walks)
		if res.Signature != SigRegisters || strings.Contains(res.Detail, hint) != c.hint {
			t.Errorf("a file of %d against walks for 16: %s %q, want %s, the hint %v", c.n, res.Signature, res.Detail, SigRegisters, c.hint)
		}
	}
}
