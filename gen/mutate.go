// mutate.go: graph mutations for behaviour-guided generation. A mutant is a
// corpus graph changed by a short stack of structural edits, as AFL's havoc
// stage stacks byte edits (Zalewski, "american fuzzy lop", technical
// details): add or remove an edge, retarget one, split or merge blocks,
// duplicate a switch case, add a back edge to a dominator, wrap a region in
// a loop. Every mutant is valid (cfg.Graph.Validate), keeps its entry's
// reachable part only, and stays within MutateOptions' limits; a mutation
// that does not apply to the graph is skipped. The mutant is a pure
// function of the parent and the seed.

package gen

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

const streamMutate = 0x6d75746174653031 // "mutate01"

// Mutations lists the mutation names, in the order they are drawn from.
var Mutations = []string{"add-edge", "remove-edge", "retarget", "split", "merge", "duplicate-case", "back-edge", "wrap-loop"}

// Defaults for the zero values of MutateOptions.
const (
	DefaultMutateMaxBlocks = 16 // mutants may grow past the campaigns' 9 blocks
	DefaultMutateMaxSuccs  = 8  // a switch of at most 8 targets
	DefaultMutateStack     = 3  // at most 3 mutations on top of each other
)

// MutateOptions bounds a mutant. Zero values take the defaults above.
// Ops, when not empty, are the mutations drawn from instead of Mutations
// (each a name of Mutations).
type MutateOptions struct {
	MaxBlocks int
	MaxSuccs  int
	MaxStack  int
	Ops       []string
}

func (o MutateOptions) withDefaults() MutateOptions {
	if o.MaxBlocks <= 0 {
		o.MaxBlocks = DefaultMutateMaxBlocks
	}
	if o.MaxSuccs <= 0 {
		o.MaxSuccs = DefaultMutateMaxSuccs
	}
	if o.MaxStack <= 0 {
		o.MaxStack = DefaultMutateStack
	}
	if len(o.Ops) == 0 {
		o.Ops = Mutations
	}
	return o
}

// Fits says why g cannot be a parent under o (nil when it can).
func (o MutateOptions) Fits(g *cfg.Graph) error { return g.Validate(o.withDefaults().limits()) }

func (o MutateOptions) limits() cfg.Limits {
	return cfg.Limits{MaxBlocks: o.MaxBlocks, MaxSuccs: o.MaxSuccs}
}

// Mutant is a mutated graph and the mutations that made it.
type Mutant struct {
	Graph *cfg.Graph
	Ops   []string // the mutations applied, in order
}

// Mutate applies between 1 and MaxStack mutations, drawn from seed, to a
// copy of parent, a graph within the options' limits. When none of the drawn mutations applies the mutant is
// the parent's copy with no Ops. A parent that is itself invalid or over
// them is an error.
func Mutate(parent *cfg.Graph, seed uint64, o MutateOptions) (Mutant, error) {
	o = o.withDefaults()
	if err := parent.Validate(o.limits()); err != nil {
		return Mutant{}, fmt.Errorf("mutate: parent: %w", err)
	}
	r := newRNG(seed, streamMutate)
	g := plainCopy(parent)
	var ops []string
	for range r.between(1, o.MaxStack) {
		op := o.Ops[r.intn(len(o.Ops))]
		h := mutateOnce(g, op, r, o)
		if h == nil {
			continue
		}
		h, _ = h.DropUnreachable()
		if h.Validate(o.limits()) != nil {
			continue
		}
		g, ops = h, append(ops, op)
	}
	return Mutant{Graph: g, Ops: ops}, nil
}

// plainCopy copies g without names (mutations renumber blocks) and with a
// weight for every block.
func plainCopy(g *cfg.Graph) *cfg.Graph {
	h := cfg.New(g.Len())
	for b := range g.Succs {
		h.Succs[b] = slices.Clone(g.Succs[b])
		h.Weights[b] = g.Weight(b)
	}
	return h
}

// mutateOnce applies one mutation to a copy of g; nil when it does not
// apply (no block qualifies, or a limit would be passed).
func mutateOnce(g *cfg.Graph, op string, r *rng, o MutateOptions) *cfg.Graph {
	h := plainCopy(g)
	switch op {
	case "add-edge":
		return mutAddEdge(h, r, o)
	case "remove-edge":
		return mutRemoveEdge(h, r)
	case "retarget":
		return mutRetarget(h, r)
	case "split":
		return mutSplit(h, r, o)
	case "merge":
		return mutMerge(h, r)
	case "duplicate-case":
		return mutDuplicateCase(h, r, o)
	case "back-edge":
		return mutBackEdge(h, r, o)
	case "wrap-loop":
		return mutWrapLoop(h, r, o)
	}
	return nil
}

// blocksWhere lists the blocks satisfying ok.
func blocksWhere(g *cfg.Graph, ok func(b int) bool) []int {
	var bs []int
	for b := range g.Succs {
		if ok(b) {
			bs = append(bs, b)
		}
	}
	return bs
}

// pickBlock draws one of the blocks satisfying ok, -1 when none does.
func pickBlock(g *cfg.Graph, r *rng, ok func(b int) bool) int {
	bs := blocksWhere(g, ok)
	if len(bs) == 0 {
		return -1
	}
	return bs[r.intn(len(bs))]
}

// addBlock appends a block with the given successors and weight.
func addBlock(g *cfg.Graph, succs []int, weight int) int {
	g.Succs = append(g.Succs, succs)
	g.Weights = append(g.Weights, weight)
	return g.Len() - 1
}

