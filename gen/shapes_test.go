// shapes_test.go: ShapesOf on hand-made graphs, shape by shape; every
// shape at least once per 200 graphs of a campaign's mix of generators;
// every construct and every fall-through order at least once per 200
// programs.
package gen

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestShapesOf(t *testing.T) {
	for src, want := range map[string][]Shape{
		// Case 2 falls into case 1, listed before it at a lower id.
		"{{3, 1, 2}, {3}, {1}, {}}": {ShapeEarlyReturn, ShapeSwitch, ShapeFallthrough, ShapeFallthroughBack, ShapeFallthroughEarlier, ShapeFallthroughReversed, ShapeSingleFallthrough},
		// Case 1 falls into case 2: the program order.
		"{{1, 2, 3}, {2}, {3}, {}}": {ShapeEarlyReturn, ShapeSwitch, ShapeFallthrough, ShapeSingleFallthrough},
		// Case 2 falls into the default's target, case 1 falls nowhere.
		"{{1, 2, 3}, {3}, {1}, {}}": {ShapeEarlyReturn, ShapeSwitch, ShapeFallthrough, ShapeFallthroughBack, ShapeFallthroughEarlier, ShapeFallthroughReversed, ShapeSingleFallthrough, ShapeFallIntoDefault},
		// Two fall-throughs in a row: 1 into 2, 2 into 3.
		"{{4, 1, 2, 3}, {2}, {3}, {4}, {}}": {ShapeEarlyReturn, ShapeSwitch, ShapeFallthrough},
		// Cases 1 and 3 fall into case 2, listed after them at a lower id.
		"{{3, 2, 1, 2}, {3}, {1}, {}}": {ShapeEarlyReturn, ShapeSwitch, ShapeSharedCase, ShapeFallthrough, ShapeFallthroughBack, ShapeSingleFallthrough},
		// Case 2 falls into case 1, listed before it at a higher id.
		"{{3, 2, 1}, {2}, {3}, {}}":                                     {ShapeEarlyReturn, ShapeSwitch, ShapeFallthrough, ShapeFallthroughEarlier, ShapeSingleFallthrough},
		"{{1, 2}, {2, 3}, {1}, {}}":                                     {ShapeMultiLatch, ShapeIrreducible, ShapeReturnInLoop, ShapeEarlyReturn},
		"{{1}, {1, 2}, {}}":                                             {ShapeSelfLoop, ShapeReturnInLoop, ShapeEarlyReturn},
		"{{1}, {2, 0}, {1}}":                                            {ShapeNestedLoops, ShapeContinueOuter, ShapeEndlessLoop},
		"{{1}, {2, 4}, {3, 1}, {1, 4}, {5, 0}, {}}":                     {ShapeNestedLoops, ShapeMultiLatch, ShapeReturnInLoop, ShapeEarlyReturn},
		"{{1}, {2, 5}, {3, 1}, {1, 4, 5}, {}, {}}":                      {ShapeLoopExits, ShapeMultiLatch, ShapeReturnInLoop, ShapeEarlyReturn, ShapeSwitch, ShapeSwitchExitsLoop},
		"{{1}, {2, 4}, {3, 0}, {1, 2}, {}}":                             {ShapeLoopExits, ShapeNestedLoops, ShapeBreakOuter, ShapeContinueOuter, ShapeReturnInLoop, ShapeEarlyReturn},
		"{{1, 2}, {3}, {3}, {}}":                                        nil,
		"{{1, 2, 1, 1, 2}, {2}, {}}":                                    {ShapeEarlyReturn, ShapeSwitch, ShapeSharedCase, ShapeWideSwitch},
		"{{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2}, {}, {}}": {ShapeSwitch, ShapeSharedCase, ShapeWideSwitch, ShapeJumpTable},
		"{{1, 2}, {3}, {3}, {}, {4}}":                                   nil, // block 4 is unreachable
	} {
		g, err := cfg.ParseCompact(src, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var got []Shape
		for s, ok := range ShapesOf(g) {
			if ok {
				got = append(got, Shape(s))
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: shapes %v, want %v", src, got, want)
		}
	}
}

// TestShapesPerCampaignMix: every shape in at least one graph of 200 of
// the generators taking turns, as a campaign's streams do (10,000 graphs:
// the rarest shape, a reversed fall-through, is in 0.8% of them).
func TestShapesPerCampaignMix(t *testing.T) {
	const runSeed, n = 1, 10000
	t.Logf("run seed %d, %d graphs, kinds %v taking turns", runSeed, n, Kinds())
	var count [NumShapes]int
	kinds := Kinds()
	for i := range n {
		k := kinds[i%len(kinds)]
		it, err := Generate(Config{Kind: k}, SeedFor(k, runSeed, i/len(kinds)))
		if err != nil {
			t.Fatal(err)
		}
		for s, ok := range ShapesOf(it.Graph) {
			count[s] += b2i(ok)
		}
	}
	for s := range Shape(NumShapes) {
		t.Logf("%-28s %d", s, count[s])
		if count[s]*200 < n {
			t.Errorf("shape %q in %d of %d graphs, want at least 1 in 200", s, count[s], n)
		}
	}
}

// programShapes are the shapes a program can have: programs are reducible
// and every block returns, and a continue of an outer loop leaves the
// inner one through a block of its own unless it is a jump arm.
var programShapes = []Shape{ShapeLoopExits, ShapeNestedLoops, ShapeBreakOuter, ShapeMultiLatch, ShapeSelfLoop,
	ShapeReturnInLoop, ShapeEarlyReturn, ShapeSwitch, ShapeSharedCase, ShapeFallthrough, ShapeFallthroughBack,
	ShapeFallthroughEarlier, ShapeFallthroughReversed, ShapeSwitchExitsLoop, ShapeFallIntoDefault, ShapeSingleFallthrough,
	ShapeWideSwitch, ShapeJumpTable}

// TestProgramRates: every program construct, and every program shape
// (the fall-through orders among them), in at least one program of 200.
func TestProgramRates(t *testing.T) {
	const runSeed, n = 7, 2000
	t.Logf("run seed %d, %d programs", runSeed, n)
	var cons [NumConstructs]int
	var shapes [NumShapes]int
	for _, it := range batch(t, Config{Kind: Program}, runSeed, n) {
		for c, k := range it.Constructs.Count {
			cons[c] += b2i(k > 0)
		}
		for s, ok := range ShapesOf(it.Graph) {
			shapes[s] += b2i(ok)
		}
	}
	for c := range Construct(NumConstructs) {
		t.Logf("construct %-20s %d", c, cons[c])
		if cons[c]*200 < n {
			t.Errorf("construct %q in %d of %d programs, want at least 1 in 200", c, cons[c], n)
		}
	}
	for _, s := range programShapes {
		t.Logf("shape %-28s %d", s, shapes[s])
		if shapes[s]*200 < n {
			t.Errorf("shape %q in %d of %d programs, want at least 1 in 200", s, shapes[s], n)
		}
	}
}
