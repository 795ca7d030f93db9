// func_layout_test.go: the layout's in-place block move (placeBlocks)
// against a copy made through the order, on seeded random orders of
// random subsets of the blocks; and what the layout pass is given: every
// loop's continue target reached by a branch.
package structurizer

import (
	"fmt"
	"reflect"
	"testing"
)

func TestPlaceBlocksMatchesCopy(t *testing.T) {
	r := loggedRand(t, 41)
	for i := range 2000 {
		n := 1 + r.IntN(40)
		blocks := make([]Block, n)
		for b := range blocks {
			blocks[b] = Block{Orig: b, Weight: r.IntN(9), Term: Term{Kind: Branch, To: []int{r.IntN(n)}}}
		}
		order := r.Perm(n)[:1+r.IntN(n)] // the kept blocks, in their new order
		want := make([]Block, len(order))
		for k, b := range order {
			want[k] = blocks[b]
		}
		calls := make([]int, len(order))
		placeBlocks(blocks, order, func(blk *Block, k int) {
			if blk != &blocks[k] || !reflect.DeepEqual(*blk, want[k]) {
				t.Fatalf("order %v: position %d placed as %v, want %v", order, k, *blk, want[k])
			}
			calls[k]++
		})
		if !reflect.DeepEqual(blocks[:len(order)], want) {
			t.Fatalf("order %d %v: moved %v, want %v", i, order, blocks[:len(order)], want)
		}
		for k, c := range calls {
			if c != 1 {
				t.Fatalf("order %v: position %d placed %d times", order, k, c)
			}
		}
	}
}

// branchReachable marks the blocks of f reached from the entry over branch
// edges alone (no merge or continue declaration).
func branchReachable(f *Func) []bool {
	seen := make([]bool, len(f.Blocks))
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range f.Blocks[b].Term.To {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// TestPassTableReachesEveryContinue: the Func the layout pass gets (after
// thread) reaches every loop's continue target over branches, on arbitrary
// graphs (irreducible, exit-less, switches, unreachable blocks) of 1 to 14
// blocks: the loops pass gives each loop one latch, every back edge of
// the loop branches to it, and the selections, fold and thread passes keep
// every path (a bypassed block's edge goes on to where it led). So layout keeps a continue block by its branches, and its visit of
// continue declarations (structurallyReachable) never decides anything in
// the pass table's output.
func TestPassTableReachesEveryContinue(t *testing.T) {
	r := loggedRand(t, 20261202)
	loops := 0
	for i := range 20000 {
		g := randomGraph(r, 1+r.IntN(14))
		var bad string
		hooks := &Hooks{AfterPass: func(pass string, f *Func) {
			if pass != "lift" || f == nil {
				return
			}
			seen := branchReachable(f)
			for b := range f.Blocks {
				blk := &f.Blocks[b]
				if blk.Merge.Kind != LoopMerge || !seen[b] {
					continue
				}
				loops++
				if !seen[blk.Merge.Continue] {
					bad = fmt.Sprintf("loop %d: continue %d reached by no branch", b, blk.Merge.Continue)
				}
			}
		}}
		if _, err := Structurize(g, Options{Hooks: hooks}); err != nil {
			t.Fatalf("graph %d %v: %v", i, g, err)
		}
		if bad != "" {
			t.Fatalf("graph %d %v: %s", i, g, bad)
		}
	}
	if loops < 1000 {
		t.Fatalf("only %d loops reached the layout pass: the test measures little", loops)
	}
	t.Logf("%d loops, every continue reached by a branch", loops)
}
