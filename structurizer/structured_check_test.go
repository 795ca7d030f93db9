// structured_check_test.go: the self-check (structured_check.go) against
// known answers: every dispatch loop and every clean structured result
// passes it; the structural faults (a merge at the continue target, a
// dropped merge, a break to the outer merge) are rejected with their rule;
// the construct intervals against the walk that defines them; the
// declarers and edge counts of the fused sweeps against declarers and
// predCounts.
package structurizer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestSelfCheckAcceptsDispatch(t *testing.T) {
	r := loggedRand(t, 11)
	for i := range 500 {
		g := randomGraph(r, 1+r.IntN(10))
		res, err := Structurize(g, Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatal(err)
		}
		if err := SelfCheck(res.Func); err != nil {
			t.Fatalf("graph %d %v: dispatch loop rejected: %v", i, g, err)
		}
	}
}

func TestSelfCheckRejectsStructuralFaults(t *testing.T) {
	want := map[string][]string{
		"merge-at-continue":   {"R2", "R1", "R8", "R6", "R10"},
		"drop-merge":          {"R12", "R6", "R10"},
		"exit-to-outer-merge": {"R6", "R10", "R8", "R9"},
	}
	const seed = 12
	t.Logf("seed %d", seed)
	for fault, rules := range want {
		r := rand.New(rand.NewPCG(seed, 0))
		caught := 0
		for range 3000 {
			g := randomReducible(r, 3+r.IntN(10))
			res, err := Structurize(g, Options{Strategy: "structured", Inject: []string{fault}})
			if err != nil {
				t.Fatal(err)
			}
			var re *RuleError
			if err := SelfCheck(res.Func); errors.As(err, &re) {
				ok := false
				for _, rule := range rules {
					ok = ok || re.Rule == rule
				}
				if !ok {
					t.Errorf("%s on %v: rejected for %v, want one of %v", fault, g, err, rules)
				}
				caught++
			}
		}
		if caught == 0 {
			t.Errorf("%s: never rejected in 3000 graphs", fault)
		}
		t.Logf("%s: rejected %d of 3000", fault, caught)
	}
}

// synBlock is a synthetic block named name, for hand-made functions.
func synBlock(name string, m Merge, t Term) Block {
	return Block{Kind: Synthetic, Orig: -1, Name: name, Merge: m, Term: t}
}

// branchTo is an unconditional branch to block to.
func branchTo(to int) Term { return Term{Kind: Branch, To: []int{to}} }

// passKeepsRuns lays out f, which pass made of before (graph g), and
// checks that it passes the self-check and runs as before did on 20
// random decision strings drawn from r.
func passKeepsRuns(t *testing.T, r *rand.Rand, g fmt.Stringer, pass string, before, f *Func) {
	t.Helper()
	layout(f)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("graph %v: after the %s pass: %v\nbefore %+v\nafter %+v", g, pass, err, before, f)
	}
	for range 20 {
		dec := randomDecisions(r)
		want, got := Simulate(before, dec, 2000), Simulate(f, dec, 2000)
		if !sameRun(want, got) || want.Returned != got.Returned {
			t.Fatalf("graph %v decisions %v: before %+v, after %+v", g, dec, want, got)
		}
	}
}

// runsSame checks that f runs as before did on each decision string.
func runsSame(t *testing.T, before, f *Func, decisions ...[]uint32) {
	t.Helper()
	for _, dec := range decisions {
		if a, b := Simulate(before, dec, 100), Simulate(f, dec, 100); !sameRun(a, b) {
			t.Errorf("decisions %v: %+v before, %+v after", dec, a, b)
		}
	}
}

