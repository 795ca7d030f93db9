// dot.go writes a picture as Graphviz source, with the same labels and edge
// kinds as the SVG, so `dot -Tsvg` redraws it with Graphviz's layout.

package draw

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/internal/shown"
)

var dotNode = map[NodeClass]string{Orig: `fillcolor="#ffffff"`, Heavy: `fillcolor="#ffdddd"`, Clone: `fillcolor="#ddeeff"`, Synth: `fillcolor="#eeeeee" style="rounded,filled,dashed"`}

var dotEdge = map[EdgeKind]string{Merge: ` style=dashed color="#22aa77" constraint=false`, Continue: ` style=dotted color="#cc6600" constraint=false`}

// DOT is p as a Graphviz digraph named name.
func (p *Picture) DOT(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  node [shape=box style=\"rounded,filled\" fontname=sans];\n", strconv.Quote(name))
	for v, n := range p.Nodes {
		fmt.Fprintf(&b, "  n%d [label=%s %s];\n", v, strconv.Quote(shown.Word(n.Label)), dotNode[n.Class])
	}
	for _, e := range p.Edges {
		attr := dotEdge[e.Kind]
		if e.Label != "" {
			attr += " label=" + strconv.Quote(e.Label)
		}
		fmt.Fprintf(&b, "  n%d -> n%d [%s];\n", e.From, e.To, strings.TrimSpace(attr))
	}
	b.WriteString("}\n")
	return b.String()
}
