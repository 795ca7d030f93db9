// guide.go defines behaviour-guided generation: a campaign with
// Settings.Guided records every graph's features (features.go) and keeps a
// corpus (corpus.go) of the graphs that showed a new one (graphs that
// gen.Mutate can take); with Settings.Mutate, that share of graph indices
// run a mutant of a corpus graph (gen.Mutate) grafted onto the source's
// fresh graph of the index (gen/graft.go), unless that graph is one of the
// source's large draws, which are always kept as they are (keepFresh,
// worker.go).
//
// Why a graft and not the mutant alone: a mutant in place of the fresh
// graph loses that graph, and a fault that only the fresh stream's graphs
// reach is then found later than by pure generation, however well the
// mutants do elsewhere. The graft holds the fresh graph whole, so what the
// fresh graph alone would show, the graft can still show at the same
// index. It can still hide it where a structurizer decides for the whole
// function at once (a direct layout for graphs that already nest, say) and
// the mutant takes the function off the path the fresh graph alone would
// take. So the grafts come in two phases. Those of the first quietFrom
// indices draw on the whole corpus and chain up to earlyChain mutants of
// distinct draws before the fresh graph (gen.Graft: each mutant's returns
// continue into what follows it): the corpus's full variety, what earlier
// campaigns found most unlike, is tried first, several entries a graph,
// their exits joined into the fresh graph, and the faults common enough
// to show on a few graphs show there. From index quietFrom on, a graft is
// one mutant of a quiet corpus entry (one whose structurization needed no
// route variable, clone or fallback and one pass at most: Corpus.quiet)
// with a single mutation of those that keep a graph that nests nesting
// (quietOps), beside the fresh graph (gen.GraftBeside: a new entry
// branches to the mutant and to the fresh graph, each keeping its own
// returns). Each choice keeps the fresh graph on its path: the graft
// nests whenever the mutant and the fresh graph both nest, where a mutant
// before the fresh graph joins its returns at the fresh graph's entry and
// often stops the whole from nesting, and the other mutations stop about
// half the mutants of quiet parents from nesting. So a rare fault that
// the fresh stream alone reaches shows at the fresh graph's own index
// nearly always. The grafts still reach behaviour the fresh graphs do
// not: each mutant is a shape the corpus has not held, and the
// structurizer still weighs the whole function (its size, both parts'
// blocks and words).
//
// Determinism. Graph index i's graph is a pure function of the settings,
// the corpus at the campaign's start (Settings.Corpus names it) and the
// records of lower batches: indices run in batches of
// Settings.CorpusBatch, the corpus grows only between batches, from the
// batch's records taken in index order, and a mutant of batch k draws its
// parent from the corpus as it stood at the start of batch k. Whether i is
// a mutant, which parent and which mutations are hashes of the campaign
// seed and i. So any number of workers, and a resumed run (whose logged
// records rebuild the corpus batch by batch), give the same graphs and the
// same report. A batch of 0 freezes the corpus for the whole campaign (it
// grows only at the end, for the next one); sharded campaigns run frozen,
// so merged shards give the report of the same campaign run unsharded with
// a batch of 0.
//
// The control. Settings.CorpusKeep KeepRandom runs the same mutants and
// grafts on a corpus not chosen by novelty: each batch admits as many of
// its graphs as novelty would have (counted against the features the
// corpus would show had it kept by novelty: guide.shadow), drawn by a hash
// of the seed and the index among the batch's graphs the corpus can take,
// whatever their features. Measured side by side with the guided
// campaign, it tells what guidance adds over mutating and grafting
// corpus graphs at all. It is as deterministic as the guided campaign.

package fuzz

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// DefaultCorpusBatch is the batch cmd/cfgfuzz gives a guided campaign.
const DefaultCorpusBatch = 128

// Salts of the guide's draws, so they are independent of the dispatch
// share's and of each other.
const (
	saltMutant = 0x6775696465643031 // "guided01"
	saltParent = 0x706172656e743031 // "parent01"
	saltOps    = 0x6d75746f70733031 // "mutops01"
	saltKeep   = 0x72616e6b65703031 // "rankep01"
)

// KeepRandom is the Settings.CorpusKeep of the control: the corpus admits
// graphs by a seeded draw, as many as novelty would (guide.go's header).
const KeepRandom = "random"

// guide is a campaign's guided generation: the growing corpus (the
// coordinator's alone) and the snapshot that the workers draw parents
// from, replaced between batches.
type guide struct {
	set    *Settings
	corpus *Corpus
	snap   atomic.Pointer[snapshot]
	merged int // records with an index below it are in the corpus
	// shadow is, under KeepRandom, the features the corpus would show had
	// it admitted by novelty: the start corpus's, then those of each graph
	// novelty would have admitted.
	shadow map[string]bool
}

// snapshot is the corpus as the workers draw parents from it: its graphs
// and which of them are quiet (Corpus.quiet).
type snapshot struct {
	graphs []*cfg.Graph
	quiet  []int
}

