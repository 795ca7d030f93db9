// structured_guard_test.go: the selections pass's guards (structured_emit.go,
// structured_emit_func.go) on graphs whose joins run under a route: a guard
// that runs a loop for several values goes to the loop's header itself, a
// loop merge's case that skips past a join stores nothing (the guards
// route on the value it holds), every run stays the graph's (walks on
// random decisions, seed logged), and the output structurizes again to no
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

// skipFromLoopMerge: loop 7 (blocks 2, 3) leaves for block 8 and, through
// its merge's route, for the loops 5 and 6 further out; the case of that
// route for block 8 skips past the join 7, holding the route value of its
// destination already.
const skipFromLoopMerge = "{{1, 4, 10}, {2, 2}, {3, 5, 8}, {7, 2}, {4}, {6, 7, 9}, {11, 10, 6}, {8}, {8}, {5}, {11}, {0}}"

// TestLoopMergeCaseSkipsWithoutAStore: a loop merge's case that skips past
// a join goes to the merge's own merge with no store block: the guards
// route on the value the case holds.
func TestLoopMergeCaseSkipsWithoutAStore(t *testing.T) {
	g, err := cfg.ParseCompact(skipFromLoopMerge, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	seed := testSeed(t)
	res := checkStructured(t, rand.New(rand.NewPCG(seed, 1)), g, Options{CheckPasses: true}, 300)
	f := res.Func
	cases := 0
	for b, blk := range f.Blocks {
		if blk.Name != "merge" || (blk.Term.Kind != Route && blk.Term.Kind != Test) {
			continue
		}
		for i, x := range blk.Term.To {
			if blk.Term.Kind == Route && i == 0 || blk.Term.Kind == Test && i == 1 {
				continue // the default: its value is not the route's to fix
			}
			cases++
			if f.Blocks[x].Name == "skip" {
				t.Errorf("loop merge %d's case %d goes through the skip block %d\n%s", b, i, x, dumpFunc(f))
			}
		}
	}
	if cases == 0 {
		t.Fatalf("no loop merge routes: the graph no longer tests what it names\n%s", dumpFunc(f))
	}
	if _, _, again, grows := structurizeTwice(t, g); grows {
		t.Errorf("structurized again: %d blocks, first %d", again.Stats.BlocksOut, res.Stats.BlocksOut)
	}
}
