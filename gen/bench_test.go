// bench_test.go: generation speed. The issue asks for at least 200,000
// reducible 5-9-block graphs a second on one core:
//
//	go test -run '^$' -bench=Reducible -cpu=1 ./gen
//
// Each benchmark reports graphs/s (wall clock) and graphs/cpu-s (per
// second of the process's CPU time, GC included): on a shared, loaded
// machine the wall figure counts time spent waiting for a core, the CPU
// figure does not.
//
// Figures (go1.26, -cpu=1, 2 s, three runs each, two sessions on a
// 16-core Intel Xeon host with nothing else running; the second session's
// host was about 40% slower across the board): reducible 320,000-530,000
// graphs/s (1.9-3.1 us, 4 allocations), the same with weights and a heavy
// block; irreducible 135,000-200,000; nonterminating 110,000-220,000;
// program 95,000-195,000; exhaustive (N = 4, by index) 94,000-215,000;
// FromBytes of a 9-block graph 0.75-0.85 us. On the shared 2-core AMD
// EPYC development machine under a load average of 15: reducible about
// 600,000 graphs/cpu-s, 200,000-265,000 graphs/s of wall time.
package gen

import "testing"

func benchKind(b *testing.B, c Config) {
	b.ReportAllocs()
	cpu0, ok := processCPU()
	for i := 0; b.Loop(); i++ {
		if _, err := Generate(c, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
	cpu1, _ := processCPU()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "graphs/s")
	if ok && cpu1 > cpu0 {
		b.ReportMetric(float64(b.N)/(cpu1-cpu0), "graphs/cpu-s")
	}
}

func BenchmarkReducible(b *testing.B)      { benchKind(b, Config{}) }
func BenchmarkReducibleHeavy(b *testing.B) { benchKind(b, Config{Words: 16, Heavy: true}) }
func BenchmarkIrreducible(b *testing.B)    { benchKind(b, Config{Kind: Irreducible}) }
func BenchmarkNonTerminating(b *testing.B) { benchKind(b, Config{Kind: NonTerminating}) }
func BenchmarkProgram(b *testing.B)        { benchKind(b, Config{Kind: Program}) }
func BenchmarkExhaustive(b *testing.B)     { benchKind(b, Config{Kind: Exhaustive}) }

func BenchmarkFromBytes(b *testing.B) {
	data := ToBytes(mustGenerate(b, Config{MinBlocks: 9}).Graph)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromBytes(data); err != nil {
			b.Fatal(err)
		}
	}
}

func mustGenerate(b *testing.B, c Config) Item {
	it, err := Generate(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	return it
}