// mutAddEdge gives a block one more successor, anywhere.
func mutAddEdge(g *cfg.Graph, r *rng, o MutateOptions) *cfg.Graph {
	b := pickBlock(g, r, func(b int) bool { return len(g.Succs[b]) < o.MaxSuccs })
	if b < 0 {
		return nil
	}
	g.Succs[b] = append(g.Succs[b], r.intn(g.Len()))
	return g
}

// mutRemoveEdge drops one successor of a block.
func mutRemoveEdge(g *cfg.Graph, r *rng) *cfg.Graph {
	b := pickBlock(g, r, func(b int) bool { return len(g.Succs[b]) > 0 })
	if b < 0 {
		return nil
	}
	k := r.intn(len(g.Succs[b]))
	g.Succs[b] = slices.Delete(g.Succs[b], k, k+1)
	return g
}

// mutRetarget points one edge at another block.
func mutRetarget(g *cfg.Graph, r *rng) *cfg.Graph {
	b := pickBlock(g, r, func(b int) bool { return len(g.Succs[b]) > 0 })
	if b < 0 || g.Len() < 2 {
		return nil
	}
	k := r.intn(len(g.Succs[b]))
	t := r.intn(g.Len() - 1)
	if t >= g.Succs[b][k] {
		t++
	}
	g.Succs[b][k] = t
	return g
}

// mutSplit cuts a block in two: the new second half takes its successors and
// half its weight.
func mutSplit(g *cfg.Graph, r *rng, o MutateOptions) *cfg.Graph {
	if g.Len() >= o.MaxBlocks {
		return nil
	}
	b := r.intn(g.Len())
	w := g.Weights[b]
	n := addBlock(g, g.Succs[b], w-w/2)
	g.Succs[b], g.Weights[b] = []int{n}, w/2
	return g
}

// mutMerge joins a block with its only successor when the successor has no
// other predecessor: the block takes the successor's edges and weight, and
// the successor becomes unreachable (dropped).
func mutMerge(g *cfg.Graph, r *rng) *cfg.Graph {
	preds := g.Preds()
	b := pickBlock(g, r, func(b int) bool {
		if len(g.Succs[b]) != 1 {
			return false
		}
		t := g.Succs[b][0]
		return t != b && t != 0 && len(preds[t]) == 1
	})
	if b < 0 {
		return nil
	}
	t := g.Succs[b][0]
	g.Succs[b], g.Weights[b] = slices.Clone(g.Succs[t]), g.Weights[b]+g.Weights[t]
	g.Succs[t] = nil
	return g
}

// mutDuplicateCase gives a branch one more case to a target it already has
// (a conditional becomes a switch with a shared target).
func mutDuplicateCase(g *cfg.Graph, r *rng, o MutateOptions) *cfg.Graph {
	b := pickBlock(g, r, func(b int) bool { return len(g.Succs[b]) >= 2 && len(g.Succs[b]) < o.MaxSuccs })
	if b < 0 {
		return nil
	}
	g.Succs[b] = append(g.Succs[b], g.Succs[b][r.intn(len(g.Succs[b]))])
	return g
}

// mutBackEdge adds an edge from a block to one of its dominators (a natural
// loop; to the block itself, a self-loop).
func mutBackEdge(g *cfg.Graph, r *rng, o MutateOptions) *cfg.Graph {
	dom := cfg.Dominators(g)
	b := pickBlock(g, r, func(b int) bool { return len(g.Succs[b]) < o.MaxSuccs && dom.InTree(b) })
	if b < 0 {
		return nil
	}
	ds := blocksWhere(g, func(d int) bool { return dom.InTree(d) && dom.Dominates(d, b) })
	g.Succs[b] = append(g.Succs[b], ds[r.intn(len(ds))])
	return g
}

// mutWrapLoop puts a loop around the region a block h dominates: a new header
// H takes h's entering edges (back edges to h stay), and a block x of the
// region leaves through a new latch L that branches back to H or on to x's
// old successors (to a new return block when x returned).
func mutWrapLoop(g *cfg.Graph, r *rng, o MutateOptions) *cfg.Graph {
	if g.Len()+3 > o.MaxBlocks {
		return nil
	}
	dom := cfg.Dominators(g)
	h := pickBlock(g, r, func(b int) bool { return dom.InTree(b) })
	if h < 0 {
		return nil
	}
	region := blocksWhere(g, func(b int) bool { return dom.InTree(b) && dom.Dominates(h, b) })
	x := region[r.intn(len(region))]
	out := slices.Clone(g.Succs[x])
	if len(out)+1 > o.MaxSuccs {
		return nil
	}
	header := addBlock(g, []int{h}, 0)
	for b := range g.Succs {
		if b == header || (dom.InTree(b) && dom.Dominates(h, b)) {
			continue // entering edges only: the region's own edges to h stay
		}
		for k, t := range g.Succs[b] {
			if t == h {
				g.Succs[b][k] = header
			}
		}
	}
	if len(out) == 0 {
		out = []int{addBlock(g, nil, 0)}
	}
	latch := addBlock(g, append([]int{header}, out...), 0)
	g.Succs[x] = []int{latch}
	if h == 0 { // the entry moves to the new header
		swapBlocks(g, 0, header)
	}
	return g
}

// swapBlocks exchanges the ids of blocks a and b.
func swapBlocks(g *cfg.Graph, a, b int) {
	g.Succs[a], g.Succs[b] = g.Succs[b], g.Succs[a]
	g.Weights[a], g.Weights[b] = g.Weights[b], g.Weights[a]
	for _, s := range g.Succs {
		for k, t := range s {
			switch t {
			case a:
				s[k] = b
			case b:
				s[k] = a
			}
		}
	}
}
