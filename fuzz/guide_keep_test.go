// guide_keep_test.go checks the guidance control (Settings.CorpusKeep
// KeepRandom): its corpus is not the guided one, each batch admits as many
// graphs as novelty would, and it is as deterministic as guided generation
// (workers, resume, merged shards).
package fuzz

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// randomConfig is guidedConfig with the corpus kept at random.
func randomConfig(t *testing.T, n int) Config {
	c := guidedConfig(t, n)
	c.CorpusKeep = KeepRandom
	return c
}

func entryIndices(c *Corpus) []int {
	var out []int
	for _, e := range c.Entries {
		out = append(out, e.Index)
	}
	return out
}

func TestCorpusKeepRandomDiffersFromGuided(t *testing.T) {
	g, r := guidedConfig(t, 150), randomConfig(t, 150)
	og, or := mustRun(t, g), mustRun(t, r)
	gi, ri := entryIndices(og.Corpus), entryIndices(or.Corpus)
	if len(ri) == 0 {
		t.Fatal("the random keep admitted no graph")
	}
	if slices.Equal(gi, ri) {
		t.Errorf("the random keep admitted the guided corpus's graphs: %v", ri)
	}
	if or.Report.Settings.CorpusKeep != KeepRandom || !strings.Contains(reportJSON(t, r.Dir), `"corpus_keep": "random"`) {
		t.Errorf("the report's settings do not name the random keep")
	}
	t.Logf("150 graphs, seed 1: guided corpus %d entries, random %d, %d in both",
		len(gi), len(ri), len(slices.DeleteFunc(slices.Clone(gi), func(i int) bool { return !slices.Contains(ri, i) })))
}

// TestCorpusKeepRandomAdmitsAsManyAsNovelty recounts, from the control's
// records, how many graphs of each batch novelty would have admitted
// (against the features of the graphs it would have admitted before) and
// demands that many corpus entries from the batch.
func TestCorpusKeepRandomAdmitsAsManyAsNovelty(t *testing.T) {
	c := randomConfig(t, 150)
	o := mustRun(t, c)
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b Record) int { return cmp.Compare(a.Index, b.Index) })
	want, got := map[int]int{}, map[int]int{}
	seen, notNovel := map[string]bool{}, 0
	for k := range recs {
		r := &recs[k]
		if r.Skipped || len(r.Features) == 0 || corpusGraph(r) == nil {
			continue
		}
		if shadowNovel(seen, r.Features) {
			want[r.Index/c.CorpusBatch]++
		}
	}
	seen = map[string]bool{}
	for _, e := range o.Corpus.Entries {
		got[e.Index/c.CorpusBatch]++
		if !shadowNovel(seen, e.Features) {
			notNovel++
		}
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("entries admitted per batch %v, want novelty's counts %v", got, want)
	}
	if notNovel == 0 {
		t.Error("every admitted entry showed a feature the entries before it lacked: admission by novelty")
	}
}

func TestCorpusKeepRandomDeterministic(t *testing.T) {
	a, b := randomConfig(t, 150), randomConfig(t, 150)
	a.Workers, b.Workers = 1, 2
	oa, ob := mustRun(t, a), mustRun(t, b)
	if ja, jb := reportJSON(t, a.Dir), reportJSON(t, b.Dir); ja != jb {
		t.Errorf("random-keep reports differ between 1 and 2 workers:\n%s\n---\n%s", ja, jb)
	}
	if !reflect.DeepEqual(oa.Corpus.Entries, ob.Corpus.Entries) {
		t.Errorf("random-keep corpora differ between 1 and 2 workers: %d and %d entries", len(oa.Corpus.Entries), len(ob.Corpus.Entries))
	}

	resumeAndShardsAgree(t, "random-keep", randomConfig, a, 80)
}

func TestCorpusKeepRefused(t *testing.T) {
	for _, tc := range []struct {
		guided bool
		keep   string
		want   string
	}{{true, "novel", `corpus keep "novel"`}, {false, KeepRandom, "needs a guided campaign"}} {
		c := testConfig(t, 5)
		c.Guided, c.CorpusKeep = tc.guided, tc.keep
		if _, err := Run(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("guided %v, keep %q: %v; want an error saying %q", tc.guided, tc.keep, err, tc.want)
		}
	}
}

// TestAddAnyDropsTheOldestOfAFullCorpus: a full corpus kept at random
// makes room by dropping its oldest entry, and the features only it showed
// go with it.
func TestAddAnyDropsTheOldestOfAFullCorpus(t *testing.T) {
	var c Corpus
	g := cfg.FromSuccs([][]int{{1}, {}})
	for i := range MaxCorpus {
		c.addAny(CorpusEntry{Features: []string{fmt.Sprint("f", i), "shared"}, Index: i}, g)
	}
	c.addAny(CorpusEntry{Features: []string{"new", "shared"}, Index: MaxCorpus}, g)
	if len(c.Entries) != MaxCorpus || c.Entries[0].Index != 1 || c.Entries[MaxCorpus-1].Index != MaxCorpus {
		t.Fatalf("%d entries, first of index %d: want %d, the oldest dropped", len(c.Entries), c.Entries[0].Index, MaxCorpus)
	}
	if c.seen["f0"] || !c.seen["shared"] || c.Features() != MaxCorpus+1 {
		t.Errorf("features after the drop: f0 %v, shared %v, %d in all; want f0 gone, shared kept, %d", c.seen["f0"], c.seen["shared"], c.Features(), MaxCorpus+1)
	}
}
