// gen.go: the `cfgfuzz gen` subcommand, which prints generated graphs in
// compact notation, one a line, for eyeballing a generator, seeding a
// corpus or replaying one graph of a campaign from its printed seed.
// The generators themselves live in package gen.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "gen", summary: "print generated graphs (reducible, irreducible, programs, ...)", run: runGen})
}

// genFlags are the parsed flags of `cfgfuzz gen`.
type genFlags struct {
	cfg      gen.Config
	count    int
	all      bool
	seed     uint64
	program  bool
	verbose  bool
	stats    bool
	lines    bool
	kindName string
	kinds    []gen.Kind // --kind's comma-separated list
}

func runGen(args []string, stdin io.Reader, stdout, stderr io.Writer, _ *fuzz.BuildStop) int {
	f, err := parseGenFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, flagError("gen", err))
		return exitUsage
	}
	for _, k := range f.kinds {
		c := f.cfg
		c.Kind = k
		if err := c.Validate(); err != nil {
			fmt.Fprintf(stderr, "cfgfuzz gen: %s\n", strings.TrimPrefix(err.Error(), "gen: "))
			return exitUsage
		}
	}
	var stats gen.Stats
	for i := range f.count {
		// Several kinds take turns as a campaign's streams do: graph i is
		// graph i/n of kind i mod n.
		c, n := f.cfg, len(f.kinds)
		c.Kind = f.kinds[i%n]
		seed := gen.SeedFor(c.Kind, f.seed, i/n)
		it, err := gen.Generate(c, seed)
		if err != nil {
			fmt.Fprintf(stderr, "cfgfuzz gen: seed %d: %v\n", seed, err)
			return exitUsage
		}
		writeItem(stdout, it, f)
		if f.stats {
			stats.Add(it)
		}
	}
	if f.stats {
		fmt.Fprintf(stderr, "# %s, seed %d, %d graphs\n", f.kindName, f.seed, f.count)
		stats.Format(stderr)
	}
	return exitOK
}

func writeItem(w io.Writer, it gen.Item, f *genFlags) {
	if f.verbose {
		fmt.Fprintf(w, "# seed=%d kind=%s blocks=%d\n", it.Seed, it.Kind, it.Graph.Len())
	}
	if f.program && it.Program != "" {
		for _, l := range strings.Split(it.Program, "\n") {
			fmt.Fprintf(w, "# %s\n", l)
		}
	}
	if f.lines {
		fmt.Fprint(w, cfg.FormatLines(it.Graph))
		fmt.Fprintln(w, "---") // cfg.Parse's separator between line-notation graphs
		return
	}
	fmt.Fprintln(w, cfg.FormatCompact(it.Graph))
}

const genUsage = `usage: cfgfuzz gen [--kind K] [--count N] [--seed S] [--blocks MIN-MAX]
                   [--words W | --words-upto W] [--heavy] [--switch P] [--wide-switch P] [--dead N]
                   [--lines] [--stats] [--program] [--verbose] [-n N] [--all] [--grow]

Prints generated graphs in compact notation, one graph a line. Everything is
a function of the flags: the same flags print the same bytes.

Graph i of a run uses seed S for i = 0 and a seed derived from S and i after
that (S+i for exhaustive); --verbose prints each graph's seed as
"# seed=...", and "--seed <that> --count 1" prints that graph alone.

kinds:
  reducible       random reducible graphs, every block reachable and returning
  irreducible     graphs with a loop of two or more entries
  nonterminating  graphs with a reachable cycle that has no exit
  program         random structured programs lowered to graphs (--program
                  prints the program text as # lines before each graph)
  exhaustive      every graph of 1..N blocks, out-degree <= 2, up to
                  isomorphism; the seed is the index (--all prints them all;
                  --grow: the seed is a position in the order a campaign
                  walks, all graphs of 1..5 blocks, then sampled 6..8)

--dead N adds N dead blocks to every graph: blocks no path from the entry
reaches, each branching into the graph (to a live block first, then live or
dead ones: dead cycles, conditionals and switches), so every block is
reachable only without it. A campaign's replay command passes the count the
graph's seed drew.

--stats prints the distribution to standard error, with the share of graphs
having each control-flow shape the structurizer has a code path for
(a loop with several exits, a switch with shared targets, ...) and, for
programs, of each language construct.

flags:
`

// wantsHelp reports whether args ask for the usage before anything the
// flag parser would stop at.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help", "--h":
			return true
		case "--":
			return false
		}
	}
	return false
}

