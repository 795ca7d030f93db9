// fingerprint.go defines GraphFingerprint, a canonical hash of a graph up
// to isomorphism: the SHA-256 of gen.Canonical's form (blocks renumbered
// breadth-first from the entry, successors in order, unreachable blocks
// dropped) with the weights that move with their blocks. Two graphs get
// the same fingerprint exactly when a renumbering that keeps the entry maps
// one onto the other, arm order and weights included; names are not part
// of it. The state directory's filter of graphs already checked keys on it
// (state.go).

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

// GraphFingerprint hashes g's canonical form and its weights.
func GraphFingerprint(g *cfg.Graph) Fingerprint {
	c := gen.Canonical(g)
	var b strings.Builder
	b.WriteString(cfg.FormatCompact(c))
	b.WriteByte('w')
	for i := range c.Len() {
		b.WriteString(strconv.Itoa(c.Weight(i)))
		b.WriteByte(',')
	}
	return sha256.Sum256([]byte(b.String()))
}
