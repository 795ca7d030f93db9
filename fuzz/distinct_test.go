// distinct_test.go: distinct work. Each index is its own graph number of
// its generator (Settings.Place), isomorphic repeats are skipped in index
// order, and the skips are the same whatever the workers, the shards or
// the hash set's cap.
package fuzz

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// repeatBases are pairwise non-isomorphic graphs, one with dead blocks;
// repeatSource gives graph number j as base j mod 5, renumbered by a
// permutation drawn from j (which moves the dead blocks too).
var repeatBases = []string{
	"{{1}, {}}",
	"{{1, 2}, {3}, {3}, {}}",
	"{{1}, {1, 2}, {}}",
	"{{1}, {2}, {}, {1, 4}, {4, 0}}", // 3 and 4 dead
	"{{1, 2}, {2}, {0, 3}, {}}",
}

type repeatSource struct{ testSource }

func (repeatSource) Item(st Stream, run uint64, j int) (Item, error) {
	g, err := cfg.ParseCompact(repeatBases[j%len(repeatBases)], cfg.Limits{})
	if err != nil {
		return Item{}, err
	}
	if st.Weights == "w16+heavy" {
		for b := range g.Weights {
			g.Weights[b] = 16
		}
	}
	r := rand.New(rand.NewPCG(uint64(j), 3))
	perm := []int{0} // the entry stays block 0
	for _, b := range r.Perm(g.Len() - 1) {
		perm = append(perm, b+1)
	}
	return Item{Graph: g.Permute(perm), Seed: uint64(j)}, nil
}

func TestPlaceGivesEachIndexItsOwnGraphNumber(t *testing.T) {
	s := Settings{Streams: []Stream{{Kind: "a", Weights: "w0"}, {Kind: "a", Weights: "w16"}, {Kind: "b", Weights: "w0"}, {Kind: "a", Weights: "w1000"}}}
	seen := map[string]int{}
	next := map[string]int{}
	for i := range 400 {
		st, j := s.Place(i)
		if st != i%len(s.Streams) {
			t.Fatalf("index %d: stream %d, want %d", i, st, i%len(s.Streams))
		}
		kind := s.Streams[st].Kind
		key := fmt.Sprint(kind, j)
		if k, dup := seen[key]; dup {
			t.Fatalf("indices %d and %d are both graph %d of %s", k, i, j, kind)
		}
		seen[key] = i
		if j != next[kind] { // each generator's graphs in order
			t.Fatalf("index %d: graph %d of %s, want %d", i, j, kind, next[kind])
		}
		next[kind]++
	}
}

func TestGraphHashIsCanonical(t *testing.T) {
	g, _ := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	copy(g.Weights, []int{0, 16, 0, 0})
	renumbered := g.Permute([]int{0, 2, 3, 1})
	if GraphHash(g, "") != GraphHash(renumbered, "") {
		t.Errorf("a renumbering hashes differently: %s vs %s", cfg.FormatCompact(g), cfg.FormatCompact(renumbered))
	}
	if got := gen.Canonical(renumbered); cfg.FormatCompact(got) != cfg.FormatCompact(gen.Canonical(g)) {
		t.Fatalf("canonical forms differ")
	}
	swapped, _ := cfg.ParseCompact("{{2, 1}, {3}, {3}, {}}", cfg.Limits{})
	copy(swapped.Weights, []int{0, 16, 0, 0}) // the weighted block is now the false arm
	other := g.Clone()
	other.Weights[1] = 0
	for name, h := range map[string]uint64{
		"arms swapped":      GraphHash(swapped, ""),
		"other weights":     GraphHash(other, ""),
		"another strategy":  GraphHash(g, "dispatch"),
		"unreachable block": GraphHash(cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {3}}), ""),
	} {
		if h == GraphHash(g, "") {
			t.Errorf("%s: same hash as %s", name, cfg.FormatCompact(g))
		}
	}
}

