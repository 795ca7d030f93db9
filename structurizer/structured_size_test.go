// structured_size_test.go: a tool, skipped unless DEBUG_SIZE is set: the
// size of the structured form of a 10,000-block graph (blocks, route
// tables, stores), to spot output that grows faster than the input.
package structurizer

import (
	"math/rand/v2"
	"os"
	"testing"
)

func TestDebugSize(t *testing.T) {
	if os.Getenv("DEBUG_SIZE") == "" {
		t.Skip()
	}
	g := randomReducible(rand.New(rand.NewPCG(10000, 1)), 10000)
	res, _ := Structurize(g, Options{Strategy: "structured"})
	vals, routes, stores := 0, 0, 0
	for _, b := range res.Func.Blocks {
		if b.Term.Kind == Route || b.Term.Kind == Test {
			routes++
			vals += len(b.Term.Values)
		}
		stores += len(b.Stores)
	}
	t.Logf("%+v routes %d values %d stores %d", res.Stats, routes, vals, stores)
}
