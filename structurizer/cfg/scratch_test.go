// scratch_test.go: the working arrays handed from call to call
// (scratch.go): dominators of one graph after another reuse them, and a
// reused array, longer than a call needs and holding the last call's
// numbers, gives the same trees.
package cfg

import (
	"math/rand/v2"
	"testing"
)

// TestDominatorsReuseScratch: once a graph's dominators are computed,
// computing them again allocates the result and two small headers, not
// the working arrays.
func TestDominatorsReuseScratch(t *testing.T) {
	t.Logf("seed %d", *analysisSeed)
	g := randomAny(rand.New(rand.NewPCG(*analysisSeed, 71)), 2000)
	ImmediateDominators(g)
	if allocs := testing.AllocsPerRun(10, func() { ImmediateDominators(g) }); allocs > 4 {
		t.Errorf("ImmediateDominators of 2,000 blocks: %.1f allocations a call, want at most 4 (the working arrays handed on)", allocs)
	}
	PostDominators(g)
	if allocs := testing.AllocsPerRun(10, func() { PostDominators(g) }); allocs > 9 {
		t.Errorf("PostDominators of 2,000 blocks: %.1f allocations a call, want at most 9", allocs)
	}
}

// TestDominatorsOnReusedScratch: graphs of sizes drawn from 1 to 3,000,
// each computed on the array the previous one released, match
// Cooper, Harvey and Kennedy's iteration.
func TestDominatorsOnReusedScratch(t *testing.T) {
	t.Logf("seed %d", *analysisSeed)
	r := rand.New(rand.NewPCG(*analysisSeed, 73))
	for range 60 {
		n := 1 + r.IntN(3000)
		if r.IntN(2) == 0 {
			n = 1 + r.IntN(20)
		}
		checkAgainstCHK(t, "graph", randomAny(r, n))
	}
}
