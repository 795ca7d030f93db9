// registers_test.go: the register-file workload on the driver: modules of
// both strategies with a file of 64 registers pass the gpu check, and a
// mutant whose block 0 drops a register write (read next by block 1) or
// multiplies by a wrong
// constant fails it with gpu:registers-mismatch, as it fails exec.
package gpu_test

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/oracle/internal/regmutant"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func TestRegisterWorkloadOnDriver(t *testing.T) {
	ex := device(t)
	const n = 64
	wopt := oracle.WalkOptions{Registers: n}
	for i := range 6 {
		g := gpu.StructuredGraph(uint64(20+i), 4+3*i)
		g.Succs[0] = []int{1} // block 1 reads block 0's second write next
		for _, strat := range []string{"structured", "dispatch"} {
			res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strat})
			if err != nil {
				t.Fatal(err)
			}
			mod, err := emit.Bytes(res.Func, emit.Options{Registers: n})
			if err != nil {
				t.Fatal(err)
			}
			if v := gpu.Check(ex, g, mod, wopt); v.Status != oracle.Pass {
				t.Fatalf("graph %d %s: %s %s %s", i, strat, v.Status, v.Signature, v.Detail)
			}
			for _, mut := range []string{"drop-write", "wrong-constant"} {
				mutant, err := regmutant.Mutate(mod, 0, mut)
				if err != nil {
					t.Fatal(err)
				}
				if v := gpu.Check(ex, g, mutant, wopt); v.Signature != "gpu:"+oracle.SigRegisters {
					t.Errorf("graph %d %s %s: %s %s %s", i, strat, mut, v.Status, v.Signature, v.Detail)
				}
			}
		}
	}
}
