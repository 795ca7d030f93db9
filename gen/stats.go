// stats.go: the distribution summary of a batch of graphs, as `cfgfuzz gen
// --stats` prints it and the generators' file comments document it.
//
// Loops are those of the loop nesting forest (cfg.LoopForest: non-trivial
// strongly connected components, nested by removing the edges into each
// loop's entries). A loop's exit targets are the distinct blocks outside
// it that its blocks branch to; its back edges are the edges from its
// blocks to its entries (a self-loop is one).

package gen

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Histogram counts occurrences of small non-negative values: h[v] is how
// often v was seen.
type Histogram []int

// Add counts one occurrence of v (negative values count as 0).
func (h *Histogram) Add(v int) {
	v = max(v, 0)
	for len(*h) <= v {
		*h = append(*h, 0)
	}
	(*h)[v]++
}

// Total is the number of occurrences counted.
func (h Histogram) Total() int {
	t := 0
	for _, c := range h {
		t += c
	}
	return t
}

// Format writes the shares of the values from lo, merging values >= top
// into "top+" (top <= 0: no merging).
func (h Histogram) Format(lo, top int) string {
	total := h.Total()
	if total == 0 {
		return "-"
	}
	var parts []string
	for v := lo; v < len(h); v++ {
		c, label := h[v], fmt.Sprint(v)
		if top > 0 && v == top {
			c, label = 0, fmt.Sprintf("%d+", v)
			for _, x := range h[v:] {
				c += x
			}
		}
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%s: %.1f%%", label, pct(c, total)))
		}
		if top > 0 && v == top {
			break
		}
	}
	return strings.Join(parts, "  ")
}

func pct(c, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(c) / float64(total)
}

// Stats summarizes a batch of items. The zero value is an empty summary.
type Stats struct {
	Graphs int
	Blocks Histogram // blocks per graph
	Edges  int       // successor entries, summed

	WithLoop, WithSelfLoop  int                // graphs with a loop; with a self-loop
	LoopDepth               Histogram          // deepest loop nesting per graph (0: no loop)
	Loops                   int                // loops in all graphs
	LoopExits               Histogram          // distinct exit targets per loop
	BackEdges               Histogram          // back edges per loop
	WithSwitch, WithDupCase int                // graphs with a switch; with a switch with a duplicate case
	WithDupArm              int                // graphs with a conditional whose arms agree
	Returns                 Histogram          // returning blocks per graph
	Irreducible             int                // graphs with a multi-entry loop
	NonTerminating          int                // graphs with a reachable block that cannot return
	Unreachable             int                // graphs with an unreachable block
	Weighted, Heavy         int                // graphs with a weight; with a block at HeavyWords
	Programs                int                // items with program text
	Shapes                  [NumShapes]int     // graphs with each shape (shapes.go)
	Constructs              [NumConstructs]int // programs containing each construct
	ReturnDepth             Histogram          // deepest return nesting per program with a return
}

// Add counts one item.
func (s *Stats) Add(it Item) {
	g := it.Graph
	s.Graphs++
	s.Blocks.Add(g.Len())
	s.Edges += g.Edges()
	s.addShape(g)
	s.addLoops(g)
	for sh, ok := range ShapesOf(g) {
		s.Shapes[sh] += b2i(ok)
	}
	if it.Program != "" {
		s.Programs++
		for c, k := range it.Constructs.Count {
			if k > 0 {
				s.Constructs[c]++
			}
		}
		if it.Constructs.Count[ConstructReturn] > 0 {
			s.ReturnDepth.Add(it.Constructs.ReturnDepth)
		}
	}
}

func (s *Stats) addShape(g *cfg.Graph) {
	var self, sw, dupCase, dupArm, weighted, heavy bool
	returns := 0
	for b, succ := range g.Succs {
		self = self || slices.Contains(succ, b)
		dup := hasDuplicate(succ)
		switch {
		case len(succ) == 0:
			returns++
		case len(succ) == 2:
			dupArm = dupArm || dup
		case len(succ) >= 3:
			sw = true
			dupCase = dupCase || dup
		}
		weighted = weighted || g.Weight(b) > 0
		heavy = heavy || g.Weight(b) == HeavyWords
	}
	s.Returns.Add(returns)
	s.WithSelfLoop += b2i(self)
	s.WithSwitch += b2i(sw)
	s.WithDupCase += b2i(dupCase)
	s.WithDupArm += b2i(dupArm)
	s.Weighted += b2i(weighted)
	s.Heavy += b2i(heavy)
	reach := g.Reachable()
	s.Unreachable += b2i(slices.Contains(reach, false))
	s.NonTerminating += b2i(stuckReachable(g, reach))
}

