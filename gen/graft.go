// graft.go defines the two grafts behaviour-guided generation runs in
// place of a fresh graph, each holding a mutant (mutate.go) and the fresh
// graph whole (its blocks, edges and weights, renumbered), so that what
// the fresh graph alone would show, the graft still can:
//
//   - Graft, the mutant before the fresh graph: every return of the mutant
//     branches to the fresh graph's entry, so the fresh graph runs on the
//     paths the mutant leaves by;
//   - GraftBeside, the mutant beside the fresh graph: a new entry block
//     branches to the mutant's entry and to the fresh graph's, and each part
//     keeps its own returns. The graft nests whenever both parts nest (an
//     if-else whose arms return), so a structurizer that lays out a graph
//     that nests directly still takes that path for the fresh graph when the
//     mutant nests too, where a graft in sequence joins the mutant's returns
//     at one block and often stops the whole from nesting.
//
// GraftPrefix takes the mutant back out of either.

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
	place(g, tail, n)
	return g, true
}

// GraftBeside is head beside tail: block 0 a new entry, a conditional
// branch to head's entry (block 1) and to tail's (block 1 + len(head));
// head's block b becomes 1 + b and tail's 1 + len(head) + b, edges
// renumbered alike and nothing else changed, so each part keeps its own
// returns and any head will do. The new entry weighs 0 words: it stands
// for no code of either part, only the branch between them, so the
// graft's words are the parts' words, and no weighted choice of a
// structurizer (a clone budget, a bound on what a clone may weigh; the
// entry, without predecessors, is never cloned) sees more than the parts
// give it. Names are dropped.
func GraftBeside(head, tail *cfg.Graph) *cfg.Graph {
	n := head.Len()
	g := cfg.New(1 + n + tail.Len())
	g.Succs[0] = []int{1, 1 + n}
	place(g, head, 1)
	place(g, tail, 1+n)
	return g
}

// place copies part's blocks, edges and weights into g from block at on,
// renumbered by at.
func place(g, part *cfg.Graph, at int) {
	for b, s := range part.Succs {
		t := make([]int, len(s))
		for k, x := range s {
			t[k] = at + x
		}
		g.Succs[at+b] = t
		g.Weights[at+b] = part.Weight(b)
	}
}

// GraftPrefix is the head of a graft whose tail starts at block n, for
// either layout. When block 0 is a conditional branch to blocks 1 and n
// (GraftBeside: a graft in sequence has no edge to n but from a return of
// its head, which branches there alone), the head is blocks 1 to n-1,
// renumbered from 0, none of them with an edge out of that range. Else
// (Graft) it is g's first n blocks, a branch to block n (the tail's
// entry) made a return again, none of them with an edge past n. ok is
// false when no head of either layout ends at n (n out of range, or an
// edge out of the head).
func GraftPrefix(g *cfg.Graph, n int) (head *cfg.Graph, ok bool) {
	if n <= 0 || n >= g.Len() {
		return nil, false
	}
	if slices.Equal(g.Succs[0], []int{1, n}) && n > 1 {
		head = cfg.New(n - 1)
		for b := 1; b < n; b++ {
			s := make([]int, len(g.Succs[b]))
			for k, x := range g.Succs[b] {
				if x < 1 || x >= n {
					return nil, false
				}
				s[k] = x - 1
			}
			head.Succs[b-1] = s
			head.Weights[b-1] = g.Weight(b)
		}
		return head, true
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
