// structured_wide_test.go: a switch's repeated cases (a jump table's) cost
// the structured layout nothing per case: widening a switch from 16 to 300
// slots over the same targets adds at most one block (a choice that
// counts edges, such as an irreducible region's, may tip either way), for
// every random generator.
package structurizer_test

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// widened is g with each switch's list extended to width slots by
// repeating its cases 1, 2, ... in turn (its default stays slot 0).
func widened(g *cfg.Graph, width int) *cfg.Graph {
	succs := make([][]int, g.Len())
	for b, s := range g.Succs {
		succs[b] = append([]int(nil), s...)
		for j := 0; len(s) >= 3 && len(succs[b]) < width; j++ {
			succs[b] = append(succs[b], s[1+j%(len(s)-1)])
		}
	}
	return cfg.FromSuccs(succs)
}

func TestWideSwitchCostsNoBlockPerCase(t *testing.T) {
	const runSeed, n = 5, 2000
	t.Logf("run seed %d, %d graphs a kind, switch probability 0.3", runSeed, n)
	for _, k := range []gen.Kind{gen.Reducible, gen.Irreducible, gen.NonTerminating} {
		wide, diff := 0, map[int]int{}
		for i := range n {
			it, err := gen.Generate(gen.Config{Kind: k, SwitchProb: 0.3, WideSwitchProb: -1}, gen.SeedFor(k, runSeed, i))
			if err != nil {
				t.Fatal(err)
			}
			narrow, err := structurizer.Structurize(widened(it.Graph, 16), structurizer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := widened(it.Graph, 300)
			broad, err := structurizer.Structurize(w, structurizer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := len(broad.Func.Blocks) - len(narrow.Func.Blocks)
			diff[d]++
			if d > 1 {
				t.Fatalf("%s seed %d: %d blocks with switches of 300 slots, %d with 16\n%v", k, it.Seed, len(broad.Func.Blocks), len(narrow.Func.Blocks), it.Graph)
			}
			if !w.Equal(it.Graph) {
				wide++
			}
		}
		t.Logf("%s: %d graphs with a switch; blocks at 300 slots less blocks at 16: %v", k, wide, diff)
		if wide == 0 {
			t.Errorf("%s: no graph had a switch to widen", k)
		}
	}
}
