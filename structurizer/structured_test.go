// structured_test.go: the structured strategy against the original graph's
// walks and its own self-check, on seeded random graphs of every kind
// (arbitrary, reducible, switches, loops with many exits), plus hand-made
// shapes from the field reports, that Structurize leaves its input alone
// (it may hand a graph to the strategy as it is), and that the structured
// strategy does not depend on the input's block numbering.
package structurizer

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var long = flag.Bool("long", false, "run the long randomized structured tests")

// randomReducible builds a reducible graph: a random DAG over blocks in
// order (a spanning tree plus forward edges), then back edges from blocks to
// their dominators (which keeps it reducible), and returns.
func randomReducible(r *rand.Rand, n int) *cfg.Graph {
	g := cfg.New(n)
	for b := 1; b < n; b++ {
		p := r.IntN(b)
		g.Succs[p] = append(g.Succs[p], b)
	}
	for b := range n {
		if b+1 < n && len(g.Succs[b]) < 3 && r.IntN(2) == 0 {
			g.Succs[b] = append(g.Succs[b], b+1+r.IntN(min(n-b-1, 8)))
		}
		g.Weights[b] = r.IntN(3) * 8
	}
	dom := cfg.Dominators(g)
	for b := 1; b < n; b++ {
		if len(g.Succs[b]) < 3 && r.IntN(4) == 0 {
			a := b
			for k := r.IntN(4); k > 0 && dom.IDom[a] != cfg.NoBlock; k-- {
				a = dom.IDom[a]
			}
			g.Succs[b] = append(g.Succs[b], a)
		}
	}
	return g
}

// checkStructured structurizes g and compares runs on random decisions.
func checkStructured(t *testing.T, r *rand.Rand, g *cfg.Graph, opt Options, walks int) *Result {
	t.Helper()
	opt.Strategy = "structured"
	res, err := Structurize(g, opt)
	if err != nil {
		t.Fatalf("graph %v: %v", g, err)
	}
	if err := SelfCheck(res.Func); err != nil && len(opt.Inject) == 0 {
		t.Fatalf("graph %v: self-check of the result: %v", g, err)
	}
	for w := range walks {
		dec := make([]uint32, 60)
		for k := range dec {
			dec[k] = uint32(r.IntN(5))
		}
		walk := Walk(g, dec, 50)
		got := Simulate(res.Func, dec, 50*40)
		if !sameRun(walk, got) {
			t.Fatalf("graph %v walk %d (decisions %v): graph %+v, structured %+v\nfunc %+v", g, w, dec, walk, got, res.Func)
		}
	}
	return res
}

