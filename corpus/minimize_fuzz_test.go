// minimize_fuzz_test.go: the native fuzz target FuzzMinimizeStages, the
// minimizer's stages on any graph under the fake predicates of
// minimize_shapes_test.go: whatever the graph, the predicate and the
// stages, a search that starts ends with a graph that still fails the
// same way as the graph, dead blocks included, and no stage panics (a StagePanicError is a failure here).
//
//	go test -run '^$' -fuzz '^FuzzMinimizeStages$' -fuzztime 60s -parallel 1 ./corpus
package corpus

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// fuzzGraph reads a graph from bytes: a block count (2 to 41), then per
// block a successor count (0 to 3) and that many targets. Missing bytes
// read as 0.
func fuzzGraph(data []byte) *cfg.Graph {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	n := 2 + next()%40
	g := cfg.New(n)
	for b := range n {
		for range next() % 4 {
			g.Succs[b] = append(g.Succs[b], next()%n)
		}
	}
	return g
}

// fuzzStageSets are the pipelines the target draws from.
var fuzzStageSets = [][]Stage{nil, {StageRetarget}, {StageMerge}, {StageBranches}, {StageEdges, StageRetarget}, {StageBlocks, StageEntry, StageMerge}}

func FuzzMinimizeStages(f *testing.F) {
	f.Add(byte(1), byte(1), []byte{9, 1, 1, 1, 2, 1, 3, 3, 2, 9, 3, 3, 4, 8, 5, 1, 5, 1, 6, 1, 7, 1, 8, 1, 9, 2, 10, 4, 0})
	f.Add(byte(0), byte(0), []byte{2, 2, 1, 2, 0, 0})
	f.Add(byte(2), byte(4), []byte{5, 2, 1, 2, 2, 3, 0, 1, 4, 3, 0, 1, 2, 0, 0, 0}) // the retarget stage once read a block it had dropped
	names := make([]string, 0, len(shapePredicates))
	for name := range shapePredicates {
		names = append(names, name)
	}
	slices.Sort(names)
	f.Fuzz(func(t *testing.T, which, stages byte, data []byte) {
		g := fuzzGraph(data)
		name := names[int(which)%len(names)]
		pred := shapePredicates[name]
		sig, _ := pred(g) // the search starts from the graph as given, dead blocks included
		if sig == "" {
			return
		}
		set := fuzzStageSets[int(stages)%len(fuzzStageSets)]
		res, err := Minimize(g, pred, Options{Stages: set, MaxSteps: 2000})
		var pe *StagePanicError
		switch {
		case errors.As(err, &pe):
			t.Fatalf("%v under %s, stages %v: %v", g, name, stageNames(set), err)
		case err != nil:
			return // a graph the search refuses
		}
		if got, _ := pred(res.Graph); got != sig || res.Signature != sig {
			t.Fatalf("%v under %s, stages %v: result %v fails with %q, want %q", g, name, stageNames(set), res.Graph, got, sig)
		}
	})
}
