// pdom.go: the `pdom` check. The graph package's dominator and
// post-dominator trees (Cooper-Harvey-Kennedy) on the input graph are
// compared with two independent computations:
//
//   - the brute-force definitions (cfg.RefDominates, cfg.RefPostDominates,
//     cfg.RefIDom): a dominates b iff removing a cuts b off the entry;
//     immediate dominators and the trees' Dominates queries on every pair;
//     O(n·(n+e)), so only for graphs of at most PdomBruteForceLimit blocks;
//   - gonum's Lengauer-Tarjan (graph/flow.Dominators) on the graph, and on
//     its reverse with a virtual exit wired to every returning block, for
//     every graph.
//
// Blocks outside a tree (unreachable, or stuck in an exit-less cycle for
// post-dominators) must be outside it in every computation.
package oracle

import (
	"fmt"

	"gonum.org/v1/gonum/graph/flow"
	"gonum.org/v1/gonum/graph/simple"

	"cfgfuzz/structurizer/cfg"
)

// PdomBruteForceLimit is the most blocks a graph may have for the pdom
// check to run the brute-force reference (about 1 ms at 128 blocks).
const PdomBruteForceLimit = 128

// Signatures of the pdom check (after "pdom:").
const (
	SigIDomRef  = "idom-vs-definition"
	SigIPDomRef = "ipdom-vs-definition"
	SigIDomLib  = "idom-vs-gonum"
	SigIPDomLib = "ipdom-vs-gonum"
)

func (o *Oracle) checkPdom(s *Subject) Verdict {
	g := s.Graph
	if g == nil || g.Len() == 0 {
		return Verdict{Status: Skip, Detail: "no graph"}
	}
	dom, pdom := cfg.Dominators(g), cfg.PostDominators(g)
	detail := "gonum"
	if g.Len() <= PdomBruteForceLimit {
		detail = "definition and gonum"
		domRel, pdomRel := cfg.RefDominates(g), cfg.RefPostDominates(g)
		if b, want, ok := sameIDom(dom.IDom, cfg.RefIDom(domRel, nil)); !ok {
			return pdomFail(SigIDomRef, "idom", b, dom.IDom[b], want)
		}
		if v, bad := sameRelation(dom, domRel, SigIDomRef, "dominates"); bad {
			return v
		}
		if b, want, ok := sameIDom(pdom.IDom, cfg.RefIDom(pdomRel, cfg.RefReachesExit(g))); !ok {
			return pdomFail(SigIPDomRef, "ipdom", b, pdom.IDom[b], want)
		}
		if v, bad := sameRelation(pdom, pdomRel, SigIPDomRef, "post-dominates"); bad {
			return v
		}
	}
	if b, want, ok := sameIDom(dom.IDom, gonumIDom(g, false)); !ok {
		return pdomFail(SigIDomLib, "idom", b, dom.IDom[b], want)
	}
	if b, want, ok := sameIDom(pdom.IDom, gonumIDom(g, true)); !ok {
		return pdomFail(SigIPDomLib, "ipdom", b, pdom.IDom[b], want)
	}
	return Verdict{Status: Pass, Detail: fmt.Sprintf("%d blocks against %s", g.Len(), detail)}
}

func pdomFail(sig, what string, b, got, want int) Verdict {
	return Verdict{Status: Fail, Signature: "pdom:" + sig,
		Detail: fmt.Sprintf("%s(%d) = %s, expected %s", what, b, blockName(got), blockName(want))}
}

func blockName(b int) string {
	switch b {
	case cfg.NoBlock:
		return "none"
	case cfg.Exit:
		return "exit"
	}
	return fmt.Sprint(b)
}

// sameRelation compares the tree's O(1) query with the brute-force
// relation on every pair of blocks.
func sameRelation(t *cfg.DomTree, rel [][]bool, sig, what string) (Verdict, bool) {
	for a := range rel {
		for b := range rel[a] {
			if t.Dominates(a, b) != rel[a][b] {
				return Verdict{Status: Fail, Signature: "pdom:" + sig,
					Detail: fmt.Sprintf("%d %s %d: tree says %v, the definition %v", a, what, b, !rel[a][b], rel[a][b])}, true
			}
		}
	}
	return Verdict{}, false
}

// sameIDom compares two immediate-dominator arrays and returns the first
// block where they differ.
func sameIDom(got, want []int) (b, w int, ok bool) {
	for b := range got {
		if got[b] != want[b] {
			return b, want[b], false
		}
	}
	return 0, 0, true
}

// gonumIDom computes immediate dominators with gonum's Lengauer-Tarjan:
// from block 0 on g, or (reverse) from a virtual exit node n on the reverse
// graph. Self-loops are left out (they change no dominator and gonum's
// simple graphs refuse them). Blocks outside the tree get cfg.NoBlock; a
// post-dominator that is the virtual exit becomes cfg.Exit.
func gonumIDom(g *cfg.Graph, reverse bool) []int {
	n := g.Len()
	dg := simple.NewDirectedGraph()
	for b := 0; b <= n; b++ {
		dg.AddNode(simple.Node(b))
	}
	for b, succ := range g.Succs {
		if reverse && len(succ) == 0 {
			dg.SetEdge(simple.Edge{F: simple.Node(n), T: simple.Node(b)})
		}
		for _, t := range succ {
			if t == b {
				continue
			}
			if reverse {
				dg.SetEdge(simple.Edge{F: simple.Node(t), T: simple.Node(b)})
			} else {
				dg.SetEdge(simple.Edge{F: simple.Node(b), T: simple.Node(t)})
			}
		}
	}
	root := 0
	if reverse {
		root = n
	}
	tree := flow.Dominators(simple.Node(root), dg)
	idom := make([]int, n)
	for b := range n {
		idom[b] = cfg.NoBlock
		d := tree.DominatorOf(int64(b))
		if d == nil || b == root {
			continue
		}
		idom[b] = int(d.ID())
		if reverse && idom[b] == n {
			idom[b] = cfg.Exit
		}
	}
	return idom
}
