// reduce.go: the reduction steps the minimizer's stages are made of. Each
// step builds a new graph from the stage's starting graph and never mutates
// it; every result is normalized (the blocks the step leaves unreachable
// dropped, the rest renumbered densely in their old order, the entry kept
// as block 0), so a candidate never carries dead weight. Dead code the
// starting graph already had (blocks no path from its entry reaches) is
// kept, with what it reaches: a failure may need it (a structurizer that
// crashes on dead code), and the steps that drop blocks drop dead ones
// like any other. The steps: drop blocks redirecting
// their incoming edges, drop edges (a switch case, an arm of a conditional,
// a branch), keep one arm of a conditional, point an edge at another
// block, merge a straight-line pair, zero weights, renumber in depth-first
// order.

package corpus

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// normalize drops the blocks of h, a step's result numbered as its
// starting graph g is, that no path reaches from the entry or from one of
// g's dead blocks (those no path from g's entry reaches) outside gone (the
// blocks the step removes; nil: none), and renumbers the rest densely in
// their old order. A block the step cuts off from the entry but g's dead
// code enters stays, as dead code. normalize(g, g, nil) is g renumbered
// densely, its dead blocks kept.
func normalize(g, h *cfg.Graph, gone []bool) *cfg.Graph {
	return keepReached(h, deadRoots(g, gone, nil))
}

// deadRoots lists the blocks of g no path from its entry reaches, less
// those in gone (nil: none), each as perm numbers it (nil: as g does).
func deadRoots(g *cfg.Graph, gone []bool, perm []int) []int {
	var roots []int
	for b, r := range g.Reachable() {
		if r || (gone != nil && gone[b]) {
			continue
		}
		if perm != nil {
			b = perm[b]
		}
		roots = append(roots, b)
	}
	return roots
}

// keepReached is the subgraph of h's blocks reachable from its entry or
// from a block of roots, renumbered densely in their old order.
func keepReached(h *cfg.Graph, roots []int) *cfg.Graph {
	if h.Len() == 0 {
		return h
	}
	var old []int
	for b, k := range h.ReachableFrom(append([]int{0}, roots...)...) {
		if k {
			old = append(old, b)
		}
	}
	return h.Subgraph(old)
}

// Redirect says where an edge into a dropped block goes.
type Redirect int

const (
	// ViaFirst follows the dropped block's first successor (the true arm,
	// a switch's default, a branch's target).
	ViaFirst Redirect = iota
	// ViaLast follows its last successor (the false arm, the last case).
	ViaLast
)

// dropBlocks removes the blocks in drop (never the entry). An edge into a
// dropped block is redirected along the dropped blocks' chosen successors
// to the first block that stays; when the chain returns or cycles inside
// the dropped set, the edge is removed instead.
func dropBlocks(g *cfg.Graph, drop []bool, via Redirect) *cfg.Graph {
	h := g.Clone()
	for b := range h.Succs {
		if drop[b] {
			h.Succs[b] = nil
			continue
		}
		var keep []int
		for _, t := range g.Succs[b] {
			if t2 := chainEnd(g, drop, t, via); t2 >= 0 {
				keep = append(keep, t2)
			}
		}
		h.Succs[b] = keep
	}
	return normalize(g, h, drop)
}

// chainEnd follows dropped blocks from t to the first kept block, or -1.
func chainEnd(g *cfg.Graph, drop []bool, t int, via Redirect) int {
	for steps := 0; drop[t]; steps++ {
		s := g.Succs[t]
		if len(s) == 0 || steps > len(g.Succs) {
			return -1
		}
		if via == ViaFirst {
			t = s[0]
		} else {
			t = s[len(s)-1]
		}
	}
	return t
}

// Edge names successor Index of block Block.
type Edge struct{ Block, Index int }

// edgesOf lists the edges of g, filtered by keep (nil keeps all).
func edgesOf(g *cfg.Graph, keep func(b, i int) bool) []Edge {
	var es []Edge
	for b, s := range g.Succs {
		for i := range s {
			if keep == nil || keep(b, i) {
				es = append(es, Edge{b, i})
			}
		}
	}
	return es
}

// dropEdges removes the listed successor entries.
func dropEdges(g *cfg.Graph, es []Edge) *cfg.Graph {
	gone := map[Edge]bool{}
	for _, e := range es {
		gone[e] = true
	}
	h := g.Clone()
	for b, s := range g.Succs {
		var keep []int
		for i, t := range s {
			if !gone[Edge{b, i}] {
				keep = append(keep, t)
			}
		}
		h.Succs[b] = keep
	}
	return normalize(g, h, nil)
}

// keepArm turns block b into an unconditional branch to its successor i.
func keepArm(g *cfg.Graph, b, i int) *cfg.Graph {
	h := g.Clone()
	h.Succs[b] = []int{g.Succs[b][i]}
	return normalize(g, h, nil)
}

