// minimize_shapes_test.go: the minimizer's stages on many graphs under
// fake predicates of several kinds, each a property a stage can destroy
// or keep (a conditional, a wide switch, a loop, a count of edges or
// blocks, dead code). Whatever a stage accepts may leave a smaller, renumbered
// graph, and the stages' walks over blocks and edges must read that graph
// and no other: the minimizer never panics, and its result fails the
// same way.
package corpus

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// shapePredicates are fake predicates, each failing with one signature
// while its property holds.
var shapePredicates = map[string]Predicate{
	"bugs": fakeBugs,
	"switch": func(g *cfg.Graph) (string, error) { // a block of three or more successors
		for _, s := range g.Succs {
			if len(s) >= 3 {
				return "fake:switch", nil
			}
		}
		return "", nil
	},
	"loop": func(g *cfg.Graph) (string, error) { // an edge to an earlier block or itself
		for b, s := range g.Succs {
			for _, t := range s {
				if t <= b {
					return "fake:loop", nil
				}
			}
		}
		return "", nil
	},
	"edges": func(g *cfg.Graph) (string, error) { // five edges or more
		n := 0
		for _, s := range g.Succs {
			n += len(s)
		}
		if n >= 5 {
			return "fake:edges", nil
		}
		return "", nil
	},
	"blocks": func(g *cfg.Graph) (string, error) { // four blocks or more
		if g.Len() >= 4 {
			return "fake:blocks", nil
		}
		return "", nil
	},
	"dead": func(g *cfg.Graph) (string, error) { // a block no path from the entry reaches
		if slices.Contains(g.Reachable(), false) {
			return "fake:dead", nil
		}
		return "", nil
	},
	"dead-decides": func(g *cfg.Graph) (string, error) { // such a block with two successors or more
		for b, r := range g.Reachable() {
			if !r && len(g.Succs[b]) >= 2 {
				return "fake:dead-decides", nil
			}
		}
		return "", nil
	},
}

func TestMinimizeUnderEveryShapeOfPredicate(t *testing.T) {
	graphs := []*cfg.Graph{compact(t, "{{1, 5}, {11, 9, 2, 2}, {3}, {4, 17}, {}, {6, 18}, {7, 10}, {16, 8}, {20, 21}, {}, {11, 18}, {14, 12}, {15, 13}, {18, 15}, {20, 19}, {}, {19}, {2}, {24, 19}, {20}, {}, {26, 22}, {7, 23}, {25, 24}, {25}, {26}, {23, 0, 0, 26}}")}
	for seed := range uint64(150) {
		graphs = append(graphs, randomGraph(seed, 6+int(seed%40)))
	}
	for seed := range uint64(30) { // graphs with 1 to 3 dead blocks, as campaigns draw them
		it, err := gen.Generate(gen.Config{Kind: gen.Irreducible, Dead: 1 + int(seed%3), MaxBlocks: 20}, seed)
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, it.Graph)
	}
	for name, pred := range shapePredicates {
		for i, g := range graphs {
			sig, _ := pred(g)
			if sig == "" {
				continue
			}
			for _, stages := range [][]Stage{nil, {StageRetarget}, {StageMerge}, {StageBranches}} {
				res := minimizeNoPanic(t, g, pred, stages)
				if got, _ := pred(res.Graph); got != sig || res.Signature != sig {
					t.Errorf("predicate %s, graph %d (%v; seed %d of randomGraph for 0 < i <= 150, of gen's irreducible kind after), stages %v: result %v fails with %q, want %q", name, i, g, i-1, stageNames(stages), res.Graph, got, sig)
				}
			}
		}
	}
}

// stageNames names a pipeline (nil: DefaultStages).
func stageNames(stages []Stage) []string {
	if stages == nil {
		return []string{"default"}
	}
	var out []string
	for _, st := range stages {
		out = append(out, st.Name)
	}
	return out
}

// minimizeNoPanic is Minimize with stages (nil: DefaultStages), a panic turned into a test failure that
// names the graph.
func minimizeNoPanic(t *testing.T, g *cfg.Graph, pred Predicate, stages []Stage) (res *Result) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Minimize(%v), stages %v, panicked: %v", g, stageNames(stages), r)
		}
	}()
	res, err := Minimize(g, pred, Options{Stages: stages})
	if err != nil {
		t.Fatal(fmt.Errorf("Minimize(%v): %w", g, err))
	}
	return res
}

// TestMinimizeKeepsAPanickingStageApart: a stage that panics ends the
// search with a StagePanicError naming the stage and the graph it started
// from, not with a panic of the caller's goroutine.
func TestMinimizeKeepsAPanickingStageApart(t *testing.T) {
	g := compact(t, "{{1, 2}, {}, {}}")
	boom := Stage{"boom", func(*search) bool { panic("index out of range") }}
	_, err := Minimize(g, fakeBugs, Options{Stages: []Stage{StageBlocks, boom}})
	var pe *StagePanicError
	if !errors.As(err, &pe) || pe.Stage != "boom" || pe.Graph == "" || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("Minimize with a panicking stage: %v; want a StagePanicError of stage boom naming its graph", err)
	}
	t.Log(err)
}
