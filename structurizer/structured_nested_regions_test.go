// structured_nested_regions_test.go: regionOf and switchRegion, which
// measure nested regions once each, against the walk of every region
// (and casesCover for a switch), and allowedExits against the walk out
// through the open constructs, on the nested pass's first run over
// inputs, over the CFGs of the strategy's outputs and over deep nests of
// selections; and the cost of those nests.

package structurizer

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// nestedIfs is d selections nested in their then-arms: header i (0 <= i <
// d) goes to i+1 or to its join 2d-i, the innermost body d goes to the
// innermost join, and each join to the next one out, the last returning.
func nestedIfs(d int) *cfg.Graph {
	g := cfg.New(2*d + 2)
	for i := range d {
		g.Succs[i] = []int{i + 1, 2*d - i}
	}
	for j := d; j <= 2*d; j++ {
		g.Succs[j] = []int{j + 1}
	}
	return g
}

// escapingChain is a chain of d headers each of which also branches to
// a returning block of its own, the last to a returning block X as
// well, which the entry branches to: header i (1..d) goes to i+1 (the
// last to X) and to its return d+i, and X is 2d+1. No header's region
// closes at its immediate post-dominator (the virtual exit: its paths
// return apart), and each one's walk runs into X only at the bottom.
func escapingChain(d int) *cfg.Graph {
	x := 2*d + 1
	g := cfg.New(2*d + 2)
	g.Succs[0] = []int{1, x}
	for i := 1; i <= d; i++ {
		g.Succs[i] = []int{i + 1, d + i}
	}
	g.Succs[d][0] = x
	return g
}

// regionChecked runs the nested pass's first run on g with every
// measured region and every construct's exits checked against the walks;
// it returns how many regions were measured.
func regionChecked(t *testing.T, what string, g *cfg.Graph) (measured int) {
	t.Helper()
	nt := newNester(g)
	nt.checkFast = true
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s %v: %v", what, g, p)
			}
		}()
		nt.run()
	}()
	if m := nt.facts.regions; m != nil {
		for _, rs := range m.facts {
			measured += len(rs)
		}
	}
	return measured
}

