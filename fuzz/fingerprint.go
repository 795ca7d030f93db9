// fingerprint.go defines GraphFingerprint, a canonical hash of a graph up
// to isomorphism: the SHA-256 of gen.Canonical's form (blocks renumbered
// breadth-first from the entry, successors in order, unreachable blocks
// dropped) with the weights that move with their blocks. Two graphs get
// the same fingerprint exactly when a renumbering that keeps the entry maps
// one onto the other, arm order and weights included; names are not part
// of it. A graph with blocks no path from the entry reaches is hashed as it
// is instead, block numbers and dead blocks included, as GraphHash does
// (distinct.go): it is not the same input as its reachable part to a
// structurizer that crashes on dead code, so neither it nor a graph that
// differs from it only in its dead blocks is ever filtered as one checked
// before, though a renumbering of it is checked again. The state
// directory's filter of graphs already checked keys on it (state.go).

package fuzz

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Fingerprint is a graph's canonical hash.
type Fingerprint [32]byte

// GraphFingerprint hashes g's canonical form and its weights (g itself
// when it has dead blocks).
func GraphFingerprint(g *cfg.Graph) Fingerprint {
	c := gen.Canonical(g)
	var b strings.Builder
	if c.Len() < g.Len() {
		c = g
		b.WriteString("as given:")
	}
	b.WriteString(cfg.FormatCompact(c))
	b.WriteByte('w')
	for i := range c.Len() {
		b.WriteString(strconv.Itoa(c.Weight(i)))
		b.WriteByte(',')
	}
	return sha256.Sum256([]byte(b.String()))
}
