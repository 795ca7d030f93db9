// structured_fault_test.go: every planted fault of the structured strategy
// is caught by the oracle (the spec-strict rules checker and the SPIR-V
// interpreter against the original graph's walks) within 10,000 generated
// graphs; and without the fault the same graphs pass.
package structurizer_test

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// faultKinds are the generators the fault hunt cycles through.
var faultKinds = []gen.Kind{gen.Reducible, gen.Program, gen.Irreducible}

func TestStructuredFaultsAreCaught(t *testing.T) {
	o, err := oracle.New(oracle.Options{Checks: []string{"rules", "exec"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, fault := range []string{"merge-at-continue", "route-not-cleared", "drop-merge", "swap-arms", "exit-to-outer-merge", "clone-wrong-id"} {
		t.Run(fault, func(t *testing.T) {
			const seed = 500
			t.Logf("seed %d, kinds %v", seed, faultKinds)
			for i := range 10000 {
				kind := faultKinds[i%len(faultKinds)]
				it, err := gen.Generate(gen.Config{Kind: kind}, seed+uint64(i))
				if err != nil {
					t.Fatal(err)
				}
				res, err := structurizer.Structurize(it.Graph, structurizer.Options{Strategy: "structured", Inject: []string{fault}})
				if err != nil {
					t.Fatalf("graph %d %v: %v", i, it.Graph, err)
				}
				mod, err := emit.Bytes(res.Func, emit.Options{})
				if err != nil {
					t.Fatalf("graph %d %v: emit: %v", i, it.Graph, err)
				}
				vs := o.Check(&oracle.Subject{Graph: it.Graph, Module: mod})
				if v := oracle.Failed(vs); v != nil {
					t.Logf("caught after %d graphs (%s seed %d) %v: %s %s", i+1, kind, seed+uint64(i), it.Graph, v.Signature, v.Detail)
					return
				}
			}
			t.Fatalf("fault %s not caught in 10,000 graphs", fault)
		})
	}
}