// TestFastMatchesTheWalks: every region the nested pass's first run
// measures matches the walk, and every construct's exits the walk out,
// on random graphs and their outputs, every gen kind, small arbitrary
// graphs, a candidate inside an inner region, and nested ifs.
func TestFastMatchesTheWalks(t *testing.T) {
	r := loggedRand(t, 13)
	measured := 0
	for i := range 600 {
		g := randomReducible(r, 4+r.IntN(200))
		measured += regionChecked(t, fmt.Sprintf("random graph %d", i), g)
		if res, err := Structurize(g, Options{}); err == nil {
			h, _ := moduleGraph(res.Func).DropUnreachable()
			measured += regionChecked(t, fmt.Sprintf("the output of random graph %d", i), h)
		}
	}
	for _, k := range gen.Kinds() {
		for i := range 300 {
			it, err := gen.Generate(gen.Config{Kind: k}, gen.SeedFor(k, 13, i))
			if err != nil {
				t.Fatal(err)
			}
			measured += regionChecked(t, fmt.Sprintf("gen %s %d", k, i), it.Graph)
		}
	}
	for i := range 40000 { // small graphs, arbitrary ones included
		g := randomReducible(r, 3+r.IntN(14))
		if i%2 == 1 {
			g = randomGraph(r, 3+r.IntN(10))
		}
		measured += regionChecked(t, fmt.Sprintf("small graph %d", i), g)
	}
	// Header 0's immediate post-dominator is no block (its paths return
	// apart), so nearest tries its dominator subtree: candidate 4 lies in
	// the region of 1, which closes at 5; stepping over it would measure
	// past the candidate (the guard in stepOver).
	g, err := cfg.ParseCompact("{{1, 2}, {4, 8}, {3, 6}, {2}, {5}, {8}, {7, 8}, {6}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	measured += regionChecked(t, "a candidate inside an inner region", g)
	for _, d := range []int{1, 2, 3, 50} {
		measured += regionChecked(t, fmt.Sprintf("nested ifs of depth %d", d), nestedIfs(d))
		measured += regionChecked(t, fmt.Sprintf("an escaping chain of %d headers", d), escapingChain(d))
	}
	for i := range 300 {
		measured += regionChecked(t, fmt.Sprintf("wide switch %d", i), manyCaseSwitch(r, 3+r.IntN(60)))
	}
	measured += regionChecked(t, "a switch of 300 returning cases", returningSwitch(300))
	if measured == 0 {
		t.Fatal("no region was measured: the test checks nothing")
	}
	t.Logf("%d regions measured, each checked against the walk", measured)
}

// manyCaseSwitch is a switch of k cases (targets 1..k), each of which returns,
// branches to one of two joins, falls into the next case, or branches to
// the first join and to a case, as r draws; the joins go on to one
// returning block.
func manyCaseSwitch(r *rand.Rand, k int) *cfg.Graph {
	g := cfg.New(k + 4)
	for c := 1; c <= k; c++ {
		g.Succs[0] = append(g.Succs[0], c)
		switch r.IntN(5) {
		case 1:
			g.Succs[c] = []int{k + 1}
		case 2:
			g.Succs[c] = []int{k + 2}
		case 3:
			if c < k {
				g.Succs[c] = []int{c + 1}
			}
		case 4:
			g.Succs[c] = []int{k + 1, 1 + r.IntN(k)}
		}
	}
	g.Succs[k+1] = []int{k + 3}
	g.Succs[k+2] = []int{k + 3}
	return g
}

// returningSwitch is a switch of k cases that each return: every case
// is a merge candidate whose region holds all the others.
func returningSwitch(k int) *cfg.Graph {
	g := cfg.New(k + 1)
	for c := 1; c <= k; c++ {
		g.Succs[0] = append(g.Succs[0], c)
	}
	return g
}

// TestWideSwitchCostsOneWalk: of a switch's merge candidates, only those
// whose region could be smaller than the best so far are measured
// (switchFloor): a switch of k returning cases follows a few edges a case,
// where measuring every candidate would follow about k² (a dispatch of
// 16,385 states took seconds).
func TestWideSwitchCostsOneWalk(t *testing.T) {
	for _, k := range []int{1000, 16385} {
		fewEdgesEach(t, returningSwitch(k), k, fmt.Sprintf("%d cases", k), "case")
	}
}

// TestEscapesCostOneWalk: in a chain of d headers none of whose regions
// closes (escapingChain), each header's walk stops where the region
// below it ran out (escapeFrom) instead of walking the chain below it
// again: the walks follow a few edges per header, where walking every
// region would follow about d²/2.
func TestEscapesCostOneWalk(t *testing.T) {
	for _, d := range []int{1000, 4000} {
		fewEdgesEach(t, escapingChain(d), d, fmt.Sprintf("depth %d", d), "header")
	}
}

// fewEdgesEach runs the nested pass's first run on g and fails unless its
// region walks followed at most 16 edges for each of its units (cases,
// headers: unit names them).
func fewEdgesEach(t *testing.T, g *cfg.Graph, units int, what, unit string) {
	t.Helper()
	nt := newNester(g)
	nt.run()
	m := nt.facts.regions
	if m == nil {
		t.Fatalf("%s: no region was measured", what)
	}
	if per := float64(m.reached) / float64(units); per > 16 {
		t.Errorf("%s: the walks followed %d edges, %.1f a %s: want a few", what, m.reached, per, unit)
	} else {
		t.Logf("%s: the walks followed %d edges, %.1f a %s", what, m.reached, per, unit)
	}
}

// BenchmarkNestedIfs: Structurize on d nested selections, d from 4,000
// to 32,000 (time per block should stay flat).
func BenchmarkNestedIfs(b *testing.B) {
	for _, d := range []int{4000, 16000, 32000} {
		b.Run(fmt.Sprint(d), func(b *testing.B) {
			g := nestedIfs(d)
			for range b.N {
				if _, err := Structurize(g, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(g.Len()), "ns/block")
		})
	}
}

// BenchmarkFirstRunOnOutput: the nested pass's first run on the CFG of a
// random graph's output (what structurizing the output again starts
// with, as meta's idempotence check does), at 10k, 20k, 40k and 100k
// blocks in.
func BenchmarkFirstRunOnOutput(b *testing.B) {
	for _, n := range []int{10000, 20000, 40000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			res, err := Structurize(randomReducible(rand.New(rand.NewPCG(uint64(n), 1)), n), Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if !firstRunReads(res.Func) {
					b.Fatal("the first run does not read the output")
				}
			}
		})
	}
}
