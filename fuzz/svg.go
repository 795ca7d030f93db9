// svg.go draws graphs as SVG for report.html with a small layered layout of
// its own: back edges found by depth-first search, layers by longest path
// over the remaining edges, one barycentre pass to order each layer, forward
// edges straight, back edges curved, merge and continue declarations dashed.
//
// Why not goccy/go-graphviz: it runs Graphviz compiled to WebAssembly
// through wazero, which compiles a multi-megabyte module before the first
// picture (seconds on a loaded two-core machine) for graphs of a few dozen
// blocks that a hundred lines lay out legibly. Reports must stay cheap to
// write at the end of every campaign and every shard.
package fuzz

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// drawing is a graph to draw: labelled nodes and typed edges.
type drawing struct {
	labels []string
	styles []string // node CSS class: orig, clone, synth, heavy
	edges  []drawEdge
}

type drawEdge struct {
	from, to int
	style    string // "" a branch, "merge", "continue"
	label    string
}

// graphDrawing is an input graph: block ids, heavy blocks marked, edge
// labels for the arms of conditionals (T/F) and switches (case numbers).
func graphDrawing(g *cfg.Graph) *drawing {
	d := &drawing{}
	for b := range g.Len() {
		l := fmt.Sprint(b)
		if w := g.Weight(b); w > 0 {
			l += fmt.Sprintf(" [%d]", w)
		}
		st := "orig"
		if g.Weight(b) >= 1000 {
			st = "heavy"
		}
		d.labels, d.styles = append(d.labels, l), append(d.styles, st)
		for k, t := range g.Succs[b] {
			d.edges = append(d.edges, drawEdge{from: b, to: t, label: armLabel(len(g.Succs[b]), k)})
		}
	}
	return d
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

// funcDrawing is a structured function: original blocks by id, clones
// primed, synthetic blocks by name, merge and continue declarations dashed.
func funcDrawing(f *structurizer.Func) *drawing {
	d := &drawing{}
	for i, b := range f.Blocks {
		var l, st string
		switch b.Kind {
		case structurizer.Original:
			l, st = fmt.Sprint(b.Orig), "orig"
		case structurizer.Clone:
			l, st = fmt.Sprintf("%d'", b.Orig), "clone"
		default:
			l, st = b.Name, "synth"
			if l == "" {
				l = fmt.Sprintf("s%d", i)
			}
		}
		d.labels, d.styles = append(d.labels, l), append(d.styles, st)
		for k, t := range b.Term.To {
			if t >= 0 && t < len(f.Blocks) {
				d.edges = append(d.edges, drawEdge{from: i, to: t, label: termLabel(b.Term, k)})
			}
		}
		switch b.Merge.Kind {
		case structurizer.SelectionMerge, structurizer.LoopMerge:
			if m := b.Merge.Merge; m >= 0 && m < len(f.Blocks) {
				d.edges = append(d.edges, drawEdge{from: i, to: m, style: "merge"})
			}
		}
		if b.Merge.Kind == structurizer.LoopMerge {
			if c := b.Merge.Continue; c >= 0 && c < len(f.Blocks) {
				d.edges = append(d.edges, drawEdge{from: i, to: c, style: "continue"})
			}
		}
	}
	return d
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

// layout assigns every node a layer and a position in it.
func (d *drawing) layout() (layer, pos []int, width int, depth int) {
	n := len(d.labels)
	succ := make([][]int, n)
	for _, e := range d.edges {
		if e.style == "" {
			succ[e.from] = append(succ[e.from], e.to)
		}
	}
	back := backEdges(n, succ)
	layer = make([]int, n)
	order := topoOrder(n, succ, back)
	for _, v := range order {
		for _, w := range succ[v] {
			if !back[[2]int{v, w}] && layer[w] < layer[v]+1 {
				layer[w] = layer[v] + 1
			}
		}
	}
	rows := map[int][]int{}
	for _, v := range order {
		rows[layer[v]] = append(rows[layer[v]], v)
		depth = max(depth, layer[v]+1)
	}
	pos = make([]int, n)
	for l := 0; l < depth; l++ {
		row := rows[l]
		bary := func(v int) float64 { // mean position of the predecessors above
			s, c := 0.0, 0
			for u := range n {
				if layer[u] < l && slices.Contains(succ[u], v) {
					s += float64(pos[u])
					c++
				}
			}
			if c == 0 {
				return float64(v)
			}
			return s / float64(c)
		}
		slices.SortStableFunc(row, func(a, b int) int {
			x, y := bary(a), bary(b)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
		for k, v := range row {
			pos[v] = k
		}
		width = max(width, len(row))
	}
	return layer, pos, width, depth
}

// backEdges finds the edges to a node on the depth-first search stack.
func backEdges(n int, succ [][]int) map[[2]int]bool {
	back := map[[2]int]bool{}
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	var visit func(v int)
	visit = func(v int) {
		state[v] = 1
		for _, w := range succ[v] {
			if state[w] == 1 {
				back[[2]int{v, w}] = true
			} else if state[w] == 0 {
				visit(w)
			}
		}
		state[v] = 2
	}
	for v := range n {
		if state[v] == 0 {
			visit(v)
		}
	}
	return back
}

// topoOrder orders the nodes so every forward edge goes later.
func topoOrder(n int, succ [][]int, back map[[2]int]bool) []int {
	indeg := make([]int, n)
	for v := range n {
		for _, w := range succ[v] {
			if !back[[2]int{v, w}] && v != w {
				indeg[w]++
			}
		}
	}
	var q, out []int
	for v := range n {
		if indeg[v] == 0 {
			q = append(q, v)
		}
	}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		out = append(out, v)
		for _, w := range succ[v] {
			if !back[[2]int{v, w}] && v != w {
				if indeg[w]--; indeg[w] == 0 {
					q = append(q, w)
				}
			}
		}
	}
	return out
}

const (
	svgDX, svgDY, svgR = 80, 64, 18
)

// SVG renders the drawing.
func (d *drawing) SVG() string {
	if len(d.labels) == 0 {
		return ""
	}
	layer, pos, width, depth := d.layout()
	xy := func(v int) (float64, float64) {
		return float64(40 + pos[v]*svgDX), float64(30 + layer[v]*svgDY)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`, 80+width*svgDX, 40+depth*svgDY)
	b.WriteString(`<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z"/></marker></defs>`)
	for _, e := range d.edges {
		x1, y1 := xy(e.from)
		x2, y2 := xy(e.to)
		cls := "e"
		if e.style != "" {
			cls = e.style
		}
		path := edgePath(x1, y1, x2, y2, e.from == e.to, layer[e.to] <= layer[e.from] && e.style == "")
		fmt.Fprintf(&b, `<path class="%s" d="%s" marker-end="url(#a)"/>`, cls, path)
		if e.label != "" {
			fmt.Fprintf(&b, `<text class="l" x="%.0f" y="%.0f">%s</text>`, (x1*2+x2)/3+4, (y1*2+y2)/3, html.EscapeString(e.label))
		}
	}
	for v, l := range d.labels {
		x, y := xy(v)
		fmt.Fprintf(&b, `<g class="%s"><ellipse cx="%.0f" cy="%.0f" rx="%d" ry="%d"/><text x="%.0f" y="%.0f" text-anchor="middle">%s</text></g>`,
			d.styles[v], x, y, svgR+8, svgR-4, x, y+4, html.EscapeString(l))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// edgePath is a straight line between node rims, a loop for a self edge,
// or a curve out to the right for an edge going up.
func edgePath(x1, y1, x2, y2 float64, self, up bool) string {
	switch {
	case self:
		return fmt.Sprintf("M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f", x1+svgR, y1-6, x1+svgR+30, y1-30, x1+svgR+30, y1+30, x1+svgR, y1+6)
	case up:
		bend := 40 + (y1-y2)/4
		return fmt.Sprintf("M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f", x1+svgR, y1, x1+svgR+bend, y1, x2+svgR+bend, y2, x2+svgR+4, y2)
	}
	dx, dy := x2-x1, y2-y1
	l := dx*dx + dy*dy
	if l == 0 {
		return ""
	}
	s := float64(svgR-2) / math.Sqrt(l)
	return fmt.Sprintf("M%.0f,%.0f L%.0f,%.0f", x1+dx*s, y1+dy*s, x2-dx*s, y2-dy*s)
}