// retarget points successor i of block b at block t.
func retarget(g *cfg.Graph, b, i, t int) *cfg.Graph {
	h := g.Clone()
	h.Succs[b] = slices.Clone(g.Succs[b])
	h.Succs[b][i] = t
	return normalize(g, h, nil)
}

// retargets lists the blocks successor i of block b is pointed at by the
// retarget stage, in the order tried: b's other successors (the arms of a
// conditional meet, as in spirv-reduce's conditional-branch-to-simple-
// conditional-branch), the first return block (the path ends there), b
// itself and the entry (a loop). The edge's own target is not listed.
func retargets(g *cfg.Graph, b, i int) []int {
	cur := g.Succs[b][i]
	var ts []int
	add := func(t int) {
		if t != cur && !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	for _, t := range g.Succs[b] {
		add(t)
	}
	for r, s := range g.Succs {
		if len(s) == 0 && r != cur {
			add(r)
			break
		}
	}
	add(b)
	add(0)
	return ts
}

// mergeable reports whether a branches to a block b != a, b is not the
// entry, and a's edge is b's only incoming edge.
func mergeable(g *cfg.Graph, preds [][]int, a int) (int, bool) {
	if len(g.Succs[a]) != 1 {
		return 0, false
	}
	b := g.Succs[a][0]
	return b, b != a && b != 0 && len(preds[b]) == 1
}

// mergeInto folds b into a: a takes b's successors and weight; b is
// dropped (a dead pair too).
func mergeInto(g *cfg.Graph, a, b int) *cfg.Graph {
	h := g.Clone()
	h.Succs[a] = slices.Clone(g.Succs[b])
	h.Weights[a] += g.Weight(b)
	h.Succs[b] = nil
	gone := make([]bool, g.Len())
	gone[b] = true
	return normalize(g, h, gone)
}

// zeroWeights sets the weights of the listed blocks to 0.
func zeroWeights(g *cfg.Graph, blocks []int) *cfg.Graph {
	h := g.Clone()
	for _, b := range blocks {
		h.Weights[b] = 0
	}
	return h
}

// DFSRenumber renumbers the reachable blocks in depth-first preorder from
// the entry, successors in order. Because successor order is part of the
// graph, this numbering is the same for every isomorphic copy: the result
// is a canonical form of g up to renumbering. Dead blocks (no path from
// the entry reaches them) follow, in depth-first preorder from each in
// turn of their old order: a canonical form of the reachable part, with
// the dead part in an order of its own.
func DFSRenumber(g *cfg.Graph) *cfg.Graph {
	h := normalize(g, g, nil)
	perm := make([]int, h.Len())
	for i := range perm {
		perm[i] = -1
	}
	next := 0
	for root := range h.Succs {
		if perm[root] >= 0 {
			continue
		}
		stack := []int{root}
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if perm[b] >= 0 {
				continue
			}
			perm[b] = next
			next++
			s := h.Succs[b]
			for i := len(s) - 1; i >= 0; i-- {
				if perm[s[i]] < 0 {
					stack = append(stack, s[i])
				}
			}
		}
	}
	return h.Permute(perm)
}

// Key is the cache key of a candidate: its compact notation and its
// weights. Candidates are normalized, so equal graphs get equal keys; block
// numbering is part of the key on purpose, so a bug that depends on it
// (a clone reporting the wrong id) is never credited to a relabeled copy.
func Key(g *cfg.Graph) string {
	var sb strings.Builder
	sb.WriteString(cfg.FormatCompact(g))
	for b := range g.Succs {
		if w := g.Weight(b); w != 0 {
			sb.WriteString(" ")
			sb.WriteString(strconv.Itoa(b))
			sb.WriteString("=")
			sb.WriteString(strconv.Itoa(w))
		}
	}
	return sb.String()
}

// Size orders graphs by how reduced they are: blocks, then edges, then
// total weight.
type Size struct{ Blocks, Edges, Words int }

// SizeOf measures g.
func SizeOf(g *cfg.Graph) Size { return Size{g.Len(), g.Edges(), g.TotalWeight()} }

// Less reports whether s is smaller than t.
func (s Size) Less(t Size) bool {
	if s.Blocks != t.Blocks {
		return s.Blocks < t.Blocks
	}
	if s.Edges != t.Edges {
		return s.Edges < t.Edges
	}
	return s.Words < t.Words
}

// skipEntry makes the entry's only successor the new entry, when the entry
// is an unconditional branch to another block: the old entry becomes
// unreachable unless something branches back to it.
func skipEntry(g *cfg.Graph) (*cfg.Graph, bool) {
	if len(g.Succs[0]) != 1 || g.Succs[0][0] == 0 {
		return nil, false
	}
	t := g.Succs[0][0]
	perm := make([]int, g.Len())
	for b := range perm {
		perm[b] = b
	}
	perm[0], perm[t] = t, 0
	return keepReached(g.Permute(perm), deadRoots(g, nil, perm)), true
}
