// bench_test.go measures, in one run, the throughput of the whole pipeline
// (generate, structurize, emit, every oracle check, log) on 2 workers and of
// spirv-val alone on the same modules on 2 goroutines, so the two rates are
// comparable: the target is a pipeline at least 70% as fast as validation.
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
		pipe := benchPipeline(b, nil)
		fast := benchPipeline(b, []string{"spirv-val", "exec"})
		val := benchValidation(b)
		b.ReportMetric(pipe, "pipeline-graphs/s")
		b.ReportMetric(fast, "pipeline-val+exec-graphs/s")
		b.ReportMetric(val, "spirv-val-graphs/s")
		b.ReportMetric(100*pipe/val, "pipeline-%-of-val")
		b.ReportMetric(100*fast/val, "val+exec-%-of-val")
	}
}

// benchPipeline runs a campaign of benchGraphs graphs with the checks (nil:
// all) and returns its rate.
func benchPipeline(b *testing.B, checks []string) float64 {
	c := testConfig(b, benchGraphs)
	c.Checks = checks
	c.Walks = 16
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
