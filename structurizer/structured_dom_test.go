// structured_dom_test.go: the fast paths that skip an analysis against the
// analysis: the self-check's reverse post-order test, the pass table's
// shifted forest.
package structurizer

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// loggedRand is a generator on a fixed seed, the seed logged.
func loggedRand(t *testing.T, seed uint64) *rand.Rand {
	t.Helper()
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 0))
}

// freshRand is a generator on a seed drawn anew each run (logged) and
// the given stream.
func freshRand(t *testing.T, stream uint64) *rand.Rand {
	t.Helper()
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, stream))
}

// mixedGraph is draw i of a seeded mix: a reducible graph of 2 to n+1
// blocks every k-th draw, else an arbitrary one of 1 to m blocks
// (irreducible ones and unreachable blocks included).
func mixedGraph(r *rand.Rand, i, k, m, n int) *cfg.Graph {
	g := randomGraph(r, 1+r.IntN(m))
	if i%k == 0 {
		g = randomReducible(r, 2+r.IntN(n))
	}
	return g
}

// TestReversePostOrderFastPath: where inReversePostOrder holds, every
// reached block's immediate dominator (cfg.ImmediateDominators, the reference
// checkLayout falls back to) has a smaller id; graphs renumbered into their
// reverse post-order exercise the true case, random ones mostly the false.
func TestReversePostOrderFastPath(t *testing.T) {
	r := loggedRand(t, 32)
	held := 0
	for i := range 3000 {
		g := randomGraph(r, 1+r.IntN(30))
		if i%3 == 0 {
			g = randomReducible(r, 2+r.IntN(40))
		}
		if i%2 == 0 {
			g = inRPO(g)
		}
		if !inReversePostOrder(g) {
			continue
		}
		held++
		for b, d := range cfg.ImmediateDominators(g) {
			if d != cfg.NoBlock && d > b {
				t.Fatalf("graph %d %v: in reverse post-order, yet block %d's dominator is %d", i, g, b, d)
			}
		}
	}
	if held < 1000 {
		t.Fatalf("only %d graphs in reverse post-order", held)
	}
}

// inRPO renumbers g's reached blocks by reverse post-order, the others
// after them in block order.
func inRPO(g *cfg.Graph) *cfg.Graph {
	o := cfg.DFSOrder(g)
	perm := make([]int, g.Len())
	next := len(o.RPO)
	for b := range perm {
		if o.RPONum[b] != cfg.NoBlock {
			perm[b] = o.RPONum[b]
		} else {
			perm[b] = next
			next++
		}
	}
	return g.Permute(perm)
}

// TestEntryForestMatchesCfg: the working graph's loop forest and orders
// shifted from the input's facts (entryForest) against package cfg's on
// the working graph itself, on seeded random graphs (irreducible ones and
// unreachable blocks included).
func TestEntryForestMatchesCfg(t *testing.T) {
	r := loggedRand(t, 33)
	for i := range 3000 {
		g := mixedGraph(r, i, 3, 30, 40)
		wg := newWork(g, Options{}).graph()
		f, o := entryForest(factsOf(g))
		if want := cfg.LoopForest(wg); !reflect.DeepEqual(f, want) {
			t.Fatalf("graph %d %v: shifted forest %+v, cfg %+v", i, g, f, want)
		}
		if want := cfg.DFSOrder(wg); !reflect.DeepEqual(o, want) {
			t.Fatalf("graph %d %v: shifted orders %+v, cfg %+v", i, g, o, want)
		}
	}
}
