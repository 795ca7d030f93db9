// pdom.go: the `pdom` check. The graph package's dominator and
// post-dominator trees (semi-NCA) on the input graph are compared with two
// independent computations:
//
//   - the brute-force definitions (cfg.RefDominates, cfg.RefPostDominates,
//     cfg.RefIDom): a dominates b iff removing a cuts b off the entry;
//     immediate dominators and the trees' Dominates queries on every pair;
//     O(n·(n+e)), so in full only for graphs of at most PdomBruteForceLimit
//     blocks, on a sample of PdomSampleBlocks blocks above
//     (pdom_sample.go);
//   - gonum's Lengauer-Tarjan (graph/flow.Dominators) on the graph, and on
//     its reverse with a virtual exit wired to every returning block, for
//     every graph.
//
// Blocks outside a tree (unreachable, or stuck in an exit-less cycle for
// post-dominators) must be outside it in every computation.

package oracle

import (
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/flow"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
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
	if g.Len() > PdomBruteForceLimit {
		detail = fmt.Sprintf("a sample of %d blocks by definition, and gonum", PdomSampleBlocks)
		if v, bad := o.checkPdomSampled(g, dom, pdom); bad {
			return v
		}
	}
	if b, want, ok := sameIDom(dom.IDom, gonumIDom(g, false)); !ok {
		return pdomFail(SigIDomLib, "idom", b, dom.IDom[b], want)
	}
	if b, want, ok := sameIDom(pdom.IDom, gonumIDom(g, true)); !ok {
		return pdomFail(SigIPDomLib, "ipdom", b, pdom.IDom[b], want)
	}
	return Verdict{Status: Pass, Detail: strconv.Itoa(g.Len()) + " blocks against " + detail}
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
// post-dominator that is the virtual exit becomes cfg.Exit. The graph is
// handed to gonum as a view of g's lists (cfgView), not copied into a
// simple.DirectedGraph and its maps; gonumIDomSimple does that, the
// reference the view is tested against.
func gonumIDom(g *cfg.Graph, reverse bool) []int {
	return idomFromTree(g.Len(), reverse, flow.Dominators(simple.Node(viewRoot(g, reverse)), newCFGView(g, reverse)))
}

// gonumIDomSimple is gonumIDom on a simple.DirectedGraph copy of the graph.
func gonumIDomSimple(g *cfg.Graph, reverse bool) []int {
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
	return idomFromTree(n, reverse, flow.Dominators(simple.Node(viewRoot(g, reverse)), dg))
}

// viewRoot is the root of the (reverse) dominator tree: block 0, or the
// virtual exit n.
func viewRoot(g *cfg.Graph, reverse bool) int {
	if reverse {
		return g.Len()
	}
	return 0
}

// idomFromTree reads the immediate dominators of blocks 0..n-1 off gonum's
// tree.
func idomFromTree(n int, reverse bool, tree flow.DominatorTree) []int {
	root := 0
	if reverse {
		root = n
	}
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

// cfgView is a graph as gonum's graph.Directed sees it: nodes 0..n (n the
// virtual exit), the edges of g without self-loops or repeats, reversed
// and with the exit wired to every returning block when reverse. The
// iterators over each node's successors are made in one array: From hands
// out a node's own the first time (Lengauer-Tarjan asks once a node), a
// fresh one after.
type cfgView struct {
	out, in [][]graph.Node
	from    []successorIterator // by node, made at the first From
}

// successorIterator is one node's iterator over its successors, and
// whether From handed it out.
type successorIterator struct {
	it    iterator.OrderedNodes
	given bool
}

var _ graph.Directed = (*cfgView)(nil)

func newCFGView(g *cfg.Graph, reverse bool) *cfgView {
	n := g.Len()
	// Each list's room (its edges before repeats are dropped), then every
	// list cut from one array.
	room := make([]int, 2*(n+1))
	outRoom, inRoom := room[:n+1], room[n+1:]
	edge := func(f, t int) { outRoom[f]++; inRoom[t]++ }
	for b, succ := range g.Succs {
		if reverse && len(succ) == 0 {
			edge(n, b)
		}
		for _, t := range succ {
			switch {
			case t == b:
			case reverse:
				edge(t, b)
			default:
				edge(b, t)
			}
		}
	}
	node := make([]graph.Node, n+1)
	for i := range node {
		node[i] = simple.Node(i)
	}
	lists := make([][]graph.Node, 2*(n+1))
	v := &cfgView{out: lists[:n+1], in: lists[n+1:]}
	total := 0
	for _, k := range room {
		total += k
	}
	store := make([]graph.Node, 0, total)
	for i, k := range room {
		lists[i] = store[len(store) : len(store) : len(store)+k]
		store = store[:len(store)+k]
	}
	add := func(f, t int) {
		v.out[f] = append(v.out[f], node[t])
		v.in[t] = append(v.in[t], node[f])
	}
	// An edge repeats only within one block's list: seen[t] == b+1 marks
	// t met in b's list (linear, where a search of the lists was quadratic
	// in a block's edges and in the virtual exit's).
	seen := make([]int, n)
	for b, succ := range g.Succs {
		if reverse && len(succ) == 0 {
			add(n, b)
		}
		for _, t := range succ {
			if t == b || seen[t] == b+1 {
				continue
			}
			seen[t] = b + 1
			if reverse {
				add(t, b)
			} else {
				add(b, t)
			}
		}
	}
	return v
}

func (v *cfgView) has(id int64) bool { return id >= 0 && id < int64(len(v.out)) }

func (v *cfgView) Node(id int64) graph.Node {
	if !v.has(id) {
		return nil
	}
	return simple.Node(id)
}

func (v *cfgView) Nodes() graph.Nodes {
	nodes := make([]graph.Node, len(v.out))
	for i := range nodes {
		nodes[i] = simple.Node(i)
	}
	return iterator.NewOrderedNodes(nodes)
}

func (v *cfgView) From(id int64) graph.Nodes {
	if !v.has(id) {
		return graph.Empty
	}
	if v.from == nil {
		v.from = make([]successorIterator, len(v.out))
	}
	f := &v.from[id]
	if f.given {
		return iterator.NewOrderedNodes(v.out[id])
	}
	f.it, f.given = *iterator.NewOrderedNodes(v.out[id]), true
	return &f.it
}

func (v *cfgView) To(id int64) graph.Nodes {
	if !v.has(id) {
		return graph.Empty
	}
	return iterator.NewOrderedNodes(v.in[id])
}

func (v *cfgView) HasEdgeFromTo(uid, vid int64) bool {
	if !v.has(uid) {
		return false
	}
	for _, x := range v.out[uid] {
		if x.ID() == vid {
			return true
		}
	}
	return false
}

func (v *cfgView) HasEdgeBetween(xid, yid int64) bool {
	return v.HasEdgeFromTo(xid, yid) || v.HasEdgeFromTo(yid, xid)
}

func (v *cfgView) Edge(uid, vid int64) graph.Edge {
	if !v.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return simple.Edge{F: simple.Node(uid), T: simple.Node(vid)}
}
