// graph.go defines a Picture (labelled nodes, typed edges) and builds one
// from an input graph or from a structured function: "before" is always
// the input graph, "after" always the structurizer's function.

package draw

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// EdgeKind says what an edge is.
type EdgeKind int

const (
	Branch   EdgeKind = iota // a control-flow edge
	Merge                    // a selection or loop merge declaration
	Continue                 // a loop's continue target declaration
)

// NodeClass is how a node is drawn.
type NodeClass string

const (
	Orig  NodeClass = "orig"  // a block of the input graph
	Heavy NodeClass = "heavy" // an input block of weight 1000 or more
	Clone NodeClass = "clone" // a copy of an input block
	Synth NodeClass = "synth" // a block the structurizer made up
)

// Node is one box.
type Node struct {
	Label string
	Class NodeClass
}

// Edge is one arrow from node From to node To.
type Edge struct {
	From, To int
	Kind     EdgeKind
	Label    string // T/F for conditional arms, case values for switches
}

// Picture is a graph to draw; node 0 is the entry.
type Picture struct {
	Nodes []Node
	Edges []Edge
}

// FromGraph is an input graph: block ids, weights in brackets, heavy
// blocks marked, arms labelled T/F (conditionals) or def/1/2/... (switches).
func FromGraph(g *cfg.Graph) *Picture {
	p := &Picture{}
	for b := range g.Len() {
		l, c := fmt.Sprint(b), Orig
		if n := g.Name(b); n != "" {
			l += " " + n
		}
		if w := g.Weight(b); w > 0 {
			l += fmt.Sprintf(" [%d]", w)
		}
		if g.Weight(b) >= 1000 {
			c = Heavy
		}
		p.Nodes = append(p.Nodes, Node{Label: l, Class: c})
		for k, t := range g.Succs[b] {
			if t >= 0 && t < g.Len() {
				p.Edges = append(p.Edges, Edge{From: b, To: t, Label: armLabel(len(g.Succs[b]), k)})
			}
		}
	}
	return p
}

func armLabel(n, k int) string {
	switch {
	case n < 2:
		return ""
	case n == 2 && k == 0:
		return "T"
	case n == 2:
		return "F"
	case k == 0:
		return "def"
	}
	return fmt.Sprint(k)
}

// FromFunc is a structured function: original blocks by id, clones
// primed, synthetic blocks by name, merge and continue declarations as
// their own edge kinds.
func FromFunc(f *structurizer.Func) *Picture {
	p := &Picture{}
	in := func(t int) bool { return t >= 0 && t < len(f.Blocks) }
	for i, b := range f.Blocks {
		p.Nodes = append(p.Nodes, funcNode(i, &b))
		for k, t := range b.Term.To {
			if in(t) {
				p.Edges = append(p.Edges, Edge{From: i, To: t, Label: termLabel(b.Term, k)})
			}
		}
		switch b.Merge.Kind {
		case structurizer.SelectionMerge, structurizer.LoopMerge:
			if in(b.Merge.Merge) {
				p.Edges = append(p.Edges, Edge{From: i, To: b.Merge.Merge, Kind: Merge})
			}
		}
		if b.Merge.Kind == structurizer.LoopMerge && in(b.Merge.Continue) {
			p.Edges = append(p.Edges, Edge{From: i, To: b.Merge.Continue, Kind: Continue})
		}
	}
	return p
}

func funcNode(i int, b *structurizer.Block) Node {
	switch b.Kind {
	case structurizer.Original:
		return Node{Label: fmt.Sprint(b.Orig), Class: Orig}
	case structurizer.Clone:
		return Node{Label: fmt.Sprintf("%d'", b.Orig), Class: Clone}
	}
	if b.Name != "" {
		return Node{Label: b.Name, Class: Synth}
	}
	return Node{Label: fmt.Sprintf("s%d", i), Class: Synth}
}

func termLabel(t structurizer.Term, k int) string {
	switch t.Kind {
	case structurizer.Choose:
		return armLabel(len(t.To), k)
	case structurizer.Test:
		if k == 0 {
			return "="
		}
		return "≠"
	case structurizer.Route:
		if k == 0 {
			return "def"
		}
		if k-1 < len(t.Values) {
			return fmt.Sprint(t.Values[k-1])
		}
	}
	return ""
}

// has says whether the picture has an edge of kind k.
func (p *Picture) has(k EdgeKind) bool {
	for _, e := range p.Edges {
		if e.Kind == k {
			return true
		}
	}
	return false
}