func parseGenFlags(args []string, stdout, stderr io.Writer) (*genFlags, error) {
	f := &genFlags{}
	fs := flag.NewFlagSet("cfgfuzz gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), genUsage)
		fs.PrintDefaults()
	}
	blocks := fs.String("blocks", "5-9", fmt.Sprintf("block count range `MIN-MAX` (or one number), 1 to %d", gen.MaxBlocksLimit))
	switchProb := fs.Float64("switch", gen.DefaultSwitchProb, "probability `P` that a block is a switch (program: 2P that a statement is); 0 for none")
	wideProb := fs.Float64("wide-switch", gen.DefaultWideSwitchProb, "probability `P` that a switch is widened into a jump table of 5 to 300 successors sharing its targets; 0 for none")
	fs.StringVar(&f.kindName, "kind", string(gen.Reducible), "generator `K`: reducible, irreducible, nonterminating, program, exhaustive; K1,K2,... take turns (graph i is graph i/n of the (i mod n)-th kind, as a campaign's streams)")
	fs.IntVar(&f.count, "count", 10, "number of graphs `N`")
	fs.Uint64Var(&f.seed, "seed", 1, "run seed `S`")
	fs.IntVar(&f.cfg.Words, "words", 0, "weight of every block in SPIR-V words `W` (filler code; recompilers' published campaigns used 0, 16 and 1000)")
	fs.IntVar(&f.cfg.WordsUpTo, "words-upto", 0, "each block its own weight, drawn from the seed, in 0..`W` words (instead of --words)")
	fs.IntVar(&f.cfg.Dead, "dead", 0, fmt.Sprintf("add `N` dead blocks (0..%d), which no path from the entry reaches and which branch into the graph (a campaign gives one graph in %d of the random kinds 1 to %d)", gen.MaxDead, gen.CampaignDeadEvery, gen.CampaignDeadMax))
	fs.BoolVar(&f.cfg.Heavy, "heavy", false, fmt.Sprintf("one block, chosen by the seed, weighs %d words", gen.HeavyWords))
	fs.IntVar(&f.cfg.ExhaustiveN, "n", gen.DefaultExhaustiveN, fmt.Sprintf("exhaustive: largest block count `N` (1..%d)", gen.MaxExhaustiveN))
	fs.BoolVar(&f.cfg.ExhaustiveGrow, "grow", false, fmt.Sprintf("exhaustive: the seed is a position in the growing order a campaign walks (every graph of 1 to %d blocks, then sampled larger ones); --n is ignored", gen.GrowingFullN))
	fs.BoolVar(&f.all, "all", false, "exhaustive: print the whole enumeration in order (from --seed's index when given)")
	fs.BoolVar(&f.program, "program", false, "program: print the program text as # lines before each graph")
	fs.BoolVar(&f.verbose, "verbose", false, "print \"# seed=S kind=K blocks=B\" before each graph")
	fs.BoolVar(&f.stats, "stats", false, "print the distribution summary (loops, nesting, exits, switches, blocks) to stderr")
	fs.BoolVar(&f.lines, "lines", false, "print line notation (with weights) instead of compact notation, a \"---\" line after each graph")
	if wantsHelp(args) {
		fs.SetOutput(stdout) // asked for: the usage is the output
	}
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.finish(*blocks, *switchProb, *wideProb, set["seed"]); err != nil {
		return nil, err
	}
	if err := f.applies(set); err != nil {
		return nil, err
	}
	if !f.lines && (set["words"] || set["words-upto"] || set["heavy"]) {
		fmt.Fprintln(stderr, "cfgfuzz gen: note: compact notation carries no weights; --lines prints them")
	}
	return f, nil
}

// applies refuses a flag that every asked kind ignores, instead of
// ignoring it.
func (f *genFlags) applies(set map[string]bool) error {
	has := func(k gen.Kind) bool { return slices.Contains(f.kinds, k) }
	switch {
	case set["blocks"] && !slices.ContainsFunc(f.kinds, func(k gen.Kind) bool { return k != gen.Exhaustive }):
		return fmt.Errorf("--blocks does not apply to --kind exhaustive: --n sets its largest block count")
	case set["program"] && !has(gen.Program):
		return fmt.Errorf("--program only applies to --kind program")
	case (set["n"] || set["grow"]) && !has(gen.Exhaustive):
		return fmt.Errorf("--n and --grow only apply to --kind exhaustive")
	}
	return nil
}

// finish fills the config from the flags that need parsing.
func (f *genFlags) finish(blocks string, switchProb, wideProb float64, seedSet bool) error {
	for _, k := range strings.Split(f.kindName, ",") {
		f.kinds = append(f.kinds, gen.Kind(strings.TrimSpace(k)))
	}
	f.cfg.Kind = f.kinds[0]
	lo, hi, err := parseRange(blocks)
	if err != nil {
		return fmt.Errorf("--blocks: %v", err)
	}
	f.cfg.MinBlocks, f.cfg.MaxBlocks = lo, hi
	f.cfg.SwitchProb, f.cfg.WideSwitchProb = switchProb, wideProb
	if switchProb == 0 {
		f.cfg.SwitchProb = -1 // the flag's 0 means none; Config's 0 means the default
	}
	if wideProb == 0 {
		f.cfg.WideSwitchProb = -1
	}
	if f.count < 0 {
		return fmt.Errorf("--count %d is negative", f.count)
	}
	if f.all {
		if f.cfg.Kind != gen.Exhaustive || len(f.kinds) > 1 || f.cfg.ExhaustiveGrow {
			return fmt.Errorf("--all only applies to --kind exhaustive without --grow")
		}
		if !seedSet {
			f.seed = 0 // the whole enumeration, from its first graph
		}
		total := gen.ExhaustiveCount(f.cfg.ExhaustiveN)
		f.count = max(0, total-int(f.seed%uint64(max(total, 1))))
	}
	return nil
}

// parseRange reads "MIN-MAX" or "N".
func parseRange(s string) (int, int, error) {
	a, b, found := strings.Cut(s, "-")
	lo, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("want MIN-MAX or N, got %q", s)
	}
	hi := lo
	if found {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("want MIN-MAX or N, got %q", s)
		}
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("want 1 <= MIN <= MAX, got %q", s)
	}
	return lo, hi, nil
}