// TestSkipsAreDeterministic: with repeatSource's 10 distinct (graph,
// weights) pairs, exactly the first 10 indices run and every later one is
// skipped as a repeat of index i mod 10, with the same report on 1 and 3
// workers and from 3 shards merged.
func TestSkipsAreDeterministic(t *testing.T) {
	const n = 90
	run := func(workers int, shard Shard) Config {
		c := testConfig(t, n)
		c.Source, c.Workers, c.Shard = repeatSource{}, workers, shard
		mustRun(t, c)
		return c
	}
	one := run(1, Shard{})
	rep := readReport(t, one.Dir)
	if rep.Graphs != 10 || rep.Skipped != n-10 {
		t.Fatalf("%d graphs, %d skipped; want 10 and %d", rep.Graphs, rep.Skipped, n-10)
	}
	recs, _, err := ReadRecords(one.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Skipped != (r.Index >= 10) || r.Skipped && r.SameAs != r.Index%10 {
			t.Errorf("index %d: skipped %v same as %d; want skipped %v same as %d", r.Index, r.Skipped, r.SameAs, r.Index >= 10, r.Index%10)
		}
	}
	if rep.Throughput.Graphs != 10 || rep.Throughput.Skipped != n-10 {
		t.Errorf("throughput %+v: want 10 graphs and %d skipped", rep.Throughput, n-10)
	}
	if a, b := reportJSON(t, one.Dir), reportJSON(t, run(3, Shard{}).Dir); a != b {
		t.Errorf("1 and 3 workers differ:\n%s\n---\n%s", a, b)
	}
	var dirs []string
	for i := range 3 {
		dirs = append(dirs, run(2, Shard{I: i, N: 3}).Dir)
	}
	merged, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := WriteReports(out, merged, repeatSource{}); err != nil {
		t.Fatal(err)
	}
	if a, b := reportJSON(t, one.Dir), reportJSON(t, out); a != b {
		t.Errorf("merged shards differ from the whole run:\n%s\n---\n%s", a, b)
	}
	if merged.Throughput.Graphs != 10 || merged.Throughput.Skipped != n-10 {
		t.Errorf("merged throughput %+v: want 10 graphs and %d skipped", merged.Throughput, n-10)
	}
	resumed := resumeFromPart(t, one, 30)
	if a, b := reportJSON(t, one.Dir), reportJSON(t, resumed.Dir); a != b {
		t.Errorf("a resumed run differs from the whole run:\n%s\n---\n%s", a, b)
	}
}

