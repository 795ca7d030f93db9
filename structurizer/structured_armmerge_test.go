// structured_armmerge_test.go: the arm-merge pass (structured_armmerge.go)
// on hand-made functions where it must and must not merge a conditional
// at its arm, on a graph whose nested conditionals return on one arm, and
// on random graphs against the runs of the function before it and the
// self-check.
package structurizer

import (
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// armFunc is X (block 1) choosing between T (block 2) and A (block 3),
// X merging at the synthetic E (block 4) that goes on to M (block 5):
// t and a are T's and A's terminators.
func armFunc(t, a Term) *Func {
	return &Func{Vars: []Var{{Name: "v"}}, Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		choose2("x", Merge{Kind: SelectionMerge, Merge: 4}, 2, 3),
		{Kind: Original, Orig: 1, Term: t},
		{Kind: Original, Orig: 2, Term: a},
		synBlock("exit", Merge{}, branchTo(5)),
		{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
	}}
}

func TestArmMergeHandMade(t *testing.T) {
	ret := Term{Kind: Return}
	for _, c := range []struct {
		name  string
		f     *Func
		moves bool
	}{
		{"one arm returns", armFunc(branchTo(4), ret), true},
		{"both arms reach the merge", armFunc(branchTo(4), branchTo(4)), false},
		{"the arm is entered twice", armFunc(branchTo(4), branchTo(2)), false},
		{"the arm's conditional goes back into the construct", armFunc(Term{Kind: Test, Var: 0, Values: []uint32{1}, To: []int{4, 3}}, ret), false},
	} {
		if err := c.f.Validate(); err != nil {
			t.Fatalf("%s: malformed: %v", c.name, err)
		}
		before := copyFunc(c.f)
		if got := armMerges(c.f, nil, nil); got != c.moves {
			t.Errorf("%s: merged at the arm %v, want %v", c.name, got, c.moves)
		}
		if c.moves && (c.f.Blocks[1].Merge.Merge != 2 || c.f.Blocks[2].Term.To[0] != 5) {
			t.Errorf("%s: want block 1 merging at block 2 and block 2 going to block 5: %+v", c.name, c.f.Blocks)
		}
		layout(c.f)
		if err := SelfCheck(c.f); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		runsSame(t, before, c.f, []uint32{0}, []uint32{1})
	}
}

// TestArmMergeNestedReturns: blocks 1 and 2 each return on one arm
// (cloned return blocks); block 1's merge then is block 2, and one
// forwarding merge goes.
func TestArmMergeNestedReturns(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 3}, {2, 5}, {3, 5}, {5, 4}, {5}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f := funcAfter(t, g, "lift")
	if f == nil {
		t.Fatalf("%v: the nested pass laid it out", g)
	}
	layout(f)
	before := copyFunc(f)
	if !armMerges(f, nil, nil) {
		t.Fatalf("%v: no conditional merged at its arm: %+v", g, f.Blocks)
	}
	layout(f)
	if err := SelfCheck(f); err != nil {
		t.Fatal(err)
	}
	if named(f, "exit") != named(before, "exit")-1 {
		t.Errorf("%v: %d forwarding merges, %d before", g, named(f, "exit"), named(before, "exit"))
	}
	runsSame(t, before, f, []uint32{0, 0, 0}, []uint32{0, 1, 0}, []uint32{1, 1, 1}, []uint32{1, 0, 0})
}

// TestArmMergeKeepsRuns merges the lift pass's conditionals at their arms
// on random graphs and compares runs; the result passes the self-check,
// and some merges went.
func TestArmMergeKeepsRuns(t *testing.T) {
	passDropsMerges(t, 44, "lift", "arm-merge", func(f *Func) bool { return armMerges(f, nil, nil) })
}

// passDropsMerges runs pass on the Func of 3,000 random graphs laid out up
// to and including pass after (seed logged), comparing the runs before and
// after wherever it rewrites; the result passes the self-check, and some
// blocks went.
func passDropsMerges(t *testing.T, seed uint64, after, name string, pass func(*Func) bool) {
	t.Helper()
	r := loggedRand(t, seed)
	moved := 0
	for i := range 3000 {
		g := mixedGraph(r, i, 2, 10, 60)
		f := funcAfter(t, g, after)
		if f == nil {
			continue
		}
		layout(f)
		before := copyFunc(f)
		if !pass(f) {
			continue
		}
		passKeepsRuns(t, r, g, name, before, f)
		moved += len(before.Blocks) - len(f.Blocks)
	}
	t.Logf("%d forwarding merges dropped", moved)
	if moved == 0 {
		t.Fatalf("the %s pass dropped no merge", name)
	}
}

// TestArmMergeGuards: the forwarding merge's stores move to the block
// that went to it, and a chain through a block some loop names as its
// continue target is not taken (the arm would hold a latch).
func TestArmMergeGuards(t *testing.T) {
	f := armFunc(branchTo(4), Term{Kind: Return})
	f.Blocks[4].Stores = []Store{{Var: 0, Value: 3}}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	if !armMerges(f, nil, nil) {
		t.Fatalf("no merge at the arm: %+v", f.Blocks)
	}
	if want := []Store{{Var: 0, Value: 3}}; !reflect.DeepEqual(f.Blocks[2].Stores, want) {
		t.Errorf("the arm's last block stores %+v, want the dropped merge's %+v", f.Blocks[2].Stores, want)
	}

	g := armFunc(branchTo(4), Term{Kind: Return})
	g.Blocks[0].Merge = Merge{Kind: LoopMerge, Merge: 5, Continue: 2}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	if armMerges(g, nil, nil) {
		t.Errorf("merged at an arm whose chain holds a continue target: %+v", g.Blocks)
	}
}
