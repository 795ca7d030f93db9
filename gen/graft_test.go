// graft_test.go checks Graft, GraftBeside and GraftPrefix on generated
// graphs and their mutants: the tail stays whole (its blocks, edges and
// weights, shifted); in sequence only the head's returns change, beside
// only the new entry is added; GraftPrefix gives the head back.
package gen

import (
	"slices"
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

func TestGraftBesideKeepsBothWhole(t *testing.T) {
	const seed = 7
	t.Logf("seed %d", seed)
	noReturn := 0
	for i := range 300 {
		hi, err := Generate(Config{Kind: Kinds()[i%len(Kinds())]}, SeedFor(Reducible, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		ti, err := Generate(Config{Kind: Kinds()[(i+1)%len(Kinds())], WordsUpTo: VariedWords}, SeedFor(Reducible, seed, 1000+i))
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
		if !slices.ContainsFunc(head.Succs, func(s []int) bool { return len(s) == 0 }) {
			noReturn++
		}
		g := GraftBeside(head, tail)
		n := head.Len()
		if g.Len() != 1+n+tail.Len() {
			t.Fatalf("graft %d: %d blocks, want 1 + %d + %d", i, g.Len(), n, tail.Len())
		}
		if err := g.Validate(cfg.Limits{MaxBlocks: g.Len(), MaxSuccs: max(maxSuccs(head), maxSuccs(tail), 2)}); err != nil {
			t.Fatalf("graft %d invalid: %v", i, err)
		}
		if !slicesEqual(g.Succs[0], []int{1, 1 + n}) || g.Weight(0) != 0 {
			t.Fatalf("graft %d: entry %v weight %d, want [1 %d] weight 0", i, g.Succs[0], g.Weight(0), 1+n)
		}
		for _, part := range []struct {
			g  *cfg.Graph
			at int
		}{{head, 1}, {tail, 1 + n}} {
			for b, s := range part.g.Succs {
				want := make([]int, len(s))
				for k, x := range s {
					want[k] = part.at + x
				}
				if got := g.Succs[part.at+b]; !slicesEqual(got, want) || g.Weight(part.at+b) != part.g.Weight(b) {
					t.Fatalf("graft %d: block %d is %v weight %d, want the part's block %d %v weight %d shifted by %d", i, part.at+b, got, g.Weight(part.at+b), b, s, part.g.Weight(b), part.at)
				}
			}
		}
		back, ok := GraftPrefix(g, 1+n)
		if !ok || !back.Equal(plainCopy(head)) {
			t.Fatalf("graft %d: GraftPrefix gives %v (%v), want %s", i, back, ok, head)
		}
		for _, at := range []int{n, 2 + n} {
			if at < g.Len() {
				if back, ok := GraftPrefix(g, at); ok && back.Equal(plainCopy(head)) {
					t.Fatalf("graft %d: GraftPrefix at %d, not where the tail starts, gives the head", i, at)
				}
			}
		}
	}
	if noReturn == 0 {
		t.Fatal("no head without a return: the test shows nothing of grafting one beside")
	}
	t.Logf("300 grafts beside, %d of heads without a return", noReturn)
}

// TestGraftPrefixTellsTheLayouts: GraftPrefix tells a graft beside (block
// 0 branching to 1 and to the tail's entry) from one in sequence whose
// head's entry branches to 1, and refuses a beside layout whose head
// reaches the new entry or the tail.
func TestGraftPrefixTellsTheLayouts(t *testing.T) {
	head := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	tail := cfg.FromSuccs([][]int{{1}, {}})
	seq, _ := Graft(head, tail)
	for _, tc := range []struct {
		g    *cfg.Graph
		n    int
		want *cfg.Graph
	}{
		{seq, 3, head},
		{GraftBeside(head, tail), 4, head},
		{GraftBeside(cfg.FromSuccs([][]int{{0}}), tail), 2, cfg.FromSuccs([][]int{{0}})},
		{cfg.FromSuccs([][]int{{1, 3}, {2}, {0}, {}}), 3, nil},    // the head branches back to the new entry
		{cfg.FromSuccs([][]int{{1, 3}, {4}, {}, {}, {}}), 3, nil}, // the head branches into the tail
	} {
		got, ok := GraftPrefix(tc.g, tc.n)
		switch {
		case tc.want == nil && ok:
			t.Errorf("GraftPrefix(%s, %d) = %s, want none", tc.g, tc.n, got)
		case tc.want != nil && (!ok || !got.Equal(tc.want)):
			t.Errorf("GraftPrefix(%s, %d) = %v (%v), want %s", tc.g, tc.n, got, ok, tc.want)
		}
	}
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
