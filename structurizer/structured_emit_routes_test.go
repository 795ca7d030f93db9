// structured_emit_routes_test.go: frame.takes, the decision that a skip
// to a join stores nothing because the join's guard already runs the join
// on the route value the skip carries, is cross-checked against its slow
// reference (routedCases.check: every loop merge's case run through the
// emitted guards to its target) on random graphs of every generator kind.
package structurizer

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
)

func TestTakesAgainstRoutedCases(t *testing.T) {
	const seed, perKind = 11, 2000
	t.Logf("seed %d: graph i of each kind is gen.Generate's with seed gen.SeedFor(kind, %d, i)", seed, seed)
	taken, guarded := 0, 0
	for _, k := range gen.Kinds() {
		kindTaken := 0
		for i := range perKind {
			it, err := gen.Generate(gen.Config{Kind: k, MinBlocks: 8, MaxBlocks: 40}, gen.SeedFor(k, seed, i))
			if err != nil {
				t.Fatalf("%s graph %d: %v", k, i, err)
			}
			s := &structState{g: it.Graph, w: newWork(it.Graph, Options{})}
			s.w.input = factsOf(it.Graph)
			for _, p := range structuredPasses[:2] { // irreducible, loops
				if _, err := p.run(s); err != nil {
					t.Fatalf("%s graph %d %v: %s: %v", k, i, it.Graph, p.name, err)
				}
			}
			e := newEmitter(s.w, it.Graph.Len())
			if _, err := e.run(); err != nil {
				t.Fatalf("%s graph %d %v: selections: %v", k, i, it.Graph, err)
			}
			g, err := (routedCases{e.w, e.f, e.fb}).check()
			if err != nil {
				t.Errorf("%s graph %d (seed %d) %v: %d skips taken: %v", k, i, it.Seed, it.Graph, e.routes.taken, err)
			}
			kindTaken += e.routes.taken
			guarded += g
		}
		t.Logf("%s: %d skips storing nothing (frame.takes), in %d graphs", k, kindTaken, perKind)
		taken += kindTaken
	}
	t.Logf("%d loop merge cases run through guards", guarded)
	if taken == 0 || guarded == 0 {
		t.Errorf("%d skips taken, %d cases through guards: the graphs do not exercise frame.takes", taken, guarded)
	}
}
