// structured_fold_test.go: the fold pass against its obvious references.
// The propagation's sets are checked against the values runs observe
// (Simulate on random decisions: every value seen on entry to a block lies
// in its set), and the folded function against the emitter's (the same
// runs, fewer blocks), on random graphs of every kind.
package structurizer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// emitted returns the Func the selections pass builds for g, before any
// later pass rewrites it.
func emitted(t *testing.T, g *cfg.Graph) *Func { return funcAfter(t, g, "selections") }

// funcAfter returns a copy of the Func pass leaves for g the first time
// it runs (a pass of the arms group runs once per round), nil when the
// pass table did not run (the nested pass laid g out).
func funcAfter(t *testing.T, g *cfg.Graph, pass string) *Func {
	t.Helper()
	var f *Func
	opt := Options{Strategy: "structured", Hooks: &Hooks{AfterPass: func(p string, got *Func) {
		if p == pass && f == nil {
			f = copyFunc(got)
		}
	}}}
	if _, err := Structurize(g, opt); err != nil {
		t.Fatalf("graph %v: %v", g, err)
	}
	return f
}

// copyFunc is a deep copy of f's blocks and variables.
func copyFunc(f *Func) *Func {
	c := &Func{Vars: append([]Var(nil), f.Vars...), Blocks: make([]Block, len(f.Blocks))}
	for i, b := range f.Blocks {
		b.Stores = append([]Store(nil), b.Stores...)
		b.Term.To = append([]int(nil), b.Term.To...)
		b.Term.Values = append([]uint32(nil), b.Term.Values...)
		c.Blocks[i] = b
	}
	return c
}

// observe runs f on dec and reports the first value of a variable on entry
// to a block that vv leaves out, "" when every value lies in its set.
func observe(f *Func, vv *varValues, dec []uint32, maxSteps int) string {
	vars := make([]uint32, len(f.Vars))
	for i, v := range f.Vars {
		vars[i] = v.Init
	}
	b, consumed := 0, 0
	for range maxSteps {
		for x, v := range vars {
			if !vv.entry(b)[x].has(v) {
				return fmt.Sprintf("block %d: variable %d holds %d, outside %v", b, x, v, vv.entry(b)[x])
			}
		}
		blk := &f.Blocks[b]
		choice := 0
		if blk.Arity >= 2 {
			var d uint32
			if consumed < len(dec) {
				d = dec[consumed]
			}
			consumed++
			choice = cfg.Choice(blk.Arity, d)
		}
		for _, s := range blk.Stores {
			vars[s.Var] = s.Value
			if s.PerChoice != nil {
				vars[s.Var] = s.PerChoice[choice]
			}
		}
		t := blk.Term
		switch t.Kind {
		case Return, Unreachable:
			return ""
		case Branch:
			b = t.To[0]
		case Choose:
			b = t.To[choice]
		case Test:
			b = t.To[1]
			if vars[t.Var] == t.Values[0] {
				b = t.To[0]
			}
		case Route:
			b = t.To[0]
			for i, v := range t.Values {
				if vars[t.Var] == v {
					b = t.To[i+1]
					break
				}
			}
		}
	}
	return ""
}

func randomDecisions(r *rand.Rand) []uint32 {
	dec := make([]uint32, 60)
	for k := range dec {
		dec[k] = uint32(r.IntN(5))
	}
	return dec
}

// TestPropagateHoldsOnRuns: every value a run of the emitter's function
// meets on entry to a block is in the set propagate gives it.
func TestPropagateHoldsOnRuns(t *testing.T) {
	r := loggedRand(t, 31)
	sets := 0
	for i := range 1500 {
		g := mixedGraph(r, i, 3, 10, 40)
		f := emitted(t, g)
		if f == nil || len(f.Vars) == 0 {
			continue
		}
		vv := propagate(f)
		for _, k := range vv.at {
			if k.n > 0 {
				sets++
			}
		}
		for range 20 {
			if bad := observe(f, vv, randomDecisions(r), 400); bad != "" {
				t.Fatalf("graph %v: %s\nfunc %+v", g, bad, f)
			}
		}
	}
	if sets == 0 {
		t.Fatal("no block had a known set: the propagation was not exercised")
	}
}

