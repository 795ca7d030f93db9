// reduce_test.go: the reduction steps on hand-written graphs (compact
// notation in, compact notation out), and DFSRenumber against its
// definition of canonical: every renumbering of a graph (entry fixed) gets
// the same canonical form.
package corpus

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func compact(t *testing.T, s string) *cfg.Graph {
	t.Helper()
	g, err := cfg.ParseCompact(s, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestReductionSteps(t *testing.T) {
	drop := func(n int, bs ...int) []bool {
		d := make([]bool, n)
		for _, b := range bs {
			d[b] = true
		}
		return d
	}
	cases := []struct {
		name string
		got  func() *cfg.Graph
		want string
	}{
		{"drop redirects to the first successor", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1, 2}, {3}, {3}, {}}"), drop(4, 1), ViaFirst)
		}, "{{2, 1}, {2}, {}}"},
		{"drop follows a chain of dropped blocks", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1}, {2}, {3}, {}}"), drop(4, 1, 2), ViaFirst)
		}, "{{1}, {}}"},
		{"drop removes an edge into a dropped return", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1, 2}, {}, {}}"), drop(3, 1), ViaFirst)
		}, "{{1}, {}}"},
		{"drop removes an edge into a dropped cycle", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1, 3}, {2}, {1}, {}}"), drop(4, 1, 2), ViaFirst)
		}, "{{1}, {}}"},
		{"drop via the last successor", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1}, {2, 3}, {}, {}}"), drop(4, 1), ViaLast)
		}, "{{1}, {}}"},
		{"drop edges makes blocks unreachable", func() *cfg.Graph {
			return dropEdges(compact(t, "{{1, 2}, {}, {}}"), []Edge{{0, 0}})
		}, "{{1}, {}}"},
		{"keep one arm", func() *cfg.Graph { return keepArm(compact(t, "{{1, 2, 3}, {}, {}, {}}"), 0, 2) }, "{{1}, {}}"},
		{"retarget leaves a return unreachable", func() *cfg.Graph { return retarget(compact(t, "{{1, 2}, {}, {}}"), 0, 1, 1) }, "{{1, 1}, {}}"},
		{"retarget at the block itself", func() *cfg.Graph { return retarget(compact(t, "{{1, 2}, {3}, {}, {}}"), 1, 0, 1) }, "{{1, 2}, {1}, {}}"},
		{"merge a straight line", func() *cfg.Graph { return mergeInto(compact(t, "{{1}, {2, 3}, {}, {}}"), 0, 1) }, "{{1, 2}, {}, {}}"},
		{"skip the entry", func() *cfg.Graph { g, _ := skipEntry(compact(t, "{{1}, {2, 1}, {}}")); return g }, "{{1, 0}, {}}"},
		{"renumber depth-first", func() *cfg.Graph { return DFSRenumber(compact(t, "{{2}, {}, {1}}")) }, "{{1}, {2}, {}}"},
		// Dead code the graph had (blocks no path from the entry reaches)
		// stays, with what it enters (a block a step cuts off from the
		// entry becomes dead code then); what a step cuts off from the
		// entry alone goes; a step that drops a dead block drops it.
		{"drop edges keeps dead code and what it enters", func() *cfg.Graph {
			return dropEdges(compact(t, "{{1, 2}, {}, {}, {2}}"), []Edge{{0, 1}})
		}, "{{1}, {}, {}, {2}}"},
		{"drop edges drops what only the entry reached", func() *cfg.Graph {
			return dropEdges(compact(t, "{{1, 2}, {}, {}, {1}}"), []Edge{{0, 1}})
		}, "{{1}, {}, {1}}"},
		{"drop edges keeps a dead cycle", func() *cfg.Graph {
			return dropEdges(compact(t, "{{1}, {}, {3, 1}, {2}}"), []Edge{{0, 0}})
		}, "{{}, {}, {3, 1}, {2}}"},
		{"drop a dead block", func() *cfg.Graph {
			return dropBlocks(compact(t, "{{1}, {}, {3, 1}, {2}}"), drop(4, 3), ViaFirst)
		}, "{{1}, {}, {2, 1}}"},
		{"merge a dead pair", func() *cfg.Graph { return mergeInto(compact(t, "{{1}, {}, {3}, {1}}"), 2, 3) }, "{{1}, {}, {1}}"},
		{"skip the entry keeps dead code", func() *cfg.Graph { g, _ := skipEntry(compact(t, "{{1}, {2}, {}, {2}}")); return g }, "{{1}, {}, {1}}"},
		{"renumber dead code after the live blocks", func() *cfg.Graph { return DFSRenumber(compact(t, "{{2}, {3}, {}, {1, 0}}")) }, "{{1}, {}, {3}, {2, 0}}"},
	}
	for _, c := range cases {
		if got := cfg.FormatCompact(c.got()); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
	if got, want := retargets(compact(t, "{{1, 2}, {3, 0}, {}, {}}"), 1, 0), []int{0, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("retargets of 1.0: %v, want %v (the other successor, the first return, the block; the entry already listed)", got, want)
	}
	if _, ok := mergeable(compact(t, "{{1}, {1, 2}, {}}"), compact(t, "{{1}, {1, 2}, {}}").Preds(), 0); ok {
		t.Error("merged into a block with a second predecessor")
	}
}

func TestDFSRenumberIsCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for seed := range uint64(200) {
		g := randomGraph(seed, 2+int(seed%40))
		want := Key(DFSRenumber(g))
		perm := rng.Perm(g.Len() - 1)
		full := append([]int{0}, make([]int, g.Len()-1)...)
		for i, p := range perm {
			full[i+1] = p + 1
		}
		if got := Key(DFSRenumber(g.Permute(full))); got != want {
			t.Fatalf("seed %d: %s renumbered canonically to %s, its permutation to %s", seed, g, want, got)
		}
	}
}
