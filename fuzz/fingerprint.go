// fingerprint.go defines GraphFingerprint, a canonical hash of a graph up
// to isomorphism: the SHA-256 of its canonical form (canonicalOrder,
// canonical.go: blocks renumbered breadth-first from the entry, successors
// in order, which is gen.Canonical's form, then the dead blocks, those no
// path from the entry reaches, in the least order any choice of dead roots
// gives) with the weights that move with their blocks. Two graphs get the
// same fingerprint exactly when a renumbering that keeps the entry maps
// one onto the other, arm order, dead blocks and their edges, and weights
// included; names are not part of it. A graph with dead blocks is never
// fingerprinted as its reachable part: to a structurizer that crashes on
// dead code it is not the same input, so neither it nor a graph that
// differs from it only in its dead blocks is filtered as one checked
// before, while a renumbering of it is, as for any graph (the meta check
// runs each graph renumbered, dead blocks included). What it misses: a
// graph whose dead blocks' order the search gives up on (past
// orderBudget) is hashed as it is, marked apart, and a renumbering of it
// is checked again. The state directory's filter of graphs already
// checked keys on it (state.go).

package fuzz

import (
	"crypto/sha256"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Fingerprint is a graph's canonical hash.
type Fingerprint [32]byte

// GraphFingerprint hashes g's canonical form and its weights (g as it is,
// marked apart, when the dead blocks' order search gives up).
func GraphFingerprint(g *cfg.Graph) Fingerprint {
	var b strings.Builder
	var c *cfg.Graph
	switch id, _, ok := canonicalOrder(g, false); {
	case !ok:
		c = g
		b.WriteString("as given:")
	default:
		c = g.Permute(id)
	}
	b.WriteString(cfg.FormatCompact(c))
	b.WriteByte('w')
	for i := range c.Len() {
		b.WriteString(strconv.Itoa(c.Weight(i)))
		b.WriteByte(',')
	}
	return sha256.Sum256([]byte(b.String()))
}
