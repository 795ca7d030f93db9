package draw

import (
	"encoding/xml"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// randomGraph is a graph of n blocks whose blocks have 0 to 3 successors
// anywhere in the graph (loops, self edges, switches), block n-1 the exit.
func randomGraph(r *rand.Rand, n int) *cfg.Graph {
	succs := make([][]int, n)
	for b := 0; b < n-1; b++ {
		k := 1 + r.IntN(3)
		if r.IntN(4) == 0 {
			k = 0
		}
		for range k {
			succs[b] = append(succs[b], r.IntN(n))
		}
	}
	return cfg.FromSuccs(succs)
}

// checkNoEdgeThroughNode fails when a drawn segment of p meets the inside
// of any node box, the edge's own ends included (edges start and end on
// the rims).
func checkNoEdgeThroughNode(t *testing.T, what string, p *Picture) {
	t.Helper()
	l := p.Place()
	for i, path := range l.Paths {
		if len(path) < 2 {
			t.Fatalf("%s: edge %d (%d->%d) has no segment", what, i, p.Edges[i].From, p.Edges[i].To)
		}
		for k := 0; k+1 < len(path); k++ {
			for v, b := range l.Boxes {
				if SegmentHitsBox(path[k], path[k+1], b) {
					t.Fatalf("%s: edge %d->%d segment %v-%v crosses node %d's box %v", what, p.Edges[i].From, p.Edges[i].To, path[k], path[k+1], v, b)
				}
			}
		}
	}
}

func TestNoEdgeThroughNode(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 22))
	funcs := 0
	for i := range 400 {
		g := randomGraph(r, 2+r.IntN(24))
		checkNoEdgeThroughNode(t, "graph "+cfg.FormatCompact(g), FromGraph(g))
		if i%4 != 0 {
			continue
		}
		if res, err := structurizer.Structured(g, structurizer.Options{}); err == nil && res.Func != nil {
			funcs++
			checkNoEdgeThroughNode(t, "func of "+cfg.FormatCompact(g), FromFunc(res.Func))
		}
	}
	if funcs == 0 {
		t.Fatal("no structured function was drawn")
	}
}

// The check itself finds a segment through a box.
func TestSegmentHitsBox(t *testing.T) {
	b := Box{0, 0, 10, 10}
	for _, c := range []struct {
		p, q Point
		hit  bool
	}{
		{Point{-5, 5}, Point{15, 5}, true},
		{Point{5, -5}, Point{5, 15}, true},
		{Point{-5, -5}, Point{15, 15}, true},
		{Point{5, 10}, Point{5, 30}, false}, // from the rim outwards
		{Point{-5, 12}, Point{15, 12}, false},
		{Point{12, -5}, Point{12, 15}, false},
		{Point{-5, 6}, Point{6, -5}, true},
		{Point{-5, 4}, Point{4, -5}, false},
	} {
		if got := SegmentHitsBox(c.p, c.q, b); got != c.hit {
			t.Errorf("%v-%v: hit %v, want %v", c.p, c.q, got, c.hit)
		}
	}
}

// A long forward edge past a node in between is routed round it.
func TestLongEdgeRoutedAroundNode(t *testing.T) {
	p := FromGraph(cfg.FromSuccs([][]int{{1, 2}, {2}, {}}))
	l := p.Place()
	if e := p.Edges[1]; e.From != 0 || e.To != 2 || len(l.Paths[1]) < 3 {
		t.Fatalf("edge %d->%d drawn straight through node 1: %v", e.From, e.To, l.Paths[1])
	}
	checkNoEdgeThroughNode(t, "diamond", p)
}

func TestLegendAndDOT(t *testing.T) {
	f := &structurizer.Func{Blocks: []structurizer.Block{
		{Kind: structurizer.Original, Orig: 0, Term: structurizer.Term{Kind: structurizer.Choose, To: []int{1, 2}}, Merge: structurizer.Merge{Kind: structurizer.SelectionMerge, Merge: 2}},
		{Kind: structurizer.Original, Orig: 1, Term: structurizer.Term{Kind: structurizer.Choose, To: []int{2}}},
		{Kind: structurizer.Original, Orig: 2, Term: structurizer.Term{Kind: structurizer.Return}},
	}}
	svg := FromFunc(f).SVG(Options{Title: "after"})
	for _, want := range []string{">merge</text>", ">continue</text>", `stroke-dasharray="5 3"`, "<title>2</title>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q:\n%s", want, svg)
		}
	}
	if g := FromGraph(cfg.FromSuccs([][]int{{1}, {}})).SVG(Options{}); strings.Contains(g, ">merge</text>") {
		t.Errorf("a graph without declarations has a legend:\n%s", g)
	}
	dot := FromFunc(f).DOT("after")
	for _, want := range []string{`digraph "after" {`, `n0 -> n1 [label="T"];`, `n0 -> n2 [style=dashed color="#22aa77" constraint=false];`, `n2 [label="2"`} {
		if !strings.Contains(dot, want) {
			t.Errorf("dot lacks %q:\n%s", want, dot)
		}
	}
}

// Labels are escaped and cut on rune boundaries: every picture is
// well-formed XML and valid UTF-8, whatever the block names and title
// (control characters, NUL and invalid UTF-8 included, which a
// structurizer's answer can hold).
func TestSVGWellFormed(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	for range 50 {
		g := randomGraph(r, 2+r.IntN(12))
		g.Names = make([]string, g.Len())
		g.Names[0] = `a<b&"c"`
		g.Names[1] = "\x1b[31m\x00\x07\xff]]>"
		g.Names[g.Len()-1] = "ééééééééééé"
		s := FromGraph(g).SVG(Options{Title: "t<1>\x1b\x0b"})
		if !utf8.ValidString(s) {
			t.Fatalf("%s: invalid UTF-8", cfg.FormatCompact(g))
		}
		d := xml.NewDecoder(strings.NewReader(s))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v\n%s", cfg.FormatCompact(g), err, s)
			}
		}
	}
}
