// route.go routes the edges so that no segment crosses a node box: a
// segment between two rows lies in the gap between their boxes, and a
// vertical channel lies outside the node area, so neither can meet a box.

package draw

// route fills l.Paths, one polyline per edge. Edges leave a box through
// ports spread over its bottom side and enter through ports spread over
// its top side, so an edge's label and arrow stay apart from its siblings'.
func (l *Layout) route(p *Picture) {
	var leftK, rightK int
	gapK := map[int]int{} // routed horizontals per gap, to spread them
	out, in := ports(p)
	l.Paths = make([][]Point, len(p.Edges))
	for i, e := range p.Edges {
		a, b := l.centre(e.From), l.centre(e.To)
		la, lb := l.Layer[e.From], l.Layer[e.To]
		if e.From == e.To {
			x := a.X + RX
			l.Paths[i] = []Point{{x, a.Y - 7}, {x + 16, a.Y - 7}, {x + 16, a.Y + 7}, {x, a.Y + 7}}
			continue
		}
		src, dst := Point{out[i], a.Y + RY}, Point{in[i], b.Y - RY}
		src.X += a.X
		dst.X += b.X
		if lb == la+1 {
			l.Paths[i] = []Point{src, dst}
			continue
		}
		if lb > la {
			s := []Point{src, dst}
			if !l.crosses(s) {
				l.Paths[i] = s
				continue
			}
		}
		var cx float64
		if lb > la {
			leftK++
			cx = l.MinX - float64(leftK)*lane
		} else {
			rightK++
			cx = l.MaxX + 10 + float64(rightK)*lane
		}
		below := l.gapY(la, gapK)
		above := l.gapY(lb-1, gapK)
		l.Paths[i] = []Point{src, {src.X, below}, {cx, below}, {cx, above}, {dst.X, above}, dst}
	}
}

// ports are each edge's horizontal offsets from the centres of its source
// (out) and target (in): a node's edges spread evenly over its width, in
// edge order, self edges aside.
func ports(p *Picture) (out, in []float64) {
	nOut, nIn := make([]int, len(p.Nodes)), make([]int, len(p.Nodes))
	for _, e := range p.Edges {
		if e.From != e.To {
			nOut[e.From]++
			nIn[e.To]++
		}
	}
	kOut, kIn := make([]int, len(p.Nodes)), make([]int, len(p.Nodes))
	out, in = make([]float64, len(p.Edges)), make([]float64, len(p.Edges))
	spread := func(k, n int) float64 { return float64(2*RX)*float64(k+1)/float64(n+1) - RX }
	for i, e := range p.Edges {
		if e.From == e.To {
			continue
		}
		out[i] = spread(kOut[e.From], nOut[e.From])
		in[i] = spread(kIn[e.To], nIn[e.To])
		kOut[e.From]++
		kIn[e.To]++
	}
	return out, in
}

// gapY is the y of a new horizontal in the gap below row r (r = -1: above
// the first row), spread over the gap so parallel edges stay apart.
func (l *Layout) gapY(r int, used map[int]int) float64 {
	k := used[r]
	used[r]++
	room := DY - 2*RY - 2*gapPad
	off := float64(gapPad) + float64((k*lane)%room)
	return l.Top + float64(r)*DY + RY + off
}

// crosses says whether the polyline s meets the inside of any box.
func (l *Layout) crosses(s []Point) bool {
	for k := 0; k+1 < len(s); k++ {
		for _, b := range l.Boxes {
			if SegmentHitsBox(s[k], s[k+1], b) {
				return true
			}
		}
	}
	return false
}

// SegmentHitsBox says whether the segment p-q passes through the open
// inside of box b (touching its rim does not count): Liang-Barsky clipping
// of the segment against the box shrunk by a small margin.
func SegmentHitsBox(p, q Point, b Box) bool {
	const eps = 0.5
	x0, y0, x1, y1 := b.X0+eps, b.Y0+eps, b.X1-eps, b.Y1-eps
	dx, dy := q.X-p.X, q.Y-p.Y
	t0, t1 := 0.0, 1.0
	for _, c := range [4][2]float64{{-dx, p.X - x0}, {dx, x1 - p.X}, {-dy, p.Y - y0}, {dy, y1 - p.Y}} {
		pk, qk := c[0], c[1]
		if pk == 0 {
			if qk < 0 {
				return false
			}
			continue
		}
		t := qk / pk
		if pk < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