// TestFoldKeepsRuns folds the emitter's function and compares runs of the
// two, and counts the store blocks folded away and the conditionals whose
// labels met.
func TestFoldKeepsRuns(t *testing.T) {
	r := loggedRand(t, 32)
	folded, graphs, met := 0, 0, 0
	for i := range 1500 {
		g := mixedGraph(r, i, 3, 10, 40)
		f := emitted(t, g)
		if f == nil {
			continue
		}
		before := copyFunc(f)
		if !fold(f) {
			continue
		}
		graphs++
		if err := f.Validate(); err != nil {
			t.Fatalf("graph %v: folded function: %v", g, err)
		}
		folded += storeBlocksReached(before) - storeBlocksReached(f)
		for b := range f.Blocks {
			if before.Blocks[b].Term.Kind == Choose && f.Blocks[b].Term.Kind == Branch {
				met++ // a conditional whose labels met at the store block's target
			}
		}
		for range 20 {
			dec := randomDecisions(r)
			want, got := Simulate(before, dec, 2000), Simulate(f, dec, 2000)
			if !sameRun(want, got) || want.Returned != got.Returned {
				t.Fatalf("graph %v decisions %v: emitted %+v, folded %+v", g, dec, want, got)
			}
		}
	}
	t.Logf("%d functions folded, %d store blocks gone, %d conditionals became branches", graphs, folded, met)
	if folded == 0 || met == 0 {
		t.Fatal("fold removed no store block, or turned no conditional into a branch")
	}
}

// storeBlocksReached counts the synthetic blocks with stores that some
// branch reaches.
func storeBlocksReached(f *Func) int {
	reached := make([]bool, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, t := range b.Term.To {
			reached[t] = true
		}
	}
	n := 0
	for i, b := range f.Blocks {
		if reached[i] && b.Kind == Synthetic && len(b.Stores) > 0 && b.Merge.Kind == NoMerge {
			n++
		}
	}
	return n
}

// TestKnownSets pins the lattice's operations.
func TestKnownSets(t *testing.T) {
	a := one(1).union(one(2))
	if a.n != 2 || !a.has(1) || !a.has(2) || a.has(3) {
		t.Fatalf("{1} u {2} = %v", a)
	}
	full := a
	for v := uint32(3); v <= maxKnown; v++ {
		full = full.union(one(v))
	}
	if full.n != maxKnown {
		t.Fatalf("%d values: %v", maxKnown, full)
	}
	if over := full.union(one(99)); over != anyValue {
		t.Fatalf("%d values plus one = %v, want any", maxKnown, over)
	}
	if w := a.without([]uint32{1}); w != one(2) {
		t.Fatalf("{1,2} less 1 = %v", w)
	}
	if w := anyValue.without([]uint32{1}); w != anyValue {
		t.Fatalf("any less 1 = %v", w)
	}
	if o := a.only(3); o.n != 0 {
		t.Fatalf("{1,2} only 3 = %v, want empty", o)
	}
	if o := anyValue.only(3); o != one(3) {
		t.Fatalf("any only 3 = %v", o)
	}
}

// TestFoldLargeGraphs folds the emitter's functions of large random
// graphs, where loops leave for several destinations from several blocks
// (store blocks that more than one edge enters), and compares long runs.
func TestFoldLargeGraphs(t *testing.T) {
	r := loggedRand(t, 33)
	shared := 0
	for range 12 {
		g := randomReducible(r, 100+r.IntN(1400))
		f := emitted(t, g)
		edges := make([]int, len(f.Blocks))
		for _, b := range f.Blocks {
			for _, to := range b.Term.To {
				edges[to]++
			}
		}
		for s, b := range f.Blocks {
			if storeBlock(&b, s) && len(b.Stores) > 0 && edges[s] >= 2 {
				shared++
			}
		}
		before := copyFunc(f)
		fold(f)
		for range 200 {
			dec := make([]uint32, 400)
			for k := range dec {
				dec[k] = uint32(r.IntN(5))
			}
			want, got := Simulate(before, dec, 20000), Simulate(f, dec, 20000)
			if !sameRun(want, got) || want.Returned != got.Returned {
				t.Fatalf("graph %v decisions %v: emitted and folded runs differ", g, dec)
			}
		}
	}
	if shared == 0 {
		t.Fatal("no store block had two entering edges: the graphs do not exercise the edge count")
	}
	t.Logf("%d store blocks with two or more entering edges", shared)
}

