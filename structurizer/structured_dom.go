// structured_dom.go: the dominator trees of the self-check and the nested
// pass (cfg.ImmediateDominators, semi-NCA) with the queries they ask.

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// domTree is a dominator tree with O(1) queries (cfg's interval
// numbering); a block the entry does not reach dominates nothing, itself
// included.
type domTree struct{ *cfg.DomTree }

// newDomTree builds the tree of idom (root: block 0).
func newDomTree(idom []int) *domTree { return &domTree{cfg.TreeFromIDom(idom)} }

// Dominates reports whether a dominates b (both reached).
func (t *domTree) Dominates(a, b int) bool {
	return t.InTree(a) && t.InTree(b) && t.DomTree.Dominates(a, b)
}

// StrictlyDominates reports whether a dominates b and a != b.
func (t *domTree) StrictlyDominates(a, b int) bool { return a != b && t.Dominates(a, b) }
