// bench_test.go: the oracle's costs. spirv-val in-process (cgo), with its
// quiet first pass and with friendly names in every pass, against the
// executable on the same modules, the rules checker per module (small and
// large), pdom per graph, and the whole default check set per graph.
package oracle

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// benchModules returns dispatch modules of random graphs with n blocks.
func benchModules(b *testing.B, count, n int) ([][]byte, []*cfg.Graph) {
	return strategyModules(b, "dispatch", count, n)
}

// strategyModules returns modules of one strategy on random graphs.
func strategyModules(b *testing.B, strategy string, count, n int) ([][]byte, []*cfg.Graph) {
	r := rand.New(rand.NewPCG(1, 2))
	var mods [][]byte
	var graphs []*cfg.Graph
	for len(mods) < count {
		g := randomGraph(r, n)
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
		if err != nil {
			continue
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if vs, err := CheckRules(mod); err != nil || len(vs) > 0 {
			continue // a structurizer bug: not a module to time
		}
		mods = append(mods, mod)
		graphs = append(graphs, g)
	}
	return mods, graphs
}

func benchValidate(b *testing.B, v Validator) {
	mods, _ := benchModules(b, 16, 12)
	benchValidateMods(b, v, mods)
}

// benchValidateMods validates mods in turn.
func benchValidateMods(b *testing.B, v Validator, mods [][]byte) {
	b.ResetTimer()
	start := cpuTime()
	for i := range b.N {
		if ok, msg, err := v.Validate(mods[i%len(mods)]); !ok || err != nil {
			b.Fatal(msg, err)
		}
	}
	reportCPU(b, start)
}

// cpuTime is this process's and its children's CPU time: on a machine
// shared with other work, wall time per op says little.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e3, "cpu-µs/op")
}

func BenchmarkValidatorLib(b *testing.B) { benchValidate(b, libValidator(b, NewLibValidator)) }
func BenchmarkValidatorLibNamed(b *testing.B) {
	benchValidate(b, libValidator(b, NewNamedLibValidator))
}
func BenchmarkValidatorExec(b *testing.B) { benchValidate(b, execValidator(b)) }

// The structured layouts of 24-block graphs: modules of a campaign's size.
func BenchmarkValidatorStructured(b *testing.B) {
	benchValidateStructured(b, libValidator(b, NewLibValidator))
}
func BenchmarkValidatorStructuredNamed(b *testing.B) {
	benchValidateStructured(b, libValidator(b, NewNamedLibValidator))
}

func benchValidateStructured(b *testing.B, v Validator) {
	mods, _ := strategyModules(b, "structured", 16, 24)
	benchValidateMods(b, v, mods)
}