func TestSelfCheckRejectsHandMadeViolations(t *testing.T) {
	syn := func(m Merge, t Term) Block { return synBlock("", m, t) }
	br := branchTo
	test := func(a, b int) Term { return Term{Kind: Test, Var: 0, Values: []uint32{1}, To: []int{a, b}} }
	cases := []struct {
		name string
		f    Func
		rule string
	}{
		{"branch to entry", Func{Blocks: []Block{syn(Merge{}, br(1)), syn(Merge{}, br(0))}}, "R14"},
		{"conditional without merge", Func{Vars: []Var{{}}, Blocks: []Block{
			syn(Merge{}, test(1, 2)), syn(Merge{}, Term{Kind: Return}), syn(Merge{}, Term{Kind: Return})}}, "R12"},
		{"two headers one merge", Func{Vars: []Var{{}}, Blocks: []Block{
			syn(Merge{Kind: SelectionMerge, Merge: 3}, test(1, 2)),
			syn(Merge{Kind: SelectionMerge, Merge: 3}, test(3, 2)),
			syn(Merge{}, br(3)), syn(Merge{}, Term{Kind: Return})}}, "R1"},
		{"back edge to a non-header", Func{Vars: []Var{{}}, Blocks: []Block{
			syn(Merge{}, br(1)), syn(Merge{}, br(2)), syn(Merge{}, br(1))}}, "R3"},
	}
	for _, c := range cases {
		if err := c.f.Validate(); err != nil {
			t.Fatalf("%s: malformed: %v", c.name, err)
		}
		var re *RuleError
		err := SelfCheck(&c.f)
		if !errors.As(err, &re) || re.Rule != c.rule {
			t.Errorf("%s: got %v, want %s", c.name, err, c.rule)
		}
	}
}

// TestNumberConstructsMatchesWalk: the construct intervals from subtree
// sizes (numberConstructs) against the depth-first walk's, on seeded
// random construct trees (parents before children).
func TestNumberConstructsMatchesWalk(t *testing.T) {
	r := loggedRand(t, 13)
	for i := range 3000 {
		m := r.IntN(30)
		cs, ref := make([]construct, m), make([]construct, m)
		for c := range cs {
			cs[c].parent = r.IntN(c+1) - 1 // -1 (the function) or an earlier construct
			ref[c] = cs[c]
		}
		numberConstructs(cs)
		numberConstructsByWalk(ref)
		for c := range cs {
			if cs[c].pre != ref[c].pre || cs[c].post != ref[c].post {
				t.Fatalf("tree %d, construct %d: interval [%d, %d], walk [%d, %d]", i, c, cs[c].pre, cs[c].post, ref[c].pre, ref[c].post)
			}
		}
	}
}