func newGuide(s *Settings, start *Corpus) *guide {
	g := &guide{set: s, corpus: &Corpus{}}
	if start != nil {
		g.corpus = start.Clone()
	}
	if s.CorpusKeep == KeepRandom {
		g.shadow = map[string]bool{}
		for f := range g.corpus.seen {
			g.shadow[f] = true
		}
	}
	g.publish()
	return g
}

// publish makes the corpus as it stands the workers' snapshot. The corpus
// only appends, so a prefix of its graphs never changes.
func (g *guide) publish() {
	c := g.corpus
	g.snap.Store(&snapshot{graphs: c.graphs[:len(c.graphs):len(c.graphs)], quiet: c.quiet[:len(c.quiet):len(c.quiet)]})
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) * 0x1p-53 }

// graftFrom is the text a grafted mutant's description ends with, then
// the block the fresh graph starts at.
const graftFrom = "; fresh from block "

// mutant is graph index i as a mutant, when the share draws it and the
// snapshot has a parent: the item and the record's description of it
// ("corpus[K] OP+OP; fresh from block N"). The mutant of the parent is
// grafted onto fresh, index i's fresh graph: the fresh graph stays whole
// inside it, from block N on, so trading it for a mutant loses none of what
// the fresh graph alone would show. Below quietFrom the graft chains up to
// earlyChain mutants of distinct draws before the fresh graph (gen.Graft;
// "corpus[K] OPS > corpus[J] OPS; fresh from block N"); a mutant without a
// return (what follows it would be unreachable) is left out of the chain,
// and a chain left empty leaves index i its fresh graph. From quietFrom on
// the one mutant is grafted beside the fresh graph (gen.GraftBeside, N the
// mutant's blocks plus one), which takes any mutant. A fresh graph that
// could not be made (fresh nil) gives the first mutant alone ("corpus[K]
// OP+OP"). ok false means the fresh graph.
func (g *guide) mutant(i int, fresh *cfg.Graph) (it Item, desc string, ok bool, err error) {
	snap := g.snap.Load()
	if g.set.Mutate <= 0 || len(snap.graphs) == 0 || unit(shareHash(g.set.Seed^saltMutant, i)) >= g.set.Mutate {
		return Item{}, "", false, nil
	}
	links := 1
	if fresh != nil && i < quietFrom {
		links = earlyChain
	}
	var chain []gen.Mutant
	var descs []string
	first := shareHash(g.set.Seed^saltOps, i)
	for c := range links {
		k := g.parent(snap, i, c, fresh != nil)
		o := gen.MutateOptions{}
		if fresh != nil && i >= quietFrom {
			o.MaxStack, o.Ops = quietStack, quietOps
		}
		m, err := gen.Mutate(snap.graphs[k], linkHash(first, c), o)
		if err != nil {
			return Item{Seed: first}, "", true, err
		}
		d := fmt.Sprintf("corpus[%d] %s", k, cmp.Or(strings.Join(m.Ops, "+"), "none"))
		if fresh == nil {
			return Item{Graph: m.Graph, Seed: first}, d, true, nil
		}
		if i >= quietFrom || slices.ContainsFunc(m.Graph.Succs, func(s []int) bool { return len(s) == 0 }) {
			chain, descs = append(chain, m), append(descs, d)
		}
	}
	if len(chain) == 0 {
		return Item{}, "", false, nil
	}
	gr := fresh
	if i >= quietFrom {
		gr = gen.GraftBeside(chain[0].Graph, fresh)
	}
	for c := len(chain) - 1; c >= 0 && i < quietFrom; c-- {
		gr, _ = gen.Graft(chain[c].Graph, gr)
	}
	return Item{Graph: gr, Seed: first}, fmt.Sprintf("%s%s%d", strings.Join(descs, " > "), graftFrom, gr.Len()-fresh.Len()), true, nil
}

// linkHash is the seed of a chain's link c, from its first link's.
func linkHash(first uint64, c int) uint64 {
	if c == 0 {
		return first
	}
	return shareHash(first, c)
}

// corpusGraph is the graph a novel record gives the corpus: its own, when
// gen.Mutate takes it; else, for a grafted mutant, the mutants it grafted
// onto the fresh graph, before it or beside it (what the guide made of the
// corpus; gen.GraftPrefix tells the layouts apart); else none.
func corpusGraph(r *Record) *cfg.Graph {
	gr, err := recordGraph(r)
	if err != nil {
		return nil
	}
	if (gen.MutateOptions{}).Fits(gr) == nil {
		return gr
	}
	_, n, found := strings.Cut(r.Mutant, graftFrom)
	if !found {
		return nil
	}
	at, err := strconv.Atoi(n)
	if err != nil {
		return nil
	}
	if head, ok := gen.GraftPrefix(gr, at); ok && (gen.MutateOptions{}).Fits(head) == nil {
		return head
	}
	return nil
}