// libValidator is an in-process validator made by newV, or a skip without
// cgo.
func libValidator[V Validator](b *testing.B, newV func(env string) (V, error)) Validator {
	if !HaveLibValidator {
		b.Skip("built without cgo")
	}
	v, err := newV("")
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// execValidator is the spirv-val executable, or a skip without one.
func execValidator(b *testing.B) Validator {
	path, err := exec.LookPath("spirv-val")
	if err != nil {
		b.Skip("no spirv-val")
	}
	return ExecValidator{Path: path}
}

func benchRules(b *testing.B, strategy string, n int) {
	if strategy != "dispatch" && !structurizer.HasStrategy(strategy) {
		b.Skip("no strategy " + strategy)
	}
	mods, _ := strategyModules(b, strategy, 8, n)
	words := 0
	for _, m := range mods {
		words += len(m) / 4
	}
	defer b.ReportMetric(float64(words)/float64(len(mods)), "words/module")
	b.ResetTimer()
	start := cpuTime()
	for i := range b.N {
		if vs, err := CheckRules(mods[i%len(mods)]); err != nil || len(vs) > 0 {
			b.Fatal(vs, err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkRules12(b *testing.B)             { benchRules(b, "dispatch", 12) }
func BenchmarkRules200(b *testing.B)            { benchRules(b, "dispatch", 200) }
func BenchmarkRules2000(b *testing.B)           { benchRules(b, "dispatch", 2000) }
func BenchmarkRulesStructured12(b *testing.B)   { benchRules(b, "structured", 12) }
func BenchmarkRulesStructured200(b *testing.B)  { benchRules(b, "structured", 200) }
func BenchmarkRulesStructured2000(b *testing.B) { benchRules(b, "structured", 2000) }

func BenchmarkPdom(b *testing.B) {
	for _, n := range []int{12, 100, 1000} {
		b.Run(itoaInt(n), func(b *testing.B) {
			_, graphs := benchModules(b, 8, n)
			o := &Oracle{}
			b.ResetTimer()
			start := cpuTime()
			for i := range b.N {
				if v := o.checkPdom(&Subject{Graph: graphs[i%len(graphs)]}); v.Status != Pass {
					b.Fatal(v)
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkDefaultChecks is the whole default set on one 12-block graph
// (exec with the default walks, meta with the dispatch structurizer), and
// each check alone.
func BenchmarkDefaultChecks(b *testing.B) {
	mods, graphs := benchModules(b, 8, 12)
	seam := func(g *cfg.Graph) ([]byte, ResultInfo, error) {
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			return nil, ResultInfo{}, err
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		return mod, ResultInfo{Synthetic: res.Stats.Synthetic}, err
	}
	sets := map[string][]string{"all": nil}
	for _, c := range DefaultChecks {
		sets[c] = []string{c}
	}
	for name, checks := range sets {
		b.Run(name, func(b *testing.B) {
			o, err := New(Options{Checks: checks})
			if err != nil {
				b.Skip(err)
			}
			b.ResetTimer()
			start := cpuTime()
			defer reportCPU(b, start)
			for i := range b.N {
				k := i % len(mods)
				vs := o.Check(&Subject{Graph: graphs[k], Module: mods[k], Structurize: seam})
				if v := Failed(vs); v != nil {
					b.Fatal(v)
				}
			}
		})
	}
}

func itoaInt(n int) string { return itoa(uint32(n)) }

// tinyModules are the mended hand-written rule cases (30-60 words of code
// each), where process start dominates the executable's cost.
func tinyModules(b *testing.B) [][]byte {
	var mods [][]byte
	for _, c := range ruleCases {
		if c.asEnv != "" {
			continue
		}
		body, err := os.ReadFile("testdata/rules/" + c.stem + ".good")
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, assemble(b, body, ""))
	}
	return mods
}

func benchValidateTiny(b *testing.B, v Validator) {
	mods := tinyModules(b)
	b.ResetTimer()
	start := cpuTime()
	for i := range b.N {
		if ok, msg, err := v.Validate(mods[i%len(mods)]); !ok || err != nil {
			b.Fatal(msg, err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkValidatorLibTiny(b *testing.B)  { benchValidateTiny(b, libValidator(b, NewLibValidator)) }
func BenchmarkValidatorExecTiny(b *testing.B) { benchValidateTiny(b, execValidator(b)) }

// BenchmarkBlockFills is the filler check's read of a module (blockFills):
// structured modules of random graphs with 12 and 200 blocks of 16 words
// each, so that blocks carry filler.
func BenchmarkBlockFills(b *testing.B) {
	for _, n := range []int{12, 200} {
		b.Run(itoaInt(n), func(b *testing.B) {
			_, graphs := strategyModules(b, "structured", 8, n)
			decoded := make([]*spirv.Module, len(graphs))
			for i, g := range graphs {
				for k := range g.Weights {
					g.Weights[k] = 16
				}
				res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "structured"})
				if err != nil {
					b.Fatal(err)
				}
				m, err := emit.Bytes(res.Func, emit.Options{})
				if err != nil {
					b.Fatal(err)
				}
				d, err := spirv.Decode(m)
				if err != nil {
					b.Fatal(err)
				}
				decoded[i] = d
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if len(blockFills(decoded[i%len(decoded)])) == 0 {
					b.Fatal("no blocks read")
				}
			}
		})
	}
}

// BenchmarkRulesScale checks the rules on long programs of 2k, 8k and 32k
// blocks: a chain of diamonds (selections one after another, each header
// dominating every block after it) and a chain of loops with a diamond in
// each body. It reports ns/block and each size's time per block over the
// previous size's (per-block-x-prev: 1 is linear).
func BenchmarkRulesScale(b *testing.B) {
	for _, sh := range []struct {
		name string
		make func(n int) *cfg.Graph
	}{{"diamonds", diamondChain}, {"loops", loopChain}} {
		b.Run(sh.name, func(b *testing.B) {
			per := map[int]float64{} // ns per block by size
			prev := 0
			for _, n := range []int{2000, 8000, 32000} {
				b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
					res, err := structurizer.Structurize(sh.make(n), structurizer.Options{})
					if err != nil {
						b.Fatal(err)
					}
					mod, err := emit.Bytes(res.Func, emit.Options{})
					if err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					for range b.N {
						if vs, err := CheckRules(mod); err != nil || len(vs) > 0 {
							b.Fatal(vs, err)
						}
					}
					per[n] = b.Elapsed().Seconds() * 1e9 / float64(b.N) / float64(n)
					b.ReportMetric(per[n], "ns/block")
					if per[prev] > 0 {
						b.ReportMetric(per[n]/per[prev], "per-block-x-prev")
					}
				})
				prev = n
			}
		})
	}
}

// diamondChain is n blocks (n-1 a multiple of 3 or less): diamonds one
// after another, then a return.
func diamondChain(n int) *cfg.Graph {
	g := cfg.New(n)
	b := 0
	for ; b+3 < n; b += 3 {
		g.Succs[b] = []int{b + 1, b + 2}
		g.Succs[b+1] = []int{b + 3}
		g.Succs[b+2] = []int{b + 3}
	}
	for ; b+1 < n; b++ {
		g.Succs[b] = []int{b + 1}
	}
	return g
}

// loopChain is n blocks: loops one after another, each a header, a
// diamond and a latch that goes back or on.
func loopChain(n int) *cfg.Graph {
	g := cfg.New(n)
	b := 0
	for ; b+5 < n; b += 5 { // header b, diamond b+1..b+3, latch b+4
		g.Succs[b] = []int{b + 1}
		g.Succs[b+1] = []int{b + 2, b + 3}
		g.Succs[b+2] = []int{b + 4}
		g.Succs[b+3] = []int{b + 4}
		g.Succs[b+4] = []int{b, b + 5}
	}
	for ; b+1 < n; b++ {
		g.Succs[b] = []int{b + 1}
	}
	return g
}
