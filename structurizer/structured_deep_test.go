// structured_deep_test.go: the tests of loop nests as deep as the graph is
// long: one structurizes in memory linear in its size (its layout then
// falls back for R16, constructs nested past 1,023, and the dispatch loop
// passes the self-check), the loops' spans answer inLoop as the walk up the parents
// does, and a nest deeper than the emitter's recursion limit, or whose
// loops' exits sum past exitBudget, falls back instead of ending the
// process.

package structurizer

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestGraph is n loops nested in one another (2n+1 blocks): blocks 0..n-1
// the headers, each entering the next; n..2n-1 the latches, the innermost
// first, each branching back to its header or out to the next latch; 2n
// the return.
func nestGraph(n int) *cfg.Graph {
	g := cfg.New(2*n + 1)
	for i := range n {
		g.Succs[i] = []int{min(i+1, n)}
		latch := 2*n - 1 - i
		g.Succs[latch] = []int{i, latch + 1}
	}
	return g
}

// structurizeMeasured structurizes g and returns the result and the bytes
// it allocated.
func structurizeMeasured(t *testing.T, g *cfg.Graph) (*Result, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Structurize(g, Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return res, after.TotalAlloc - before.TotalAlloc
}

// TestDeepNestLinearMemory structurizes a nest of 20,000 loops (laid out,
// then falling back for R16) and bounds what it allocates by a constant
// per block (about 15 KB a block is what
// it takes; the loops' block lists alone, one per loop holding its nested
// loops' blocks, would take 1.6 GB, 40 KB a block, per analysis).
func TestDeepNestLinearMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("structurizes 40,001 blocks")
	}
	const n = 20000
	g := nestGraph(n)
	res, alloc := structurizeMeasured(t, g)
	// Its structured layout nests the loops 20,000 deep, past R16's
	// limit: the self-check rejects it, and the dispatch loop stands in.
	if res.Stats.Fallbacks != 1 || !strings.HasPrefix(res.Stats.PassesUsed[0], "fallback: selfcheck: R16: ") {
		t.Fatalf("nest of %d: %d fallbacks %v, want the one for R16", n, res.Stats.Fallbacks, res.Stats.PassesUsed)
	}
	if err := SelfCheck(res.Func); err != nil {
		t.Fatalf("nest of %d: %v", n, err)
	}
	t.Logf("nest of %d loops (%d blocks): %d blocks out, %d MB allocated (%d bytes a block)", n, g.Len(), len(res.Func.Blocks), alloc>>20, alloc/uint64(g.Len()))
	if limit := uint64(24 << 10 * g.Len()); alloc > limit {
		t.Fatalf("nest of %d loops: %d bytes allocated, more than %d (24 KB a block)", n, alloc, limit)
	}
}

// breakNestGraph is nestGraph with each header also branching to the
// return: a break out of every loop, so that the loops' exit edges sum to
// n²/2.
func breakNestGraph(n int) *cfg.Graph {
	g := nestGraph(n)
	for i := range n {
		g.Succs[i] = append(g.Succs[i], 2*n)
	}
	return g
}

// TestBreakNestPastExitBudget structurizes a nest of 16,000 loops whose
// headers all break out of every loop: the loops' exit edges (128 million
// together) are past exitBudget, so the loops pass refuses the graph,
// naming the budget, and the structurizer falls back, allocating memory
// linear in the graph on the way.
func TestBreakNestPastExitBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("structurizes 32,001 blocks")
	}
	const n = 16000
	g := breakNestGraph(n)
	res, alloc := structurizeMeasured(t, g)
	if res.Stats.Fallbacks != 1 || len(res.Stats.PassesUsed) != 1 || !strings.Contains(res.Stats.PassesUsed[0], "exit edges number more than") {
		t.Fatalf("break nest of %d: fallbacks %d, %v", n, res.Stats.Fallbacks, res.Stats.PassesUsed)
	}
	t.Logf("break nest of %d loops (%d blocks): %s; %d MB allocated", n, g.Len(), res.Stats.PassesUsed[0], alloc>>20)
	if limit := uint64(24 << 10 * g.Len()); alloc > limit {
		t.Fatalf("break nest of %d loops: %d bytes allocated, more than %d (24 KB a block)", n, alloc, limit)
	}
}

// TestDeepNestPastEmitDepth structurizes a nest deeper than the emitter's
// recursion limit (lowered for the test): the loops pass refuses it with
// the limit as its reason and the structurizer falls back.
func TestDeepNestPastEmitDepth(t *testing.T) {
	saved := maxEmitDepth
	defer func() { maxEmitDepth = saved }()
	maxEmitDepth = 500
	res, err := Structurize(nestGraph(1000), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Fallbacks != 1 || len(res.Stats.PassesUsed) != 1 || !strings.Contains(res.Stats.PassesUsed[0], "recursion limit") {
		t.Fatalf("nest of 1000 past an emit depth of 500: fallbacks %d, %v", res.Stats.Fallbacks, res.Stats.PassesUsed)
	}
	maxEmitDepth = saved
	res, err = Structurize(nestGraph(1000), Options{})
	if err != nil || res.Stats.Fallbacks != 0 {
		t.Fatalf("nest of 1000: %v, %v", err, res.Stats.PassesUsed)
	}
}

// TestLoopSpansMatchWalk holds inLoop on the loops' spans against the walk
// up the parents, on random trees of loops and after parents move.
func TestLoopSpansMatchWalk(t *testing.T) {
	seed := uint64(20261205)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for i := range 300 {
		n := 1 + r.IntN(40)
		w := &work{loops: make([]wloop, n)}
		for li := range w.loops {
			w.loops[li].parent = r.IntN(li+1) - 1 // a tree: parents first
		}
		perm := r.Perm(n) // then numbered in any order
		loops := make([]wloop, n)
		for li, l := range w.loops {
			if l.parent >= 0 {
				l.parent = perm[l.parent]
			}
			loops[perm[li]] = l
		}
		w.loops = loops
		for round := range 3 {
			w.spanLoops()
			for l := -1; l < n; l++ {
				for lv := -1; lv < n; lv++ {
					spans := w.inLoop(l, lv)
					saved := w.spans
					w.spans = nil
					walk := w.inLoop(l, lv)
					w.spans = saved
					if spans != walk {
						t.Fatalf("tree %d round %d: inLoop(%d, %d) = %v on the spans, %v walking", i, round, l, lv, spans, walk)
					}
				}
			}
			// Move a loop under one outside its subtree, as the kept exit
			// lists do.
			x := r.IntN(n)
			p := r.IntN(n+1) - 1
			if p >= 0 && w.inLoop(x, p) {
				continue
			}
			w.setParentOf(x, p)
			if w.spans != nil {
				t.Fatal("setParentOf kept the spans")
			}
		}
	}
}

// BenchmarkDeepNest structurizes nests of 4,000 to 32,000 loops (2n+1
// blocks): the time and the bytes allocated a block, which stay flat as
// the nest deepens.
func BenchmarkDeepNest(b *testing.B) {
	for _, n := range []int{4000, 8000, 16000, 32000} {
		g := nestGraph(n)
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := Structurize(g, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*g.Len()), "ns/block")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*g.Len()), "B/block")
		})
	}
}
