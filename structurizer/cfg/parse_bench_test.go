// parse_bench_test.go: benchmarks of the parsers on a random 10,000-block
// graph and a 7-block graph, in both notations, with throughput in MB/s.
package cfg

import (
	"math/rand/v2"
	"testing"
)

// benchGraphs are the benchmark inputs: a seeded random graph of 10,000
// blocks with weights and default names, and a small diamond-and-loop graph.
func benchGraphs() map[string]*Graph {
	big := randomGraph(rand.New(rand.NewPCG(7, 7)), 10_000, unnamed)
	small := FromSuccs([][]int{{1}, {2, 3}, {4}, {4}, {5, 1}, {6}, {}})
	small.Weights[2] = 12
	return map[string]*Graph{"10000": big, "7": small}
}

func BenchmarkParseCompact(b *testing.B) {
	for _, size := range []string{"10000", "7"} {
		text := FormatCompact(benchGraphs()[size])
		b.Run("blocks="+size, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseCompact(text, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseLines(b *testing.B) {
	for _, size := range []string{"10000", "7"} {
		text := FormatLines(benchGraphs()[size])
		b.Run("blocks="+size, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseLines(text, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
