// dom_gen_test.go: the semi-NCA dominator and post-dominator trees against
// the Cooper-Harvey-Kennedy reference (dom_chk_test.go) on the graphs of
// every generator of package gen, small and large (nonterminating ones
// with stuck blocks included).

package cfg_test

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestDominatorsMatchCHKOnGenerators(t *testing.T) {
	const runSeed = 20261205
	t.Logf("seed %d", runSeed)
	stuck := 0
	for _, k := range gen.Kinds() {
		for _, blocks := range [][2]int{{0, 0}, {20, 400}} {
			c := gen.Config{Kind: k, MinBlocks: blocks[0], MaxBlocks: blocks[1]}
			if k == gen.Exhaustive {
				c = gen.Config{Kind: k, ExhaustiveN: 4 + blocks[0]/20}
			}
			for i := range 400 {
				seed := gen.SeedFor(k, runSeed, i)
				it, err := gen.Generate(c, seed)
				if err != nil {
					t.Fatalf("%s seed %d: %v", k, seed, err)
				}
				g := it.Graph
				if got, want := cfg.Dominators(g).IDom, cfg.ChkDominators(g); !slices.Equal(got, want) {
					t.Fatalf("%s seed %d %v: idom %v, Cooper-Harvey-Kennedy %v", k, seed, g, got, want)
				}
				p := cfg.PostDominators(g)
				if got, want := p.IDom, cfg.ChkPostDominators(g); !slices.Equal(got, want) {
					t.Fatalf("%s seed %d %v: ipdom %v, Cooper-Harvey-Kennedy %v", k, seed, g, got, want)
				}
				if len(p.Stuck()) > 0 {
					stuck++
				}
			}
		}
	}
	if stuck == 0 {
		t.Fatal("no generated graph has stuck blocks")
	}
	t.Logf("%d graphs with stuck blocks", stuck)
}
