// Package draw is cfgfuzz's one graph renderer, used by report.html and by
// the findings store: it turns an input graph (a cfg.Graph) or a structured
// function (a structurizer.Func) into a Picture, lays it out in layers, and
// writes it as SVG (with a legend for merge and continue declarations) or
// as Graphviz source (DOT), so a user can redraw any picture with dot.
//
// The layout is a small Sugiyama-style layering (graph.go, layout.go):
// back edges found by depth-first search from the entry, layers by longest
// path over the other branch edges, one barycentre pass to order each
// layer. Edges are routed so that no segment crosses a node box
// (route.go): an edge between adjacent layers is one straight segment in
// the gap between the two rows; any other edge is a straight segment when
// that one misses every box, and otherwise runs through the gap below its
// source row, along a channel outside the node area and through the gap
// above its target row. Gaps and channels hold no boxes by construction.
//
// It is written here rather than through goccy/go-graphviz because that
// runs Graphviz compiled to WebAssembly, which costs seconds of start-up
// per process for graphs that a hundred lines lay out legibly; the .dot
// file beside every picture is there for users who want Graphviz's layout.
package draw
