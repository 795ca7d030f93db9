// svg.go: a small in-process SVG renderer for the findings store's before
// and after pictures. It lays blocks out in layers by breadth-first depth
// from the entry (a simplified Sugiyama layering, no crossing reduction),
// draws forward edges straight and edges to the same or an earlier layer
// (back edges, most of them) as curves, and labels conditional arms T/F and
// switch cases d/1/2/... It is written here rather than through
// goccy/go-graphviz because that runs Graphviz compiled to WebAssembly
// (wazero), which costs seconds of start-up and megabytes per picture in
// the middle of a campaign, and because minimized findings are a handful of
// blocks, where a plain layered drawing reads as well. Package fuzz has its
// own (fuzz/svg.go, for report.html), but it is unexported and corpus cannot
// import fuzz: fuzz's harnesses import corpus. The two should become one
// package below both (e.g. structurizer/cfg/draw); until then this one is
// kept small.
package corpus

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// SVGOptions configures SVG. The zero value draws without a title; graphs
// over MaxBlocks (0: 400) are drawn as a note saying so.
type SVGOptions struct {
	Title     string
	MaxBlocks int
}

const (
	svgDX, svgDY, svgR = 70, 70, 18
)

// SVG draws g as a standalone SVG document.
func SVG(g *cfg.Graph, opt SVGOptions) string {
	limit := opt.MaxBlocks
	if limit <= 0 {
		limit = 400
	}
	var sb strings.Builder
	if g.Len() > limit {
		fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="60"><text x="10" y="30" font-family="monospace" font-size="12">%s: %d blocks, %d edges (too large to draw)</text></svg>`+"\n",
			html.EscapeString(opt.Title), g.Len(), g.Edges())
		return sb.String()
	}
	pos, w, h := layout(g)
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">`+"\n", w, h+30)
	sb.WriteString(`<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>` + "\n")
	fmt.Fprintf(&sb, `<text x="8" y="16" font-size="12">%s</text>`+"\n", html.EscapeString(opt.Title))
	for b, s := range g.Succs {
		for i, t := range s {
			drawEdge(&sb, pos[b], pos[t], b == t, edgeLabel(len(s), i))
		}
	}
	for b := range g.Succs {
		drawNode(&sb, g, b, pos[b])
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}

type point struct{ x, y float64 }

// layout places block b in layer depth(b), in id order within a layer;
// unreachable blocks go to a last layer. It returns the positions and the
// picture's size.
func layout(g *cfg.Graph) ([]point, int, int) {
	depth := bfsDepth(g)
	layers := map[int][]int{}
	maxDepth := 0
	for b, d := range depth {
		layers[d] = append(layers[d], b)
		maxDepth = max(maxDepth, d)
	}
	widest := 1
	for _, l := range layers {
		widest = max(widest, len(l))
	}
	width := widest*svgDX + 2*svgDX
	pos := make([]point, g.Len())
	for d, l := range layers {
		off := float64(width-len(l)*svgDX)/2 + svgDX/2
		for i, b := range l {
			pos[b] = point{off + float64(i*svgDX), float64(40 + d*svgDY)}
		}
	}
	return pos, width, 40 + (maxDepth+1)*svgDY
}

// bfsDepth is each block's distance from the entry; unreachable blocks get
// one more than the deepest.
func bfsDepth(g *cfg.Graph) []int {
	depth := make([]int, g.Len())
	for i := range depth {
		depth[i] = -1
	}
	depth[0] = 0
	queue, deepest := []int{0}, 0
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		for _, t := range g.Succs[b] {
			if depth[t] < 0 {
				depth[t] = depth[b] + 1
				deepest = max(deepest, depth[t])
				queue = append(queue, t)
			}
		}
	}
	for i := range depth {
		if depth[i] < 0 {
			depth[i] = deepest + 1
		}
	}
	return depth
}

func edgeLabel(degree, i int) string {
	switch {
	case degree == 2 && i == 0:
		return "T"
	case degree == 2:
		return "F"
	case degree >= 3 && i == 0:
		return "d"
	case degree >= 3:
		return fmt.Sprint(i)
	}
	return ""
}

// drawEdge draws one edge from a to b, ending on b's circle.
func drawEdge(sb *strings.Builder, a, b point, self bool, label string) {
	const back = `stroke="#b03030" fill="none"`
	const fwd = `stroke="#333" fill="none"`
	switch {
	case self:
		fmt.Fprintf(sb, `<path d="M%.0f,%.0f c30,-30 30,30 0,%d" %s marker-end="url(#a)"/>`+"\n", a.x+svgR*0.7, a.y-svgR*0.7, svgR*7/5, back)
		writeLabel(sb, a.x+svgR+18, a.y, label)
	case b.y > a.y:
		s, e := shorten(a, b)
		fmt.Fprintf(sb, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" %s marker-end="url(#a)"/>`+"\n", s.x, s.y, e.x, e.y, fwd)
		writeLabel(sb, (s.x*2+e.x)/3+6, (s.y*2+e.y)/3, label)
	default:
		s, e := shorten(a, b)
		cx, cy := (s.x+e.x)/2+svgDX*0.8, (s.y+e.y)/2
		fmt.Fprintf(sb, `<path d="M%.0f,%.0f Q%.0f,%.0f %.0f,%.0f" %s marker-end="url(#a)"/>`+"\n", s.x, s.y, cx, cy, e.x, e.y, back)
		writeLabel(sb, (s.x+cx)/2+4, (s.y+cy)/2, label)
	}
}

func writeLabel(sb *strings.Builder, x, y float64, label string) {
	if label != "" {
		fmt.Fprintf(sb, `<text x="%.0f" y="%.0f" fill="#555">%s</text>`+"\n", x, y, label)
	}
}

// shorten moves the ends of a-b onto the two circles.
func shorten(a, b point) (point, point) {
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Sqrt(dx*dx + dy*dy)
	if l < 1 {
		return a, b
	}
	ux, uy := dx/l, dy/l
	return point{a.x + ux*svgR, a.y + uy*svgR}, point{b.x - ux*svgR, b.y - uy*svgR}
}

// drawNode draws block b: a circle with its id, its name and weight below.
func drawNode(sb *strings.Builder, g *cfg.Graph, b int, p point) {
	fill := "#fff"
	switch {
	case b == 0:
		fill = "#dfe8ff"
	case len(g.Succs[b]) == 0:
		fill = "#e4f4e0"
	}
	fmt.Fprintf(sb, `<circle cx="%.0f" cy="%.0f" r="%d" fill="%s" stroke="#333"/>`+"\n", p.x, p.y, svgR, fill)
	fmt.Fprintf(sb, `<text x="%.0f" y="%.0f" text-anchor="middle">%d</text>`+"\n", p.x, p.y+4, b)
	var sub []string
	if n := g.Name(b); n != "" {
		sub = append(sub, n)
	}
	if w := g.Weight(b); w != 0 {
		sub = append(sub, fmt.Sprintf("w=%d", w))
	}
	if len(sub) > 0 {
		fmt.Fprintf(sb, `<text x="%.0f" y="%.0f" text-anchor="middle" font-size="9" fill="#555">%s</text>`+"\n", p.x, p.y+svgR+10, html.EscapeString(strings.Join(sub, " ")))
	}
}
