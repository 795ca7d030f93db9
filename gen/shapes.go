// shapes.go: the control-flow shapes of a graph that the structured
// strategy has a code path for (structurizer/structured.go's passes:
// irreducible selectors, loops with routed exits and one latch, selections
// with early returns, switches with shared targets and fall-through), read
// from the graph alone so that every generator is measured the same way.
// `cfgfuzz gen --stats` prints the share of graphs with each shape and
// TestShapesPerCampaignMix holds each to at least one graph in 200 of a
// campaign's default mix of generators.
//
// Loops are those of the loop nesting forest (cfg.LoopForest), as in
// stats.go. A switch case falls through when its target branches straight
// to another target of the same switch that is not the switch's immediate
// post-dominator (its merge), both targets dominated by the switch.
//
// Measured over the five kinds taking turns (`cfgfuzz gen --kind
// reducible,irreducible,nonterminating,program,exhaustive --count 10000
// --stats`): every shape is in 5.7% of the graphs or more except the
// fall-through orders, a case falling into one of a lower id 1.4%, into
// one listed before it 3.7%, both (reversed) 0.8%, and a switch of 17 or
// more successors (a widened one, widen.go) 0.9%; the reducible and
// nonterminating generators number blocks in a topological order and never
// fall through to a lower id, so the reversed ones come from irreducible
// graphs and programs (gen/program.go numbers a switch's bodies in a
// random order). In TestShapesPerCampaignMix's 10,000 graphs a case falls
// into the default's target in 2.4% and a switch has exactly one
// fall-through in 3.8%.

package gen

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Shape is one control-flow shape a graph may have.
type Shape int

// The shapes.
const (
	ShapeLoopExits           Shape = iota // a loop with 2 or more exit targets
	ShapeNestedLoops                      // loops nested 2 or more deep
	ShapeBreakOuter                       // an edge from an inner loop past its parent loop
	ShapeMultiLatch                       // a loop with 2 or more back edges (a continue)
	ShapeContinueOuter                    // a back edge from an inner loop to an enclosing loop's entry
	ShapeSelfLoop                         // a block branching to itself
	ShapeIrreducible                      // a loop with 2 or more entries
	ShapeEndlessLoop                      // a loop without an exit
	ShapeReturnInLoop                     // a loop block branching to a returning block
	ShapeEarlyReturn                      // a branch with a returning target and one that is not
	ShapeSwitch                           // a block with 3 or more successors
	ShapeSharedCase                       // a switch listing one target twice
	ShapeFallthrough                      // a switch case falling into another case
	ShapeFallthroughBack                  // ... into a case of a lower block id
	ShapeFallthroughEarlier               // ... into a case listed before it
	ShapeFallthroughReversed              // ... into a case of a lower id listed before it
	ShapeSwitchExitsLoop                  // a switch in a loop with a target outside it
	ShapeFallIntoDefault                  // a switch case falling into the default's target
	ShapeSingleFallthrough                // a switch with exactly one case falling into another
	ShapeWideSwitch                       // a switch of 5 or more successors (widen.go)
	ShapeJumpTable                        // a switch of 17 or more successors
	NumShapes                = iota
)

var shapeNames = [NumShapes]string{
	"loop, 2+ exits", "nested loops", "break out of 2+ loops", "multi-latch (continue)",
	"continue of an outer loop", "self-loop", "irreducible entries", "loop without exit",
	"return inside a loop", "early return in a branch", "switch", "switch, shared target",
	"switch fall-through", "fall-through, lower id", "fall-through, prior case", "fall-through, reversed",
	"switch leaving a loop", "fall-through into default", "switch, one fall-through",
	"switch of 5+ successors", "switch of 17+ successors",
}

func (s Shape) String() string {
	if s < 0 || s >= NumShapes {
		return fmt.Sprintf("Shape(%d)", int(s))
	}
	return shapeNames[s]
}

// Shapes says which shapes a graph has.
type Shapes [NumShapes]bool

