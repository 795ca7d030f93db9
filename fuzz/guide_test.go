// guide_test.go checks guided generation's promises: the same seed and
// start corpus give the same report and corpus whatever the workers, a
// resumed campaign (killed or interrupted) and merged shards give the
// run's report, the corpus
// grows only with graphs that showed new features and round-trips through
// its directory, mutants replay from their own text, and the features read
// a module's construct tree.
package fuzz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// guidedConfig is a guided campaign of n graphs on the default strategy,
// with a batch of 25 and half the graphs mutants.
func guidedConfig(t *testing.T, n int) Config {
	c := testConfig(t, n)
	c.Strategy = ""
	c.Guided, c.Mutate, c.CorpusBatch = true, 0.5, 25
	return c
}

func TestGuidedDeterministicAcrossWorkers(t *testing.T) {
	a, b := guidedConfig(t, 150), guidedConfig(t, 150)
	a.Workers, b.Workers = 1, 2
	oa, ob := mustRun(t, a), mustRun(t, b)
	g := oa.Report.Guided
	if g == nil || g.Mutants == 0 || g.Features == 0 {
		t.Fatalf("guided summary %+v: want mutants and features", g)
	}
	if ja, jb := reportJSON(t, a.Dir), reportJSON(t, b.Dir); ja != jb {
		t.Errorf("guided reports differ between 1 and 2 workers:\n%s\n---\n%s", ja, jb)
	}
	if !reflect.DeepEqual(oa.Corpus.Entries, ob.Corpus.Entries) {
		t.Errorf("corpora differ between 1 and 2 workers: %d and %d entries", len(oa.Corpus.Entries), len(ob.Corpus.Entries))
	}
	t.Logf("150 graphs: %d mutants, %d features, corpus of %d", g.Mutants, g.Features, len(oa.Corpus.Entries))
}

// TestGuidedMutantsDrawOnLowerBatches recomputes every graph of a guided
// campaign from the corpus it ended with: graph i is a mutant exactly when
// the share draws it, the corpus at the start of i's batch (the entries
// added by lower batches) is not empty and the fresh graph is not a large
// draw, of the parent drawn from that corpus, by the drawn mutations,
// grafted beside index i's fresh graph (every index it checks is past
// quietFrom: the first batch starts from an empty corpus), the parent
// drawn among the quiet entries. A corpus that grew during a batch would give
// some of that batch's graphs another parent.
func TestGuidedMutantsDrawOnLowerBatches(t *testing.T) {
	c := guidedConfig(t, 150)
	c.Workers = 2
	o := mustRun(t, c)
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	mutants, quietParents := 0, 0
	for _, r := range recs {
		start := r.Index / c.CorpusBatch * c.CorpusBatch
		n := 0
		for n < len(o.Corpus.Entries) && o.Corpus.Entries[n].Index < start {
			n++
		}
		drawn := unit(shareHash(c.Seed^saltMutant, r.Index)) < c.Mutate
		if !drawn || n == 0 {
			if r.Mutant != "" {
				t.Errorf("graph %d is a mutant (%s); the share did not draw it or the corpus was empty (%d entries)", r.Index, r.Mutant, n)
			}
			continue
		}
		s, j := c.Place(r.Index)
		fresh, err := generate(c.Source, c.Streams[s], c.runSeed(s), j)
		if err != nil {
			t.Fatal(err)
		}
		if keepFresh(fresh, nil) {
			continue
		}
		var quiet []int
		for q := range n {
			if quietFeatures(o.Corpus.Entries[q].Features) {
				quiet = append(quiet, q)
			}
		}
		k, quietParent := pickParent(shareHash(c.Seed^saltParent, r.Index), n), false
		if r.Index >= quietFrom && len(quiet) > 0 {
			k, quietParent = quiet[pickParent(shareHash(c.Seed^saltParent, r.Index), len(quiet))], true
		}
		m, err := gen.Mutate(o.Corpus.graphs[k], shareHash(c.Seed^saltOps, r.Index), gen.MutateOptions{MaxStack: quietStack, Ops: quietOps})
		if err != nil {
			t.Fatal(err)
		}
		if r.Index < quietFrom {
			t.Fatalf("graph %d is a mutant below quietFrom %d: the first batch should have started from an empty corpus", r.Index, quietFrom)
		}
		graft := gen.GraftBeside(m.Graph, fresh.Graph)
		mutants++
		if quietParent {
			quietParents++
		}
		want := fmt.Sprintf("corpus[%d] ", k)
		if r.Skipped { // a repeat of an earlier graph: not run, no graph kept
			if !strings.HasPrefix(r.Mutant, want) {
				t.Errorf("skipped graph %d: %s, want a mutant of corpus[%d] of the %d entries its batch started with", r.Index, r.Mutant, k, n)
			}
			continue
		}
		if !strings.HasPrefix(r.Mutant, want) || !strings.HasSuffix(r.Mutant, fmt.Sprintf("%s%d", graftFrom, 1+m.Graph.Len())) || r.Graph != cfg.FormatCompact(graft) {
			t.Errorf("graph %d: %s %s, want a mutant of corpus[%d] of the %d entries its batch started with, grafted beside the fresh graph: %s", r.Index, r.Mutant, r.Graph, k, n, graft)
		}
	}
	if mutants == 0 || quietParents == 0 {
		t.Fatalf("%d mutants, %d of quiet parents: want both", mutants, quietParents)
	}
	t.Logf("%d mutants, %d of quiet parents", mutants, quietParents)
}

