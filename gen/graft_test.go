// graft_test.go checks Graft and GraftPrefix on generated graphs and their
// mutants: the tail stays whole (its blocks, edges and weights, shifted),
// only the head's returns change, and GraftPrefix gives the head back.
package gen

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestGraftKeepsTheTailWhole(t *testing.T) {
	const seed = 7
	t.Logf("seed %d", seed)
	grafted, refused := 0, 0
	for i := range 300 {
		hi, err := Generate(Config{Kind: Kinds()[i%len(Kinds())]}, SeedFor(Reducible, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		ti, err := Generate(Config{Kind: Kinds()[(i+1)%len(Kinds())]}, SeedFor(Reducible, seed, 1000+i))
		if err != nil {
			t.Fatal(err)
		}
		head, tail := hi.Graph, ti.Graph
		if (MutateOptions{}).Fits(head) == nil {
			m, err := Mutate(head, uint64(i), MutateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			head = m.Graph
		}
		g, ok := Graft(head, tail)
		returns := 0
		for _, s := range head.Succs {
			if len(s) == 0 {
				returns++
			}
		}
		if !ok {
			if returns > 0 {
				t.Fatalf("graft %d refused a head with %d returns: %s", i, returns, head)
			}
			refused++
			continue
		}
		grafted++
		n := head.Len()
		if g.Len() != n+tail.Len() {
			t.Fatalf("graft %d: %d blocks, want %d + %d", i, g.Len(), n, tail.Len())
		}
		if err := g.Validate(cfg.Limits{MaxBlocks: g.Len(), MaxSuccs: max(maxSuccs(head), maxSuccs(tail), 1)}); err != nil {
			t.Fatalf("graft %d invalid: %v", i, err)
		}
		for b, s := range tail.Succs {
			got := g.Succs[n+b]
			if len(got) != len(s) || g.Weight(n+b) != tail.Weight(b) {
				t.Fatalf("graft %d: tail block %d is %v weight %d, want %v weight %d shifted by %d", i, b, got, g.Weight(n+b), s, tail.Weight(b), n)
			}
			for k := range s {
				if got[k] != s[k]+n {
					t.Fatalf("graft %d: tail block %d is %v, want %v shifted by %d", i, b, got, s, n)
				}
			}
		}
		for b, s := range head.Succs {
			want := s
			if len(s) == 0 {
				want = []int{n}
			}
			if !slicesEqual(g.Succs[b], want) || g.Weight(b) != head.Weight(b) {
				t.Fatalf("graft %d: head block %d is %v, want %v", i, b, g.Succs[b], want)
			}
		}
		back, ok := GraftPrefix(g, n)
		if !ok || !back.Equal(plainCopy(head)) {
			t.Fatalf("graft %d: GraftPrefix gives %v (%v), want %s", i, back, ok, head)
		}
	}
	if grafted == 0 {
		t.Fatal("no graft made")
	}
	t.Logf("%d grafts, %d heads without a return", grafted, refused)
}

func TestGraftPrefixRefusesNonHeads(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {}, {0}})
	for _, n := range []int{0, 3, 4, -1} {
		if _, ok := GraftPrefix(g, n); ok {
			t.Errorf("GraftPrefix(%s, %d) took a split outside the graph", g, n)
		}
	}
	if _, ok := GraftPrefix(g, 1); ok {
		t.Errorf("GraftPrefix(%s, 1) took a head with an edge past its end", g)
	}
	if _, ok := Graft(cfg.FromSuccs([][]int{{0}}), g); ok {
		t.Error("Graft took a head without a return")
	}
}

func maxSuccs(g *cfg.Graph) int {
	m := 0
	for _, s := range g.Succs {
		m = max(m, len(s))
	}
	return m
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}
