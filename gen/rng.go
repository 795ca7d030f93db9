// rng.go: the seeded random source every generator draws from, and seed
// mixing.
//
// Every graph gets its own PCG (math/rand/v2's PCG-DXSM, O'Neill 2014)
// seeded from the graph's seed through SplitMix64 (Steele, Lea and Flood,
// "Fast Splittable Pseudorandom Number Generators", 2014), so neighbouring
// seeds give unrelated streams. Each kind, and the weights, draw from a
// stream of their own: changing the weights never changes a graph's shape.

package gen

import (
	"math/bits"
	"math/rand/v2"
)

// Streams: the second PCG seed word, one per consumer of randomness.
const (
	streamReducible      = 0x7265647563696231 // "reducib1"
	streamIrreducible    = 0x6972726564756331 // "irreduc1"
	streamNonTerminating = 0x6e6f6e7465726d31 // "nonterm1"
	streamProgram        = 0x70726f6772616d31 // "program1"
	streamExhaustive     = 0x6578686175737431 // "exhaust1"
	streamWeights        = 0x7765696768747331 // "weights1"
	streamVaried         = 0x7661726965643031 // "varied01"
	streamWide           = 0x7769646573773031 // "widesw01"
)

func streamOf(k Kind) uint64 {
	switch k {
	case Irreducible:
		return streamIrreducible
	case NonTerminating:
		return streamNonTerminating
	case Program:
		return streamProgram
	case Exhaustive:
		return streamExhaustive
	}
	return streamReducible
}

// mix64 is SplitMix64's finalizer: a bijection that scrambles every bit.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// rng is a PCG with the few draws the generators need. It draws from
// rand.PCG directly rather than through rand.Rand: one allocation less per
// graph, which the reducible benchmark notices.
type rng struct {
	pcg rand.PCG
}

func newRNG(seed, stream uint64) *rng {
	g := &rng{}
	g.pcg.Seed(mix64(seed), stream)
	return g
}

// intn returns a value in [0, n); n must be positive. Lemire's
// multiply-and-reject ("Fast Random Integer Generation in an Interval",
// 2019), as math/rand/v2 does it.
func (g *rng) intn(n int) int {
	hi, lo := bits.Mul64(g.pcg.Uint64(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(g.pcg.Uint64(), uint64(n))
		}
	}
	return int(hi)
}

// between returns a value in [lo, hi].
func (g *rng) between(lo, hi int) int { return lo + g.intn(hi-lo+1) }

// float64 returns a value in [0, 1).
func (g *rng) float64() float64 { return float64(g.pcg.Uint64()>>11) * 0x1p-53 }

// chance returns true with probability p.
func (g *rng) chance(p float64) bool { return g.float64() < p }

// perm returns a random permutation of 0..n-1 (Fisher-Yates).
func (g *rng) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		j := g.intn(i + 1)
		p[i], p[j] = p[j], i
	}
	return p
}

// pick returns an index into weights, drawn in proportion to them; -1 when
// all are zero.
func (g *rng) pick(weights []float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total <= 0 {
		return -1
	}
	x := g.float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	for i := len(weights) - 1; i >= 0; i-- {
		if weights[i] > 0 {
			return i
		}
	}
	return -1
}
