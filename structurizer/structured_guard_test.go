// structured_guard_test.go: the selections pass's guards (structured_emit.go,
// structured_emit_func.go) on graphs whose joins run under a route: a guard
// that runs a loop for several values goes to the loop's header itself,
// every run stays the graph's, and the output structurizes again to no
// more blocks (ARCHITECTURE.md, guarantee 5).
package structurizer

import (
	"math/rand/v2"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// guardToLoop: block 5 is a self-loop joined by blocks 1 and 3, and a skip
// from block 0 to block 6 passes it, so its guard runs the loop on two
// route values (none pending, or a loop merge's destination).
const guardToLoop = "{{1, 2, 6}, {5, 6, 6}, {3, 4}, {4, 7, 5}, {7}, {6, 5}, {6}, {}}"

// TestGuardRunsALoopThroughNoForwarder: the guard's cases that run the loop
// branch to its header, with no empty block between.
func TestGuardRunsALoopThroughNoForwarder(t *testing.T) {
	g, err := cfg.ParseCompact(guardToLoop, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	seed := testSeed(t)
	res := checkStructured(t, rand.New(rand.NewPCG(seed, 1)), g, Options{}, 200)
	f := res.Func
	routes := 0
	for b, blk := range f.Blocks {
		if blk.Name != "guard" || blk.Term.Kind != Route {
			continue
		}
		for _, x := range blk.Term.To[1:] {
			xb := &f.Blocks[x]
			if xb.Kind == Synthetic && xb.Merge.Kind == NoMerge && xb.Term.Kind == Branch && len(xb.Stores) == 0 &&
				f.Blocks[xb.Term.To[0]].Merge.Kind == LoopMerge {
				t.Errorf("guard %d runs the loop at %d through the empty block %d\n%s", b, xb.Term.To[0], x, dumpFunc(f))
			}
			if xb.Merge.Kind == LoopMerge {
				routes++
			}
		}
	}
	if routes < 2 {
		t.Fatalf("no guard runs a loop on two values: the graph no longer tests what it names\n%s", dumpFunc(f))
	}
	if _, _, again, grows := structurizeTwice(t, g); grows {
		t.Errorf("structurized again: %d blocks, first %d", again.Stats.BlocksOut, res.Stats.BlocksOut)
	}
}
