// svg.go writes a placed picture as a standalone SVG document: boxes by
// node class, branch edges solid, merge declarations dashed green,
// continue declarations dotted orange, and a legend under the drawing when
// either declaration appears. Colours are attributes, not CSS, so the same
// text works as a file of the findings store and inline in report.html.

package draw

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/internal/shown"
)

// Options configures SVG. The zero value draws without a title and draws
// pictures of up to 400 nodes (MaxNodes 0); larger ones become a note.
type Options struct {
	Title    string
	MaxNodes int
}

var nodeFill = map[NodeClass]string{Orig: "#fff", Heavy: "#fdd", Clone: "#def", Synth: "#eee"}

var edgeStyle = map[EdgeKind]string{
	Branch:   `stroke="#333"`,
	Merge:    `stroke="#2a7" stroke-dasharray="5 3"`,
	Continue: `stroke="#c60" stroke-dasharray="2 3"`,
}

const legendH = 22

// SVG draws p.
func (p *Picture) SVG(opt Options) string {
	limit := opt.MaxNodes
	if limit <= 0 {
		limit = 400
	}
	title := xmlText(opt.Title)
	if len(p.Nodes) == 0 || len(p.Nodes) > limit {
		return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="480" height="40" font-family="sans-serif" font-size="12"><text x="8" y="24">%s: %d nodes, %d edges (not drawn)</text></svg>`+"\n", title, len(p.Nodes), len(p.Edges))
	}
	l := p.Place()
	legend := p.has(Merge) || p.has(Continue)
	h := l.H
	if legend {
		h += legendH
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", max(l.W, 260), h)
	b.WriteString(`<defs><marker id="cfgfuzz-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="#333"/></marker></defs>` + "\n")
	if title != "" {
		fmt.Fprintf(&b, `<text x="8" y="15" font-size="12">%s</text>`+"\n", title)
	}
	for i, e := range p.Edges {
		writeEdge(&b, l.Paths[i], e)
	}
	for v, n := range p.Nodes {
		writeNode(&b, l.Boxes[v], n)
	}
	if legend {
		writeLegend(&b, l.H)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func writeEdge(b *strings.Builder, path []Point, e Edge) {
	var d strings.Builder
	for k, pt := range path {
		op := "L"
		if k == 0 {
			op = "M"
		}
		fmt.Fprintf(&d, "%s%.1f,%.1f", op, pt.X, pt.Y)
	}
	fmt.Fprintf(b, `<path d="%s" fill="none" %s marker-end="url(#cfgfuzz-arrow)"/>`+"\n", d.String(), edgeStyle[e.Kind])
	if e.Label != "" && len(path) >= 2 {
		x, y := labelAt(path, e.From == e.To)
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f" fill="#555" font-size="9">%s</text>`+"\n", x, y, xmlText(e.Label))
	}
}

// labelAt is where an edge's label goes: beside a self loop, else just
// below the port the edge leaves by, on the side it heads to.
func labelAt(path []Point, self bool) (float64, float64) {
	p, q := path[0], path[1]
	if self {
		return p.X + 18, p.Y + 10
	}
	dx := 2.0
	if q.X < p.X {
		dx = -8
	}
	return p.X + dx, p.Y + 10
}

func writeNode(b *strings.Builder, box Box, n Node) {
	dash := ""
	if n.Class == Synth {
		dash = ` stroke-dasharray="3 2"`
	}
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="%d" height="%d" rx="8" fill="%s" stroke="#333"%s/>`, box.X0, box.Y0, 2*RX, 2*RY, nodeFill[n.Class], dash)
	label := n.Label
	if r := []rune(label); len(r) > 9 {
		label = string(r[:8]) + "…"
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" text-anchor="middle"><title>%s</title>%s</text>`+"\n", (box.X0+box.X1)/2, (box.Y0+box.Y1)/2+4, xmlText(shown.Word(n.Label)), xmlText(label))
}

func writeLegend(b *strings.Builder, y float64) {
	y += 8
	fmt.Fprintf(b, `<path d="M10,%.0fL40,%.0f" %s/><text x="46" y="%.0f">merge</text>`, y, y, edgeStyle[Merge], y+4)
	fmt.Fprintf(b, `<path d="M100,%.0fL130,%.0f" %s/><text x="136" y="%.0f">continue</text>`+"\n", y, y, edgeStyle[Continue], y+4)
}

// xmlText is s escaped as XML character data, which is HTML's too: the
// characters XML does not allow (control characters, a NUL, invalid
// UTF-8), which a block's name or a title from a structurizer may hold,
// become U+FFFD, so a standalone SVG file stays well-formed.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
