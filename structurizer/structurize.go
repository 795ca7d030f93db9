// structurize.go: the entry point, its options, the strategy table and the
// typed refusal. Every strategy is pure and deterministic and never mutates
// its input; a panic inside one is the caller's to contain (the campaign
// engine turns it into a finding).

package structurizer

import (
	"fmt"
	"slices"
	"sort"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Options configures one structurization. The zero value structurizes with
// the default strategy, no planted faults and no pass checking.
type Options struct {
	// Strategy names an entry of Strategies; "" means DefaultStrategy.
	Strategy string
	// Inject plants the named faults (see Faults); nil plants none.
	Inject []string
	// CheckPasses runs the invariant checker between passes (slow; tests and
	// --check-passes).
	CheckPasses bool
	// CloneBudget is the most words a strategy may copy to avoid a route
	// variable; 0 means the strategy's documented default (structured:
	// DefaultCloneBudget, 64 words, copying only return blocks of at most
	// CloneMaxWeight words), negative forbids cloning.
	CloneBudget int
	// Hooks are test-only seams that corrupt the output (hooks.go); nil
	// means none.
	Hooks *Hooks
}

// DefaultCloneBudget is the words the structured strategy may copy in all
// when Options.CloneBudget is 0.
const DefaultCloneBudget = 64

// CloneMaxWeight is the largest weight (in words) of a return block that is
// cloned rather than routed: about what a route costs (a store on the edge,
// a guard testing it, a merge).
const CloneMaxWeight = 16

// Result is a structured function with its statistics.
type Result struct {
	Func  *Func
	Stats Stats
}

// Refusal is a typed refusal: the strategy cannot structure this graph. On
// the default strategy a refusal is a bug.
type Refusal struct {
	Strategy string
	Reason   string // stable, no ids: usable in a signature
	Detail   string // ids and counts
}

func (r *Refusal) Error() string {
	if r.Detail == "" {
		return fmt.Sprintf("%s refused: %s", r.Strategy, r.Reason)
	}
	return fmt.Sprintf("%s refused: %s (%s)", r.Strategy, r.Reason, r.Detail)
}

// Strategy turns a graph whose blocks are all reachable (block 0 the entry)
// into a structured function. Block ids in the graph are the original ids.
// It fills Stats.Fallbacks and Stats.PassesUsed; Structurize fills the
// counts.
type Strategy func(g *cfg.Graph, opt Options) (*Result, error)

// strategies is the table of strategies by name.
var strategies = map[string]Strategy{
	"dispatch":   Dispatch,
	"structured": Structured,
}

// DefaultStrategy is used when Options.Strategy is empty.
var DefaultStrategy = "structured"

// Strategies lists the strategy names.
func Strategies() []string {
	var s []string
	for n := range strategies {
		s = append(s, n)
	}
	sort.Strings(s)
	return s
}

// HasStrategy reports whether name is a strategy (without building the
// sorted list Strategies returns).
func HasStrategy(name string) bool {
	_, ok := strategies[name]
	return ok
}

// Structurize validates g, drops its unreachable blocks (Stats.Dropped
// counts them; for the structured strategy it renumbers the rest in
// reverse post-order) and runs the chosen strategy. The returned
// function's blocks report ids of g (not of the graph the strategy ran
// on). g is not modified.
func Structurize(g *cfg.Graph, opt Options) (*Result, error) {
	name := opt.Strategy
	if name == "" {
		name = DefaultStrategy
	}
	strat, ok := strategies[name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (have %v)", name, Strategies())
	}
	if err := checkFaults(opt.Inject); err != nil {
		return nil, err
	}
	if err := g.Validate(cfg.Limits{}); err != nil {
		return nil, err
	}
	h, old := strategyInput(g, name)
	res, err := strat(h, opt)
	if err != nil {
		return nil, err
	}
	st := &res.Stats
	if err := finishFunc(res.Func, old, st); err != nil {
		return nil, fmt.Errorf("%s produced a malformed function: %w", name, err)
	}
	st.Strategy, st.BlocksIn, st.Dropped, st.WordsIn = name, h.Len(), g.Len()-h.Len(), h.TotalWeight()
	return res, nil
}

// finishFunc gives f's original and clone blocks the ids old names (old
// nil: they keep theirs), then validates f (Func.Validate's error) and
// counts it into st (Stats.Count). It does all three in one sweep of the
// blocks, each block renamed before it is validated (validateBlock reads
// only its own block): at 100,000 blocks the function is larger than a
// cache and each sweep reads all its blocks from memory.
func finishFunc(f *Func, old []int, st *Stats) error {
	if len(f.Blocks) == 0 {
		return f.Validate()
	}
	st.BlocksOut, st.RouteVars = len(f.Blocks), len(f.Vars)
	st.Synthetic, st.Clones, st.WordsOut = 0, 0, 0
	for i := range f.Blocks {
		blk := &f.Blocks[i]
		if blk.Kind != Synthetic && old != nil {
			blk.Orig = old[blk.Orig]
		}
		if err := f.validateBlock(i); err != nil {
			return err
		}
		st.countBlock(blk)
	}
	return nil
}

// strategyInput is the graph strategy name runs on and old[id] = g's id of
// its block id (nil: the ids are g's). The structured strategy gets the
// reachable blocks in reverse post-order (cfg.InRPO): its passes walk
// edges in that order, so on large graphs they touch memory in order
// instead of at random (at 100,000 random blocks it takes a fifth to a
// quarter off the time: BENCHMARKS.md), and a renumbered input gives the
// same function.
// The dispatch strategy gets the reachable blocks in their own order. A
// graph whose blocks are all reachable (and, for structured, already in
// order) is passed as it is: strategies never mutate their input, and no
// Func shares a list with it.
func strategyInput(g *cfg.Graph, name string) (h *cfg.Graph, old []int) {
	if name == "structured" {
		return g.InRPO()
	}
	if slices.Contains(g.Reachable(), false) {
		return g.DropUnreachable()
	}
	return g, nil
}