// resumeFromPart resumes, in a fresh directory, the campaign of c from the
// first k lines of its log.
func resumeFromPart(t *testing.T, c Config, k int) Config {
	t.Helper()
	log, err := os.ReadFile(filepath.Join(c.Dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")
	r := c
	r.Dir, r.Resume = t.TempDir(), true
	saved, err := LoadSettings(c.Dir) // as Run filled them in: resume must match them
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveSettings(r.Dir, saved, ThisWriter()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir, ResultsFile), []byte(strings.Join(lines[:k], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	o := mustRun(t, r)
	if o.Report.Throughput.Resumed != k {
		t.Fatalf("resumed %d records, want %d", o.Report.Throughput.Resumed, k)
	}
	return r
}

// TestDistinctSetCap: past the cap, new hashes are checked and not
// remembered, the same way in every run.
func TestDistinctSetCap(t *testing.T) {
	d := NewDistinctSet(2)
	for i, h := range []uint64{7, 8, 9, 7, 9, 8} {
		same, repeat := d.See(i, h)
		want := h != 9 && i >= 3
		if repeat != want || repeat && same != int(h-7) {
			t.Errorf("index %d hash %d: repeat %v same as %d, want %v", i, h, repeat, same, want)
		}
	}
}

// TestGraphHashAgreesWithCanonical: on random small graphs and their
// renumberings, two hashes are equal exactly when gen.Canonical's forms
// (with weights) are.
func TestGraphHashAgreesWithCanonical(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	byHash := map[uint64]string{}
	byForm := map[string]uint64{}
	for range 3000 {
		n := 1 + r.IntN(4)
		g := randomSmallGraph(r, n)
		perm := []int{0}
		for _, b := range r.Perm(n - 1) {
			perm = append(perm, b+1)
		}
		for _, h := range []*cfg.Graph{g, g.Permute(perm)} {
			if !reachesAllBlocks(h) {
				continue
			}
			c := gen.Canonical(h)
			form := cfg.FormatCompact(c) + fmt.Sprint(c.Weights)
			hash := GraphHash(h, "")
			if f, ok := byHash[hash]; ok && f != form {
				t.Fatalf("%s and %s share hash %x", f, form, hash)
			}
			if x, ok := byForm[form]; ok && x != hash {
				t.Fatalf("%s hashes to %x and %x", form, x, hash)
			}
			byHash[hash], byForm[form] = form, hash
		}
	}
	t.Logf("%d canonical forms", len(byForm))
}

func reachesAllBlocks(g *cfg.Graph) bool {
	_, order := bfsOrder(g)
	return len(order) == g.Len()
}

// TestProgressCountsDistinctGraphs: the plain progress line counts
// distinct graphs and skips apart, its rate in distinct graphs per second.
func TestProgressCountsDistinctGraphs(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, false, time.Hour, 4)
	p.count(&Record{Index: 0, Current: SideResult{Outcome: OutOK}}, false)
	p.count(&Record{Index: 1, Skipped: true}, false)
	p.count(&Record{Index: 2, Current: SideResult{Outcome: OutOK}}, false)
	p.finish()
	line := out.String()
	for _, want := range []string{"cfgfuzz: 2 distinct graphs (3/4 indices)", "ok 2 ", "skipped 1", "distinct graphs/s"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
}

// TestGraphHashDeadBlocks: a graph with dead blocks and any renumbering of
// it that keeps the entry hash and fingerprint alike; moving where one
// dead block's edge lands, in the live part or the dead part, gives
// another hash and fingerprint.
func TestGraphHashDeadBlocks(t *testing.T) {
	// 0..3 live (a diamond), 4 and 5 dead: 4 branches to 1 or to 5, 5 is a
	// dead loop that leaves to 3.
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {1, 5}, {5, 3}})
	g.Weights[5] = 16
	for _, perm := range [][]int{{0, 5, 4, 3, 2, 1}, {0, 1, 2, 3, 5, 4}, {0, 4, 2, 5, 1, 3}} {
		h := g.Permute(perm)
		if GraphHash(g, "") != GraphHash(h, "") {
			t.Errorf("%v renumbered by %v to %v: another hash", g, perm, h)
		}
		if GraphFingerprint(g) != GraphFingerprint(h) {
			t.Errorf("%v renumbered by %v to %v: another fingerprint", g, perm, h)
		}
	}
	for name, h := range map[string]*cfg.Graph{
		"dead edge to the other arm":   cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {2, 5}, {5, 3}}),
		"dead edge to the entry":       cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {1, 5}, {5, 0}}),
		"dead edge into the dead part": cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {1, 5}, {4, 3}}),
		"dead arms swapped":            cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {5, 1}, {5, 3}}),
		"weight on the other dead":     cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {}, {1, 5}, {5, 3}}),
	} {
		if name != "weight on the other dead" {
			h.Weights[5] = 16
		} else {
			h.Weights[4] = 16
		}
		if GraphHash(g, "") == GraphHash(h, "") {
			t.Errorf("%s: %v and %v share a hash", name, g, h)
		}
		if GraphFingerprint(g) == GraphFingerprint(h) {
			t.Errorf("%s: %v and %v share a fingerprint", name, g, h)
		}
	}
}

// TestGraphHashIsomorphismWithDeadBlocks: on random small graphs, most with
// blocks the entry does not reach, two graphs share a hash (and a
// fingerprint) exactly when some renumbering that keeps the entry maps one
// onto the other, weights included, found by trying every renumbering.
func TestGraphHashIsomorphismWithDeadBlocks(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	type seen struct {
		g    *cfg.Graph
		hash uint64
		fp   Fingerprint
	}
	var graphs []seen
	for range 400 {
		n := 2 + r.IntN(4)
		g := randomSmallGraph(r, n)
		perm := append([]int{0}, r.Perm(n-1)...)
		for i := 1; i < n; i++ {
			perm[i]++
		}
		for _, h := range []*cfg.Graph{g, g.Permute(perm)} {
			graphs = append(graphs, seen{h, GraphHash(h, ""), GraphFingerprint(h)})
		}
	}
	for i, a := range graphs {
		for _, b := range graphs[:i] {
			iso := isomorphic(a.g, b.g)
			if (a.hash == b.hash) != iso || (a.fp == b.fp) != iso {
				t.Fatalf("%v %v and %v %v: isomorphic %v, same hash %v, same fingerprint %v",
					a.g, a.g.Weights, b.g, b.g.Weights, iso, a.hash == b.hash, a.fp == b.fp)
			}
		}
	}
}