func TestStructuredHandShapes(t *testing.T) {
	shapes := []string{
		"{{}}",
		"{{0}}",
		"{{1, 2}, {3}, {3}, {}}",
		"{{1}, {2, 3}, {4}, {}, {}}",
		"{{1, 2}, {2, 3}, {3}, {}}",
		// Field reports (#2642): loops whose exits leave before they meet.
		"{{1}, {2}, {3, 4}, {2, 5}, {}, {1}}",
		"{{1}, {2, 3}, {4, 5}, {}, {3, 6}, {1}, {2}}",
		"{{1, 3}, {2, 4}, {3, 1}, {4}, {}}",
		"{{1, 2}, {3, 2}, {4}, {4, 1}, {}}",
		"{{1, 2}, {4}, {3, 1}, {4, 2}, {}}",
		"{{1}, {2, 4}, {3, 4}, {4, 5}, {1, 6}, {1}, {}}",
		"{{1}, {2, 3}, {4}, {5}, {6, 7}, {}, {8, 9}, {10, 11}, {1}, {12, 4}, {5}, {13}, {8, 14}, {15, 16}, {7}, {13}, {4}}",
		// Irreducible and exit-less.
		"{{1, 2}, {2}, {1}}",
		"{{1, 2}, {2, 3}, {1, 3}, {}}",
		"{{1}, {1}}",
		"{{1, 2, 3}, {4}, {4}, {4, 4}, {}}",
		"{{4, 5, 5}, {}, {}, {}, {}, {}}",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range shapes {
		g, err := cfg.ParseCompact(s, cfg.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		res := checkStructured(t, r, g, Options{CheckPasses: true}, 40)
		if res.Stats.Fallbacks != 0 {
			t.Errorf("%s: fell back: %v", s, res.Stats.PassesUsed)
		}
	}
}

func TestStructuredRandomGraphs(t *testing.T) {
	r := loggedRand(t, 5)
	count := 3000
	if *long {
		count = 100000
	}
	fallbacks := 0
	for i := range count {
		var g *cfg.Graph
		if i%2 == 0 {
			g = randomGraph(r, 1+r.IntN(10))
		} else {
			g = randomReducible(r, 2+r.IntN(12))
		}
		res := checkStructured(t, r, g, Options{CheckPasses: i%7 == 0}, 6)
		if res.Stats.Fallbacks != 0 {
			fallbacks++
			if fallbacks < 5 {
				t.Errorf("graph %d %v fell back: %v", i, g, res.Stats.PassesUsed)
			}
		}
	}
	if fallbacks > 0 {
		t.Errorf("%d of %d graphs fell back", fallbacks, count)
	}
}

// TestStructurizeLeavesItsInputAlone: Structurize hands a graph whose
// blocks are all reachable (and, for structured, in reverse post-order) to
// the strategy as it is, so no strategy may
// change it, and no result may share a list with it (its Func's targets
// are checked by changing the graph afterwards).
func TestStructurizeLeavesItsInputAlone(t *testing.T) {
	r := loggedRand(t, 51)
	for i := range 2000 {
		g := mixedGraph(r, i, 2, 12, 14)
		if i%2 == 1 {
			g, _ = g.InRPO() // a graph the structured strategy gets as it is
		}
		for _, st := range Strategies() {
			before := g.Clone()
			res, err := Structurize(g, Options{Strategy: st})
			if err != nil {
				t.Fatalf("graph %d %v, %s: %v", i, g, st, err)
			}
			if !g.Equal(before) {
				t.Fatalf("graph %d %v, %s: the input changed to %v", i, before, st, g)
			}
			kept := fmt.Sprint(res.Func.Blocks)
			for b := range g.Succs {
				for k := range g.Succs[b] {
					g.Succs[b][k] = -7
				}
			}
			if fmt.Sprint(res.Func.Blocks) != kept {
				t.Fatalf("graph %d %v, %s: the result shares a list with the input", i, before, st)
			}
			g = before
		}
	}
}

// TestPendingJoinIndex structurizes graphs deep enough for long frame
// stacks under CheckPasses, where the walk checks each lookup of a pending
// join (pendingFor) against a scan of the stack (pendingScan), each
// twiceToLoop against a count of edges (twiceToLoopScan), and the loops
// pass checks exitDests against its scan (exitWalk.scan); a
// disagreement panics, which the strategy reports as a fallback.
func TestPendingJoinIndex(t *testing.T) {
	r := loggedRand(t, 11)
	for i := range 200 {
		var g *cfg.Graph
		if i%2 == 0 {
			g = randomGraph(r, 50+r.IntN(300))
		} else {
			g = randomReducible(r, 50+r.IntN(600))
		}
		res, err := Structurize(g, Options{CheckPasses: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Fallbacks != 0 {
			t.Fatalf("graph %d (%d blocks) fell back: %v", i, g.Len(), res.Stats.PassesUsed)
		}
	}
}

// TestStructuredRenumberingInvariant: the structured strategy runs on the
// reachable blocks in reverse post-order (strategyInput), so a graph
// renumbered with its entry and successor order kept gives the same
// function, each original or clone block naming the renumbered id of its
// block; the dispatch strategy is left to the meta check.
func TestStructuredRenumberingInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 5))
	for i := range 1500 {
		g := mixedGraph(r, i, 3, 12, 60)
		n := g.Len()
		perm := make([]int, n)
		for b := range perm {
			perm[b] = b
		}
		r.Shuffle(n-1, func(a, b int) { perm[a+1], perm[b+1] = perm[b+1], perm[a+1] })
		a, err := Structurize(g, Options{})
		if err != nil {
			t.Fatalf("graph %d %v: %v", i, g, err)
		}
		b, err := Structurize(g.Permute(perm), Options{})
		if err != nil {
			t.Fatalf("graph %d %v renumbered by %v: %v", i, g, perm, err)
		}
		for k := range a.Func.Blocks {
			if a.Func.Blocks[k].Kind != Synthetic {
				a.Func.Blocks[k].Orig = perm[a.Func.Blocks[k].Orig]
			}
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("graph %d %v renumbered by %v: the functions differ:\n%s\n%s", i, g, perm, ja, jb)
		}
	}
}
