// structured_bench_test.go: the structured strategy's scale benchmarks on
// random reducible graphs of 1,000, 10,000 and 20,000 blocks: near-linear
// time, 10k blocks within 1 s. The graphs come from this
// package's own randomReducible (package gen's generator takes minutes to
// draw a 10,000-block graph); gen's graphs are used for the smoke test.
package structurizer

import (
	"fmt"
	"math/rand/v2"
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
