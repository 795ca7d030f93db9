// guided.go: the flags of behaviour-guided generation for run and compare
// (fuzz/guide.go): --guided records features, --mutate sets the share of
// mutants, --corpus names the corpus directory a campaign starts from and
// leaves its grown corpus in, --corpus-batch how often the corpus grows.

package main

import (
	"flag"
	"fmt"
	"path/filepath"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// guidedFlags are the guided-generation flags.
type guidedFlags struct {
	guided bool
	mutate float64
	corpus string
	batch  int
	// dir is the corpus directory in use (--corpus, else STATE/corpus
	// with --state; "" none) and keep whether the grown corpus is
	// written back to it, as apply decides.
	dir  string
	keep bool
}

func (g *guidedFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&g.guided, "guided", false, "record each graph's behaviour features and grow a corpus of the graphs that showed new ones (implied by --mutate and --corpus)")
	fs.Float64Var(&g.mutate, "mutate", 0, "share `F` (0 to 1) of graphs that run a mutant of a corpus graph grafted before or beside the fresh graph, which stays whole (guided; a fresh graph of 10 blocks or more is kept alone)")
	fs.StringVar(&g.corpus, "corpus", "", "guided corpus `DIR`: read at the start, the grown corpus written back at the end (default with --state: STATE/corpus, not written back by a shard or an interrupted run; merge --state writes a sharded night's)")
	fs.IntVar(&g.batch, "corpus-batch", fuzz.DefaultCorpusBatch, "the corpus grows after each batch of `N` graph indices (0: frozen for the campaign; --shard runs frozen)")
}

// apply sets the guided settings (not on --resume, which keeps the saved
// ones) and loads the corpus into c: --corpus, else with a state
// directory (--state, "" none) its corpus/ (fuzz/STATE.md), which a
// shard reads but leaves to the night's merge, as it leaves the state.
func (g *guidedFlags) apply(c *fuzz.Config, resume bool, state string) error {
	if !resume {
		c.Guided = g.guided || g.mutate > 0 || g.corpus != ""
		c.Mutate, c.CorpusBatch = g.mutate, g.batch
		if g.batch < 0 {
			return fmt.Errorf("--corpus-batch %d: want 0 or more", g.batch)
		}
	}
	g.dir, g.keep = g.corpus, g.corpus != ""
	if g.dir == "" && state != "" {
		g.dir, g.keep = filepath.Join(state, fuzz.StateCorpusDir), c.Shard.N <= 1
	}
	if g.dir != "" && c.Guided {
		corpus, err := fuzz.LoadCorpus(g.dir)
		if err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
		c.Corpus = corpus
	}
	return nil
}

// save writes the campaign's grown corpus back into its directory; an
// interrupted campaign's is not (its --resume reads the corpus it started
// from).
func (g *guidedFlags) save(o *fuzz.Outcome) error {
	if !g.keep || o.Corpus == nil || o.Report.Incomplete != nil {
		return nil
	}
	return fuzz.SaveCorpus(g.dir, o.Corpus)
}
