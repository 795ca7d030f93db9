// throughput_test.go measures, in one run, the campaign's throughput and
// spirv-val's alone on the same modules: the main job as `cfgfuzz run
// --graphs 3000 --workers 2` runs it, set up through run's own flags so
// every default is the command's (every generator and weight setting of
// package gen, the default strategy with its dispatch share, 16 random
// walks, in-process structurizer, the oracle's checks), against
// the oracle's in-process validator on 2 goroutines over the modules of the
// same distinct graphs (the repeats the campaign skips left out; made
// beforehand, untimed, each with the strategy the campaign runs it with;
// refusals have none). Rates are distinct graphs per second; the target is
// a campaign at least 70% as fast as validation alone.
//
// Two baselines: the oracle's validator as the campaign runs it (a first
// pass without friendly names, spirvval_cgo.go), and SPIRV-Tools'
// validator as the spirv-val executable runs it, with friendly names
// (oracle.NewNamedLibValidator; its rate and every check's share of it are
// the "named" metrics).
//
// Rows: every check (the default), every check but meta, spirv-val and
// exec, spirv-val alone (the engine's own overhead). Each rate is the best
// of benchRounds interleaved rounds (other load on a shared machine only
// ever slows a round down); besides wall-clock rates, CPU rates: graphs per
// CPU second of this process times 2, the rate on two idle cores. The
// process runs with fuzz.CampaignGCPercent, as cmd/cfgfuzz does, unless
// GOGC is set.
//
//	go test ./cmd/cfgfuzz -run '^$' -bench Throughput -benchtime 1x
package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

const (
	benchGraphs = 3000
	benchRounds = 2
)

func BenchmarkThroughput(b *testing.B) {
	defer campaignGC(b)()
	variants := []struct {
		name   string
		checks string // --checks; "": the defaults
	}{
		{"every-check", ""},
		{"no-meta", "-meta"},
		{"val+exec", "spirv-val,exec"},
		{"val", "spirv-val"},
	}
	mods, distinct := benchModules(b)
	for range b.N {
		var val, valCPU, named, namedCPU float64
		rates := make([]float64, len(variants))
		cpuRates := make([]float64, len(variants))
		for range benchRounds {
			w, c := measure(distinct, func() float64 { return benchValidation(b, mods, distinct, oracle.LookupValidator) })
			val, valCPU = max(val, w), max(valCPU, c)
			w, c = measure(distinct, func() float64 { return benchValidation(b, mods, distinct, namedValidator) })
			named, namedCPU = max(named, w), max(namedCPU, c)
			for i, v := range variants {
				w, c := measure(distinct, func() float64 { return benchCampaign(b, v.checks) })
				rates[i], cpuRates[i] = max(rates[i], w), max(cpuRates[i], c)
			}
		}
		b.ReportMetric(val, "spirv-val-only-graphs/s")
		b.ReportMetric(named, "spirv-val-named-graphs/s")
		b.ReportMetric(100*rates[0]/named, variants[0].name+"-of-named-%")
		b.ReportMetric(100*cpuRates[0]/namedCPU, variants[0].name+"-of-named-cpu-%")
		for i, v := range variants {
			b.ReportMetric(rates[i], v.name+"-graphs/s")
			b.ReportMetric(100*rates[i]/val, v.name+"-%")
			b.ReportMetric(100*cpuRates[i]/valCPU, v.name+"-cpu-%")
		}
	}
}

