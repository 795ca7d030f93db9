// structured_oneblock_test.go: loops of one block as their own header,
// continue target and back-edge block: the self-check accepts them and
// refuses a header that continues at itself and branches elsewhere than
// to itself and its merge (R6: its continue construct is the block alone);
// the nested pass lays a conditional self-loop out with no latch.
package structurizer

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// choose2 is a block reading a two-way decision, to a or b.
func choose2(name string, m Merge, a, b int) Block {
	return Block{Kind: Original, Orig: 0, Name: name, Arity: 2, Merge: m, Term: Term{Kind: Choose, To: []int{a, b}}}
}

func TestSelfCheckOneBlockLoops(t *testing.T) {
	ret := Term{Kind: Return}
	loop := func(m, c int) Merge { return Merge{Kind: LoopMerge, Merge: m, Continue: c} }
	accepted := map[string]Func{
		"entered by a branch": {Blocks: []Block{
			synBlock("entry", Merge{}, branchTo(1)),
			choose2("u", loop(2, 1), 1, 2),
			synBlock("m", Merge{}, ret)}},
		"a selection's merge": {Blocks: []Block{
			synBlock("entry", Merge{}, branchTo(1)),
			choose2("x", Merge{Kind: SelectionMerge, Merge: 3}, 2, 3),
			synBlock("a", Merge{}, branchTo(3)),
			choose2("u", loop(4, 3), 4, 3),
			synBlock("m", Merge{}, ret)}},
		"in a loop": {Blocks: []Block{
			synBlock("entry", Merge{}, branchTo(1)),
			synBlock("h", loop(5, 4), branchTo(2)),
			choose2("u", loop(3, 2), 2, 3),
			synBlock("mu", Merge{}, branchTo(4)),
			choose2("c", Merge{}, 1, 5),
			synBlock("m", Merge{}, ret)}},
	}
	for name, f := range accepted {
		if err := f.Validate(); err != nil {
			t.Fatalf("%s: malformed: %v", name, err)
		}
		if err := SelfCheck(&f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	refused := map[string]struct {
		f    Func
		rule string
	}{
		"another back-edge block": {Func{Blocks: []Block{
			synBlock("entry", Merge{}, branchTo(1)),
			synBlock("h", loop(3, 1), branchTo(2)),
			choose2("u", Merge{}, 1, 3),
			synBlock("m", Merge{}, ret)}}, "R6"},
		"leaving for a block past the merge": {Func{Blocks: []Block{
			synBlock("entry", Merge{}, branchTo(1)),
			choose2("u", loop(3, 1), 1, 2),
			synBlock("a", Merge{}, branchTo(3)),
			synBlock("m", Merge{}, ret)}}, "R6"},
	}
	for name, c := range refused {
		var re *RuleError
		if err := SelfCheck(&c.f); !errors.As(err, &re) || re.Rule != c.rule {
			t.Errorf("a header continuing at itself, %s: got %v, want %s", name, err, c.rule)
		}
	}
}

// TestNestedOneBlockLoop: a graph that nests with a conditional
// self-loop is laid out with the block as its own continue target, no
// latch, and its exit as its merge (the entry's self-loop's merge can
// otherwise be forced past it).
func TestNestedOneBlockLoop(t *testing.T) {
	for _, src := range []string{"{{1}, {1, 2}, {}}", "{{1}, {2, 1}, {}}", "{{1}, {2}, {2, 3}, {4}, {1, 5}, {}}"} {
		g, err := cfg.ParseCompact(src, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Structurize(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if named(res.Func, "latch") != 0 || len(res.Stats.PassesUsed) != 1 || res.Stats.PassesUsed[0] != "nested" {
			t.Errorf("%s: %d latches, passes %v; want none, nested", src, named(res.Func, "latch"), res.Stats.PassesUsed)
		}
		if ownLoops(res.Func) != 1 {
			t.Errorf("%s: no block is its own continue target: %+v", src, res.Func.Blocks)
		}
		for b, blk := range res.Func.Blocks {
			if blk.Merge.Kind == LoopMerge && blk.Merge.Continue == b && !slices.Contains(blk.Term.To, blk.Merge.Merge) {
				t.Errorf("%s: a loop of one block merges past its exit: %+v", src, res.Func.Blocks)
			}
		}
	}
}

// TestNestedOneBlockLatch: where a loop of one block does not nest as it
// is (the entry's self-loop here: its exit, block 1, is its merge, and
// block 2's break to block 3 then leaves a selection for a block R6 does
// not allow), the search gives it a latch and the graph still nests.
func TestNestedOneBlockLatch(t *testing.T) {
	g, err := cfg.ParseCompact("{{0, 1}, {2, 3}, {3, 4}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Structurize(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ownLoops(res.Func) != 0 || res.Stats.Synthetic != 2 || res.Stats.PassesUsed[0] != "nested" {
		t.Errorf("%v: %d loops of one block, %d synthetic blocks, passes %v; want none, the entry and a latch, nested",
			g, ownLoops(res.Func), res.Stats.Synthetic, res.Stats.PassesUsed)
	}
}

// ownLoops counts the loop headers of f that are their own continue
// target.
func ownLoops(f *Func) int {
	n := 0
	for b, blk := range f.Blocks {
		if blk.Merge.Kind == LoopMerge && blk.Merge.Continue == b {
			n++
		}
	}
	return n
}

// named counts the blocks of f named name.
func named(f *Func, name string) int {
	n := 0
	for _, b := range f.Blocks {
		if b.Name == name {
			n++
		}
	}
	return n
}
