// bench_test.go: benchmarks of the minimizer: its own overhead (a predicate
// that costs nothing) and a real minimization (a 200-block graph under
// swap-arms on the dispatch strategy, every check).
package corpus

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func BenchmarkMinimizeOverhead(b *testing.B) {
	g := randomGraph(3, 1000)
	g.Succs[500] = []int{500, 501}
	for b.Loop() {
		if _, err := Minimize(g, fakeBugs, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMinimizeSwapArms200(b *testing.B) {
	g := randomGraph(4, 200)
	run := newTestRunner(b, structurizer.Options{Strategy: "dispatch", Inject: []string{"swap-arms"}})
	steps := 0
	for b.Loop() {
		res, err := Minimize(g, run.Predicate(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		steps = res.Steps
	}
	b.ReportMetric(float64(steps), "steps/op")
}
