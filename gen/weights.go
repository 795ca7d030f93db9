// weights.go: block weights laid over a generated graph.
//
// The field's campaigns ran every graph at 0, 16 and 1000 words per block,
// and each of those again with one block at 1000 words (the setting that
// sends a structurizer down its "too big to clone" paths); at 1000 words
// per block that is no change, so FieldWeightings has five settings. The heavy block
// is drawn from its own stream, so the same seed gives the same shape at
// every weighting and results can be compared graph by graph.

package gen

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Weighting is one weight setting: Words on every block, or, when UpTo is
// above 0, each block its own weight drawn from the seed in 0..UpTo; and
// optionally one block, chosen by the seed, at HeavyWords. The zero value
// is all blocks at 0 words.
type Weighting struct {
	Words int
	Heavy bool
	UpTo  int
}

// VariedWords is the largest weight of the varied setting (Weightings):
// every block weighs 0 to 64 words, so blocks below the filler's smallest
// size, between CloneMaxWeight (16) and the 64-word clone budget, and
// graphs whose copies exhaust that budget all occur.
const VariedWords = 64

// Weightings are the settings a campaign runs by default: the field's
// (FieldWeightings) and the varied one, each block 0..VariedWords words.
func Weightings() []Weighting {
	return append(FieldWeightings(), Weighting{UpTo: VariedWords})
}

// Name is a short label for reports: "w0", "w16+heavy", "w0to64", ...
func (w Weighting) Name() string {
	s := fmt.Sprintf("w%d", w.Words)
	if w.UpTo > 0 {
		s = fmt.Sprintf("w0to%d", w.UpTo)
	}
	if w.Heavy {
		s += "+heavy"
	}
	return s
}

// FieldWeightings are the distinct settings among the six the field's
// campaigns reported (0, 16 and 1000 words per block, each plain and with
// one block at HeavyWords): five, as 1000 with a heavy block is 1000 (the
// heavy block weighs what every block already weighs), the same graph.
func FieldWeightings() []Weighting {
	var ws []Weighting
	for _, words := range []int{0, 16, 1000} {
		ws = append(ws, Weighting{Words: words})
		if words < HeavyWords {
			ws = append(ws, Weighting{Words: words, Heavy: true})
		}
	}
	return ws
}

// HeavyBlock is the block that Weighting{Heavy: true} makes heavy in a
// graph of n blocks generated from seed.
func HeavyBlock(seed uint64, n int) int {
	return newRNG(seed, streamWeights).intn(n)
}

// applyWeights sets g's weights for w; seed picks the heavy block and,
// from a stream of its own, the varied weights.
func applyWeights(g *cfg.Graph, w Weighting, seed uint64) {
	if len(g.Weights) != g.Len() {
		g.Weights = make([]int, g.Len())
	}
	varied := newRNG(seed, streamVaried)
	for b := range g.Weights {
		g.Weights[b] = w.Words
		if w.UpTo > 0 {
			g.Weights[b] = varied.intn(w.UpTo + 1)
		}
	}
	if w.Heavy && g.Len() > 0 {
		g.Weights[HeavyBlock(seed, g.Len())] = HeavyWords
	}
}
