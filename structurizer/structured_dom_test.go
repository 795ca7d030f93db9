// structured_dom_test.go: the semi-NCA dominators against package cfg's
// iterative ones on seeded random graphs (any shape, unreachable blocks).
package structurizer

import (
	"math/rand/v2"
	"slices"
	"testing"

	"cfgfuzz/structurizer/cfg"
)

func TestDominatorTreeMatchesCfg(t *testing.T) {
	const seed = 31
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range 3000 {
		g := randomGraph(r, 1+r.IntN(30))
		if i%3 == 0 {
			g = randomReducible(r, 2+r.IntN(40))
		}
		want := cfg.Dominators(g).IDom
		if got := dominatorTree(g); !slices.Equal(got, want) {
			t.Fatalf("graph %d %v: semi-NCA %v, cfg %v", i, g, got, want)
		}
	}
}
