// structured_bench_test.go: the structured strategy's scale benchmarks on
// random reducible graphs of 1,000, 10,000 and 20,000 blocks, and on every
// named shape (structured_shapes_test.go) at 1,000, 10,000 and 100,000
// blocks (BenchmarkShapes: each size reports ns/block and its time over
// the previous size's, x-prev; near-linear is x-prev about 10; and the
// same from the process's CPU time, cpu-ns/block and cpu-x-prev, steadier
// on a shared machine). Each size starts from the heap a fresh process
// has (freshHeap), grown by one untimed run to that size's working set,
// and times the runs after it (-benchtime 3s: dozens at 10k, a few at
// 100k), so that each size starts alike whatever ran before it (memory
// a previous size or shape left mapped spares a run that fits in it its
// page faults). The graphs come from this package's own generators
// (package gen's generator takes minutes to draw a 10,000-block graph);
// gen's graphs are used for the smoke test.
package structurizer

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func benchGraph(b *testing.B, n int) *cfg.Graph {
	g := randomReducible(rand.New(rand.NewPCG(uint64(n), 1)), n)
	if !cfg.Reducible(g) {
		b.Fatal("benchmark graph is not reducible")
	}
	return g
}

func benchStructured(b *testing.B, n int) {
	g := benchGraph(b, n)
	b.ResetTimer()
	var res *Result
	for range b.N {
		var err error
		res, err = Structurize(g, Options{Strategy: "structured"})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	st := res.Stats
	b.ReportMetric(float64(st.BlocksOut)/float64(st.BlocksIn), "blocks-out/in")
	b.ReportMetric(float64(st.Fallbacks), "fallbacks")
	if st.Fallbacks != 0 {
		b.Logf("fell back: %v", st.PassesUsed)
	}
}

func BenchmarkStructured1k(b *testing.B)  { benchStructured(b, 1000) }
func BenchmarkStructured10k(b *testing.B) { benchStructured(b, 10000) }
func BenchmarkStructured20k(b *testing.B) { benchStructured(b, 20000) }

// BenchmarkShapes structurizes each named shape at 1k, 10k and 100k
// blocks (seed 1 of the shape's generator).
func BenchmarkShapes(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			per := map[int]float64{}    // seconds per graph by size
			cpuPer := map[int]float64{} // CPU seconds per graph by size
			prev := 0
			for _, n := range []int{1000, 10000, 100000} {
				b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
					g := sh.make(rand.New(rand.NewPCG(uint64(n), 1)), n)
					freshHeap()
					if _, err := Structurize(g, Options{}); err != nil { // grows the heap to this size's
						b.Fatal(err)
					}
					b.ResetTimer()
					cpu := cpuTime()
					var res *Result
					for range b.N {
						var err error
						if res, err = Structurize(g, Options{}); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					per[n] = b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(per[n]*1e9/float64(g.Len()), "ns/block")
					if c := cpuTime() - cpu; c > 0 {
						cpuPer[n] = c.Seconds() / float64(b.N)
						b.ReportMetric(cpuPer[n]*1e9/float64(g.Len()), "cpu-ns/block")
					}
					if per[prev] > 0 {
						b.ReportMetric(per[n]/per[prev], "x-prev")
						if cpuPer[prev] > 0 {
							b.ReportMetric(cpuPer[n]/cpuPer[prev], "cpu-x-prev")
						}
					}
					st := res.Stats
					b.ReportMetric(float64(st.Synthetic)/float64(st.BlocksIn), "synth/orig")
					b.ReportMetric(float64(st.Fallbacks), "fallbacks")
				})
				prev = n
			}
		})
	}
}

// freshHeap collects the garbage and returns the memory the heap holds
// free to the operating system, as a fresh process would start without it.
func freshHeap() {
	runtime.GC()
	debug.FreeOSMemory()
}

// TestStructuredScaleSmoke structurizes one large graph (a quick guard
// against quadratic passes; the benchmarks measure).
func TestStructuredScaleSmoke(t *testing.T) {
	it, err := gen.Generate(gen.Config{Kind: gen.Reducible, MinBlocks: 1000, MaxBlocks: 1000}, 7)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Structurize(it.Graph, Options{Strategy: "structured"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Fallbacks != 0 {
		t.Fatalf("fell back: %v", res.Stats.PassesUsed)
	}
	t.Log(fmt.Sprintf("%+v", res.Stats))
}
