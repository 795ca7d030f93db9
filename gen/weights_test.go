// weights_test.go: the varied weight setting (weights.go) draws each
// block's weight from the seed, keeps the shape, and reaches the weight
// bands the emitter and the structurizer decide on.
package gen

import (
	"slices"
	"testing"
)

func TestVariedWeights(t *testing.T) {
	w := Weightings()[len(Weightings())-1]
	if w.UpTo != VariedWords || w.Name() != "w0to64" {
		t.Fatalf("last default setting %+v (%s), want the varied one", w, w.Name())
	}
	var small, between, zero, top int
	for _, k := range Kinds() {
		for seed := range uint64(40) {
			plain, err := Generate(Config{Kind: k}, seed)
			if err != nil {
				t.Fatal(err)
			}
			it, err := Generate(Config{Kind: k, WordsUpTo: w.UpTo}, seed)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Generate(Config{Kind: k, WordsUpTo: w.UpTo}, seed)
			if !slices.EqualFunc(plain.Graph.Succs, it.Graph.Succs, slices.Equal) {
				t.Fatalf("%s seed %d: the varied weights changed the shape", k, seed)
			}
			if !slices.Equal(it.Graph.Weights, again.Graph.Weights) {
				t.Fatalf("%s seed %d: weights differ between two runs", k, seed)
			}
			for b := range it.Graph.Succs {
				switch x := it.Graph.Weight(b); {
				case x < 0 || x > VariedWords:
					t.Fatalf("%s seed %d: block %d weighs %d, outside 0..%d", k, seed, b, x, VariedWords)
				case x == 0:
					zero++
				case x < 10:
					small++
				case x > 16 && x < 64:
					between++
				case x == 64:
					top++
				}
			}
		}
	}
	t.Logf("blocks at 0: %d, 1..9: %d, 17..63: %d, 64: %d", zero, small, between, top)
	if zero == 0 || small == 0 || between == 0 || top == 0 {
		t.Errorf("a weight band never occurs: 0: %d, 1..9: %d, 17..63: %d, 64: %d", zero, small, between, top)
	}
	if err := (Config{WordsUpTo: -1}).Validate(); err == nil {
		t.Error("a negative WordsUpTo validates")
	}
}
