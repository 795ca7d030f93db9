// testsource_test.go defines the graph source of the package's tests: small
// seeded random graphs (not package gen's, which the CLI wires in), two
// streams, and a test helper that runs a campaign into a temporary
// directory.
package fuzz

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// testSource draws graphs of 3 to 7 blocks, out-degree 0 to 3, any edges.
// Delay slows every graph down (for the kill test).
type testSource struct{ Delay time.Duration }

var testStreams = []Stream{{Kind: "random", Weights: "w0"}, {Kind: "random", Weights: "w16+heavy"}}

func (s testSource) Item(st Stream, run uint64, j int) (Item, error) {
	time.Sleep(s.Delay)
	seed := run*1_000_003 + uint64(j)
	r := rand.New(rand.NewPCG(seed, 7))
	n := 3 + r.IntN(5)
	g := cfg.New(n)
	for b := range n {
		deg := r.IntN(4)
		if b == n-1 {
			deg = 0
		}
		for range deg {
			g.Succs[b] = append(g.Succs[b], r.IntN(n))
		}
		if st.Weights == "w16+heavy" {
			g.Weights[b] = 16
		}
	}
	if st.Weights == "w16+heavy" {
		g.Weights[r.IntN(n)] = 1000
	}
	return Item{Graph: g, Seed: seed}, nil
}

func (testSource) Replay(st Stream, seed uint64) string {
	return fmt.Sprintf("testsource --weights %s --seed %d", st.Weights, seed)
}

// testConfig is a campaign of n graphs over the test source into a fresh
// directory, on the dispatch strategy (always valid: the tests are about the
// engine, not about the strategy under development).
func testConfig(t testing.TB, n int) Config {
	return testConfigIn(t.TempDir(), n)
}

// testConfigIn is testConfig into dir.
func testConfigIn(dir string, n int) Config {
	return Config{
		Settings: Settings{Seed: 1, Graphs: n, Streams: testStreams, Walks: 4, Strategy: "dispatch"},
		Source:   testSource{},
		Current:  InProcessFactory(),
		Dir:      dir,
		Workers:  2,
	}
}
