// Package gen generates the control-flow graphs that cfgfuzz feeds to
// structurizers, deterministically from a seed and a Config:
//
//   - reducible: random reducible graphs (reducible.go), the shape the
//     field's campaigns used (5-9 blocks, out-degree 0-2), plus switches
//     with duplicate cases, self-loops, loops with several back edges and
//     several exits;
//   - irreducible: reducible graphs given a cycle with two or three entries
//     (irreducible.go);
//   - nonterminating: graphs with a reachable cycle that has no exit
//     (irreducible.go);
//   - program: random structured programs (if, if/else, while, do-while,
//     endless loops, break and continue of any depth, return, switch with
//     fall-through and duplicate cases) lowered to graphs, the program text
//     kept for reports (program.go, lower.go);
//   - exhaustive: every graph of at most N blocks and out-degree at most 2
//     up to isomorphism, in a stable order (exhaustive.go); a campaign walks
//     the growing order instead, all graphs of 1 to 5 blocks and then
//     sampled larger ones (growing.go).
//
// Every block of a generated graph is reachable from its entry unless
// Config.Dead asks for dead blocks (dead.go): blocks no path from the entry
// reaches, branching back into the graph; a campaign gives them to one
// graph of the random kinds in CampaignDeadEvery (CampaignDead).
//
// Weights (weights.go) are laid over any graph: the same words on every
// block, the field's "one block at 1000 words" variant, or each block its
// own weight drawn from the seed (the campaigns' w0to64 setting). FromBytes
// (bytes.go) decodes raw fuzzer bytes into a graph for the go-fuzz and
// `go test -fuzz` harnesses. Stats (stats.go) summarizes a batch: the
// distributions documented in the generators' files, with the share of
// graphs having each control-flow shape the structurizer has a code path
// for (shapes.go).
//
// gen.go defines the kinds, the Config, Item and Generate, the entry point
// a campaign calls once per graph with that graph's own seed.
package gen

