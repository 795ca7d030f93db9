// structured_latch_test.go: the latch pass against its references: the
// self-check on its output and the runs of the function before it, on
// random graphs; hand-shaped loops where it must and must not absorb.
package structurizer

import (
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// beforeLatch returns the Func the thread pass leaves for g, nil when the
// pass table did not run (the nested pass laid g out).
func beforeLatch(t *testing.T, g *cfg.Graph) *Func {
	t.Helper()
	return funcAfter(t, g, "thread")
}

// TestLatchKeepsRuns absorbs the latches of the thread pass's function and
// compares runs of the two; the result passes the self-check, and some
// latches were absorbed.
func TestLatchKeepsRuns(t *testing.T) {
	r := loggedRand(t, 41)
	absorbed := 0
	for i := range 2000 {
		g := mixedGraph(r, i, 2, 10, 60)
		f := beforeLatch(t, g)
		if f == nil {
			continue
		}
		before := copyFunc(f)
		if changed, _ := absorbLatches(f, nil); !changed {
			continue
		}
		absorbed += latchesNamed(before) - latchesNamed(f)
		if err := f.Validate(); err != nil {
			t.Fatalf("graph %v: %v", g, err)
		}
		passKeepsRuns(t, r, g, "latch", before, f)
	}
	t.Logf("%d synthetic latches absorbed", absorbed)
	if absorbed == 0 {
		t.Fatal("the latch pass absorbed no latch")
	}
}

// latchesNamed counts the synthetic blocks that loop headers name as their
// continue target.
func latchesNamed(f *Func) int {
	n := 0
	for _, b := range f.Blocks {
		if b.Merge.Kind == LoopMerge && f.Blocks[b.Merge.Continue].Kind == Synthetic {
			n++
		}
	}
	return n
}

// TestLatchHandShapes: do-while loops whose test leaves for the merge
// continue at the test; a loop with two back-edge blocks, or whose test
// lies in a selection or a switch's case in the body, keeps its synthetic
// latch (in a case R11 requires it, and the self-check fails without the
// construct test).
func TestLatchHandShapes(t *testing.T) {
	for _, c := range []struct {
		graph    string
		absorbed bool
	}{
		// The irreducible blocks 0-2 keep the nested pass from laying
		// the graph out: the loop at 3 goes through the pass table.
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {4, 5}, {}}", true},               // a one-block do-while
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {5}, {6}, {4, 7}, {}}", true},     // a longer body
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {5}, {6, 4}, {4, 7}, {}}", false}, // two back edges
		{"{{1, 2}, {3, 0}, {3, 3}, {}}", false},                           // the test in a selection of the body
		{"{{1, 2, 3}, {3, 0}, {}, {}}", false},                            // the test in a switch's case (R11)
	} {
		g, err := cfg.ParseCompact(c.graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f := beforeLatch(t, g)
		if f == nil {
			t.Fatalf("%s: the nested pass laid it out", c.graph)
		}
		before := latchesNamed(f)
		absorbLatches(f, nil)
		got := latchesNamed(f) < before
		if got != c.absorbed {
			t.Errorf("%s: absorbed %v, want %v (func %+v)", c.graph, got, c.absorbed, f)
		}
		layout(f)
		if err := SelfCheck(f); err != nil {
			t.Errorf("%s: %v", c.graph, err)
		}
	}
}

// TestLiftReadsLatchFacts: the lift pass on the facts the latch pass hands
// it does what it does on facts computed afresh.
func TestLiftReadsLatchFacts(t *testing.T) {
	r := loggedRand(t, 42)
	both := 0
	for i := range 2000 {
		g := mixedGraph(r, i, 2, 10, 60)
		f := beforeLatch(t, g)
		if f == nil {
			continue
		}
		fresh := copyFunc(f)
		absorbed, facts := absorbLatches(f, nil)
		absorbLatches(fresh, nil)
		lifted := lift(f, facts)
		if lift(fresh, nil) != lifted || !reflect.DeepEqual(f, fresh) {
			t.Fatalf("graph %v: lift on the latch pass's facts\n%+v\nand on fresh ones\n%+v", g, f, fresh)
		}
		if absorbed && lifted {
			both++
		}
	}
	t.Logf("%d functions both absorbed a latch and lifted", both)
	if both == 0 {
		t.Fatal("no function both absorbed a latch and lifted: the shared facts were not exercised")
	}
}
