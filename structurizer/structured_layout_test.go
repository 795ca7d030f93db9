// structured_layout_test.go: the layout pass's in-place block move
// (moveBlocks) against a copy made through the permutation, on seeded
// random permutations.
package structurizer

import (
	"reflect"
	"testing"
)

func TestMoveBlocksMatchesCopy(t *testing.T) {
	r := loggedRand(t, 41)
	for i := range 2000 {
		n := 1 + r.IntN(40)
		blocks := make([]Block, n)
		for b := range blocks {
			blocks[b] = Block{Orig: b, Weight: r.IntN(9), Term: Term{Kind: Branch, To: []int{r.IntN(n)}}}
		}
		order := r.Perm(n)
		want := make([]Block, n)
		for k, b := range order {
			want[k] = blocks[b]
		}
		moveBlocks(blocks, order)
		if !reflect.DeepEqual(blocks, want) {
			t.Fatalf("permutation %d %v: moved %v, want %v", i, order, blocks, want)
		}
	}
}