// TestFoldPerChoiceAfterOwnStores: a conditional that stores its variable
// itself leaves that value, not the entry's, on the arm without the store
// block.
func TestFoldPerChoiceAfterOwnStores(t *testing.T) {
	// 0 stores skip = 5 and goes to 1; 1 clears skip and chooses 2
	// (skip = 7, then 3) or 6 (then 3); 3 tests skip.
	f := &Func{
		Vars: []Var{{Name: "skip"}},
		Blocks: []Block{
			{Kind: Synthetic, Orig: -1, Stores: []Store{{Var: 0, Value: 5}}, Term: Term{Kind: Branch, To: []int{1}}},
			{Kind: Original, Orig: 0, Arity: 2, Stores: []Store{{Var: 0, Value: 0}}, Merge: Merge{Kind: SelectionMerge, Merge: 3}, Term: Term{Kind: Choose, To: []int{2, 6}}},
			{Kind: Synthetic, Orig: -1, Stores: []Store{{Var: 0, Value: 7}}, Term: Term{Kind: Branch, To: []int{3}}},
			{Kind: Synthetic, Orig: -1, Term: Term{Kind: Test, Var: 0, Values: []uint32{7}, To: []int{4, 5}}},
			{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
			{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
			{Kind: Original, Orig: 3, Term: Term{Kind: Branch, To: []int{3}}},
		},
	}
	if !fold(f) {
		t.Fatal("nothing folded")
	}
	want := []Store{{Var: 0, PerChoice: []uint32{7, 0}}}
	if got := f.Blocks[1].Stores; !slices.EqualFunc(got, want, func(a, b Store) bool {
		return a.Var == b.Var && a.Value == b.Value && slices.Equal(a.PerChoice, b.PerChoice)
	}) || f.Blocks[1].Term.To[0] != 3 {
		t.Fatalf("block 1: stores %+v, targets %v; want stores %+v, targets [3 6]", got, f.Blocks[1].Term.To, want)
	}
}

// TestFoldKeepsSharedStoreBlocks: a store block two edges enter keeps its
// stores (the emitter makes such blocks only behind switches and routes,
// so the campaign cannot tell; this function can).
func TestFoldKeepsSharedStoreBlocks(t *testing.T) {
	// 0 chooses 1 or 2 and merges at 4; 1 and 2 both branch to the store
	// block 3, which goes to 4; 4 tests the variable.
	f := &Func{
		Vars: []Var{{Name: "route"}},
		Blocks: []Block{
			{Kind: Original, Orig: 0, Arity: 2, Merge: Merge{Kind: SelectionMerge, Merge: 4}, Term: Term{Kind: Choose, To: []int{1, 2}}},
			{Kind: Original, Orig: 1, Term: Term{Kind: Branch, To: []int{3}}},
			{Kind: Original, Orig: 2, Term: Term{Kind: Branch, To: []int{3}}},
			{Kind: Synthetic, Orig: -1, Stores: []Store{{Var: 0, Value: 9}}, Term: Term{Kind: Branch, To: []int{4}}},
			{Kind: Synthetic, Orig: -1, Term: Term{Kind: Test, Var: 0, Values: []uint32{9}, To: []int{5, 6}}},
			{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
			{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
		},
	}
	before := copyFunc(f)
	fold(f)
	for d := range uint32(2) {
		if want, got := Simulate(before, []uint32{d}, 20), Simulate(f, []uint32{d}, 20); !sameRun(want, got) {
			t.Fatalf("decision %d: %+v before, %+v folded", d, want, got)
		}
	}
}

// TestFoldIntoSwitch: a switch takes its cases' store blocks as per-choice
// stores; a case whose store block goes on to the switch's merge goes
// there straight (R11 allows it), one whose store block leaves for another
// block keeps it as an empty forwarder (for the thread pass to share).
func TestFoldIntoSwitch(t *testing.T) {
	// 0 (a switch of arity 3, merging at 4): default to 1 (return), case 1
	// to the store block 2 (route = 8, then 4), case 2 to the store block
	// 3 (route = 9, then 5); 4 tests the route for 8; 5 and 6 return.
	f := &Func{
		Vars: []Var{{Name: "route"}},
		Blocks: []Block{
			{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 4}, Term: Term{Kind: Choose, To: []int{1, 2, 3}}},
			{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
			{Kind: Synthetic, Orig: -1, Stores: []Store{{Var: 0, Value: 8}}, Term: Term{Kind: Branch, To: []int{4}}},
			{Kind: Synthetic, Orig: -1, Stores: []Store{{Var: 0, Value: 9}}, Term: Term{Kind: Branch, To: []int{5}}},
			{Kind: Synthetic, Orig: -1, Term: Term{Kind: Test, Var: 0, Values: []uint32{8}, To: []int{6, 7}}},
			{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
			{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
			{Kind: Original, Orig: 4, Term: Term{Kind: Return}},
		},
	}
	before := copyFunc(f)
	if !fold(f) {
		t.Fatal("nothing folded")
	}
	if got, want := f.Blocks[0].Term.To, []int{1, 4, 3}; !slices.Equal(got, want) {
		t.Fatalf("switch targets %v, want %v", got, want)
	}
	if got := f.Blocks[0].Stores; len(got) != 1 || !slices.Equal(got[0].PerChoice, []uint32{0, 8, 9}) {
		t.Fatalf("switch stores %+v, want one per-choice store [0 8 9]", got)
	}
	if len(f.Blocks[3].Stores) != 0 {
		t.Fatalf("store block 3 keeps %+v", f.Blocks[3].Stores)
	}
	for d := range uint32(4) {
		if want, got := Simulate(before, []uint32{d}, 20), Simulate(f, []uint32{d}, 20); !sameRun(want, got) {
			t.Fatalf("decision %d: %+v before, %+v folded", d, want, got)
		}
	}
}

// switchMergingAtStore is a loop whose body is an original switch (block
// 2) merging at the store block 3 that its case 2 enters: it stores the
// route value 9 and leaves for the loop's merge 6, which routes on it. Case
// 1 leaves for the same merge through the empty forwarder 7 (R11), case 0
// continues the loop. With stored false, the switch already stores by
// choice and block 3 is empty.
func switchMergingAtStore(stored bool) *Func {
	syn, br := synBlock, branchTo
	f := &Func{Vars: []Var{{Name: "route"}}, Blocks: []Block{
		syn("entry", Merge{}, br(1)),
		syn("loop", Merge{Kind: LoopMerge, Merge: 6, Continue: 5}, br(2)),
		{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 3},
			Term: Term{Kind: Choose, To: []int{4, 7, 3}}},
		syn("exit.store", Merge{}, br(6)),
		{Kind: Original, Orig: 1, Term: branchTo(5)},
		syn("latch", Merge{}, br(1)),
		syn("merge", Merge{Kind: SelectionMerge, Merge: 10}, Term{Kind: Test, Var: 0, Values: []uint32{9}, To: []int{8, 9}}),
		syn("fwd", Merge{}, br(6)),
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
		{Kind: Original, Orig: 3, Term: Term{Kind: Return}},
		syn("exit", Merge{}, Term{Kind: Unreachable}),
	}}
	f.Blocks[1].Stores = []Store{{Var: 0, Value: 0}}
	if stored {
		f.Blocks[3].Stores = []Store{{Var: 0, Value: 9}}
	} else {
		f.Blocks[2].Stores = []Store{{Var: 0, PerChoice: []uint32{0, 0, 9}}}
	}
	return f
}

// switchRuns are decisions that take each case of switchMergingAtStore's
// switch, after a turn of the loop and without.
var switchRuns = [][]uint32{{0, 1}, {1}, {2}, {0, 0, 2}, {3, 2}}

// TestFoldMovesAMergesStoresIntoItsHeader: the store block a switch merges
// at gives its stores to the switch, by choice, and stays its merge.
func TestFoldMovesAMergesStoresIntoItsHeader(t *testing.T) {
	f := switchMergingAtStore(true)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !fold(f) {
		t.Fatal("fold changed nothing")
	}
	if len(f.Blocks[3].Stores) != 0 || f.Blocks[2].Merge.Merge != 3 {
		t.Fatalf("merge 3 keeps stores %v (header 2 merging at %d), want none", f.Blocks[3].Stores, f.Blocks[2].Merge.Merge)
	}
	want := []Store{{Var: 0, PerChoice: []uint32{0, 0, 9}}}
	if got := f.Blocks[2].Stores; len(got) != 1 || got[0].Var != 0 || !slices.Equal(got[0].PerChoice, want[0].PerChoice) {
		t.Fatalf("switch stores %v, want %v", got, want)
	}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after fold: %v", err)
	}
	runsSame(t, before, f, switchRuns...)
}
