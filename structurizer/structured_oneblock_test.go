// structured_oneblock_test.go: loops of one block as their own header,
// continue target and back-edge block: the self-check accepts them and
// refuses a header that continues at itself and branches elsewhere than
// to itself and its merge (R6: its continue construct is the block alone);
// the nested pass lays a conditional self-loop out with no latch; the
// one-block pass (structured_oneblock.go) drops the synthetic header of
// such a loop, keeps the runs and the self-check, and leaves alone a loop
// it must not touch.
package structurizer

import (
	"errors"
	"reflect"
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

// TestOneBlockHandShapes: behind an irreducible entry (blocks 0-2, so
// that the pass table runs), a one-block do-while loses its synthetic
// header, in a loop too; a loop whose body is a switch, or whose back-edge block is not
// its header's only successor, keeps it.
func TestOneBlockHandShapes(t *testing.T) {
	for _, c := range []struct {
		graph string
		drops bool
	}{
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {4, 5}, {}}", true},         // a one-block do-while
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {5, 4}, {}}", true},         // the back edge listed second
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {4, 5, 6}, {}, {}}", false}, // a switch (R13)
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {5}, {4, 6}, {}}", false},   // two blocks
		{"{{1, 2}, {2, 3}, {1, 3}, {4}, {4, 5}, {5, 3}}", true},     // in a loop
	} {
		g, err := cfg.ParseCompact(c.graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f := funcAfter(t, g, "lift")
		if f == nil {
			t.Fatalf("%s: the nested pass laid it out", c.graph)
		}
		before := copyFunc(f)
		if got := oneBlockLoops(f, nil); got != c.drops {
			t.Errorf("%s: dropped a header %v, want %v (func %+v)", c.graph, got, c.drops, before)
		}
		layout(f)
		if err := SelfCheck(f); err != nil {
			t.Errorf("%s: %v", c.graph, err)
		}
		if c.drops && (ownLoops(f) == 0 || named(f, "loop") != named(before, "loop")-ownLoops(f)) {
			t.Errorf("%s: %d blocks their own loops, %d headers dropped: %+v", c.graph, ownLoops(f), named(before, "loop")-named(f, "loop"), f.Blocks)
		}
		runsSame(t, before, f, []uint32{0, 0, 0, 0, 1, 1}, []uint32{1, 0, 1, 0, 0, 1}, []uint32{1, 1, 1, 1})
	}
}

// TestOneBlockKeepsRuns drops the one-block loops' headers of the lift
// pass's function on random graphs and compares runs; the result passes
// the self-check, and some headers that stored (the route cleared) go.
func TestOneBlockKeepsRuns(t *testing.T) {
	r := loggedRand(t, 43)
	dropped, stored := 0, 0
	for i := range 3000 {
		g := mixedGraph(r, i, 2, 10, 60)
		f := funcAfter(t, g, "lift")
		if f == nil {
			continue
		}
		before := copyFunc(f)
		n := oneBlockHeaders(f)
		if !oneBlockLoops(f, nil) {
			continue
		}
		for _, h := range n {
			if f.Blocks[h].Merge.Kind == NoMerge {
				dropped++
				if len(before.Blocks[h].Stores) > 0 {
					stored++
				}
			}
		}
		passKeepsRuns(t, r, g, "one-block", before, f)
	}
	t.Logf("%d synthetic headers dropped, %d of them storing", dropped, stored)
	if dropped == 0 || stored == 0 {
		t.Fatalf("dropped %d headers, %d storing: the pass was not exercised", dropped, stored)
	}
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

// oneBlockHeaders lists the blocks of f of the one-block pass's shape.
func oneBlockHeaders(f *Func) []int {
	var hs []int
	for h := range f.Blocks {
		if oneBlockShape(f, h) {
			hs = append(hs, h)
		}
	}
	return hs
}

// oneBlockFunc is a one-block loop u (block 2) under the synthetic header
// H (block 1, clearing v), u storing 5 into v and leaving for M (block 3),
// which tests v: 5 goes to block 4, anything else to block 5, both
// then to the return (block 6). With
// enterU, the entry chooses between H and u, so u is entered from
// outside its loop too.
func oneBlockFunc(enterU bool) *Func {
	entry := synBlock("entry", Merge{}, branchTo(1))
	if enterU {
		entry = choose2("entry", Merge{}, 1, 2)
	}
	h := synBlock("loop", Merge{Kind: LoopMerge, Merge: 3, Continue: 2}, branchTo(2))
	h.Stores = []Store{{Var: 0, Value: 0}}
	u := choose2("u", Merge{}, 1, 3)
	u.Orig, u.Stores = 1, []Store{{Var: 0, Value: 5}}
	return &Func{Vars: []Var{{Name: "v"}}, Blocks: []Block{
		entry, h, u,
		{Kind: Original, Orig: 2, Merge: Merge{Kind: SelectionMerge, Merge: 6}, Term: Term{Kind: Test, Var: 0, Values: []uint32{5}, To: []int{4, 5}}},
		{Kind: Original, Orig: 3, Term: branchTo(6)},
		{Kind: Original, Orig: 4, Term: branchTo(6)},
		synBlock("end", Merge{}, Term{Kind: Return}),
	}}
}

// TestOneBlockStoresFirst: the dropped header's stores run before the
// block's own, so the header's clearing does not undo what the block
// stores (M reads 5, as before); a block entered from outside its loop
// keeps its header.
func TestOneBlockStoresFirst(t *testing.T) {
	f := oneBlockFunc(false)
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	before := copyFunc(f)
	if !oneBlockLoops(f, nil) {
		t.Fatalf("the header was not dropped: %+v", f.Blocks)
	}
	if want := []Store{{Var: 0, Value: 0}, {Var: 0, Value: 5}}; !reflect.DeepEqual(f.Blocks[2].Stores, want) {
		t.Errorf("the block stores %+v, want %+v", f.Blocks[2].Stores, want)
	}
	layout(f)
	if err := SelfCheck(f); err != nil {
		t.Error(err)
	}
	runsSame(t, before, f, []uint32{1}, []uint32{0, 0, 1}, []uint32{0, 1})

	g := oneBlockFunc(true)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if oneBlockLoops(g, nil) {
		t.Errorf("a block entered from outside its loop lost its header: %+v", g.Blocks)
	}
}
