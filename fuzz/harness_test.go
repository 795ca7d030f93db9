// harness_test.go: the native Go fuzz target. FuzzStructurize decodes the
// fuzzer's bytes into a graph through gen.FromBytes (go-fuzz-headers' byte
// consumer, one byte per decision), structurizes it with the default
// strategy, emits it, and demands that every oracle check pass; a panic in
// the structurizer or the emitter is contained by corpus.Runner and fails
// with its signature. The seed corpus is the regression suite
// (corpus/testdata/regressions), each graph encoded with gen.ToBytes, plus
// anything under testdata/fuzz/FuzzStructurize.
//
//	go test -run '^$' -fuzz=FuzzStructurize -fuzztime=20000x ./fuzz
//	go test -run '^$' -fuzz=FuzzStructurize -fuzztime=20000x ./fuzz -harness-strategy dispatch
package fuzz

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// harnessStrategy overrides the default strategy (go test only; ClusterFuzzLite
// and go-fuzz use the default).
var harnessStrategy = flag.String("harness-strategy", "", "strategy FuzzStructurize structurizes with (default: the structurizer's default)")

// harnessTimeout bounds one structurization, so a hang is a failure
// (structurize:timeout) rather than a stuck worker.
const harnessTimeout = 10 * time.Second

// regressionDir is the regression suite, relative to this package.
const regressionDir = "../corpus/testdata/regressions"

func FuzzStructurize(f *testing.F) {
	seedFromRegressions(f)
	run, err := corpus.NewRunner(corpus.RunnerOptions{Structurizer: structurizer.Options{Strategy: *harnessStrategy}, Timeout: harnessTimeout})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := gen.FromBytes(data)
		if err != nil {
			return
		}
		out := run.Run(g)
		switch {
		case out.Err != nil:
			t.Fatalf("harness error on %s: %v", cfg.FormatCompact(g), out.Err)
		case out.Failed():
			t.Fatalf("%s on %s (minimize: cfgfuzz minimize FILE with the graph)", out.Signature, cfg.FormatCompact(g))
		}
	})
}

// seedFromRegressions adds every regression graph that fits FromBytes'
// bounds. Where the suite is absent (a ClusterFuzzLite runner has only the
// binary and its seed corpus zip) nothing is added.
func seedFromRegressions(f *testing.F) {
	if _, err := os.Stat(regressionDir); err != nil {
		return
	}
	rs, err := corpus.LoadRegressions(regressionDir)
	if err != nil {
		f.Fatal(err)
	}
	seeded := 0
	for _, r := range rs {
		if b := gen.ToBytes(r.Graph); b != nil {
			f.Add(b)
			seeded++
		}
	}
	if seeded == 0 {
		f.Fatalf("no regression of %s encodes as fuzzer bytes", regressionDir)
	}
}
