// structured_lift_test.go: the lift pass on hand-made functions: a
// conditional whose merge only forwards to the merge of the construct
// around it keeps no merge, nested ones lift in one walk, R15 and a
// conditional that never names its merge, lies in a selection or in the
// one case that reaches its switch's merge stop it, every run stays the
// same, and the nested pass lays the lifted CFG out with no declaration
// for the lifted conditional.
package structurizer

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func liftCond(orig, merge int, to ...int) Block {
	b := Block{Kind: Original, Orig: orig, Arity: 2, Term: Term{Kind: Choose, To: to}}
	if merge >= 0 {
		b.Merge = Merge{Kind: SelectionMerge, Merge: merge}
	}
	return b
}

// selectionChain: P (1) chooses h1 (2) or its merge M (7); h1 chooses h2
// (3) or its merge m1 (6); h2 chooses a (4) or its merge m2 (5); a goes
// on to m2. m2 only forwards to m1, m1 to M, which returns. With sw set,
// P is a switch whose third case goes to M as well.
func selectionChain(sw bool) *Func {
	p := liftCond(0, 7, 2, 7)
	if sw {
		p.Arity, p.Term.To = 3, []int{2, 7, 7}
	}
	return &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		p,
		liftCond(1, 6, 3, 6),
		liftCond(2, 5, 4, 5),
		{Kind: Original, Orig: 3, Term: branchTo(5)},
		synBlock("exit", Merge{}, branchTo(6)),
		synBlock("exit", Merge{}, branchTo(7)),
		{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
	}}
}

// switchCase: a switch (1) whose case 2 is a conditional h with a merge
// of its own (4) that only forwards to the switch's merge (6); h's other
// arm (3) returns.
func switchCase() *Func {
	return &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 6}, Term: Term{Kind: Choose, To: []int{6, 2, 5}}},
		liftCond(1, 4, 3, 4),
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
		synBlock("exit", Merge{}, branchTo(6)),
		{Kind: Original, Orig: 3, Term: branchTo(6)},
		{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
	}}
}

// liftDecisions are the decision strings the lift tests run before and
// after the pass.
var liftDecisions = [][]uint32{{0, 0, 0, 0}, {1, 1, 1, 1}, {0, 1, 0, 1}, {1, 0, 1, 0}, {2, 0, 1}, {1, 1, 0, 0}}

func TestLiftIntoASwitchCase(t *testing.T) {
	f := switchCase()
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !lift(f, nil) {
		t.Fatal("lift changed nothing")
	}
	if h := f.Blocks[2]; h.Merge.Kind != NoMerge || !slices.Equal(h.Term.To, []int{3, 6}) {
		t.Fatalf("h after lift: merge %+v, targets %v; want no merge, [3 6]", h.Merge, h.Term.To)
	}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after lift: %v", err)
	}
	runsSame(t, before, f, liftDecisions...)
}

func TestLiftNestedInOneWalk(t *testing.T) {
	f := selectionChain(true)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !lift(f, nil) {
		t.Fatal("lift changed nothing")
	}
	for _, h := range []int{2, 3} {
		if f.Blocks[h].Merge.Kind != NoMerge || !slices.Contains(f.Blocks[h].Term.To, 7) {
			t.Errorf("block %d after lift: merge %+v, targets %v; want no merge and an edge to 7", h, f.Blocks[h].Merge, f.Blocks[h].Term.To)
		}
	}
	if f.Blocks[1].Merge.Merge != 7 || f.Blocks[4].Term.To[0] != 7 {
		t.Errorf("P's merge %d, a's target %d; want 7, 7", f.Blocks[1].Merge.Merge, f.Blocks[4].Term.To[0])
	}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after lift: %v", err)
	}
	runsSame(t, before, f, liftDecisions...)
}

