// bench_test.go measures, in one run, the throughput of the whole pipeline
// (generate, structurize, emit, oracle checks, log) on 2 workers and of
// spirv-val alone on the same modules on 2 goroutines, so the rates are
// comparable: the target is a pipeline at least 70% as fast as validation.
// The pipeline runs with every check, with spirv-val and exec (16 random
// walks, or the edge-covering walks only), and with spirv-val alone (the
// engine's own overhead). The process runs with CampaignGCPercent, as
// cmd/cfgfuzz does, unless GOGC is set.
//
//	go test ./fuzz -run '^$' -bench Throughput -benchtime 1x
package fuzz

import (
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"testing"
	"time"

	"cfgfuzz/emit"
	"cfgfuzz/oracle"
	"cfgfuzz/structurizer"
)

const (
	benchGraphs = 3000
	benchRounds = 2 // each rate is the best of this many rounds, interleaved
)

func BenchmarkThroughput(b *testing.B) {
	// The shipped configuration: cmd/cfgfuzz runs with CampaignGCPercent
	// unless GOGC is set, and so does this benchmark.
	if env := os.Getenv("GOGC"); env != "" {
		b.Logf("GOGC=%s from the environment", env)
	} else {
		defer debug.SetGCPercent(debug.SetGCPercent(CampaignGCPercent))
		b.Logf("GOGC %d (CampaignGCPercent, as cmd/cfgfuzz runs)", CampaignGCPercent)
	}
	variants := []struct {
		name   string
		checks []string
		walks  int
	}{
		{"all-checks", nil, 16},
		{"val+exec", []string{"spirv-val", "exec"}, 16},
		{"val+exec-covering", []string{"spirv-val", "exec"}, 0},
		{"val", []string{"spirv-val"}, 0},
	}
	for range b.N {
		// Best of interleaved rounds: on a shared machine the other load
		// comes and goes, and it only ever slows a round down.
		// Besides wall-clock rates, CPU rates: graphs per CPU second of this
		// process times 2 (the 2 workers' cores), the rate on 2 idle cores.
		var val, valCPU float64
		rates := make([]float64, len(variants))
		cpuRates := make([]float64, len(variants))
		for range benchRounds {
			w, c := measure(func() float64 { return benchValidation(b) })
			val, valCPU = max(val, w), max(valCPU, c)
			for i, v := range variants {
				w, c := measure(func() float64 { return benchPipeline(b, v.checks, v.walks) })
				rates[i], cpuRates[i] = max(rates[i], w), max(cpuRates[i], c)
			}
		}
		b.ReportMetric(val, "spirv-val-only-graphs/s")
		b.ReportMetric(valCPU, "spirv-val-only-cpu-graphs/s")
		for i, v := range variants {
			b.ReportMetric(rates[i], "pipeline-"+v.name+"-graphs/s")
			b.ReportMetric(100*rates[i]/val, "pipeline-"+v.name+"-%")
			b.ReportMetric(100*cpuRates[i]/valCPU, "pipeline-"+v.name+"-cpu-%")
		}
	}
}

// measure runs f (which returns a wall-clock rate of benchGraphs graphs)
// and returns that rate and the CPU rate on 2 cores.
func measure(f func() float64) (wall, cpu float64) {
	before := cpuSeconds()
	wall = f()
	return wall, 2 * benchGraphs / (cpuSeconds() - before)
}

// cpuSeconds is this process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// benchPipeline runs a campaign of benchGraphs graphs with the checks (nil:
// all) and random walks, and returns its rate.
func benchPipeline(b *testing.B, checks []string, walks int) float64 {
	c := testConfig(b, benchGraphs)
	c.Checks = checks
	c.Walks = walks
	start := time.Now()
	if _, err := Run(c); err != nil {
		b.Fatal(err)
	}
	return benchGraphs / time.Since(start).Seconds()
}

// benchValidation validates the same graphs' modules (made beforehand,
// untimed) with the oracle's validator on 2 goroutines.
func benchValidation(b *testing.B) float64 {
	c := testConfig(b, benchGraphs)
	var mods [][]byte
	for i := range benchGraphs {
		st := c.Streams[i%len(c.Streams)]
		it, _ := c.Source.Item(st, c.Seed, i/len(c.Streams))
		res, err := structurizer.Structurize(it.Graph, structurizer.Options{Strategy: c.Strategy})
		if err != nil {
			b.Fatal(err)
		}
		m, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, m)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range 2 {
		v, err := oracle.LookupValidator("")
		if err != nil {
			b.Fatal(err)
		}
		if w == 0 {
			b.Logf("validator: %s", v.Name())
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
	return benchGraphs / time.Since(start).Seconds()
}
