// stages.go: the minimizer's pipeline. Each stage is one bounded search
// over one kind of reduction step (reduce.go), most of them chunked ddmin
// (ddmin.go) over the elements of the graph the stage starts from; the
// pipeline runs the stages in order, round after round, until a round
// accepts nothing (a fixpoint), then renumbers the result canonically.
// Stages go from coarse to fine, so that cheap big cuts come first, as in
// syzkaller's pkg/repro.

package corpus

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Stage is one step kind of the pipeline. run reports whether it accepted
// a smaller graph.
type Stage struct {
	Name string
	run  func(s *search) bool
}

// The stages.
var (
	// StageBlocks drops sets of blocks, redirecting each incoming edge to
	// the dropped block's first successor (ddmin over the blocks).
	StageBlocks = Stage{"blocks", func(s *search) bool { return s.dropBlocksStage("blocks", ViaFirst) }}
	// StageBlocksLast is StageBlocks redirecting to the last successor.
	StageBlocksLast = Stage{"blocks-last", func(s *search) bool { return s.dropBlocksStage("blocks-last", ViaLast) }}
	// StageCases drops switch cases (ddmin over the non-default successors
	// of blocks with three or more).
	StageCases = Stage{"cases", func(s *search) bool {
		return s.dropEdgesStage("cases", func(g *cfg.Graph, b, i int) bool { return i > 0 && len(g.Succs[b]) >= 3 })
	}}
	// StageBranches turns conditionals and switches into branches, one arm
	// kept at a time.
	StageBranches = Stage{"branches", (*search).branchesStage}
	// StageEdges drops any edges (ddmin over all of them): a branch
	// becomes a return, a conditional a branch.
	StageEdges = Stage{"edges", func(s *search) bool { return s.dropEdgesStage("edges", nil) }}
	// StageRetarget points an edge at another block when that leaves
	// blocks unreachable: the block keeps its arity (a conditional stays
	// a conditional, where the edges stage makes it a branch) while what
	// only the edge reached goes, and a return block or a chain reached
	// by one edge goes though its predecessor keeps deciding. Targets
	// are tried in the order retargets gives, each edge in turn.
	StageRetarget = Stage{"retarget", (*search).retargetStage}
	// StageMerge merges straight-line pairs (a branch into a block with no
	// other predecessor).
	StageMerge = Stage{"merge", (*search).mergeStage}
	// StageEntry skips an entry that only branches on.
	StageEntry = Stage{"entry", (*search).entryStage}
	// StageWeights zeroes block weights (ddmin over the weighted blocks).
	StageWeights = Stage{"weights", (*search).weightsStage}
	// StageHalveWeights halves each remaining weight while the bug stays
	// (a growth failure needs words, but rarely all of them).
	StageHalveWeights = Stage{"halve-weights", (*search).halveWeightsStage}
)

// DefaultStages is the pipeline Minimize runs when Options.Stages is nil.
var DefaultStages = []Stage{StageBlocks, StageBlocksLast, StageCases, StageBranches, StageEdges, StageMerge, StageEntry, StageRetarget, StageWeights, StageHalveWeights}

// runPipeline runs the stages round after round to a fixpoint or a limit,
// then renumbers the result in depth-first order when that keeps the bug.
func (s *search) runPipeline(stages []Stage) error {
	for progress := true; progress && !s.stopped(); {
		progress = false
		for _, st := range stages {
			if s.stopped() {
				break
			}
			accepted, err := s.runStage(st)
			if err != nil {
				return err
			}
			progress = progress || accepted
		}
	}
	_, err := s.runStage(Stage{"renumber", func(s *search) bool { s.renumberStage(); return false }})
	return err
}

// StagePanicError is a stage of the minimizer that panicked: a bug in
// cfgfuzz's minimizer, not in the structurizer under test (whose panics
// the predicate turns into signatures). Minimize returns it, so that a
// campaign keeps the finding unminimized and goes on.
type StagePanicError struct {
	Stage string
	Value any
	Graph string // the graph the stage started from, compact notation
}

func (e *StagePanicError) Error() string {
	return fmt.Sprintf("the minimizer's %s stage panicked on %s: %v (a bug in cfgfuzz's minimizer: the finding is kept unminimized)", e.Stage, e.Graph, e.Value)
}

// runStage runs one stage, a panic in it returned as a StagePanicError.
func (s *search) runStage(st Stage) (accepted bool, err error) {
	from := s.cur
	defer func() {
		if r := recover(); r != nil {
			err = &StagePanicError{Stage: st.Name, Value: r, Graph: cfg.FormatCompact(from)}
		}
	}()
	return st.run(s), nil
}

// dropBlocksStage is ddmin over the blocks other than the entry.
func (s *search) dropBlocksStage(name string, via Redirect) bool {
	g0 := s.cur
	blocks := make([]int, 0, g0.Len())
	for b := 1; b < g0.Len(); b++ {
		blocks = append(blocks, b)
	}
	build := func(keep []int) *cfg.Graph {
		drop := make([]bool, g0.Len())
		for b := 1; b < g0.Len(); b++ {
			drop[b] = true
		}
		for _, b := range keep {
			drop[b] = false
		}
		return dropBlocks(g0, drop, via)
	}
	return runDdmin(s, name, blocks, build)
}