// TestLiftKeepsTheRules: a conditional whose other label is already the
// block its merge forwards to stays (R15), and so does one that never
// branches to its own merge (R12 would have no declared label left), one
// nested in a selection (the front end of Mesa 22.3 fails on it), and one
// in the only case that reaches its switch's merge (oneCaseMerges).
func TestLiftKeepsTheRules(t *testing.T) {
	// A loop (1) whose body h (2) continues (to 3, the continue target)
	// or goes to its merge m (4), which forwards to 3 too.
	loop := &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		synBlock("loop", Merge{Kind: LoopMerge, Merge: 5, Continue: 3}, branchTo(2)),
		liftCond(0, 4, 3, 4),
		{Kind: Original, Orig: 1, Arity: 2, Term: Term{Kind: Choose, To: []int{1, 5}}},
		synBlock("exit", Merge{}, branchTo(3)),
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
	}}
	// In a switch's case, h (2) chooses two arms (3, 4) that both reach
	// its merge m (5).
	arms := &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 7}, Term: Term{Kind: Choose, To: []int{2, 7, 7}}},
		liftCond(1, 5, 3, 4),
		{Kind: Original, Orig: 2, Term: branchTo(5)},
		{Kind: Original, Orig: 3, Term: branchTo(5)},
		synBlock("exit", Merge{}, branchTo(7)),
		{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
		{Kind: Original, Orig: 5, Term: Term{Kind: Return}},
	}}
	// A switch (1) whose cases 5 and 6 return: its merge (7) is entered
	// from case h (2) alone, through h's merge (4).
	oneCase := &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 7}, Term: Term{Kind: Choose, To: []int{2, 5, 6}}},
		liftCond(1, 4, 3, 4),
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
		synBlock("exit", Merge{}, branchTo(7)),
		{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
		{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
		{Kind: Original, Orig: 5, Term: Term{Kind: Return}},
	}}
	for name, f := range map[string]*Func{"R15": loop, "R12": arms, "selection": selectionChain(false), "one case": oneCase} {
		if err := SelfCheck(f); err != nil {
			t.Fatalf("%s: hand-made function: %v", name, err)
		}
		if lift(f, nil) {
			t.Errorf("%s: lift changed the function: h has merge %+v, targets %v", name, f.Blocks[2].Merge, f.Blocks[2].Term.To)
		}
	}
}

// TestNestedLaysOutALiftedConditional: the CFG of a lifted function,
// structurized again, is laid out by the nested pass with no block more,
// the lifted conditional heading nothing (needsHeader).
func TestNestedLaysOutALiftedConditional(t *testing.T) {
	for name, f := range map[string]*Func{"switch": switchCase(), "chain": selectionChain(true)} {
		lift(f, nil)
		layout(f)
		g := outputGraph(f)
		res, err := Structurize(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Stats.PassesUsed, []string{"nested"}) || res.Stats.BlocksOut > g.Len()+1 {
			t.Errorf("%s: structurized again: passes %v, %d blocks out for %d in", name, res.Stats.PassesUsed, res.Stats.BlocksOut, g.Len())
		}
		headers := 0
		for _, b := range res.Func.Blocks {
			if b.Merge.Kind == SelectionMerge {
				headers++
			}
		}
		if headers != 1 {
			t.Errorf("%s: structurized again with %d selection headers, want 1 (the lifted conditionals head nothing)", name, headers)
		}
	}
}

// TestWriteLiftSet writes, when LIFT_SET names a file, 300 random
// reducible graphs of 20-79 blocks (seed 77) that the lift pass changes,
// one per line: the set the gpu check runs on real drivers
// (BENCHMARKS.md).
func TestWriteLiftSet(t *testing.T) {
	path := os.Getenv("LIFT_SET")
	if path == "" {
		t.Skip("LIFT_SET=FILE writes the set")
	}
	r := loggedRand(t, 77)
	var out strings.Builder
	for k := 0; k < 300; {
		g := randomReducible(r, 20+r.IntN(60))
		res, err := Structurize(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(res.Stats.PassesUsed, "lift") {
			fmt.Fprintln(&out, g)
			k++
		}
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
