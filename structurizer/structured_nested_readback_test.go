// structured_nested_readback_test.go: the read-back step (readBack) on a
// nested layout whose loop construct reaches past its natural loop, and
// the nested pass's reading of a loop whose latch names its merge while
// its header's conditional goes to the latch and out of the loop.
package structurizer

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestReadBackNamesLoops: block 0 loops on itself; the nested pass lays it
// out as a loop whose header chooses between its latch and block 1, with
// the return block 4 as its merge, so blocks 1 to 3 lie in the loop's
// construct (their edges to 4 break). Read back, the header's way out (1)
// looks like the merge and the first run fails; with the merge named at
// the latch it lays the layout out. readBack names it, adds no block, and
// the runs stay the same. (The strategy itself keeps the nested pass's
// layouts as they are; the pass table's come to readBack.)
func TestReadBackNamesLoops(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 0}, {2, 4}, {4, 3}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	nf, why := nested(g)
	if nf == nil {
		t.Fatalf("the nested pass declines the graph: %s", why)
	}
	if len(nf.Vars) != 0 || !hasUnnamedLoop(nf) {
		t.Fatalf("want a layout without a variable and with an unnamed loop:\n%s", dumpFunc(nf))
	}
	if firstRunReads(nf) {
		t.Fatalf("the first run reads the unnamed layout; the test checks nothing:\n%s", dumpFunc(nf))
	}
	rf := readBack(nf)
	if rf == nf || len(rf.Vars) != 1 || len(rf.Blocks) != len(nf.Blocks) {
		t.Fatalf("readBack: want the layout with its loops named (one variable, %d blocks), got:\n%s", len(nf.Blocks), dumpFunc(rf))
	}
	if hasUnnamedLoop(rf) || !firstRunReads(rf) {
		t.Fatalf("the named layout is not read back:\n%s", dumpFunc(rf))
	}
	if err := SelfCheck(rf); err != nil {
		t.Fatal(err)
	}
	r := loggedRand(t, 3)
	for range 200 {
		dec := make([]uint32, 40)
		for k := range dec {
			dec[k] = uint32(r.IntN(3))
		}
		if a, b := Simulate(nf, dec, 400), Simulate(rf, dec, 400); !sameRun(a, b) {
			t.Fatalf("decisions %v: %+v unnamed, %+v named", dec, a, b)
		}
	}
	// The graph nests, so the strategy returns the nested pass's layout as
	// it is: no variable on a graph that already nests (guarantee 6).
	res, err := Structurize(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Func.Vars) != 0 || !slices.Equal(res.Stats.PassesUsed, []string{"nested"}) {
		t.Fatalf("Structurize: want the nested pass's layout without a variable, got %v:\n%s", res.Stats.PassesUsed, dumpFunc(res.Func))
	}
}

// TestReadBackKeepsReadLayouts: readBack returns the very layout it is
// given when the first run reads it, or when it has a variable.
func TestReadBackKeepsReadLayouts(t *testing.T) {
	r := loggedRand(t, 5)
	kept := 0
	for range 300 {
		g := randomReducible(r, 4+r.IntN(40))
		nf, _ := nested(g)
		if nf == nil || !(len(nf.Vars) > 0 || firstRunReads(nf)) {
			continue
		}
		kept++
		if readBack(nf) != nf {
			t.Fatalf("graph %v: readBack changed a layout the first run reads", g)
		}
	}
	if kept == 0 {
		t.Fatal("no layout the first run reads: the test checks nothing")
	}
}

// TestLatchNamesMergeOverHeader: a loop whose header's conditional goes to
// its latch and out of the loop, and whose latch leaves for another block,
// merges where the latch leaves (R6 leaves it no other choice; R12 is met
// by the continue target).
func TestLatchNamesMergeOverHeader(t *testing.T) {
	// 1 heads a loop: it goes to its latch 2 or out to 3; the latch goes
	// back to 1 or out to 5; 3 returns or breaks to 5.
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {1, 5}, {4, 5}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	nt := newNester(g)
	f, why := nt.run()
	if f == nil {
		t.Fatalf("the first run declines the graph: %s", why)
	}
	i := slices.IndexFunc(f.Blocks, func(b Block) bool { return b.Orig == 1 })
	hb := f.Blocks[i]
	if hb.Merge.Kind != LoopMerge || f.Blocks[hb.Merge.Merge].Orig != 5 {
		t.Fatalf("want block 1 to head a loop merging at block 5:\n%s", dumpFunc(f))
	}
}
