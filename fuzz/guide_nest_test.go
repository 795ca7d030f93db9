package fuzz

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestsDirectly says whether the in-process structurizer lays g out by the
// nested pass alone (the graph already nests).
func nestsDirectly(t *testing.T, g *cfg.Graph) bool {
	t.Helper()
	r, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatalf("structurize %s: %v", g, err)
	}
	return slices.Equal(r.Stats.PassesUsed, []string{"nested"})
}

// TestQuietGraftsKeepNesting: a quiet parent's graft (one of quietOps,
// grafted beside the fresh graph) nests whenever the parent and the fresh
// graph nest, nearly always; that is what keeps a fresh graph that nests
// on the structurizer's direct path inside its graft. Drawing from every
// mutation instead loses that for many more (logged, not asserted).
func TestQuietGraftsKeepNesting(t *testing.T) {
	const seed = 4
	t.Logf("seed %d", seed)
	var nesting []*cfg.Graph
	for i := 0; len(nesting) < 240 && i < 4000; i++ {
		it, err := gen.Generate(gen.Config{Kind: gen.Kinds()[i%len(gen.Kinds())]}, gen.SeedFor(gen.Reducible, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		if (gen.MutateOptions{}).Fits(it.Graph) == nil && nestsDirectly(t, it.Graph) {
			nesting = append(nesting, it.Graph)
		}
	}
	if len(nesting) < 200 {
		t.Fatalf("%d generated graphs nest, want 200", len(nesting))
	}
	rate := func(ops []string) float64 {
		kept := 0
		for k, parent := range nesting {
			m, err := gen.Mutate(parent, uint64(k), gen.MutateOptions{MaxStack: quietStack, Ops: ops})
			if err != nil {
				t.Fatal(err)
			}
			if nestsDirectly(t, gen.GraftBeside(m.Graph, nesting[(k+1)%len(nesting)])) {
				kept++
			}
		}
		return float64(kept) / float64(len(nesting))
	}
	quiet, all := rate(quietOps), rate(gen.Mutations)
	t.Logf("%d nesting parents: %.0f%% of the grafts beside a nesting graph nest with quietOps, %.0f%% with every mutation", len(nesting), 100*quiet, 100*all)
	if quiet < 0.95 {
		t.Errorf("%.0f%% of quiet grafts of nesting parts nest, want 95%%", 100*quiet)
	}
}
