// bench_test.go measures, in one run, the throughput of the whole pipeline
// (generate, structurize, emit, oracle checks, log) on 2 workers and of
// spirv-val alone on the same modules on 2 goroutines, so the rates are
// comparable: the target is a pipeline at least 70% as fast as validation.
// The pipeline runs with every check, with spirv-val and exec (16 random
// walks, or the edge-covering walks only), and with spirv-val alone (the
// engine's own overhead).
//
//	go test ./fuzz -run '^$' -bench Throughput -benchtime 1x
package fuzz

import (
	"sync"
	"testing"
	"time"

	"cfgfuzz/emit"
	"cfgfuzz/oracle"
	"cfgfuzz/structurizer"
)

const benchGraphs = 2000

func BenchmarkThroughput(b *testing.B) {
	for range b.N {
		val := benchValidation(b)
		b.ReportMetric(val, "spirv-val-only-graphs/s")
		for _, v := range []struct {
			name   string
			checks []string
			walks  int
		}{
			{"all-checks", nil, 16},
			{"val+exec", []string{"spirv-val", "exec"}, 16},
			{"val+exec-covering", []string{"spirv-val", "exec"}, 0},
			{"val", []string{"spirv-val"}, 0},
		} {
			rate := benchPipeline(b, v.checks, v.walks)
			b.ReportMetric(rate, "pipeline-"+v.name+"-graphs/s")
			b.ReportMetric(100*rate/val, "pipeline-"+v.name+"-%")
		}
	}
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
		res, err := structurizer.Structurize(it.Graph, structurizer.Options{})
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