// ShapesOf reads g's shapes (its reachable part).
func ShapesOf(g *cfg.Graph) Shapes {
	var s Shapes
	reach := g.Reachable()
	f := cfg.LoopForest(g)
	shapeLoops(g, f, &s)
	for b, succ := range g.Succs {
		if !reach[b] {
			continue
		}
		s[ShapeSelfLoop] = s[ShapeSelfLoop] || slices.Contains(succ, b)
		if len(succ) >= 2 && earlyReturn(g, succ) {
			s[ShapeEarlyReturn] = true
		}
		if len(succ) >= 3 {
			s[ShapeSwitch] = true
			s[ShapeWideSwitch] = s[ShapeWideSwitch] || len(succ) >= 5
			s[ShapeJumpTable] = s[ShapeJumpTable] || len(succ) >= 17
			s[ShapeSharedCase] = s[ShapeSharedCase] || hasDuplicate(succ)
			if l := f.LoopOf[b]; l != cfg.NoBlock && slices.ContainsFunc(succ, func(t int) bool { return !f.Contains(l, t) }) {
				s[ShapeSwitchExitsLoop] = true
			}
		}
	}
	if s[ShapeSwitch] {
		shapeFallthrough(g, reach, &s)
	}
	return s
}

// earlyReturn: one target returns and another does not.
func earlyReturn(g *cfg.Graph, succ []int) bool {
	ret, other := false, false
	for _, t := range succ {
		if len(g.Succs[t]) == 0 {
			ret = true
		} else {
			other = true
		}
	}
	return ret && other
}

func shapeLoops(g *cfg.Graph, f *cfg.Forest, s *Shapes) {
	for i := range f.Loops {
		l := &f.Loops[i]
		s[ShapeNestedLoops] = s[ShapeNestedLoops] || l.Depth >= 2
		s[ShapeIrreducible] = s[ShapeIrreducible] || l.Irreducible
		exits, back := loopEdges(g, f, i)
		s[ShapeLoopExits] = s[ShapeLoopExits] || exits >= 2
		s[ShapeEndlessLoop] = s[ShapeEndlessLoop] || exits == 0
		s[ShapeMultiLatch] = s[ShapeMultiLatch] || back >= 2
		for _, b := range l.Blocks {
			for _, t := range g.Succs[b] {
				if !f.Contains(i, t) && len(g.Succs[t]) == 0 {
					s[ShapeReturnInLoop] = true
				}
				if l.Parent != cfg.NoBlock && !f.Contains(l.Parent, t) {
					s[ShapeBreakOuter] = true
				}
				for p := l.Parent; p != cfg.NoBlock; p = f.Loops[p].Parent {
					if slices.Contains(f.Loops[p].Entries, t) {
						s[ShapeContinueOuter] = true
					}
				}
			}
		}
	}
}

// shapeFallthrough finds a switch case target branching straight to
// another target of the switch that is not the switch's merge, both
// dominated by the switch (case bodies, not a loop header it continues).
func shapeFallthrough(g *cfg.Graph, reach []bool, s *Shapes) {
	ipdom := cfg.PostDominators(g).IDom
	dom := cfg.Dominators(g)
	for b, succ := range g.Succs {
		if !reach[b] || len(succ) < 3 {
			continue
		}
		var pairs [][2]int // the switch's fall-throughs, each (case, target) once
		for _, a := range succ {
			if a == b || !dom.Dominates(b, a) {
				continue
			}
			for _, t := range g.Succs[a] {
				if t != a && t != b && t != ipdom[b] && dom.Dominates(b, t) && slices.Contains(succ, t) {
					if !slices.Contains(pairs, [2]int{a, t}) {
						pairs = append(pairs, [2]int{a, t})
					}
					s[ShapeFallIntoDefault] = s[ShapeFallIntoDefault] || t == succ[0] && a != succ[0]
					s[ShapeFallthrough] = true
					s[ShapeFallthroughBack] = s[ShapeFallthroughBack] || t < a
					earlier := slices.Index(succ, t) < slices.Index(succ, a)
					s[ShapeFallthroughEarlier] = s[ShapeFallthroughEarlier] || earlier
					s[ShapeFallthroughReversed] = s[ShapeFallthroughReversed] || earlier && t < a
				}
			}
		}
		s[ShapeSingleFallthrough] = s[ShapeSingleFallthrough] || len(pairs) == 1
	}
}