func (s *Stats) addLoops(g *cfg.Graph) {
	f := cfg.LoopForest(g)
	depth := 0
	for i := range f.Loops {
		l := &f.Loops[i]
		depth = max(depth, l.Depth)
		exits, back := loopEdges(g, f, i)
		s.LoopExits.Add(exits)
		s.BackEdges.Add(back)
	}
	s.Loops += len(f.Loops)
	s.LoopDepth.Add(depth)
	s.WithLoop += b2i(len(f.Loops) > 0)
	s.Irreducible += b2i(!f.Reducible())
}

// loopEdges counts loop l's distinct exit targets and its back edges.
func loopEdges(g *cfg.Graph, f *cfg.Forest, l int) (exits, back int) {
	loop := &f.Loops[l]
	var seen []int
	for _, b := range loop.Blocks {
		for _, t := range g.Succs[b] {
			switch {
			case !f.Contains(l, t):
				if !slices.Contains(seen, t) {
					seen = append(seen, t)
				}
			case slices.Contains(loop.Entries, t):
				back++
			}
		}
	}
	return len(seen), back
}

// stuckReachable reports whether a reachable block cannot reach a return.
func stuckReachable(g *cfg.Graph, reach []bool) bool {
	live := reachesReturn(g)
	for b, r := range reach {
		if r && !live[b] {
			return true
		}
	}
	return false
}

// reachesReturn marks the blocks from which a returning block is
// reachable (a backwards search from the returns).
func reachesReturn(g *cfg.Graph) []bool {
	preds := g.Preds()
	live := make([]bool, g.Len())
	var stack []int
	for b, s := range g.Succs {
		if len(s) == 0 {
			live[b] = true
			stack = append(stack, b)
		}
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range preds[b] {
			if !live[p] {
				live[p] = true
				stack = append(stack, p)
			}
		}
	}
	return live
}

func hasDuplicate(s []int) bool {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[i] == s[j] {
				return true
			}
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Format writes the summary, one line a measure.
func (s *Stats) Format(w io.Writer) {
	n := s.Graphs
	line := func(name, format string, args ...any) {
		fmt.Fprintf(w, "%-28s%s\n", name, fmt.Sprintf(format, args...))
	}
	line("graphs", "%d", n)
	line("blocks per graph", "%s", s.Blocks.Format(0, 0))
	if n > 0 {
		line("edges per graph", "%.2f", float64(s.Edges)/float64(n))
	}
	line("graphs with a loop", "%.1f%%   (a self-loop: %.1f%%)", pct(s.WithLoop, n), pct(s.WithSelfLoop, n))
	line("max loop nesting depth", "%s", s.LoopDepth.Format(0, 4))
	line("loops", "%d", s.Loops)
	line("exit targets per loop", "%s", s.LoopExits.Format(0, 3))
	line("back edges per loop", "%s", s.BackEdges.Format(0, 3))
	line("graphs with a switch", "%.1f%%   (with duplicate cases: %.1f%%)", pct(s.WithSwitch, n), pct(s.WithDupCase, n))
	line("conditionals, arms agree", "%.1f%% of graphs", pct(s.WithDupArm, n))
	line("returning blocks per graph", "%s", s.Returns.Format(0, 3))
	line("irreducible", "%.1f%%", pct(s.Irreducible, n))
	line("nonterminating", "%.1f%%", pct(s.NonTerminating, n))
	line("with unreachable blocks", "%.1f%%", pct(s.Unreachable, n))
	line("weighted (heavy block)", "%.1f%%   (%.1f%%)", pct(s.Weighted, n), pct(s.Heavy, n))
	line("shapes", "graphs with each (shapes.go)")
	for sh := range Shape(NumShapes) {
		line("  "+sh.String(), "%.2f%%   (%d)", pct(s.Shapes[sh], n), s.Shapes[sh])
	}
	if s.Programs == 0 {
		return
	}
	line("programs", "%d", s.Programs)
	for c := range Construct(NumConstructs) {
		line("  "+c.String(), "%.1f%%", pct(s.Constructs[c], s.Programs))
	}
	line("  deepest return nesting", "%s", s.ReturnDepth.Format(0, 4))
}