// campaignGC sets the garbage collector as cmd/cfgfuzz does (unless GOGC
// is set) and returns what restores it.
func campaignGC(b *testing.B) (restore func()) {
	if env := os.Getenv("GOGC"); env != "" {
		b.Logf("GOGC=%s from the environment", env)
		return func() {}
	}
	old := debug.SetGCPercent(fuzz.CampaignGCPercent)
	b.Logf("GOGC %d (fuzz.CampaignGCPercent, as cmd/cfgfuzz runs)", fuzz.CampaignGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// measure runs f (which returns a wall-clock rate of distinct graphs)
// and returns that rate and the CPU rate on 2 cores.
func measure(distinct int, f func() float64) (wall, cpu float64) {
	before := cpuSeconds()
	wall = f()
	return wall, 2 * float64(distinct) / (cpuSeconds() - before)
}

// cpuSeconds is this process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// benchConfig is the campaign `cfgfuzz run --graphs N --workers 2
// [--checks C]` sets up (through its own flags, so every default is the
// command's), into a fresh directory.
func benchConfig(b testing.TB, checks string, more ...string) fuzz.Config {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f campaignFlags
	f.define(fs, false)
	args := []string{"--graphs", strconv.Itoa(benchGraphs), "--workers", "2", "--progress", "none", "--out", b.TempDir()}
	if checks != "" {
		args = append(args, "--checks", checks)
	}
	args = append(args, more...)
	if err := fs.Parse(args); err != nil {
		b.Fatal(err)
	}
	c, err := f.config(context.Background(), io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchCampaign runs the campaign and returns its rate.
func benchCampaign(b *testing.B, checks string, more ...string) float64 {
	c := benchConfig(b, checks, more...)
	start := time.Now()
	out, err := fuzz.Run(c)
	if err != nil {
		b.Fatal(err)
	}
	if got := out.Report.Graphs + out.Report.Skipped; got != benchGraphs {
		b.Fatalf("campaign accounted for %d graph indices, want %d", got, benchGraphs)
	}
	return float64(out.Report.Graphs) / time.Since(start).Seconds()
}

// benchModules makes the modules of the campaign's distinct graphs (the
// repeats it skips left out, as fuzz.DistinctSet decides), in its order.
func benchModules(b *testing.B) (mods [][]byte, distinct int) {
	subjects, distinct := benchSubjects(b)
	for _, s := range subjects {
		mods = append(mods, s.module)
	}
	return mods, distinct
}

// benchSubject is one distinct graph of the measure's campaign with the
// strategy the campaign runs it with and the module that gives.
type benchSubject struct {
	graph    *cfg.Graph
	strategy string
	module   []byte
}

// benchSubjects makes the subjects of the campaign's distinct graphs, in
// its order; distinct counts the refused graphs too, which have none.
func benchSubjects(b *testing.B) (subjects []benchSubject, distinct int) {
	c := benchConfig(b, "")
	seen := fuzz.NewDistinctSet(0)
	for i := range benchGraphs {
		s, j := c.Place(i)
		it, err := c.Source.Item(c.Streams[s], c.Seed, j)
		if err != nil {
			b.Fatal(err)
		}
		strategy := c.Settings.GraphStrategy(i)
		if _, repeat := seen.See(i, fuzz.GraphHash(it.Graph, strategy)); repeat && c.GPUEvery == 0 {
			continue
		}
		distinct++
		res, err := structurizer.Structurize(it.Graph, structurizer.Options{Strategy: strategy})
		if err != nil {
			continue // refused: the campaign validates nothing either
		}
		m, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		subjects = append(subjects, benchSubject{graph: it.Graph, strategy: strategy, module: m})
	}
	b.Logf("%d graph indices over %d streams, %d distinct graphs, %d modules; %d random walks per graph", benchGraphs, len(c.Streams), distinct, len(subjects), c.Walks)
	return subjects, distinct
}

// namedValidator is the in-process validator as the spirv-val executable
// runs: friendly names in every pass.
func namedValidator(env string) (oracle.Validator, error) { return oracle.NewNamedLibValidator(env) }

// benchValidation validates the modules with a validator from newV on 2
// goroutines and returns distinct graphs (not modules) per second.
func benchValidation(b *testing.B, mods [][]byte, distinct int, newV func(env string) (oracle.Validator, error)) float64 {
	start := time.Now()
	var wg sync.WaitGroup
	for w := range 2 {
		v, err := newV("")
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(mods); i += 2 {
				if ok, msg, err := v.Validate(mods[i]); !ok || err != nil {
					b.Errorf("module %d: %s %v", i, msg, err)
				}
			}
		}()
	}
	wg.Wait()
	return float64(distinct) / time.Since(start).Seconds()
}

// BenchmarkProtocolCost measures what the protocol costs: the main job on
// this tree's structurizer in-process against the same campaign with that
// structurizer behind the protocol (`--structurizer 'cmd:cfgfuzz
// structurize'`, a cfgfuzz binary built from this tree, one server per
// worker, whose garbage collector is its own), every check, in distinct
// graphs per second, best of benchRounds interleaved rounds.
//
//	go test ./cmd/cfgfuzz -run '^$' -bench ProtocolCost -benchtime 1x
func BenchmarkProtocolCost(b *testing.B) {
	defer campaignGC(b)()
	bin := filepath.Join(b.TempDir(), "cfgfuzz")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	server := []string{"--structurizer", "cmd:" + bin + " structurize"}
	for range b.N {
		var inProc, proto, inCPU, protoCPU float64
		for range benchRounds {
			w, c := measure(benchGraphs, func() float64 { return benchCampaign(b, "") })
			inProc, inCPU = max(inProc, w), max(inCPU, c)
			w, c = measure(benchGraphs, func() float64 { return benchCampaign(b, "", server...) })
			proto, protoCPU = max(proto, w), max(protoCPU, c)
		}
		b.ReportMetric(inProc, "in-process-graphs/s")
		b.ReportMetric(proto, "protocol-graphs/s")
		b.ReportMetric(100*proto/inProc, "protocol-%")
		b.Logf("CPU rates count this process only (the servers' CPU is not in them): in-process %.0f, protocol %.0f graphs/s", inCPU, protoCPU)
	}
}