// quietFrom is the first graph index whose graft draws its parent among
// the quiet entries (guide.go's header says why).
const quietFrom = 16

// earlyChain is how many mutants a graft below quietFrom chains before
// its fresh graph: a first graph holding the shapes of several corpus
// entries shows what each of them would.
const earlyChain = 3

// quietStack bounds the mutations stacked on a quiet parent
// (gen.MutateOptions.MaxStack): each one more is a further chance that the
// head stops being quiet.
const quietStack = 1

// quietOps are the mutations drawn for a quiet parent (gen.MutateOptions.Ops):
// those that keep a graph that nests nesting (a block split in two, two
// merged into one, an edge of a branch dropped), so the graft beside the
// fresh graph nests whenever the fresh graph does. Adding or retargeting
// an edge, a back edge, a loop around a region or a duplicated case each
// stop about half the mutants of quiet parents from nesting.
var quietOps = []string{"remove-edge", "split", "merge"}

// parent draws the parent of index i's chain link c from the snapshot: for
// a graft (grafted true) at index quietFrom or later, among the quiet
// entries when there are any; else among them all. Either way
// pickParent's draw.
func (g *guide) parent(snap *snapshot, i, c int, grafted bool) int {
	h := linkHash(shareHash(g.set.Seed^saltParent, i), c)
	if grafted && i >= quietFrom && len(snap.quiet) > 0 {
		return snap.quiet[pickParent(h, len(snap.quiet))]
	}
	return pickParent(h, len(snap.graphs))
}

// pickParent draws a corpus entry from h: half the draws among the 16
// newest entries (what was just found is mutated most, as a fuzzer's queue
// favours fresh entries), the others uniformly.
func pickParent(h uint64, n int) int {
	const recent = 16
	if h&1 == 1 && n > recent {
		return n - recent + int((h>>1)%recent)
	}
	return int((h >> 1) % uint64(n))
}

// batchEnd is the first index after the batch holding i; -1 when the
// corpus is frozen (one batch: the whole campaign).
func (g *guide) batchEnd(i int) int {
	b := g.set.CorpusBatch
	if b <= 0 {
		return -1
	}
	return (i/b + 1) * b
}

// mergeBelow adds the records with an index in [g.merged, end), in index
// order, to the corpus (end -1: all) and publishes it. recs may hold
// others, in any order.
func (g *guide) mergeBelow(end int, recs []Record) {
	var batch []*Record
	for k := range recs {
		if r := &recs[k]; r.Index >= g.merged && (end < 0 || r.Index < end) {
			batch = append(batch, r)
		}
	}
	slices.SortFunc(batch, func(a, b *Record) int { return cmp.Compare(a.Index, b.Index) })
	if g.shadow != nil {
		g.keepRandom(batch)
	} else {
		for _, r := range batch {
			if !g.corpus.novel(r.Features) {
				continue
			}
			if gr := corpusGraph(r); gr != nil {
				g.corpus.addFound(g.entry(r), gr)
			}
		}
	}
	if end >= 0 {
		g.merged = end
	}
	g.publish()
}

// entry is the corpus entry record r gives (its graph set by the corpus).
func (g *guide) entry(r *Record) CorpusEntry {
	return CorpusEntry{Features: r.Features, Index: r.Index, Seed: g.set.Seed, Structurizer: g.set.Current}
}

// keepRandom admits, from batch (sorted by index), as many graphs as
// novelty would have, counted against g.shadow, drawn among the batch's
// judged graphs the corpus can take by a hash of the seed and the index:
// the control of KeepRandom. They join in index order.
func (g *guide) keepRandom(batch []*Record) {
	type cand struct {
		r  *Record
		gr *cfg.Graph
		h  uint64
	}
	var cands []cand
	n := 0
	for _, r := range batch {
		if r.Skipped || len(r.Features) == 0 {
			continue
		}
		gr := corpusGraph(r)
		if gr == nil {
			continue
		}
		if shadowNovel(g.shadow, r.Features) {
			n++
		}
		cands = append(cands, cand{r, gr, shareHash(g.set.Seed^saltKeep, r.Index)})
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.r.Index, b.r.Index)) })
	cands = cands[:n]
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(a.r.Index, b.r.Index) })
	for _, c := range cands {
		g.corpus.addAny(g.entry(c.r), c.gr)
	}
}

// shadowNovel says whether fs holds a feature seen lacks, and adds fs's
// features to seen when it does (novelty's admission, which adds them).
func shadowNovel(seen map[string]bool, fs []string) bool {
	if !slices.ContainsFunc(fs, func(f string) bool { return !seen[f] }) {
		return false
	}
	for _, f := range fs {
		seen[f] = true
	}
	return true
}

// recordGraph is the record's graph with its weights.
func recordGraph(r *Record) (*cfg.Graph, error) {
	return graphOf(&Example{Graph: r.Graph, Weights: r.Weights})
}
