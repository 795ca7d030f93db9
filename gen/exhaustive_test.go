// exhaustive_test.go: the enumeration's counts, order and canonical forms,
// cross-checked against brute force for N <= 4.
package gen

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// The counts documented in exhaustive.go.
var exhaustiveExactCounts = []int{1: 3, 2: 28, 3: 481, 4: 11508, 5: 350548, 6: 12927692}

func TestExhaustiveCounts(t *testing.T) {
	total := 0
	for n := 1; n <= 6; n++ {
		if got := exhaustiveExact(n); got != exhaustiveExactCounts[n] {
			t.Errorf("graphs of exactly %d blocks: %d, documented %d", n, got, exhaustiveExactCounts[n])
		}
		total += exhaustiveExactCounts[n]
		if got := ExhaustiveCount(n); got != total {
			t.Errorf("ExhaustiveCount(%d) = %d, want %d", n, got, total)
		}
	}
	for n := 1; n <= 5; n++ {
		if got := len(ExhaustiveGraphs(n)); got != ExhaustiveCount(n) {
			t.Errorf("ExhaustiveGraphs(%d) has %d graphs, ExhaustiveCount says %d", n, got, ExhaustiveCount(n))
		}
	}
	for _, n := range []int{0, MaxExhaustiveN + 1} {
		if ExhaustiveCount(n) != 0 || ExhaustiveAt(n, 0) != nil || ExhaustiveGraphs(n) != nil {
			t.Errorf("n = %d is out of range but gives graphs", n)
		}
	}
}

