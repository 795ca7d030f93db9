// structured_thread_test.go: the thread pass on hand-made functions: a
// switch's forwarders to one block shared, the rules kept and every run the
// same; and no two blocks sharing a target list, which its edge counts
// rely on.
package structurizer

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// switchInLoop is a loop whose body is a switch: case 2 leaves the loop, and
// the default and case 1 continue it through forwarders of their own (R11
// forbids a case straight to the loop's continue target). With order set,
// the switch lists its cases in that order.
func switchInLoop(order []int) *Func {
	syn, br := synBlock, branchTo
	return &Func{Blocks: []Block{
		syn("entry", Merge{}, br(1)),
		syn("loop", Merge{Kind: LoopMerge, Merge: 8, Continue: 6}, br(2)),
		{Kind: Original, Orig: 0, Arity: 3, Merge: Merge{Kind: SelectionMerge, Merge: 5},
			Term: Term{Kind: Choose, To: []int{3, 4, 7}, Order: order}},
		syn("fwd", Merge{}, br(6)),
		syn("fwd", Merge{}, br(6)),
		syn("merge", Merge{}, Term{Kind: Unreachable}),
		syn("latch", Merge{}, br(1)),
		{Kind: Original, Orig: 2, Term: Term{Kind: Branch, To: []int{8}}},
		{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
	}}
}

func TestThreadSharesASwitchsForwarders(t *testing.T) {
	f := switchInLoop(nil)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !thread(f) {
		t.Fatal("thread changed nothing")
	}
	if got := f.Blocks[2].Term.To; !slices.Equal(got, []int{3, 3, 7}) {
		t.Fatalf("switch targets %v, want [3 3 7] (both cases through the first forwarder)", got)
	}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after thread: %v", err)
	}
	runsSame(t, before, f, []uint32{0, 2}, []uint32{1, 1, 0, 2}, []uint32{2, 1, 2, 0, 2})
}

func TestThreadKeepsASwitchsOwnCaseOrder(t *testing.T) {
	f := switchInLoop([]int{2, 1})
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	thread(f)
	if got := f.Blocks[2].Term.To; !slices.Equal(got, []int{3, 4, 7}) {
		t.Fatalf("switch targets %v, want [3 4 7]: a switch with its own order keeps its cases", got)
	}
}

// guardChain is a switch whose joins run under two chained guards: 0
// chooses 1 (route = 5, to the first guard 3) or 2 (route = 6, also to 3);
// guard 3 runs join 4 on 0 or 5, else goes on to guard 5, which runs join 6
// on 0 or 6, else goes on to 7; the joins return.
func guardChain() *Func {
	syn := func(m Merge, t Term) Block { return synBlock("", m, t) }
	route := func(def int, vals []uint32, to ...int) Term {
		return Term{Kind: Route, Var: 0, Values: vals, To: append([]int{def}, to...)}
	}
	return &Func{Vars: []Var{{Name: "route"}}, Blocks: []Block{
		{Kind: Original, Orig: 0, Arity: 2, Merge: Merge{Kind: SelectionMerge, Merge: 3}, Term: Term{Kind: Choose, To: []int{1, 2}}},
		syn(Merge{}, Term{Kind: Branch, To: []int{3}}),
		syn(Merge{}, Term{Kind: Branch, To: []int{3}}),
		syn(Merge{Kind: SelectionMerge, Merge: 5}, route(5, []uint32{0, 5}, 4, 4)),
		{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
		syn(Merge{Kind: SelectionMerge, Merge: 7}, route(7, []uint32{0, 6}, 6, 6)),
		{Kind: Original, Orig: 2, Term: Term{Kind: Return}},
		syn(Merge{}, Term{Kind: Unreachable}),
	}}
}

func TestThreadJoinsChainedGuards(t *testing.T) {
	f := guardChain()
	f.Blocks[1].Stores = []Store{{Var: 0, Value: 5}}
	f.Blocks[2].Stores = []Store{{Var: 0, Value: 6}}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !joinRoutes(f, predCounts(f)) {
		t.Fatal("the guards were not joined")
	}
	g := &f.Blocks[3]
	if g.Merge.Merge != 7 || !slices.Equal(g.Term.Values, []uint32{0, 5, 6}) || !slices.Equal(g.Term.To, []int{7, 4, 4, 6}) {
		t.Fatalf("joined guard: merge %d, values %v, targets %v; want merge 7, values [0 5 6], targets [7 4 4 6]", g.Merge.Merge, g.Term.Values, g.Term.To)
	}
	layout(f)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after joining: %v", err)
	}
	for d := range uint32(2) {
		if want, got := Simulate(before, []uint32{d}, 20), Simulate(f, []uint32{d}, 20); !sameRun(want, got) {
			t.Errorf("decision %d: %+v before, %+v after", d, want, got)
		}
	}
}