// TestOneCaseMergesSkipsDroppedBlocks: a switch (block 1) whose merge
// (block 5) one case (block 3) reaches, the other case returning, is
// merged by that case alone, also where a block nothing reaches (block 2,
// a merge a pass dropped, which keeps its edge until the layout) still
// branches to the merge ahead of the case.
func TestOneCaseMergesSkipsDroppedBlocks(t *testing.T) {
	f := &Func{Blocks: []Block{
		synBlock("entry", Merge{}, branchTo(1)),
		{Kind: Original, Orig: 0, Name: "w", Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 5},
			Term: Term{Kind: Choose, To: []int{3, 4, 4}}},
		synBlock("exit", Merge{}, branchTo(5)),
		{Kind: Original, Orig: 1, Term: branchTo(5)},
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
		{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
	}}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	facts, err := constructFactsOf(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range facts.cs {
		if c.kind == cSwitch && !oneCaseMerges(f, c, facts.dom, facts.preds) {
			t.Errorf("switch at block %d: its merge's edge from block 2, which nothing reaches, counts", c.header)
		}
	}
}

// TestSweepsMatchDeclarers: the declarers funcGraphs fills in its sweep
// (for constructFactsOf) and declarersAndPreds's are declarers's, and the
// latter's counts predCounts's, after every pass of the pass table on
// arbitrary graphs, and on a function whose headers name one merge twice
// (the last header wins).
func TestSweepsMatchDeclarers(t *testing.T) {
	syn, br := synBlock, branchTo
	clash := &Func{Blocks: []Block{
		syn("a", Merge{Kind: SelectionMerge, Merge: 3}, Term{Kind: Test, Values: []uint32{0}, To: []int{1, 2}}),
		syn("b", Merge{Kind: LoopMerge, Merge: 3, Continue: 2}, br(2)),
		syn("c", Merge{Kind: LoopMerge, Merge: 0, Continue: 2}, br(3)),
		syn("d", Merge{}, Term{Kind: Return}),
	}}
	if err := sweepsMatch(clash); err != nil {
		t.Fatalf("clashing declarations: %v", err)
	}
	r := loggedRand(t, 20261208)
	for i := range 1500 {
		g := randomGraph(r, 1+r.IntN(30))
		var bad error
		hooks := &Hooks{AfterPass: func(pass string, f *Func) {
			if f != nil && bad == nil {
				if err := sweepsMatch(f); err != nil {
					bad = fmt.Errorf("after %s: %v", pass, err)
				}
			}
		}}
		if _, err := Structurize(g, Options{Strategy: "structured", Hooks: hooks}); err != nil {
			t.Fatal(err)
		}
		if bad != nil {
			t.Fatalf("graph %d %v: %v", i, g.Succs, bad)
		}
	}
}

// sweepsMatch compares the declarers and predecessor counts of f's fused
// sweeps with declarers and predCounts.
func sweepsMatch(f *Func) error {
	mergeOf, contOf := declarers(f)
	n := len(f.Blocks)
	m2, c2 := make([]int, n), make([]int, n)
	for b := range n {
		m2[b], c2[b] = -1, -1
	}
	var branch, structural cfg.Graph
	funcGraphs(f, &branch, &structural, m2, c2, nil, nil)
	if !slices.Equal(mergeOf, m2) || !slices.Equal(contOf, c2) {
		return fmt.Errorf("funcGraphs: declarers %v %v, want %v %v", m2, c2, mergeOf, contOf)
	}
	m3, c3, p3 := declarersAndPreds(f)
	if !slices.Equal(mergeOf, m3) || !slices.Equal(contOf, c3) || !slices.Equal(predCounts(f), p3) {
		return fmt.Errorf("declarersAndPreds: %v %v %v, want %v %v %v", m3, c3, p3, mergeOf, contOf, predCounts(f))
	}
	return nil
}

// TestFactsRoomArraysOfAnyContents: construct facts, declarers with
// edge counts and the self-check whose per-block arrays come from a
// factsRoom holding arrays of arbitrary contents (garbage, then recycled
// facts) are those computed on fresh arrays, and take the room's arrays.
func TestFactsRoomArraysOfAnyContents(t *testing.T) {
	r := loggedRand(t, 5)
	for i := range 40 {
		g := shapes[i%len(shapes)].make(r, 20+r.IntN(400))
		res, err := Structurize(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		f := res.Func
		want, err := constructFactsOf(f, nil)
		if err != nil {
			t.Fatalf("graph %d: %v", i, err)
		}
		var room factsRoom
		for range 4 {
			a := make([]int, 3*len(f.Blocks)+1+r.IntN(50))
			for j := range a {
				a[j] = r.IntN(7) - 3
			}
			room.give(a)
			lists := make([][]int, len(f.Blocks)+r.IntN(50))
			for j := range lists {
				lists[j] = a[:r.IntN(3)]
			}
			room.giveLists(lists)
		}
		got, err := constructFactsOf(f, &room)
		if err != nil {
			t.Fatalf("graph %d: from the room: %v", i, err)
		}
		if len(room.ints) != 2 { // of 4: mergeOf and contOf's and the walk's taken, the child lists' given back
			t.Errorf("graph %d: %d arrays left in the room, want 2", i, len(room.ints))
		}
		if !slices.Equal(got.mergeOf, want.mergeOf) || !slices.Equal(got.contOf, want.contOf) ||
			!slices.Equal(got.inner, want.inner) || !slices.Equal(got.cs, want.cs) ||
			!slices.EqualFunc(got.preds, want.preds, slices.Equal) {
			t.Fatalf("graph %d: facts from the room differ from fresh ones", i)
		}
		wm, wc, wp := declarersAndPreds(f)
		gm, gc, gp, _ := declarersPredsAndConds(f, room.take(3*len(f.Blocks)))
		if !slices.Equal(gm, wm) || !slices.Equal(gc, wc) || !slices.Equal(gp, wp) {
			t.Fatalf("graph %d: declarers and counts from the room differ from fresh ones", i)
		}
		got.recycle(&room)
		if err := selfCheck(&funcFacts{f: f, room: &room}); err != nil {
			t.Fatalf("graph %d: self-check from the room: %v", i, err)
		}
	}
}