// bruteCanonical is the canonical key of an all-reachable graph by brute
// force: the least compact notation over every renumbering that keeps
// block 0 the entry.
func bruteCanonical(g *cfg.Graph) string {
	n := g.Len()
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	best := ""
	var try func(k int)
	try = func(k int) {
		if k == n {
			if s := g.Permute(perm).String(); best == "" || s < best {
				best = s
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			try(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	try(1)
	return best
}

// bruteClasses enumerates every graph of n blocks with out-degree at most
// 2, keeps those whose blocks are all reachable, and returns their
// isomorphism classes by canonical key.
func bruteClasses(n int) map[string]bool {
	var lists [][]int // every successor list over n blocks
	lists = append(lists, []int{})
	for a := range n {
		lists = append(lists, []int{a})
	}
	for a := range n {
		for b := range n {
			lists = append(lists, []int{a, b})
		}
	}
	classes := map[string]bool{}
	choice := make([]int, n)
	g := cfg.New(n)
	for {
		for b := range n {
			g.Succs[b] = lists[choice[b]]
		}
		if !slices.Contains(g.Reachable(), false) {
			classes[bruteCanonical(g)] = true
		}
		i := 0
		for i < n && choice[i] == len(lists)-1 {
			choice[i] = 0
			i++
		}
		if i == n {
			return classes
		}
		choice[i]++
	}
}

func TestExhaustiveBruteForce(t *testing.T) {
	all := ExhaustiveGraphs(4)
	for n := 1; n <= 4; n++ {
		classes := bruteClasses(n)
		if len(classes) != exhaustiveExact(n) {
			t.Errorf("n = %d: brute force finds %d classes, the enumeration counts %d", n, len(classes), exhaustiveExact(n))
		}
		got := map[string]bool{}
		for _, g := range all {
			if g.Len() != n {
				continue
			}
			key := bruteCanonical(g)
			if got[key] {
				t.Fatalf("n = %d: %v repeats a class already enumerated", n, g)
			}
			if !classes[key] {
				t.Fatalf("n = %d: %v is not a graph of the brute-force set", n, g)
			}
			got[key] = true
		}
		if len(got) != len(classes) {
			t.Errorf("n = %d: the enumeration covers %d of %d classes", n, len(got), len(classes))
		}
	}
}

func TestExhaustiveOrder(t *testing.T) {
	all := ExhaustiveGraphs(4)
	for i, g := range all {
		if !Canonical(g).Equal(g) {
			t.Fatalf("graph %d %v is not in canonical form (%v)", i, g, Canonical(g))
		}
		if at := ExhaustiveAt(4, i); !at.Equal(g) {
			t.Fatalf("ExhaustiveAt(4, %d) = %v, enumeration has %v", i, at, g)
		}
		if i > 0 && !exhaustiveLess(all[i-1], g) {
			t.Fatalf("graphs %d and %d out of order: %v, %v", i-1, i, all[i-1], g)
		}
	}
	for _, seed := range []uint64{0, 1, 511, 12019, 12020, 1 << 40} {
		it, err := Generate(Config{Kind: Exhaustive}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if want := all[seed%uint64(len(all))]; !it.Graph.Equal(want) {
			t.Errorf("seed %d: %v, want graph %d %v", seed, it.Graph, seed%uint64(len(all)), want)
		}
	}
	// The first graphs, as documented.
	var first []string
	for _, g := range all[:5] {
		first = append(first, g.String())
	}
	if got := strings.Join(first, " "); got != "{{}} {{0}} {{0, 0}} {{1}, {}} {{1}, {0}}" {
		t.Errorf("first graphs: %s", got)
	}
}

// exhaustiveLess is the documented order: by block count, then block by
// block, a shorter successor list first, equal lengths by targets.
func exhaustiveLess(a, b *cfg.Graph) bool {
	if a.Len() != b.Len() {
		return a.Len() < b.Len()
	}
	for i := range a.Succs {
		x, y := a.Succs[i], b.Succs[i]
		if len(x) != len(y) {
			return len(x) < len(y)
		}
		if c := slices.Compare(x, y); c != 0 {
			return c < 0
		}
	}
	return false
}

func TestCanonical(t *testing.T) {
	for _, it := range batch(t, Config{MinBlocks: 2, MaxBlocks: 12}, 9, 300) {
		g := it.Graph
		perm := newRNG(it.Seed, 99).perm(g.Len() - 1)
		full := append([]int{0}, perm...)
		for i := 1; i < len(full); i++ {
			full[i]++
		}
		h := g.Permute(full)
		if !Canonical(g).Equal(Canonical(h)) {
			t.Fatalf("seed %d: %v and its renumbering %v have different canonical forms", it.Seed, g, h)
		}
	}
	// Unreachable blocks are dropped.
	g := cfg.FromSuccs([][]int{{2}, {0}, {}})
	if got := Canonical(g).String(); got != "{{1}, {}}" {
		t.Errorf("Canonical(%v) = %s", g, got)
	}
}

// TestGrowingOrder: the growing order starts with the stable order of 1 to
// 5 blocks, then goes on to 6 blocks without repeating a graph (checked on
// a stretch of positions across the boundary), every graph canonical.
func TestGrowingOrder(t *testing.T) {
	full := uint64(ExhaustiveCount(GrowingFullN))
	if full != 362568 {
		t.Fatalf("graphs of 1 to %d blocks: %d, want 362568", GrowingFullN, full)
	}
	for _, p := range []uint64{0, 1, 31, 511, 12019, 200000, full - 1} {
		if got, want := cfg.FormatCompact(GrowingAt(p)), cfg.FormatCompact(ExhaustiveAt(GrowingFullN, int(p))); got != want {
			t.Fatalf("position %d: %s, want %s", p, got, want)
		}
	}
	seen := map[string]uint64{}
	for p := full - 2000; p < full+20000; p++ {
		g := GrowingAt(p)
		want := 5
		if p >= full {
			want = 6
		}
		if g.Len() > want || p >= full && g.Len() != 6 {
			t.Fatalf("position %d: %d blocks, want %d", p, g.Len(), want)
		}
		key := cfg.FormatCompact(g)
		if key != cfg.FormatCompact(Canonical(g)) {
			t.Fatalf("position %d: %s is not canonical", p, key)
		}
		if q, dup := seen[key]; dup {
			t.Fatalf("positions %d and %d give the same graph %s", q, p, key)
		}
		seen[key] = p
	}
	if GrowingAt(GrowingCount()) == nil || cfg.FormatCompact(GrowingAt(GrowingCount())) != cfg.FormatCompact(GrowingAt(0)) {
		t.Fatal("the order does not wrap at GrowingCount")
	}
}

// TestScramblePermutes: the scramble of a size is a permutation.
func TestScramblePermutes(t *testing.T) {
	for _, m := range []uint64{1, 2, 28, 481, 11508, 350548} {
		hit := make([]bool, m)
		for k := range m {
			r := scramble(k, m)
			if r >= m || hit[r] {
				t.Fatalf("m %d: k %d maps to %d twice or out of range", m, k, r)
			}
			hit[r] = true
		}
	}
}
