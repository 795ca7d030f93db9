// structured_irreducible_test.go: the irreducible pass on loops with
// several entries nested in one another, where one loop forest serves
// every level (passIrreducible's argument): the result has no fallback,
// passes the pass checks and the self-check, and runs like the graph.
package structurizer

import (
	"math/rand/v2"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestedIrreducible is depth two-entry cycles, each nested in the one
// around it: level k's header h branches to both x and y, which branch to
// each other; x also enters the next level, whose y leaves back to this
// level's y; the outermost y and the innermost x return.
func nestedIrreducible(depth int) *cfg.Graph {
	var succs [][]int
	block := func() int { succs = append(succs, nil); return len(succs) - 1 }
	prevX, prevY := -1, -1
	for range depth {
		h, x, y := block(), block(), block()
		if prevX >= 0 {
			succs[prevX] = append(succs[prevX], h)
		}
		succs[h], succs[x], succs[y] = []int{x, y}, []int{y}, []int{x}
		if prevY < 0 {
			ret := block()
			succs[y] = append(succs[y], ret)
		} else {
			succs[y] = append(succs[y], prevY)
		}
		prevX, prevY = x, y
	}
	ret := block()
	succs[prevX] = append(succs[prevX], ret)
	return cfg.FromSuccs(succs)
}

// irreducibleNesting is the number of multi-entry loops of g and how many
// of them lie in another multi-entry loop.
func irreducibleNesting(g *cfg.Graph) (multi, nested int) {
	f := cfg.LoopForest(g)
	for _, l := range f.Loops {
		if !l.Irreducible {
			continue
		}
		multi++
		for p := l.Parent; p != cfg.NoBlock; p = f.Loops[p].Parent {
			if f.Loops[p].Irreducible {
				nested++
				break
			}
		}
	}
	return multi, nested
}

func TestNestedIrreducibleLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	for _, depth := range []int{1, 2, 3, 8, 40} {
		g := nestedIrreducible(depth)
		if multi, nested := irreducibleNesting(g); multi != depth || nested != depth-1 {
			t.Fatalf("depth %d: %d multi-entry loops, %d nested in another; the graph is not what the test needs", depth, multi, nested)
		}
		res := checkStructured(t, r, g, Options{CheckPasses: true}, 300)
		if res.Stats.Fallbacks != 0 {
			t.Fatalf("depth %d: fell back: %v", depth, res.Stats.PassesUsed)
		}
	}
}

// TestRandomNestedIrreducible: random graphs laid out with locality
// (randomLocal) given a few edges into the middle of loops, so that their
// multi-entry loops nest in one another; logged seed.
func TestRandomNestedIrreducible(t *testing.T) {
	seed := uint64(11)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	deep := 0
	for i := range 12 {
		n := 300 + r.IntN(1700)
		g := randomLocal(r, n)
		for range 2 + n/200 {
			if a, b := r.IntN(n), r.IntN(n); len(g.Succs[a]) == 1 && a != b {
				g.Succs[a] = append(g.Succs[a], b)
			}
		}
		_, nested := irreducibleNesting(g)
		deep += nested
		res := checkStructured(t, r, g, Options{CheckPasses: true}, 40)
		if res.Stats.Fallbacks != 0 {
			t.Fatalf("graph %d (%d blocks): fell back: %v", i, n, res.Stats.PassesUsed)
		}
	}
	if deep == 0 {
		t.Fatal("no multi-entry loop nested in another: the test exercises nothing")
	}
	t.Logf("%d multi-entry loops nested in another", deep)
}
