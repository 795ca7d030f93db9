// growing.go: the exhaustive enumeration as a campaign walks it, growing
// instead of wrapping around: every graph of 1 to GrowingFullN blocks in
// the stable order of exhaustive.go, then the graphs of each larger size
// up to MaxExhaustiveN, each size's graphs in a scrambled order that
// still visits every graph of that size once (a sample spread over the
// whole size, not the first graphs of the stable order, which all share
// their entry block's successor list).
//
// The scramble of a size with M graphs is k -> (a*k + c) mod M with a
// coprime to M: a permutation, so no graph of a size repeats until the
// next size starts. Positions past the last size wrap around to the
// first graph.

package gen

import (
	"math/bits"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// GrowingFullN is the largest block count the growing order walks in
// full and in the stable order: 5 blocks, 362,568 graphs of 1 to 5.
const GrowingFullN = 5

// GrowingCount is the number of positions of the growing order before it
// wraps: every graph of 1 to MaxExhaustiveN blocks.
func GrowingCount() uint64 { return uint64(ExhaustiveCount(MaxExhaustiveN)) }

// GrowingAt returns the graph at position p of the growing order (p
// modulo GrowingCount).
func GrowingAt(p uint64) *cfg.Graph {
	p %= GrowingCount()
	full := uint64(ExhaustiveCount(GrowingFullN))
	if p < full {
		return ExhaustiveAt(GrowingFullN, int(p))
	}
	p -= full
	for n := GrowingFullN + 1; n <= MaxExhaustiveN; n++ {
		m := uint64(exhaustiveExact(n))
		if p < m {
			return unrank(n, completionsOf[n](), int(scramble(p, m)))
		}
		p -= m
	}
	return nil // unreachable: p < GrowingCount
}

// scramble maps k in 0..m-1 onto a permutation of 0..m-1.
func scramble(k, m uint64) uint64 {
	a := coprimeNear(m, m/2+m/8+1)
	hi, lo := bits.Mul64(a, k)
	_, r := bits.Div64(hi%m, lo, m)
	return (r + m/3) % m
}

// coprimeNear is the first number from start up that is coprime to m.
func coprimeNear(m, start uint64) uint64 {
	for a := start; ; a++ {
		if gcd(a, m) == 1 {
			return a
		}
	}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