// TestGuidedResumeAndShards: a guided campaign resumed after 60 of its
// 100 graphs, and its frozen shards merged, give the reports of the runs
// made whole (resumeAndShardsAgree).
func TestGuidedResumeAndShards(t *testing.T) {
	whole := guidedConfig(t, 100)
	mustRun(t, whole)
	resumeAndShardsAgree(t, "guided", guidedConfig, whole, 60)
}

// resumeAndShardsAgree: a campaign of config's made as whole was (its
// graphs, of a finished run), killed after keep of its records and
// resumed, gives whole's report; config's shards of 100 graphs, which run
// frozen, merged give the unsharded frozen run's. what names the
// campaign in the errors.
func resumeAndShardsAgree(t *testing.T, what string, config func(*testing.T, int) Config, whole Config, keep int) {
	t.Helper()
	part := config(t, whole.Graphs)
	mustRun(t, part)
	keepRecords(t, part.Dir, keep)
	saved, err := LoadSettings(part.Dir)
	if err != nil {
		t.Fatal(err)
	}
	part.Settings, part.Resume = saved, true
	mustRun(t, part)
	if a, b := reportJSON(t, whole.Dir), reportJSON(t, part.Dir); a != b {
		t.Errorf("resumed %s report differs from the whole run's:\n%s\n---\n%s", what, a, b)
	}

	// Shards run frozen: merged, they give the unsharded frozen run.
	frozen := config(t, 100)
	frozen.CorpusBatch = 0
	mustRun(t, frozen)
	var dirs []string
	for i := range 2 {
		c := config(t, 100)
		c.Shard = Shard{I: i, N: 2}
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	if a, b := reportJSON(t, frozen.Dir), mergedReportJSON(t, dirs); a != b {
		t.Errorf("merged %s shards differ from the frozen run:\n%s\n---\n%s", what, a, b)
	}
}

// keepRecords cuts dir's results log to its records of index below n (a
// campaign killed there, as far as the log shows).
// cancelSource is the test source that cancels its campaign when asked
// for its n-th graph.
type cancelSource struct {
	testSource
	n      int32
	calls  atomic.Int32
	cancel context.CancelCauseFunc
}

func (s *cancelSource) Item(st Stream, run uint64, j int) (Item, error) {
	if s.calls.Add(1) == s.n {
		s.cancel(errors.New("SIGINT"))
	}
	return s.testSource.Item(st, run, j)
}

// TestGuidedInterruptedResume: a guided campaign interrupted part-way
// (its context cancelled while it generates, between or at a batch
// barrier) says so, and its resume gives the whole run's report.
func TestGuidedInterruptedResume(t *testing.T) {
	whole := guidedConfig(t, 150)
	mustRun(t, whole)
	part := guidedConfig(t, 150)
	ctx, cancel := context.WithCancelCause(context.Background())
	part.Context, part.Source = ctx, &cancelSource{n: 60, cancel: cancel}
	o := mustRun(t, part)
	if in := o.Report.Incomplete; in == nil || in.Done >= 150 {
		t.Fatalf("interrupted guided campaign: incomplete %+v", in)
	}
	t.Logf("interrupted after %d of 150 graphs", o.Report.Incomplete.Done)
	saved, err := LoadSettings(part.Dir)
	if err != nil {
		t.Fatal(err)
	}
	part.Settings, part.Resume, part.Context, part.Source = saved, true, nil, testSource{}
	mustRun(t, part)
	if a, b := reportJSON(t, whole.Dir), reportJSON(t, part.Dir); a != b {
		t.Errorf("resumed interrupted guided report differs from the whole run's:\n%s\n---\n%s", a, b)
	}
}

func keepRecords(t *testing.T, dir string, n int) {
	t.Helper()
	path := filepath.Join(dir, "results.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	var keep strings.Builder
	for k, r := range recs {
		if r.Index < n {
			keep.WriteString(lines[k])
		}
	}
	if err := os.WriteFile(path, []byte(keep.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGuidedStartCorpus(t *testing.T) {
	first := guidedConfig(t, 60)
	o := mustRun(t, first)
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := SaveCorpus(dir, o.Corpus); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Digest() != o.Corpus.Digest() || back.Features() != o.Corpus.Features() {
		t.Fatalf("corpus round trip: %s, %d features; want %s, %d", back.Digest(), back.Features(), o.Corpus.Digest(), o.Corpus.Features())
	}
	for _, e := range back.Entries {
		if len(e.Features) == 0 {
			t.Fatalf("entry of graph %d kept with no features", e.Index)
		}
	}
	// The next campaign starts from it: mutants from its first batch on,
	// and its settings name the corpus.
	next := guidedConfig(t, 25)
	next.Seed, next.Corpus = 2, back
	on := mustRun(t, next)
	if on.Report.Guided.Mutants == 0 {
		t.Error("a campaign from a non-empty corpus made no mutant in its first batch")
	}
	if got := on.Report.Settings.Corpus; got != back.Digest() {
		t.Errorf("settings name corpus %q, want %q", got, back.Digest())
	}
	if len(on.Corpus.Entries) < len(back.Entries) {
		t.Errorf("the corpus shrank from %d to %d entries", len(back.Entries), len(on.Corpus.Entries))
	}
	// Resuming against another corpus is refused.
	next.Resume, next.Corpus = true, &Corpus{}
	if _, err := Run(next); err == nil || !strings.Contains(err.Error(), "corpus") {
		t.Errorf("resume with a different corpus: %v, want an error naming the corpus", err)
	}
}

// TestLoadCorpusRefusesGraphsMutateCannotTake: an entry beyond gen.Mutate's
// limits (a corpus written by hand or by another tool) is refused when the
// corpus is read, naming the file and line, instead of making every mutant
// drawn from it a harness error.
func TestLoadCorpusRefusesGraphsMutateCannotTake(t *testing.T) {
	dir := t.TempDir()
	var chain strings.Builder
	for i := range 39 {
		fmt.Fprintf(&chain, "b%d: br b%d\n", i, i+1)
	}
	chain.WriteString("b39: ret\n")
	lines := `{"graph":"b0: ret\n","features":["a"]}` + "\n" + fmt.Sprintf(`{"graph":%q,"features":["b"]}`, chain.String()) + "\n"
	if err := os.WriteFile(filepath.Join(dir, CorpusFile), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCorpus(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, CorpusFile)+":2:") || !strings.Contains(err.Error(), "40 blocks") {
		t.Fatalf("LoadCorpus of a 40-block entry on line 2: %v; want an error naming the file, line 2 and the size", err)
	}
}

// TestLoadCorpusNamesTheFileOfALongLine: a line past the reader's bound is
// an error naming the file and the line, as a malformed one is.
func TestLoadCorpusNamesTheFileOfALongLine(t *testing.T) {
	dir := t.TempDir()
	line := `{"graph":"b0: ret\n","features":["` + strings.Repeat("x", 17<<20) + `"]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, CorpusFile), []byte(`{"graph":"b0: ret\n","features":["a"]}`+"\n"+line), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCorpus(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, CorpusFile)+":2:") {
		t.Fatalf("LoadCorpus of a 17 MiB line 2: %v; want an error naming the file and line 2", err)
	}
}

func TestGuidedCorpusKeepsOnlyNovelGraphs(t *testing.T) {
	var c Corpus
	g := cfg.FromSuccs([][]int{{1}, {}})
	if !c.Add(g, []string{"a", "b"}, 0, 1) {
		t.Fatal("first graph not kept")
	}
	if c.Add(g, []string{"b", "a"}, 1, 1) {
		t.Error("a graph with no new feature was kept")
	}
	if !c.Add(g, []string{"a", "c"}, 2, 1) || c.Features() != 3 {
		t.Errorf("a graph with a new feature: %d entries, %d features; want 2, 3", len(c.Entries), c.Features())
	}
}

func TestGuidedMutantReplay(t *testing.T) {
	s := Settings{Walks: 16, Seed: 1}
	e := Example{Graph: "{{1, 1}, {}}", Weights: []int{3, 4}, Mutant: "corpus[0] duplicate-case", Seed: 99}
	got := replayCommand(testSource{}, &s, &e, "exec:trace-mismatch")
	if !strings.HasPrefix(got, "printf '%s' ") || !strings.Contains(got, "| cfgfuzz check") || strings.Contains(got, "testsource") {
		t.Fatalf("mutant replay %q: want the graph printed from its text, into cfgfuzz check", got)
	}
	g, _ := graphOf(&e)
	if !strings.Contains(got, cfg.FormatLines(g)) && !strings.Contains(got, ShellQuote(cfg.FormatLines(g))) {
		t.Errorf("mutant replay %q does not print the graph's line notation", got)
	}
}

func TestBucket(t *testing.T) {
	for n, want := range map[int]int{-1: 0, 0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 7: 4, 8: 8, 15: 8, 16: 16, 1000: 512} {
		if got := bucket(n); got != want {
			t.Errorf("bucket(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestTreeFeatures structurizes a loop holding a conditional and reads the
// features back from the emitted module.
func TestTreeFeatures(t *testing.T) {
	// 0 -> 1; 1: if -> 2 or 3; 2, 3 -> 4; 4: loop back to 1 or exit to 5.
	g := cfg.FromSuccs([][]int{{1}, {2, 3}, {4}, {4}, {1, 5}, {}})
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := answerFeatures(&st, mod, OutOK, "")
	for _, want := range []string{"count:L1", "nests:F>L", "nests:L>S", "at-depth:S2", "depth:2", "route-vars:0"} {
		if !slices.Contains(fs, want) {
			t.Errorf("features %v lack %s", fs, want)
		}
	}
	if !slices.ContainsFunc(fs, func(f string) bool { return strings.HasPrefix(f, "shape:") && strings.Contains(f, "L(S)") }) {
		t.Errorf("features %v lack a shape with the loop holding the selection, L(S)", fs)
	}
	if !slices.IsSorted(fs) {
		t.Errorf("features not sorted: %v", fs)
	}
	bad := answerFeatures(nil, nil, OutPanic, "harness:panic:x")
	if !slices.Equal(bad, []string{"outcome:panic", "signature:harness:panic:x"}) {
		t.Errorf("features of a panic: %v", bad)
	}
}

// TestPassFeaturesIgnoreNumbers: a pass entry's numbers (a block id, a
// timing a structurizer logs) do not make a new feature, so a declared
// pass that names them does not send every graph into the corpus.
func TestPassFeaturesIgnoreNumbers(t *testing.T) {
	a := structurizer.Stats{PassesUsed: []string{"lower: took 12ms", "fallback: selfcheck: R6: at block 12: loop 3 left for 5"}}
	b := structurizer.Stats{PassesUsed: []string{"lower: took 0.75ms", "fallback: selfcheck: R6: at block 7: loop 10 left for 0x1f"}}
	fa, fb := answerFeatures(&a, nil, OutOK, ""), answerFeatures(&b, nil, OutOK, "")
	if !slices.Equal(fa, fb) {
		t.Errorf("features differ only in the passes' numbers:\n%v\n%v", fa, fb)
	}
	if !slices.Contains(fa, "pass:fallback: selfcheck: R6: at block N: loop N left for N") {
		t.Errorf("features %v lack the fallback pass with its numbers as N and R6 kept", fa)
	}
	long := structurizer.Stats{PassesUsed: []string{strings.Repeat("x", 1000) + "\nsecond line"}}
	for _, f := range answerFeatures(&long, nil, OutOK, "") {
		if len(f) > len("pass:")+passFeatureMax || strings.Contains(f, "second") {
			t.Errorf("feature of %d bytes from a long pass entry: %.60q...", len(f), f)
		}
	}
}

// TestPassFeaturesBounded: a structurizer that names a pass per block it
// touched gives at most passFeaturesMax pass features an answer, then
// one that stands for the rest; repeats count once.
func TestPassFeaturesBounded(t *testing.T) {
	var passes []string
	for i := range 1000 {
		passes = append(passes, fmt.Sprintf("split block%c%c", 'a'+i%26, 'a'+i/26%26), "split block aa")
	}
	var got []string
	for _, f := range answerFeatures(&structurizer.Stats{PassesUsed: passes}, nil, OutOK, "") {
		if strings.HasPrefix(f, "pass:") {
			got = append(got, f)
		}
	}
	if len(got) != passFeaturesMax+1 || !slices.Contains(got, "pass:+more") {
		t.Errorf("%d pass features from 1,000 distinct passes (want %d and pass:+more): %v", len(got), passFeaturesMax+1, got)
	}
	few := answerFeatures(&structurizer.Stats{PassesUsed: []string{"a", "b", "a"}}, nil, OutOK, "")
	if slices.Contains(few, "pass:+more") || !slices.Contains(few, "pass:a") || !slices.Contains(few, "pass:b") {
		t.Errorf("features of passes a, b, a: %v", few)
	}
}

// TestGuidedCurveCountsDistinctGraphs: graphs skipped as repeats of an
// earlier index's graph, or as checked on an earlier night, are not on
// the features curve's graph axis, nor among its mutants: its last point
// is the report's graphs count.
func TestGuidedCurveCountsDistinctGraphs(t *testing.T) {
	var recs []Record
	for i := range 12 {
		r := Record{Index: i, Features: []string{fmt.Sprintf("f%d", i)}, Mutant: "add-edge"}
		switch i % 3 {
		case 1:
			r = Record{Index: i, Seen: true, Mutant: "add-edge"}
		case 2:
			r = Record{Index: i, Skipped: true, SameAs: i - 2, Mutant: "add-edge"}
		}
		recs = append(recs, r)
	}
	g := guidedSummary(Settings{Mutate: 1}, recs)
	if last := g.Curve[len(g.Curve)-1]; last != [2]int{4, 4} || g.Features != 4 || g.Mutants != 4 {
		t.Errorf("4 distinct graphs of 12 indices: curve ends at %v, %d features, %d mutants (want [4 4], 4, 4)", last, g.Features, g.Mutants)
	}
}

// TestGuidedCurveEndsAtTheGraphs: a guided campaign whose stream repeats
// graphs ends its curve at the report's distinct graphs, the count
// report.md's prose gives, not at the indices run.
func TestGuidedCurveEndsAtTheGraphs(t *testing.T) {
	c := guidedConfig(t, 200)
	o := mustRun(t, c)
	rep := o.Report
	if rep.Skipped == 0 {
		t.Fatalf("no repeat among 200 graphs: the test measures nothing")
	}
	if last := rep.Guided.Curve[len(rep.Guided.Curve)-1]; last[0] != rep.Graphs {
		t.Errorf("curve ends at %v, want the %d distinct graphs (%d repeats skipped)", last, rep.Graphs, rep.Skipped)
	}
}

// TestGuidedExternalStructurizer: a structurizer process answering with
// modules (testdata/thinstruct, this tree's structurizer behind the
// protocol) shows the same construct-tree features on every graph as the
// in-process structurizer, so a guided campaign steers it alike.
func TestGuidedExternalStructurizer(t *testing.T) {
	bin := buildCmd(t, "./testdata/thinstruct")
	own, ext := guidedConfig(t, 60), guidedConfig(t, 60)
	own.Strategy, ext.Strategy = "structured", "structured"
	ext.Current = ProcessFactory("thinstruct", []string{bin}, "")
	mustRun(t, own)
	mustRun(t, ext)
	a, _, err := ReadRecords(own.Dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := ReadRecords(ext.Dir)
	if err != nil {
		t.Fatal(err)
	}
	tree := func(r Record) []string {
		var fs []string
		for _, f := range r.Features {
			if strings.HasPrefix(f, "shape:") || strings.HasPrefix(f, "nests:") || strings.HasPrefix(f, "count:") {
				fs = append(fs, f)
			}
		}
		return fs
	}
	byIndex := map[int]Record{}
	for _, r := range a {
		byIndex[r.Index] = r
	}
	shapes := 0
	for _, r := range b {
		want := tree(byIndex[r.Index])
		if got := tree(r); !slices.Equal(got, want) {
			t.Errorf("graph %d %s: external tree features %v, in-process %v", r.Index, r.Graph, got, want)
		}
		if len(want) > 0 {
			shapes++
		}
	}
	if shapes == 0 {
		t.Fatal("no graph had tree features")
	}
}

// TestMergedNightGrowsTheStateCorpus: the shards of a guided night run
// frozen and write no corpus; merging them with the state gives the corpus
// the whole night, run unsharded and frozen, leaves: its start corpus (the
// state's, grown by an earlier night) plus what tonight's records showed.
func TestMergedNightGrowsTheStateCorpus(t *testing.T) {
	base := t.TempDir()
	first := guidedConfig(t, 80)
	st, err := LoadState(base)
	if err != nil {
		t.Fatal(err)
	}
	first.State, first.Night = st, "2026-04-01"
	o := mustRun(t, first)
	tonight := func(shard Shard) (Config, *State) {
		dir := t.TempDir()
		copyDir(t, base, dir) // the state's files
		if err := SaveCorpus(filepath.Join(dir, StateCorpusDir), o.Corpus); err != nil {
			t.Fatal(err)
		}
		st, err := LoadState(dir)
		if err != nil {
			t.Fatal(err)
		}
		start, err := LoadCorpus(filepath.Join(dir, StateCorpusDir))
		if err != nil {
			t.Fatal(err)
		}
		c := guidedConfig(t, 120)
		c.Seed, c.State, c.Night, c.Corpus, c.CorpusBatch, c.Shard = 9, st, "2026-04-02", start, 0, shard
		return c, st
	}
	whole, _ := tonight(Shard{})
	wo := mustRun(t, whole)
	want := wo.Corpus
	var dirs []string
	var state *State
	for i := range 2 {
		c, st := tonight(Shard{I: i, N: 2})
		mustRun(t, c)
		dirs, state = append(dirs, c.Dir), st
	}
	corpusDir := filepath.Join(state.Dir, StateCorpusDir)
	rep, _, grown, err := MergeNight(dirs, MergeOptions{State: state, CorpusDir: corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	if grown == nil || grown.Digest() != want.Digest() {
		t.Fatalf("merged corpus %v, want the whole night's %s", grown, want.Digest())
	}
	if len(want.Entries) <= len(o.Corpus.Entries) {
		t.Errorf("tonight added nothing to the %d entries: the test measures little", len(o.Corpus.Entries))
	}
	note := rep.Guided.Corpus
	added := len(grown.Entries) - len(o.Corpus.Entries)
	if want := (CorpusNote{Read: len(o.Corpus.Entries), Added: &added, Written: corpusDir}); note == nil || !reflect.DeepEqual(*note, want) {
		t.Errorf("merged report's corpus note %+v, want %+v", note, want)
	}
	if f := rep.Guided.Found; f == nil || f.Known == 0 || !reflect.DeepEqual(f, wo.Report.Guided.Found) {
		t.Errorf("merged report's found features %+v, want the whole night's %+v, some known", f, wo.Report.Guided.Found)
	}
	t.Logf("corpus: %d entries after the first night, %d after the merged second", len(o.Corpus.Entries), len(grown.Entries))
	other := t.TempDir() // a corpus directory the shards did not read
	if _, _, _, err := MergeNight(dirs, MergeOptions{State: state, CorpusDir: other}); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("merge against a corpus the shards did not read: %v, want an error naming %s", err, other)
	}
}

// sizedSource draws a 12-block chain at even positions and a 4-block one
// at odd positions.
type sizedSource struct{ testSource }

func (sizedSource) Item(st Stream, run uint64, j int) (Item, error) {
	n := 4
	if j%2 == 0 {
		n = 12
	}
	g := cfg.New(n)
	for b := range n - 1 {
		g.Succs[b] = []int{b + 1}
	}
	return Item{Graph: g, Seed: uint64(j)}, nil
}

// TestGuidedKeepsLargeDraws: with every index drawn as a mutant, a fresh
// graph of gen.CampaignLargeMin blocks or more stays fresh and a smaller
// one gets the mutants grafted before it below quietFrom (or stays, when
// none has a return) and a mutant grafted beside it from quietFrom on.
func TestGuidedKeepsLargeDraws(t *testing.T) {
	set := &Settings{Seed: 1, Streams: testStreams, Mutate: 1, Guided: true}
	start := &Corpus{}
	start.Add(cfg.FromSuccs([][]int{{1, 2}, {2}, {}}), []string{"f"}, 0, 1)
	gd := newGuide(set, start)
	kept, replaced, noReturn := 0, 0, 0
	for i := range 40 {
		j := makeJob(sizedSource{}, set, gd, i)
		if j.err != nil {
			t.Fatal(j.err)
		}
		_, pos := set.Place(i)
		large := pos%2 == 0
		switch {
		case large && j.mutant != "":
			t.Fatalf("index %d: a 12-block fresh graph was traded for mutant %s", i, j.mutant)
		case large:
			kept++
		case j.mutant == "" && i >= quietFrom:
			t.Fatalf("index %d: a 4-block fresh graph kept past quietFrom, where any mutant grafts beside it", i)
		case j.mutant == "":
			for c := range earlyChain {
				m, err := gen.Mutate(start.graphs[0], linkHash(shareHash(set.Seed^saltOps, i), c), gen.MutateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := gen.Graft(m.Graph, j.it.Graph); ok {
					t.Fatalf("index %d: a 4-block fresh graph kept with every index drawn as a mutant, and link %d has a return", i, c)
				}
			}
			noReturn++
		default:
			if !strings.Contains(j.mutant, graftFrom) || j.it.Graph.Len() <= 4 {
				t.Fatalf("index %d: mutant %s of %d blocks, want one grafted onto the 4-block fresh graph", i, j.mutant, j.it.Graph.Len())
			}
			replaced++
		}
	}
	if kept == 0 || replaced == 0 {
		t.Fatalf("kept %d, replaced %d: the source gave no graph of one of the sizes", kept, replaced)
	}
	t.Logf("kept %d large, grafted %d, %d small kept as their mutant had no return", kept, replaced, noReturn)
}

// TestCorpusGraphOfAGraft: a novel record gives the corpus its own graph
// when gen.Mutate takes it; a graft too large for that gives its mutant,
// grafted before the fresh graph or beside it; any other record too large
// gives none.
func TestCorpusGraphOfAGraft(t *testing.T) {
	head := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	tail := cfg.New(15)
	for b := range 14 {
		tail.Succs[b] = []int{b + 1}
	}
	graft, ok := gen.Graft(head, tail)
	if !ok {
		t.Fatal("no graft")
	}
	small, _ := gen.Graft(head, cfg.FromSuccs([][]int{{1}, {}}))
	rec := func(g *cfg.Graph, mutant string) *Record {
		return &Record{Graph: cfg.FormatCompact(g), Weights: g.WeightList(), Mutant: mutant}
	}
	desc := "corpus[0] split" + graftFrom + "3"
	if got := corpusGraph(rec(small, desc)); got == nil || !got.Equal(small) {
		t.Errorf("a graft within the limits gives %v, want itself %s", got, small)
	}
	if got := corpusGraph(rec(graft, desc)); got == nil || cfg.FormatCompact(got) != cfg.FormatCompact(head) {
		t.Errorf("a graft of %d blocks gives %v, want its head %s", graft.Len(), got, head)
	}
	if got := corpusGraph(rec(graft, "")); got != nil {
		t.Errorf("a fresh graph of %d blocks gives %s, want none", graft.Len(), got)
	}
	if got := corpusGraph(rec(graft, "corpus[0] split"+graftFrom+"2")); got != nil {
		t.Errorf("a graft said to start its tail at a block its head branches past gives %s, want none", got)
	}
	beside := gen.GraftBeside(head, tail)
	if got := corpusGraph(rec(beside, "corpus[0] split"+graftFrom+"4")); got == nil || cfg.FormatCompact(got) != cfg.FormatCompact(head) {
		t.Errorf("a graft beside, of %d blocks, gives %v, want its head %s", beside.Len(), got, head)
	}
	if got := corpusGraph(rec(beside, "corpus[0] split"+graftFrom+"3")); got != nil {
		t.Errorf("a graft beside said to start its tail inside its head gives %s, want none", got)
	}
	smallBeside := gen.GraftBeside(head, cfg.FromSuccs([][]int{{1}, {}}))
	if got := corpusGraph(rec(smallBeside, "corpus[0] split"+graftFrom+"4")); got == nil || !got.Equal(smallBeside) {
		t.Errorf("a graft beside within the limits gives %v, want itself %s", got, smallBeside)
	}
}

// TestQuietFeatures: an entry is quiet when its stats show no route
// variable, clone or fallback, at most one pass, and it did not fail; an
// answer without stats is not.
func TestQuietFeatures(t *testing.T) {
	quiet := []string{"clones:0", "depth:1", "fallbacks:0", "pass:nested", "route-vars:0"}
	for _, tc := range []struct {
		fs   []string
		want bool
	}{
		{quiet, true},
		{[]string{"clones:0", "fallbacks:0", "route-vars:1"}, false},
		{[]string{"clones:2", "fallbacks:0", "route-vars:0"}, false},
		{[]string{"clones:0", "fallbacks:1", "route-vars:0"}, false},
		{[]string{"clones:0", "fallbacks:0", "pass:loops", "pass:selections", "route-vars:0"}, false},
		{[]string{"clones:0", "fallbacks:0", "route-vars:0", "strategy:structured"}, true},
		{append(slices.Clone(quiet), "outcome:invalid"), false},
		{[]string{"depth:1", "shape:F(S)"}, false},
	} {
		if got := quietFeatures(tc.fs); got != tc.want {
			t.Errorf("quietFeatures(%v) = %v, want %v", tc.fs, got, tc.want)
		}
	}
	var c Corpus
	c.Add(cfg.FromSuccs([][]int{{1}, {}}), []string{"clones:1", "fallbacks:0", "route-vars:0"}, 0, 1)
	c.Add(cfg.FromSuccs([][]int{{}}), quiet, 1, 1)
	if !slices.Equal(c.quiet, []int{1}) || !slices.Equal(c.Clone().quiet, []int{1}) {
		t.Errorf("quiet entries %v (clone %v), want [1]", c.quiet, c.Clone().quiet)
	}
}

// TestGuidedGraftHoldsTheFreshGraph: with every index drawn as a mutant
// and a start corpus, each graft ends with the index's fresh graph whole,
// from the block its description names; the first quietFrom indices chain
// several mutants before it, the later ones graft one beside it (block 0
// a new entry of weight 0 branching to the mutant at block 1 and to the
// fresh graph), and GraftPrefix takes the mutants back out of either.
func TestGuidedGraftHoldsTheFreshGraph(t *testing.T) {
	set := &Settings{Seed: 3, Streams: testStreams, Mutate: 1, Guided: true}
	t.Logf("seed %d", set.Seed)
	start := &Corpus{}
	start.Add(cfg.FromSuccs([][]int{{1, 2}, {2}, {}}), []string{"f"}, 0, 1)
	start.Add(cfg.FromSuccs([][]int{{1}, {2, 0}, {}}), []string{"g"}, 1, 1)
	gd := newGuide(set, start)
	chains, singles := 0, 0
	for i := range 60 {
		j := makeJob(testSource{}, set, gd, i)
		if j.err != nil {
			t.Fatal(j.err)
		}
		s, n := set.Place(i)
		fresh, err := generate(testSource{}, set.Streams[s], set.runSeed(s), n)
		if err != nil {
			t.Fatal(err)
		}
		_, at, found := strings.Cut(j.mutant, graftFrom)
		if !found {
			continue
		}
		from, err := strconv.Atoi(at)
		if err != nil {
			t.Fatal(err)
		}
		g := j.it.Graph
		if g.Len() != from+fresh.Graph.Len() {
			t.Fatalf("index %d (%s): %d blocks, want %d before the fresh graph's %d", i, j.mutant, g.Len(), from, fresh.Graph.Len())
		}
		for b, succ := range fresh.Graph.Succs {
			want := make([]int, len(succ))
			for k, x := range succ {
				want[k] = from + x
			}
			if !slices.Equal(g.Succs[from+b], want) || g.Weight(from+b) != fresh.Graph.Weight(b) {
				t.Fatalf("index %d (%s): block %d is %v, want the fresh graph's block %d %v shifted", i, j.mutant, from+b, g.Succs[from+b], b, succ)
			}
		}
		head, ok := gen.GraftPrefix(g, from)
		if !ok {
			t.Fatalf("index %d (%s): GraftPrefix takes no head of %d blocks out of %s", i, j.mutant, from, g)
		}
		beside := slices.Equal(g.Succs[0], []int{1, from}) && g.Weight(0) == 0
		switch {
		case i >= quietFrom && (!beside || head.Len() != from-1):
			t.Fatalf("index %d (%s): %s, head %s: want a new entry branching to the mutant and to the fresh graph at %d", i, j.mutant, g, head, from)
		case i < quietFrom && head.Len() != from:
			t.Fatalf("index %d (%s): %s, head %s: want the chain before the fresh graph at %d", i, j.mutant, g, head, from)
		}
		switch links := strings.Count(j.mutant, " > ") + 1; {
		case i >= quietFrom && links > 1:
			t.Fatalf("index %d: a chain of %d links (%s) past quietFrom", i, links, j.mutant)
		case links > 1:
			chains++
		default:
			singles++
		}
	}
	if chains == 0 || singles == 0 {
		t.Fatalf("%d chains, %d single mutants: want both", chains, singles)
	}
	t.Logf("%d chains, %d single mutants", chains, singles)
}

// TestResumeOnAnotherCorpusSaysWhy: a resume whose corpus is not the one
// the campaign started from (the campaign's own write-back once it
// finished, or another campaign's) is refused saying why and what to do.
func TestResumeOnAnotherCorpusSaysWhy(t *testing.T) {
	c := Config{Resume: true, Settings: Settings{Guided: true, Mutate: 0.5, Corpus: "1 entries sha256:0000"}, Corpus: &Corpus{}}
	err := c.validateGuide()
	if err == nil || !strings.Contains(err.Error(), "the campaign started from 1 entries sha256:0000: a campaign wrote it back since") || !strings.Contains(err.Error(), "--force") {
		t.Errorf("a resume on another corpus: %v", err)
	}
}

// TestFullCorpusReplacesRedundantEntries: a full corpus keeps a graph
// with a new feature in place of its oldest redundant entry (every
// feature of which another entry, or the newcomer, shows), so its
// features only grow; with no entry redundant the graph is not kept and
// counted; the campaign's note says both. A published snapshot's lists
// are not changed by the replacement.
func TestFullCorpusReplacesRedundantEntries(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c := &Corpus{}
	// Every entry shows a feature no other does.
	c.Add(g.Clone(), []string{"route-vars:0", "clones:0", "fallbacks:0", "shared"}, 0, 1)
	c.Add(g.Clone(), []string{"shared", "only:1"}, 1, 1)
	for i := 2; i < MaxCorpus; i++ {
		c.Add(g.Clone(), []string{fmt.Sprintf("only:%d", i)}, i, 1)
	}
	start := c.Clone()
	snap := c.graphs[:len(c.graphs):len(c.graphs)] // as guide.publish shares it
	third := snap[2]
	features := c.Features()
	// A newcomer showing only:2 and a new feature makes entry 2 redundant.
	if !c.Add(g.Clone(), []string{"only:2", "extra"}, MaxCorpus, 1) || len(c.Entries) != MaxCorpus || c.NotKept != 0 {
		t.Fatalf("the corpus holds %d entries, %d not kept, want the newcomer kept in %d", len(c.Entries), c.NotKept, MaxCorpus)
	}
	if slices.ContainsFunc(c.Entries, func(e CorpusEntry) bool { return e.Index == 2 }) || c.Entries[len(c.Entries)-1].Index != MaxCorpus {
		t.Errorf("entry 2 was not replaced by the newcomer")
	}
	if c.Features() != features+1 {
		t.Errorf("features %d, want %d: the union only grows", c.Features(), features+1)
	}
	if snap[2] != third {
		t.Errorf("the published snapshot's graphs changed under the replacement")
	}
	// Now no entry is redundant: the next newcomer is not kept.
	if c.Add(g.Clone(), []string{"more"}, MaxCorpus+1, 1) || c.NotKept != 1 {
		t.Errorf("with no entry redundant, a new feature's graph is kept (not kept %d)", c.NotKept)
	}
	n := newCorpusNote(start, c, "self", "", "dir", "")
	if n.Added == nil || *n.Added != 1 || n.Replaced != 1 || n.NotKept != 1 {
		t.Fatalf("note %+v, want 1 added in place of a redundant entry, 1 not kept", n)
	}
	if s := n.Summary(); !strings.Contains(s, "added 1 (1 in place of redundant entries: the corpus is full, 4096 entries), 1 graphs with a new feature not kept") {
		t.Errorf("summary %q", s)
	}
	// The control's full corpus drops its oldest entry, and says so.
	if s := newCorpusNote(start, c, "self", KeepRandom, "dir", "").Summary(); !strings.Contains(s, "(1 in place of the oldest entries: the corpus is full") {
		t.Errorf("a random keep's summary %q, want the oldest entries named", s)
	}
}

// TestGuidedFoundSplitsNewFromKnown: a guided report names the features
// its graphs showed, split by the corpus it read: the first night's are all
// new; the same graphs again from the corpus that night grew are all
// known (the night found nothing new, whatever its feature count).
func TestGuidedFoundSplitsNewFromKnown(t *testing.T) {
	first := guidedConfig(t, 60)
	first.Mutate = 0 // the same graphs every night: features recorded, no mutants
	o := mustRun(t, first)
	g := o.Report.Guided
	want := &FoundFeatures{New: g.Features, NewNames: o.Corpus.featureNames(), KnownNames: []string{}}
	if len(want.NewNames) > FeatureNamesMax {
		want.NewNames = want.NewNames[:FeatureNamesMax]
	}
	if g.Features == 0 || !reflect.DeepEqual(g.Found, want) {
		t.Fatalf("first night's found %+v, want %+v", g.Found, want)
	}
	again := guidedConfig(t, 60)
	again.Mutate, again.Corpus = 0, o.Corpus
	g2 := mustRun(t, again).Report.Guided
	want = &FoundFeatures{Known: g.Features, KnownNames: want.NewNames, NewNames: []string{}}
	if g2.Features != g.Features || !reflect.DeepEqual(g2.Found, want) {
		t.Errorf("the same graphs from the grown corpus: %d features, found %+v; want %d, %+v", g2.Features, g2.Found, g.Features, want)
	}
	md, err := os.ReadFile(filepath.Join(again.Dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprintf("0 new tonight, %d already in the corpus read", g.Features); !strings.Contains(string(md), s) {
		t.Errorf("report.md does not say %q:\n%s", s, md)
	}
}

// featureNames is every feature the corpus's entries show, sorted.
func (c *Corpus) featureNames() []string {
	var fs []string
	for f := range c.seen {
		fs = append(fs, f)
	}
	slices.Sort(fs)
	return fs
}

// TestAdaptersGuideNamesTheFeatures: ADAPTERS.md's table names every kind
// of feature an answer gives, and its examples of bucket names are the
// names the code gives those declared counts.
func TestAdaptersGuideNamesTheFeatures(t *testing.T) {
	doc, err := os.ReadFile("ADAPTERS.md")
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.FromSuccs([][]int{{1}, {2, 3}, {4}, {4}, {1, 5}, {}})
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats
	st.Synthetic, st.Clones, st.RouteVars, st.Strategy, st.PassesUsed = 6, 9, 3, "dispatch", []string{"split block 7"}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := answerFeatures(&st, mod, OutPanic, "harness:panic:x")
	fs = append(fs, "module:undecodable", "pass:+more")
	for _, want := range []string{"synthetic:4", "clones:8", "route-vars:3"} {
		if !slices.Contains(fs, want) {
			t.Errorf("features %v lack %s", fs, want)
		}
		if !strings.Contains(string(doc), "`"+want+"`") {
			t.Errorf("ADAPTERS.md does not give the example `%s`", want)
		}
	}
	for _, f := range fs {
		kind, _, _ := strings.Cut(f, ":")
		if !strings.Contains(string(doc), "| `"+kind+":") && !strings.Contains(string(doc), ", `"+kind+":") {
			t.Errorf("ADAPTERS.md's feature table does not name %s (feature %s)", kind, f)
		}
	}
}

// TestLoadCorpusOfAFile: a file given as a corpus directory (a graph file
// given to merge --corpus) is an error naming it and what a corpus is, not
// the operating system's error on a path through it.
func TestLoadCorpusOfAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.cfg")
	if err := os.WriteFile(file, []byte("{{1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCorpus(file)
	if err == nil || !strings.Contains(err.Error(), "corpus "+file+" is a file, not a directory") || strings.Contains(err.Error(), "not a directory: stat") {
		t.Errorf("LoadCorpus of a file: %v, want an error naming it as a file", err)
	}
}
