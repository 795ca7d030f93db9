package cfg_test

import (
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestComponentForestGen compares the loop forest with the reference
// component search on the generator's graphs of the kinds with
// irreducible loops, small and large, and on every graph of the
// exhaustive enumeration of 1 to 4 blocks.
func TestComponentForestGen(t *testing.T) {
	const seed = 20261205
	t.Logf("seed %d", seed)
	count := 0
	for _, k := range []gen.Kind{gen.Irreducible, gen.NonTerminating} {
		for _, blocks := range [][2]int{{4, 9}, {10, 60}, {100, 2000}} {
			c := gen.Config{Kind: k, MinBlocks: blocks[0], MaxBlocks: blocks[1]}
			for i := range 2000 / (1 + blocks[1]/60) {
				s := gen.SeedFor(k, seed, i)
				it, err := gen.Generate(c, s)
				if err != nil {
					t.Fatal(err)
				}
				checkSearch(t, string(k), s, it.Graph)
				count++
			}
		}
	}
	for i := range gen.ExhaustiveCount(4) {
		checkSearch(t, "exhaustive", uint64(i), gen.ExhaustiveAt(4, i))
		count++
	}
	t.Logf("%d graphs", count)
}

func checkSearch(t *testing.T, kind string, seed uint64, g *cfg.Graph) {
	t.Helper()
	want := cfg.ReferenceForest(g)
	if got := cfg.LoopForest(g); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s seed %d %v:\nforest %+v\nsearch %+v", kind, seed, g, got, want)
	}
}