// dropEdgesStage is ddmin over the edges that filter selects (nil: all).
func (s *search) dropEdgesStage(name string, filter func(g *cfg.Graph, b, i int) bool) bool {
	g0 := s.cur
	var keepFn func(b, i int) bool
	if filter != nil {
		keepFn = func(b, i int) bool { return filter(g0, b, i) }
	}
	edges := edgesOf(g0, keepFn)
	build := func(keep []Edge) *cfg.Graph {
		kept := map[Edge]bool{}
		for _, e := range keep {
			kept[e] = true
		}
		var gone []Edge
		for _, e := range edges {
			if !kept[e] {
				gone = append(gone, e)
			}
		}
		return dropEdges(g0, gone)
	}
	return runDdmin(s, name, edges, build)
}

// weightsStage is ddmin over the weighted blocks, zeroing the dropped ones.
func (s *search) weightsStage() bool {
	g0 := s.cur
	var weighted []int
	for b := range g0.Succs {
		if g0.Weight(b) != 0 {
			weighted = append(weighted, b)
		}
	}
	build := func(keep []int) *cfg.Graph {
		kept := map[int]bool{}
		for _, b := range keep {
			kept[b] = true
		}
		var zero []int
		for _, b := range weighted {
			if !kept[b] {
				zero = append(zero, b)
			}
		}
		return zeroWeights(g0, zero)
	}
	return runDdmin(s, "weights", weighted, build)
}

// runDdmin runs ddmin over elems of the current graph; build makes the
// candidate that keeps a subset. Every failing candidate is accepted when
// found (each is smaller than the one before).
func runDdmin[E any](s *search, name string, elems []E, build func(keep []E) *cfg.Graph) bool {
	if len(elems) == 0 {
		return false
	}
	var best *cfg.Graph
	ddmin(elems, func(keep []E) bool {
		c := build(keep)
		if !s.fails(c) {
			return false
		}
		best = c
		s.accept(name, c)
		return true
	}, s.stopped)
	return best != nil
}

// branchesStage keeps one arm of each deciding block, one block at a time.
func (s *search) branchesStage() bool {
	accepted := false
	for b := 0; b < s.cur.Len() && !s.stopped(); b++ {
		for i := 0; i < len(s.cur.Succs[b]) && len(s.cur.Succs[b]) >= 2; i++ {
			if c := keepArm(s.cur, b, i); s.fails(c) {
				s.accept("branches", c)
				accepted = true
				break
			}
		}
	}
	return accepted
}

// retargetStage points each edge in turn at the first of its retargets
// that leaves a smaller graph failing the same way (a retarget that
// leaves every block reachable is not smaller, and is refused unjudged).
// An accepted retarget drops blocks and renumbers the rest, so block b
// may no longer exist: each edge's turn reads the graph as it is then.
func (s *search) retargetStage() bool {
	accepted := false
	for b := 0; b < s.cur.Len() && !s.stopped(); b++ {
		for i := 0; b < s.cur.Len() && i < len(s.cur.Succs[b]) && !s.stopped(); i++ {
			for _, t := range retargets(s.cur, b, i) {
				if c := retarget(s.cur, b, i, t); s.fails(c) {
					s.accept("retarget", c)
					accepted = true
					break
				}
			}
		}
	}
	return accepted
}

// mergeStage merges straight-line pairs, one at a time.
func (s *search) mergeStage() bool {
	accepted := false
	for a := 0; a < s.cur.Len() && !s.stopped(); a++ {
		b, ok := mergeable(s.cur, s.cur.Preds(), a)
		if !ok {
			continue
		}
		if c := mergeInto(s.cur, a, b); s.fails(c) {
			s.accept("merge", c)
			accepted = true
		}
	}
	return accepted
}

// renumberStage relabels the result in depth-first preorder (a canonical
// numbering) when the relabeled graph still fails the same way.
func (s *search) renumberStage() {
	c := DFSRenumber(s.cur)
	if Key(c) == Key(s.cur) {
		return
	}
	if s.opt.IsomorphicCache {
		s.accept("renumber", c) // the same verdict by construction
		return
	}
	if s.judge(c) {
		s.accept("renumber", c)
	}
}

// entryStage skips the entry while it only branches on.
func (s *search) entryStage() bool {
	accepted := false
	for !s.stopped() {
		c, ok := skipEntry(s.cur)
		if !ok || !s.fails(c) {
			return accepted
		}
		s.accept("entry", c)
		accepted = true
	}
	return accepted
}

// halveWeightsStage halves each block's weight while the bug stays.
func (s *search) halveWeightsStage() bool {
	accepted := false
	for b := 0; b < s.cur.Len() && !s.stopped(); b++ {
		for w := s.cur.Weight(b); w > 1 && !s.stopped(); w = s.cur.Weight(b) {
			c := s.cur.Clone()
			c.Weights[b] = w / 2
			if !s.fails(c) {
				break
			}
			s.accept("halve-weights", c)
			accepted = true
		}
	}
	return accepted
}
