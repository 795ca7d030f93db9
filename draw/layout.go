// layout.go places the nodes: back edges by depth-first search from the
// entry, layers by longest path over the remaining branch edges, each
// layer ordered by the mean position of its predecessors (one barycentre
// pass), rows centred.

package draw

import (
	"slices"
)

// Sizes of the drawing, in pixels.
const (
	DX     = 84 // distance between node centres in a row
	DY     = 72 // distance between rows
	RX, RY = 26, 13
	gapPad = 6 // first routed horizontal, off a row's boxes
	lane   = 5 // distance between routed horizontals and channels
)

// Point is a position in the drawing.
type Point struct{ X, Y float64 }

// Box is a node's rectangle.
type Box struct{ X0, Y0, X1, Y1 float64 }

// Layout is a placed and routed picture.
type Layout struct {
	Boxes  []Box
	Layer  []int
	Paths  [][]Point // one polyline per edge of the picture, in order
	W, H   float64
	Top    float64 // y of the first row's centre
	MinX   float64 // left edge of the node area
	MaxX   float64 // right edge of the node area
	layers int
}

// centre is node v's centre.
func (l *Layout) centre(v int) Point {
	b := l.Boxes[v]
	return Point{(b.X0 + b.X1) / 2, (b.Y0 + b.Y1) / 2}
}

// branchSuccs is each node's branch successors.
func (p *Picture) branchSuccs() [][]int {
	succ := make([][]int, len(p.Nodes))
	for _, e := range p.Edges {
		if e.Kind == Branch {
			succ[e.From] = append(succ[e.From], e.To)
		}
	}
	return succ
}

// layers assigns each node its layer by longest path over forward edges.
func layers(n int, succ [][]int) []int {
	back := backEdges(n, succ)
	layer := make([]int, n)
	for _, v := range topoOrder(n, succ, back) {
		for _, w := range succ[v] {
			if !back[[2]int{v, w}] && v != w && layer[w] < layer[v]+1 {
				layer[w] = layer[v] + 1
			}
		}
	}
	return layer
}

// backEdges finds the edges to a node on the depth-first search stack,
// searching from the entry first.
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
	fwd := func(v, w int) bool { return !back[[2]int{v, w}] && v != w }
	for v := range n {
		for _, w := range succ[v] {
			if fwd(v, w) {
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
			if fwd(v, w) {
				if indeg[w]--; indeg[w] == 0 {
					q = append(q, w)
				}
			}
		}
	}
	return out
}

// rows orders each layer's nodes by the barycentre of their predecessors
// in earlier layers.
func rows(layer []int, succ [][]int) [][]int {
	depth := 0
	for _, l := range layer {
		depth = max(depth, l+1)
	}
	out := make([][]int, depth)
	for v, l := range layer {
		out[l] = append(out[l], v)
	}
	pos := make([]float64, len(layer))
	for l, row := range out {
		bary := map[int]float64{}
		for _, v := range row {
			s, c := 0.0, 0
			for u := range layer {
				if layer[u] < l && slices.Contains(succ[u], v) {
					s += pos[u]
					c++
				}
			}
			bary[v] = float64(v) / float64(len(layer)+1)
			if c > 0 {
				bary[v] = s / float64(c)
			}
		}
		slices.SortStableFunc(row, func(a, b int) int {
			switch {
			case bary[a] < bary[b]:
				return -1
			case bary[a] > bary[b]:
				return 1
			}
			return 0
		})
		for k, v := range row {
			pos[v] = float64(k) - float64(len(row)-1)/2
		}
	}
	return out
}

// Place lays the picture out and routes its edges.
func (p *Picture) Place() *Layout {
	n := len(p.Nodes)
	succ := p.branchSuccs()
	layer := layers(n, succ)
	rs := rows(layer, succ)
	width := 1
	for _, r := range rs {
		width = max(width, len(r))
	}
	left, right := p.channelCounts(layer)
	l := &Layout{Boxes: make([]Box, n), Layer: layer, layers: len(rs)}
	l.MinX = 10 + float64(left)*lane
	l.MaxX = l.MinX + float64(width)*DX
	l.Top = 20 + RY + DY/2
	for li, r := range rs {
		off := l.MinX + DX/2 + float64(width-len(r))*DX/2
		for k, v := range r {
			x, y := off+float64(k)*DX, l.Top+float64(li)*DY
			l.Boxes[v] = Box{x - RX, y - RY, x + RX, y + RY}
		}
	}
	l.W = l.MaxX + 10 + float64(right)*lane + 10
	l.H = l.Top + float64(len(rs)-1)*DY + DY/2 + 10
	l.route(p)
	return l
}

// channelCounts is how many edges may take the left channel (long
// forward edges) and the right one (edges going up or sideways).
func (p *Picture) channelCounts(layer []int) (left, right int) {
	for _, e := range p.Edges {
		switch {
		case e.From == e.To:
		case layer[e.To] <= layer[e.From]:
			right++
		case layer[e.To] > layer[e.From]+1:
			left++
		}
	}
	return left + 1, right + 1
}
