package gen

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestMutateValidAndDeterministic mutates generated graphs under every
// seed of a range: each mutant validates within the limits, has only
// reachable blocks, and is the same graph when drawn twice.
func TestMutateValidAndDeterministic(t *testing.T) {
	o := MutateOptions{MaxBlocks: 12, MaxSuccs: 4}
	seen := map[string]int{}
	for i := range 400 {
		it, err := Generate(Config{Kind: Kinds()[i%len(Kinds())]}, SeedFor(Reducible, 1, i))
		if err != nil {
			t.Fatal(err)
		}
		if it.Graph.Validate(o.limits()) != nil {
			if _, err := Mutate(it.Graph, 1, o); err == nil {
				t.Fatalf("parent %s over the limits mutated without an error", it.Graph)
			}
			continue
		}
		seed := uint64(1000 + i)
		m, err := Mutate(it.Graph, seed, o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := m.Graph.Validate(cfg.Limits{MaxBlocks: o.MaxBlocks, MaxSuccs: o.MaxSuccs}); err != nil {
			t.Fatalf("seed %d: mutant %s of %s (%v) invalid: %v", seed, m.Graph, it.Graph, m.Ops, err)
		}
		for b, r := range m.Graph.Reachable() {
			if !r {
				t.Fatalf("seed %d: mutant %s keeps unreachable block %d", seed, m.Graph, b)
			}
		}
		again, _ := Mutate(it.Graph, seed, o)
		if !again.Graph.Equal(m.Graph) {
			t.Fatalf("seed %d: mutant differs when drawn again: %s vs %s", seed, m.Graph, again.Graph)
		}
		for _, op := range m.Ops {
			seen[op]++
		}
	}
	for _, op := range Mutations {
		if seen[op] == 0 {
			t.Errorf("mutation %s never applied in 400 mutants (applied: %v)", op, seen)
		}
	}
}

// TestMutateDrawsOnlyItsOps: with MutateOptions.Ops, every mutation
// applied is one of them, each of them applies, and Ops naming every
// mutation draws what the default does.
func TestMutateDrawsOnlyItsOps(t *testing.T) {
	ops := []string{"split", "merge"}
	seen := map[string]int{}
	for i := range 200 {
		it, err := Generate(Config{Kind: Kinds()[i%len(Kinds())]}, SeedFor(Reducible, 2, i))
		if err != nil {
			t.Fatal(err)
		}
		if (MutateOptions{}).Fits(it.Graph) != nil {
			continue
		}
		m, err := Mutate(it.Graph, uint64(i), MutateOptions{Ops: ops})
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range m.Ops {
			if !slices.Contains(ops, op) {
				t.Fatalf("mutant %d applied %s, not one of %v", i, op, ops)
			}
			seen[op]++
		}
		all, _ := Mutate(it.Graph, uint64(i), MutateOptions{Ops: Mutations})
		def, _ := Mutate(it.Graph, uint64(i), MutateOptions{})
		if !all.Graph.Equal(def.Graph) || !slices.Equal(all.Ops, def.Ops) {
			t.Fatalf("mutant %d: Ops naming every mutation gives %s %v, the default %s %v", i, all.Graph, all.Ops, def.Graph, def.Ops)
		}
	}
	for _, op := range ops {
		if seen[op] == 0 {
			t.Errorf("%s never applied (applied: %v)", op, seen)
		}
	}
}

// TestMutationsByHand checks each mutation's effect on a small graph.
func TestMutationsByHand(t *testing.T) {
	o := MutateOptions{}.withDefaults()
	diamond := func() *cfg.Graph { return cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}}) }
	r := newRNG(7, streamMutate)
	if g := mutSplit(diamond(), r, o); g.Len() != 5 {
		t.Errorf("split: %s, want 5 blocks", g)
	}
	if g := mutMerge(cfg.FromSuccs([][]int{{1}, {}}), r); g == nil || len(g.Succs[0]) != 0 {
		t.Errorf("merge of 0->1: %v, want block 0 returning", g)
	}
	if g := mutMerge(diamond(), r); g != nil {
		t.Errorf("merge on a diamond (3 has two preds, 1 and 2 one each): %s", g)
	}
	if g := mutDuplicateCase(diamond(), r, o); g == nil || len(g.Succs[0]) != 3 {
		t.Errorf("duplicate-case: %v, want a 3-way switch at 0", g)
	}
	g := mutBackEdge(diamond(), r, o)
	if g == nil || !hasCycle(g) {
		t.Errorf("back-edge: %v, want a cycle", g)
	}
	g = mutWrapLoop(cfg.FromSuccs([][]int{{}}), r, o)
	if g == nil || !hasCycle(g) || g.Len() != 4 {
		t.Errorf("wrap-loop of one block: %v, want a 4-block loop", g)
	}
}

func hasCycle(g *cfg.Graph) bool { return len(cfg.LoopForest(g).Loops) > 0 }
