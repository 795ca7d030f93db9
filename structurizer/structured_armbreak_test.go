// structured_armbreak_test.go: the arm-break pass (structured_armbreak.go)
// on hand-made functions where it must and must not merge a conditional at
// its arm, and on random graphs against the runs of the function before it
// and the self-check.
package structurizer

import "testing"

// breakFunc is P (block 1) heading a construct of merge M (block 7), with
// X (block 2) in its first target choosing between T (block 3) and A
// (block 4), both going to X's synthetic merge E (block 5), which goes on
// to M; block 6 is P's other target, going to M. P is a switch (P of
// kind "switch"), a conditional ("selection"), or a switch whose other
// case returns, so that one case alone reaches its merge ("one-case
// switch").
func breakFunc(kind string) *Func {
	p := Block{Kind: Original, Orig: 0, Name: "p", Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 7},
		Term: Term{Kind: Choose, To: []int{2, 7, 6}}}
	six := Block{Kind: Original, Orig: 3, Term: branchTo(7)}
	switch kind {
	case "selection":
		p = choose2("p", Merge{Kind: SelectionMerge, Merge: 7}, 2, 6)
	case "one-case switch":
		p.Term.To = []int{2, 6, 6}
		six.Term = Term{Kind: Return}
	}
	return &Func{Vars: []Var{{Name: "v"}}, Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		p,
		choose2("x", Merge{Kind: SelectionMerge, Merge: 5}, 3, 4),
		{Kind: Original, Orig: 1, Term: branchTo(5)},
		{Kind: Original, Orig: 2, Term: branchTo(5)},
		synBlock("exit", Merge{}, branchTo(7)),
		six,
		{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
	}}
}

func TestArmBreakHandMade(t *testing.T) {
	for _, c := range []struct {
		name  string
		f     *Func
		moves bool
	}{
		{"in a switch", breakFunc("switch"), true},
		{"in a selection", breakFunc("selection"), false},
		{"in a switch whose merge one case alone reaches", breakFunc("one-case switch"), false},
	} {
		if err := c.f.Validate(); err != nil {
			t.Fatalf("%s: malformed: %v", c.name, err)
		}
		layout(c.f)
		if err := SelfCheck(c.f); err != nil {
			t.Fatalf("%s: before the pass: %v", c.name, err)
		}
		before := copyFunc(c.f)
		if _, got := armBreaks(c.f, nil, nil); got != c.moves {
			t.Errorf("%s: merged at an arm %v, want %v", c.name, got, c.moves)
		}
		layout(c.f)
		if err := SelfCheck(c.f); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.moves && named(c.f, "exit") != 0 {
			t.Errorf("%s: the forwarding merge is left: %+v", c.name, c.f.Blocks)
		}
		runsSame(t, before, c.f, []uint32{0, 0}, []uint32{0, 1}, []uint32{1, 0}, []uint32{2, 0})
	}
}

// TestArmBreakKeepsRuns runs the arm-break pass after the arm-merge pass on
// random graphs and compares runs; the result passes the self-check, and
// some merges went.
func TestArmBreakKeepsRuns(t *testing.T) {
	passDropsMerges(t, 45, "armmerge", "arm-break", func(f *Func) bool {
		_, changed := armBreaks(f, nil, nil)
		return changed
	})
}
