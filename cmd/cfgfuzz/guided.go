// guided.go: the flags of behaviour-guided generation for run and compare
// (fuzz/guide.go): --guided records features, --mutate sets the share of
// mutants, --corpus names the corpus directory a campaign starts from and
// leaves its grown corpus in (a shard leaves it as it is: cfgfuzz merge
// writes the night's), --corpus-batch how often the corpus grows.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// guidedFlags are the guided-generation flags.
type guidedFlags struct {
	guided bool
	mutate float64
	corpus string
	batch  int
	keep   string // --corpus-keep
	// dir is the corpus directory in use (--corpus, else STATE/corpus
	// with --state; "" none).
	dir string
}

func (g *guidedFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&g.guided, "guided", false, "record each graph's behaviour features and grow a corpus of the graphs that showed new ones (implied by --mutate and --corpus)")
	fs.Float64Var(&g.mutate, "mutate", 0, "share `F` (0 to 1) of graphs that run a mutant of a corpus graph grafted before or beside the fresh graph, which stays whole (guided; a fresh graph of 10 blocks or more is kept alone)")
	fs.StringVar(&g.corpus, "corpus", "", "guided corpus `DIR`: its entries.jsonl (one JSON entry a line, {\"graph\": \"LINE NOTATION\"} at least: fuzz/README.md, \"Guided generation\"; .cfg files in DIR are not read) read at the start, the grown corpus written back at the end, but not by a shard or an interrupted run (default with --state: STATE/corpus; cfgfuzz merge writes a sharded night's, given the same --corpus or --state)")
	fs.IntVar(&g.batch, "corpus-batch", fuzz.DefaultCorpusBatch, "the corpus grows after each batch of `N` graph indices (0: frozen for the campaign; --shard runs frozen)")
	fs.StringVar(&g.keep, "corpus-keep", keepNovel, "how the corpus admits graphs, `HOW`: novel (a graph that showed a behaviour feature no entry shows) or random (a control for measuring what guidance adds: each batch admits as many graphs as novel would, drawn by a seeded hash whatever their features; the same mutants and grafts)")
}

// keepNovel is --corpus-keep's default: admission by novelty.
const keepNovel = "novel"

// corpusKeep is the fuzz.Settings.CorpusKeep of --corpus-keep.
func (g *guidedFlags) corpusKeep() (string, error) {
	switch g.keep {
	case keepNovel, "": // "": flags not parsed, the default
		return "", nil
	case fuzz.KeepRandom:
		return fuzz.KeepRandom, nil
	}
	return "", fmt.Errorf("--corpus-keep %q: want %s or %s", g.keep, keepNovel, fuzz.KeepRandom)
}

// apply sets the guided settings (not on --resume, which keeps the saved
// ones) and loads the corpus into c: --corpus, else with a state
// directory (--state, "" none) its corpus/ (fuzz/STATE.md). A corpus
// whose entries another structurizer found is taken with a warning on
// stderr (the report names them too). Whether the grown corpus is written
// back is the campaign's to say (fuzz.CorpusNote): a shard's and an
// interrupted campaign's are not.
func (g *guidedFlags) apply(c *fuzz.Config, resume bool, state string, stderr io.Writer) error {
	if !resume {
		c.Guided = g.guided || g.mutate > 0 || g.corpus != ""
		c.Mutate, c.CorpusBatch = g.mutate, g.batch
		if g.batch < 0 {
			return fmt.Errorf("--corpus-batch %d: want 0 or more", g.batch)
		}
		keep, err := g.corpusKeep()
		if err != nil {
			return err
		}
		if keep != "" && !c.Guided {
			return fmt.Errorf("--corpus-keep %s needs a guided campaign (--mutate, --corpus or --guided)", g.keep)
		}
		c.CorpusKeep = keep
	}
	g.dir = g.corpus
	if g.dir == "" && state != "" {
		g.dir = filepath.Join(state, fuzz.StateCorpusDir)
	}
	if g.dir == "" || !c.Guided {
		return nil
	}
	if fi, err := os.Stat(g.dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("--corpus %s: not a directory: --corpus names the directory of a guided campaign's corpus, whose %s it reads and writes back (fuzz/README.md, \"Guided generation\", says how to seed one with graphs of your own); cfgfuzz check %s judges the graphs of a file as written", g.dir, fuzz.CorpusFile, fuzz.ShellQuote(g.dir))
	}
	corpus, err := fuzz.LoadCorpus(g.dir)
	if err != nil {
		return fmt.Errorf("--corpus: %w", err)
	}
	noteGraphFiles(g.dir, stderr)
	c.Corpus, c.CorpusDir = corpus, g.dir
	if foreign := corpus.Foreign(c.Settings.Current); len(foreign) > 0 {
		fmt.Fprintf(stderr, "cfgfuzz: warning: corpus %s was grown on another structurizer than this campaign's (%s): %s; guided generation takes its graphs and features all the same, but they say little of this structurizer: give each structurizer a corpus directory of its own (--corpus DIR)\n", g.dir, c.Settings.Current, strings.Join(foreign, ", "))
	}
	return nil
}

// save writes the campaign's grown corpus back where its report says it
// is written (nowhere for a shard or an interrupted campaign: its --resume
// reads the corpus it started from).
func (g *guidedFlags) save(o *fuzz.Outcome) error {
	if o.Corpus == nil || o.Report.Guided == nil || o.Report.Guided.Corpus == nil || o.Report.Guided.Corpus.Written == "" {
		return nil
	}
	return fuzz.SaveCorpus(o.Report.Guided.Corpus.Written, o.Corpus)
}

// noteGraphFiles says on stderr that the graph files (*.cfg) of the corpus
// directory dir are not read when dir has no corpus file: a corpus is
// its entries.jsonl alone, and a directory of graphs given as --corpus
// would otherwise start an empty corpus without a word.
func noteGraphFiles(dir string, stderr io.Writer) {
	if _, err := os.Stat(filepath.Join(dir, fuzz.CorpusFile)); !errors.Is(err, os.ErrNotExist) {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cfg"))
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(stderr, "cfgfuzz: note: corpus %s holds %s but no %s: a corpus is its %s alone, so they are not read; to seed the corpus with a graph in line notation, add its entry, e.g. jq -cRs '{graph: .}' %s >> %s (fuzz/README.md, \"Guided generation\"); cfgfuzz check judges graph files as written\n",
		dir, fuzz.Plural(len(files), ".cfg file"), fuzz.CorpusFile, fuzz.CorpusFile, fuzz.ShellQuote(files[0]), fuzz.ShellQuote(filepath.Join(dir, fuzz.CorpusFile)))
}
