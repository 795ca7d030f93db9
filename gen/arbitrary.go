// arbitrary.go: graphs with any edges, for tests of code that must take any
// graph (the dispatch layout, the emitter, the oracle). Unlike the campaign
// kinds it promises nothing: irreducible and exit-less cycles, self-loops,
// switches with duplicate cases and unreachable blocks all arise at once.

package gen

import (
	"math/rand/v2"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Arbitrary draws n blocks (n >= 1), each with 0 to 4 successors chosen
// uniformly among all blocks, weights zero. It consumes only r.
func Arbitrary(r *rand.Rand, n int) *cfg.Graph {
	g := cfg.New(n)
	for b := range n {
		for range r.IntN(5) {
			g.Succs[b] = append(g.Succs[b], r.IntN(n))
		}
	}
	return g
}