// isomorphic tries every renumbering of a that keeps the entry.
func isomorphic(a, b *cfg.Graph) bool {
	n := a.Len()
	if n != b.Len() {
		return false
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var try func(k int) bool
	try = func(k int) bool {
		if k == n {
			return a.Permute(perm).Equal(b)
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if try(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	return try(1)
}

// TestGraphHashDeadTwins: forty dead blocks alike (the same successor, no
// block branching to them) are followed as one in the order's search, so
// a renumbering of the graph is recognized; forty dead pairs alike, each
// dead block branching to a dead block of its own, pass the search's
// budget, and the graph is hashed as it is, a copy alike and a renumbering
// not.
func TestGraphHashDeadTwins(t *testing.T) {
	const k = 40
	twins := cfg.New(2 + k)
	twins.Succs[0] = []int{1}
	for d := 2; d < 2+k; d++ {
		twins.Succs[d] = []int{1, d} // each its own loop
	}
	pairs := cfg.New(2 + 2*k)
	pairs.Succs[0] = []int{1}
	for d := 2; d < 2+2*k; d += 2 {
		pairs.Succs[d], pairs.Succs[d+1] = []int{d + 1}, []int{1}
	}
	reversed := func(g *cfg.Graph) *cfg.Graph {
		perm := []int{0, 1}
		for d := g.Len() - 1; d >= 2; d-- {
			perm = append(perm, d)
		}
		return g.Permute(perm)
	}
	if _, _, ok := canonicalOrder(twins, true); !ok {
		t.Errorf("%v: the order's search gave up", twins)
	}
	if GraphHash(twins, "") != GraphHash(reversed(twins), "") || GraphFingerprint(twins) != GraphFingerprint(reversed(twins)) {
		t.Errorf("%v renumbered: another hash or fingerprint", twins)
	}
	if _, _, ok := canonicalOrder(pairs, true); ok {
		t.Fatalf("%v: the order's search did not give up", pairs)
	}
	if GraphHash(pairs, "") != GraphHash(pairs.Clone(), "") || GraphFingerprint(pairs) != GraphFingerprint(pairs.Clone()) {
		t.Errorf("%v: a copy hashes differently", pairs)
	}
	if GraphHash(pairs, "") == GraphHash(reversed(pairs), "") || GraphFingerprint(pairs) == GraphFingerprint(reversed(pairs)) {
		t.Errorf("%v: a renumbering hashes alike, though the search gave up", pairs)
	}
}

// TestGraphFingerprintDeadTwinsOfOtherNames: dead blocks alike but for
// their names are twins to the fingerprint, which leaves names out: its
// order's search follows them as one, and a renumbering of the graph
// shares its fingerprint; to the repeat hash, which names are part of,
// they are no longer alike.
func TestGraphFingerprintDeadTwinsOfOtherNames(t *testing.T) {
	const k = 40
	g := cfg.New(2 + k)
	g.Names = make([]string, g.Len())
	g.Succs[0] = []int{1}
	for d := 2; d < 2+k; d++ {
		g.Succs[d], g.Names[d] = []int{1}, fmt.Sprint("dead", d)
	}
	perm := []int{0, 1}
	for d := g.Len() - 1; d >= 2; d-- {
		perm = append(perm, d)
	}
	if _, _, ok := canonicalOrder(g, false); !ok {
		t.Errorf("names left out, the order's search gave up on %v", g)
	}
	if GraphFingerprint(g) != GraphFingerprint(g.Permute(perm)) {
		t.Errorf("%v renumbered: another fingerprint", g)
	}
	if _, _, ok := canonicalOrder(g, true); !ok {
		t.Errorf("names compared, the order's search gave up on %v", g)
	}
}

// TestGraphFingerprintOfReachableGraphs: a graph the entry reaches whole
// is fingerprinted as the SHA-256 of gen.Canonical's compact form and its
// weights, the form fingerprint.go documents and a state's seen filter
// keys graphs by (state.go).
func TestGraphFingerprintOfReachableGraphs(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 4))
	for range 2000 {
		n := 1 + r.IntN(6)
		g := randomSmallGraph(r, n)
		if !reachesAllBlocks(g) {
			continue
		}
		c := gen.Canonical(g)
		form := cfg.FormatCompact(c) + "w"
		for b := range c.Len() {
			form += fmt.Sprint(c.Weight(b), ",")
		}
		if GraphFingerprint(g) != sha256.Sum256([]byte(form)) {
			t.Fatalf("%v %v: the fingerprint is not that of %q", g, g.Weights, form)
		}
	}
}

// randomSmallGraph is a graph of n blocks, each with up to 2 successors
// anywhere and a weight of 0 or 16, drawn from r.
func randomSmallGraph(r *rand.Rand, n int) *cfg.Graph {
	g := cfg.New(n)
	for b := range n {
		for range r.IntN(3) {
			g.Succs[b] = append(g.Succs[b], r.IntN(n))
		}
		g.Weights[b] = 16 * r.IntN(2)
	}
	return g
}