import (
	"errors"
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Kind names a generator.
type Kind string

// The generators.
const (
	Reducible      Kind = "reducible"
	Irreducible    Kind = "irreducible"
	NonTerminating Kind = "nonterminating"
	Program        Kind = "program"
	Exhaustive     Kind = "exhaustive"
)

// Kinds lists every generator, in the order the CLI documents them.
func Kinds() []Kind {
	return []Kind{Reducible, Irreducible, NonTerminating, Program, Exhaustive}
}

// Defaults for the zero values of Config.
const (
	DefaultMinBlocks  = 5    // the field's campaigns: 5-9 blocks
	DefaultMaxBlocks  = 9    //
	DefaultSwitchProb = 0.05 // per block (reducible) or per statement (program)
	// DefaultWideSwitchProb is the share of switches widened into jump
	// tables (widen.go).
	DefaultWideSwitchProb = 0.25
	DefaultExhaustiveN    = 4    // exhaustive: graphs of 1 to 4 blocks
	HeavyWords            = 1000 // the weight of the heavy block
	MaxBlocksLimit        = 1 << 16
)

// Config selects a generator and shapes its output. The zero value is the
// field's setting: reducible graphs of 5 to 9 blocks, switches at the
// default probability, weight 0, no heavy block.
type Config struct {
	// Kind is the generator; "" means Reducible.
	Kind Kind
	// MinBlocks and MaxBlocks bound the number of blocks of every graph,
	// inclusive, the dead blocks (Dead) not counted. 0 means the default (5 and 9); a zero MinBlocks with a
	// MaxBlocks below 5 means MaxBlocks, a zero MaxBlocks with a MinBlocks
	// above 9 means MinBlocks. Irreducible graphs have at least 4 blocks
	// and nonterminating ones at least 2, whatever MinBlocks says.
	// Exhaustive ignores them (see ExhaustiveN).
	MinBlocks, MaxBlocks int
	// SwitchProb is the probability that a block of a reducible graph (and
	// of the base graph of irreducible and nonterminating ones) is a
	// switch, or half the probability that a statement of a program is a
	// switch statement (program.go). 0 means DefaultSwitchProb; a negative
	// value means no switches.
	SwitchProb float64
	// WideSwitchProb is the probability that a switch of a random graph
	// (reducible, irreducible, nonterminating) or of a program is widened
	// into a jump table of 5 to 300 successors sharing its targets
	// (widen.go). 0 means DefaultWideSwitchProb; a negative value means
	// no widening.
	WideSwitchProb float64
	// Words is the weight in SPIR-V words of every block (the field used
	// 0, 16 and 1000). 0 means weight 0.
	Words int
	// Heavy gives one block, chosen by the seed, HeavyWords words (the
	// field's "one block at 1000" variants). false means no heavy block.
	Heavy bool
	// WordsUpTo, when above 0, gives each block its own weight drawn
	// from the seed in 0..WordsUpTo instead of Words. 0 means Words.
	WordsUpTo int
	// ExhaustiveN is the largest block count of the exhaustive
	// enumeration (1 to MaxExhaustiveN). 0 means DefaultExhaustiveN.
	ExhaustiveN int
	// ExhaustiveGrow makes the exhaustive seed a position in the growing
	// order (growing.go: every graph of 1 to 5 blocks, then sampled larger
	// ones) instead of an index modulo ExhaustiveCount(ExhaustiveN), which
	// it then ignores. false means the stable order of ExhaustiveN.
	ExhaustiveGrow bool
	// Dead is the number of dead blocks (0 to MaxDead) added to the
	// graph: blocks no path from the entry reaches, branching into the
	// graph the generator drew (dead.go). They come on top of MinBlocks
	// and MaxBlocks, which bound the blocks the entry reaches. 0 means
	// none; a campaign asks for CampaignDead's count.
	Dead int
}

// Item is one generated graph and how to get it again.
type Item struct {
	Graph *cfg.Graph
	Kind  Kind
	// Seed is the graph's own seed: Generate(c, Seed) returns this item
	// again, and `cfgfuzz gen --kind K --seed Seed --count 1` prints it.
	Seed uint64
	// Program is the program text for Kind Program, else "".
	Program string
	// Constructs counts the constructs the program's graph contains
	// (Kind Program only).
	Constructs Constructs
}

// ErrConfig reports a Config no generator can satisfy.
var ErrConfig = errors.New("gen: invalid config")

// normalized returns c with every zero value replaced by its default, or
// an error naming the bad field.
func (c Config) normalized() (Config, error) {
	if c.Kind == "" {
		c.Kind = Reducible
	}
	if !validKind(c.Kind) {
		return c, fmt.Errorf("%w: unknown kind %q (want one of %v)", ErrConfig, c.Kind, Kinds())
	}
	c.MinBlocks, c.MaxBlocks = blockRange(c.MinBlocks, c.MaxBlocks)
	if c.MinBlocks < 1 || c.MaxBlocks < c.MinBlocks || c.MaxBlocks > MaxBlocksLimit {
		return c, fmt.Errorf("%w: block range %d-%d (want 1 <= min <= max <= %d)", ErrConfig, c.MinBlocks, c.MaxBlocks, MaxBlocksLimit)
	}
	if least := minBlocksFor(c.Kind); c.MaxBlocks < least {
		return c, fmt.Errorf("%w: %s graphs need at least %d blocks, range is %d-%d", ErrConfig, c.Kind, least, c.MinBlocks, c.MaxBlocks)
	}
	if err := probability(&c.SwitchProb, DefaultSwitchProb, "switch probability"); err != nil {
		return c, err
	}
	if err := probability(&c.WideSwitchProb, DefaultWideSwitchProb, "wide switch probability"); err != nil {
		return c, err
	}
	if c.Words < 0 || c.Words > cfg.DefaultLimits.MaxWeight {
		return c, fmt.Errorf("%w: words per block %d outside 0..%d", ErrConfig, c.Words, cfg.DefaultLimits.MaxWeight)
	}
	if c.WordsUpTo < 0 || c.WordsUpTo > cfg.DefaultLimits.MaxWeight {
		return c, fmt.Errorf("%w: largest varied weight %d outside 0..%d", ErrConfig, c.WordsUpTo, cfg.DefaultLimits.MaxWeight)
	}
	if c.Dead < 0 || c.Dead > MaxDead {
		return c, fmt.Errorf("%w: dead blocks %d outside 0..%d", ErrConfig, c.Dead, MaxDead)
	}
	if c.ExhaustiveN == 0 {
		c.ExhaustiveN = DefaultExhaustiveN
	}
	if c.ExhaustiveN < 1 || c.ExhaustiveN > MaxExhaustiveN {
		return c, fmt.Errorf("%w: exhaustive N %d outside 1..%d", ErrConfig, c.ExhaustiveN, MaxExhaustiveN)
	}
	return c, nil
}

// probability normalizes a probability field: 0 is def, a negative value
// 0 (none); above 1, or NaN, is an error naming what.
func probability(p *float64, def float64, what string) error {
	switch {
	case *p != *p || *p > 1:
		return fmt.Errorf("%w: %s %g: want a probability of at most 1", ErrConfig, what, *p)
	case *p == 0:
		*p = def
	case *p < 0:
		*p = 0
	}
	return nil
}

func blockRange(lo, hi int) (int, int) {
	switch {
	case lo == 0 && hi == 0:
		return DefaultMinBlocks, DefaultMaxBlocks
	case lo == 0:
		return min(DefaultMinBlocks, hi), hi
	case hi == 0:
		return lo, max(DefaultMaxBlocks, lo)
	}
	return lo, hi
}

func validKind(k Kind) bool {
	for _, x := range Kinds() {
		if k == x {
			return true
		}
	}
	return false
}

// minBlocksFor is the fewest blocks a graph of the kind can have: a
// terminating irreducible graph needs an entry, two blocks in a cycle it
// enters at both, and a return ({{1, 2}, {2, 3}, {1}, {}}); a
// nonterminating graph is drawn as a base and at least one trap block.
func minBlocksFor(k Kind) int {
	switch k {
	case Irreducible:
		return 4
	case NonTerminating:
		return 2
	}
	return 1
}

// Validate reports whether c can generate graphs.
func (c Config) Validate() error {
	_, err := c.normalized()
	return err
}

// Generate returns one graph, a pure function of (c, seed). For
// Exhaustive the seed selects the graph by index, seed modulo
// ExhaustiveCount(c.ExhaustiveN), so seeds 0, 1, 2, ... walk the
// enumeration in its stable order.
func Generate(c Config, seed uint64) (Item, error) {
	c, err := c.normalized()
	if err != nil {
		return Item{}, err
	}
	it := Item{Kind: c.Kind, Seed: seed}
	r, wide := newRNG(seed, streamOf(c.Kind)), newRNG(seed, streamWide)
	switch c.Kind {
	case Reducible:
		if it.Graph, err = reducibleGraph(r, r.between(c.MinBlocks, c.MaxBlocks), reducibleParamsFor(c)); err == nil {
			widenSwitches(it.Graph, wide, c.WideSwitchProb)
		}
	case Irreducible:
		if it.Graph, err = irreducibleGraph(r, c); err == nil {
			widenSwitches(it.Graph, wide, c.WideSwitchProb)
		}
	case NonTerminating:
		if it.Graph, err = nonTerminatingGraph(r, c); err == nil {
			widenSwitches(it.Graph, wide, c.WideSwitchProb)
		}
	case Program:
		var p *program
		if p, err = randomProgram(r, wide, c); err == nil {
			it.Graph, it.Program, it.Constructs = p.graph, p.text, p.constructs
		}
	case Exhaustive:
		if c.ExhaustiveGrow {
			it.Graph = GrowingAt(seed)
			break
		}
		it.Graph = ExhaustiveAt(c.ExhaustiveN, int(seed%uint64(ExhaustiveCount(c.ExhaustiveN))))
	}
	if err != nil {
		return Item{}, err
	}
	it.Graph = addDead(it.Graph, c.Dead, seed, c.Kind == Program)
	applyWeights(it.Graph, Weighting{Words: c.Words, Heavy: c.Heavy, UpTo: c.WordsUpTo}, seed)
	return it, nil
}

// SeedFor returns the seed of the i-th graph (from 0) of a run started
// with runSeed. Graph 0 uses runSeed itself, so `--seed S --count 1`
// replays any graph whose seed was printed. For Exhaustive the seeds are
// consecutive (runSeed+i), so a run walks the enumeration in order; for
// the random kinds they are scrambled, so runs from nearby seeds do not
// overlap.
func SeedFor(k Kind, runSeed uint64, i int) uint64 {
	if i == 0 {
		return runSeed
	}
	if k == Exhaustive {
		return runSeed + uint64(i)
	}
	return mix64(runSeed ^ mix64(uint64(i)))
}
