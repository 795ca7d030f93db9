// graft.go defines Graft, the graph behaviour-guided generation runs in
// place of a fresh graph: a mutant (mutate.go) whose returns all continue
// into the fresh graph, so the fresh graph's blocks, edges and weights stay
// whole inside it and what the fresh graph alone would show, the graft
// still can; and GraftPrefix, which takes the mutant back out.

package gen

import (
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Graft is head followed by tail: head's blocks keep their numbers, tail's
// block b becomes len(head) + b, and every block of head without
// successors (a return) gets the one successor tail's entry. Weights are
// kept; names are dropped. ok is false, and the graft nil, when head has
// no return: tail would be unreachable.
func Graft(head, tail *cfg.Graph) (g *cfg.Graph, ok bool) {
	n := head.Len()
	if !slices.ContainsFunc(head.Succs, func(s []int) bool { return len(s) == 0 }) {
		return nil, false
	}
	g = cfg.New(n + tail.Len())
	for b, s := range head.Succs {
		g.Succs[b] = slices.Clone(s)
		if len(s) == 0 {
			g.Succs[b] = []int{n}
		}
		g.Weights[b] = head.Weight(b)
	}
	for b, s := range tail.Succs {
		t := make([]int, len(s))
		for k, x := range s {
			t[k] = n + x
		}
		g.Succs[n+b] = t
		g.Weights[n+b] = tail.Weight(b)
	}
	return g, true
}

// GraftPrefix is the head of a graft whose head had n blocks: g's first n
// blocks, a branch to block n (the tail's entry) made a return again. ok
// is false when g's first n blocks cannot be a graft's head (n out of
// range, or an edge from them past n).
func GraftPrefix(g *cfg.Graph, n int) (head *cfg.Graph, ok bool) {
	if n <= 0 || n >= g.Len() {
		return nil, false
	}
	head = cfg.New(n)
	for b := range n {
		s := g.Succs[b]
		if len(s) == 1 && s[0] == n {
			s = nil
		}
		for _, x := range s {
			if x >= n {
				return nil, false
			}
		}
		head.Succs[b] = slices.Clone(s)
		head.Weights[b] = g.Weight(b)
	}
	return head, true
}
