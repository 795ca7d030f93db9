// structured_loops_dests_kept_test.go: the exit search's kept exit
// destinations (exitLists) against the full listing (exitDests) on graphs
// large enough for several rounds of moves.

package structurizer

import (
	"math/rand/v2"
	"testing"
)

// TestKeptExitDests structurizes every shape at a few thousand blocks under
// CheckPasses, where each round of the exit search compares its kept lists
// with exitDests; a disagreement panics, which the strategy reports as a
// fallback.
func TestKeptExitDests(t *testing.T) {
	for _, sh := range shapes {
		for seed := range uint64(3) {
			n := 1000 + 1500*int(seed)
			g := sh.make(rand.New(rand.NewPCG(uint64(n), seed)), n)
			res, err := Structurize(g, Options{CheckPasses: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Fallbacks != 0 {
				t.Errorf("%s, %d blocks, seed %d: fell back: %v", sh.name, g.Len(), seed, res.Stats.PassesUsed)
			}
		}
	}
}
