package structurizer

import (
	"fmt"
	"strings"
	"testing"
)

// TestValidateRouteValues: a route that lists a value twice is malformed,
// in a short list and a long one alike; repeatedValue agrees with a set
// on random lists.
func TestValidateRouteValues(t *testing.T) {
	for _, k := range []int{2, 16, 17, 200} {
		vals := make([]uint32, k)
		for i := range vals {
			vals[i] = uint32(10 * (i + 1))
		}
		f := &Func{Vars: []Var{{Name: "route"}}, Blocks: []Block{
			{Kind: Synthetic, Orig: -1, Term: Term{Kind: Route, Var: 0, Values: vals, To: make([]int, k+1)}},
		}}
		if err := f.Validate(); err != nil {
			t.Errorf("%d distinct values: %v", k, err)
		}
		vals[k-1] = vals[0]
		err := f.Validate()
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("route value %d listed twice", vals[0])) {
			t.Errorf("%d values, the last repeating the first: %v", k, err)
		}
	}
	r := loggedRand(t, 3)
	for range 2000 {
		vals := make([]uint32, r.IntN(40))
		for i := range vals {
			vals[i] = uint32(r.IntN(60))
		}
		seen, want := map[uint32]bool{}, false
		for _, v := range vals {
			want = want || seen[v]
			seen[v] = true
		}
		if _, got := repeatedValue(vals); got != want {
			t.Fatalf("repeatedValue(%v) = %v, a set says %v", vals, got, want)
		}
	}
}

// TestValidateBranchReadingADecision: a block that reads a decision may
// branch to its one target (a conditional or switch whose successors are
// all one block); testing a variable without storing its choice drops the
// decision and stays malformed.
func TestValidateBranchReadingADecision(t *testing.T) {
	for _, arity := range []int{2, 3} {
		f := &Func{Blocks: []Block{
			{Kind: Original, Orig: 0, Arity: arity, Term: Term{Kind: Branch, To: []int{1}}},
			{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
		}}
		if err := f.Validate(); err != nil {
			t.Errorf("arity %d, a branch: %v", arity, err)
		}
	}
	f := &Func{Vars: []Var{{Name: "route"}}, Blocks: []Block{
		{Kind: Original, Orig: 0, Arity: 2, Term: Term{Kind: Test, Var: 0, Values: []uint32{1}, To: []int{1, 1}}},
		{Kind: Original, Orig: 1, Term: Term{Kind: Return}},
	}}
	if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "neither chooses nor stores by choice") {
		t.Errorf("a test that drops the decision: %v", err)
	}
}
