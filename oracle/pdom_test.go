// pdom_test.go: gonum's dominators on the view of a graph (cfgView) against
// gonum's dominators on a simple.DirectedGraph copy, both directions, on
// seeded random graphs (self-loops, repeated edges, unreachable blocks,
// exit-less cycles, more than 256 blocks), and the view asked for a
// node's successors more than once.
package oracle

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestGonumViewAgainstSimpleGraph(t *testing.T) {
	r := seededRand(t, 53)
	for i := range 400 {
		n := 1 + r.IntN(30)
		if i%40 == 0 {
			n = 300 + r.IntN(100)
		}
		g := randomGraph(r, n)
		for _, reverse := range []bool{false, true} {
			got, want := gonumIDom(g, reverse), gonumIDomSimple(g, reverse)
			if !slices.Equal(got, want) {
				t.Fatalf("graph %s reverse %v: view %v, simple graph %v", cfg.FormatCompact(g), reverse, got, want)
			}
		}
	}
}

// TestViewFromTwice: a node's successors asked for again come in full
// (From hands out its prepared iterator once, then fresh ones).
func TestViewFromTwice(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	v := newCFGView(g, false)
	for range 3 {
		var got []int64
		for it := v.From(0); it.Next(); {
			got = append(got, it.Node().ID())
		}
		if !slices.Equal(got, []int64{1, 2}) {
			t.Fatalf("From(0) gave %v, want [1 2]", got)
		}
	}
}
