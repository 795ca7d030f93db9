// structured_shapes_report_test.go: the named shapes structurized twice
// (idempotence, DESIGN guarantee 5: the output's CFG structurizes to no
// more blocks), and the synthetic blocks per original block at p50/p99 per
// generator and size (BenchmarkSyntheticPerOriginal, a report).
package structurizer

import (
	"cmp"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
)

var shapeBlocks = flag.Int("shape-blocks", 2000, "blocks of each named shape in TestShapesIdempotent")

// TestShapesIdempotent structurizes each named shape (-shape-blocks
// blocks) and its output's CFG again: the second run adds no block (the
// strategy's overhead of two aside).
func TestShapesIdempotent(t *testing.T) {
	n := *shapeBlocks
	for _, sh := range shapes {
		seed := uint64(n)
		g := sh.make(rand.New(rand.NewPCG(seed, 1)), n)
		res, _, again, grows := structurizeTwice(t, g)
		if grows {
			t.Errorf("%s, %d blocks (seed %d): %d blocks out, %d when structurized again", sh.name, n, seed, res.Stats.BlocksOut, again.Stats.BlocksOut)
		}
		t.Logf("%s %d blocks: %d out, %d again", sh.name, g.Len(), res.Stats.BlocksOut, again.Stats.BlocksOut)
	}
}

// synthByName counts f's synthetic blocks by name (what made them: guard,
// exit, loop, merge, latch, skip, fwd, exit.store, ...), most first.
func synthByName(f *Func) string {
	count := map[string]int{}
	for _, b := range f.Blocks {
		if b.Kind == Synthetic {
			count[b.Name]++
		}
	}
	names := slices.Collect(maps.Keys(count))
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(count[b]-count[a], strings.Compare(a, b)) })
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %d", n, count[n]))
	}
	return strings.Join(parts, ", ")
}

// synthPerOrig is the synthetic blocks per original block of one graph.
func synthPerOrig(b *testing.B, res *Result) float64 {
	if res.Stats.Fallbacks != 0 {
		b.Logf("fell back: %v", res.Stats.PassesUsed)
	}
	return float64(res.Stats.Synthetic) / float64(max(res.Stats.BlocksIn, 1))
}

// quantiles returns the p50 and p99 of xs (sorted in place).
func quantiles(xs []float64) (p50, p99 float64) {
	slices.Sort(xs)
	at := func(q float64) float64 { return xs[min(len(xs)-1, int(q*float64(len(xs))))] }
	return at(0.5), at(0.99)
}

// BenchmarkSyntheticPerOriginal reports synthetic blocks per original
// block, p50 and p99, and the p99 of route variables and clones: 2,000
// graphs of each gen kind (its default sizes, seed 1), and 5 graphs of
// each named shape at 1k and 10k blocks (and where the first random graph
// of 10k blocks has its synthetic blocks).
func BenchmarkSyntheticPerOriginal(b *testing.B) {
	for range b.N {
		for _, k := range gen.Kinds() {
			var ratio, routes, clones []float64
			for i := range 2000 {
				it, err := gen.Generate(gen.Config{Kind: k}, gen.SeedFor(k, 1, i))
				if err != nil {
					b.Fatal(err)
				}
				res, err := Structurize(it.Graph, Options{})
				if err != nil {
					b.Fatal(err)
				}
				ratio = append(ratio, synthPerOrig(b, res))
				routes = append(routes, float64(res.Stats.RouteVars))
				clones = append(clones, float64(res.Stats.Clones))
			}
			p50, p99 := quantiles(ratio)
			_, r99 := quantiles(routes)
			_, c99 := quantiles(clones)
			b.Logf("gen %-15s %4d graphs: synthetic/original p50 %.3f p99 %.3f; route vars p99 %.0f, clones p99 %.0f", k, len(ratio), p50, p99, r99, c99)
		}
		for _, sh := range shapes {
			for _, n := range []int{1000, 10000} {
				var ratio []float64
				for s := range uint64(5) {
					res, err := Structurize(sh.make(rand.New(rand.NewPCG(uint64(n)+s, 1)), n), Options{})
					if err != nil {
						b.Fatal(err)
					}
					ratio = append(ratio, synthPerOrig(b, res))
				}
				p50, p99 := quantiles(ratio)
				b.Logf("%s", fmt.Sprintf("shape %-9s %6d blocks, %d graphs: synthetic/original p50 %.3f p99 %.3f", sh.name, n, len(ratio), p50, p99))
				if sh.name == "random" && n == 10000 {
					res, _ := Structurize(sh.make(rand.New(rand.NewPCG(uint64(n), 1)), n), Options{})
					b.Logf("  its first graph's %d synthetic blocks by name: %s", res.Stats.Synthetic, synthByName(res.Func))
				}
			}
		}
	}
}