func TestThreadKeepsAGuardEnteredElsewhere(t *testing.T) {
	f := guardChain()
	f.Blocks[4].Term = Term{Kind: Branch, To: []int{5}} // join 4 goes on to the second guard
	if joinRoutes(f, predCounts(f)) {
		t.Fatalf("joined a guard that another block enters: %+v", f.Blocks[3].Term)
	}
}

// TestThreadSendsCasesToTheSwitchsEmptyMerge: a switch whose merge is an
// empty block forwarding to the loop's merge sends its other case that
// leaves for that block to its merge, not through a forwarder of its own.
func TestThreadSendsCasesToTheSwitchsEmptyMerge(t *testing.T) {
	f := switchMergingAtStore(false)
	if err := SelfCheck(f); err != nil {
		t.Fatalf("hand-made function: %v", err)
	}
	before := copyFunc(f)
	if !thread(f) {
		t.Fatal("thread changed nothing")
	}
	if got := f.Blocks[2].Term.To; !slices.Equal(got, []int{4, 3, 3}) {
		t.Fatalf("switch targets %v, want [4 3 3] (case 1 to the switch's merge)", got)
	}
	if err := SelfCheck(f); err != nil {
		t.Fatalf("after thread: %v", err)
	}
	runsSame(t, before, f, switchRuns...)
}

// TestTargetListsUnshared: after every pass of the pass table, no two
// blocks' target lists share memory, on arbitrary graphs of 1 to 40
// blocks. The thread pass counts the edges into each block as it
// bypasses forwarders, block by block (joinRoutes reads the counts):
// that is the count after the sweep only while retargeting one block's
// list leaves every other block's be.
func TestTargetListsUnshared(t *testing.T) {
	r := loggedRand(t, 20261207)
	for i := range 3000 {
		g := randomGraph(r, 1+r.IntN(40))
		var bad string
		hooks := &Hooks{AfterPass: func(pass string, f *Func) {
			if f != nil && bad == "" {
				if a, b, ok := sharedTargets(f); ok {
					bad = fmt.Sprintf("after %s: blocks %d and %d share target memory", pass, a, b)
				}
			}
		}}
		if _, err := Structurize(g, Options{Strategy: "structured", Hooks: hooks}); err != nil {
			t.Fatal(err)
		}
		if bad != "" {
			t.Fatalf("graph %d %v: %s", i, g.Succs, bad)
		}
	}
}

// sharedTargets returns two blocks of f whose target lists overlap in
// memory, if any.
func sharedTargets(f *Func) (a, b int, ok bool) {
	type span struct{ lo, hi uintptr }
	var spans []span
	var owner []int
	for x := range f.Blocks {
		if to := f.Blocks[x].Term.To; len(to) > 0 {
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(to)))
			spans = append(spans, span{lo, lo + uintptr(len(to))*unsafe.Sizeof(to[0])})
			owner = append(owner, x)
		}
	}
	idx := make([]int, len(spans))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Compare(spans[i].lo, spans[j].lo) })
	for k := 1; k < len(idx); k++ {
		if spans[idx[k]].lo < spans[idx[k-1]].hi {
			return owner[idx[k-1]], owner[idx[k]], true
		}
	}
	return -1, -1, false
}
