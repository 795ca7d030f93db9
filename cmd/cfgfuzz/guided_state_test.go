// guided_state_test.go: a guided campaign with --state DIR and no --corpus
// keeps its corpus in DIR/corpus (fuzz/STATE.md): the first night writes
// it, the next starts from it; a shard reads it and leaves it; --state
// without guided flags writes none; an interrupted campaign leaves the
// corpus it started from, for its --resume.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestGuidedCorpusInState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	corpusDir := filepath.Join(state, fuzz.StateCorpusDir)
	night := func(date, out string, extra ...string) *fuzz.Report {
		t.Helper()
		args := append([]string{"run", "--graphs", "100", "--seed", "1", "--workers", "2", "--state", state, "--night", date,
			"--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}, extra...)
		code, _, errs := runCmd(args, "")
		if code != exitOK && code != exitFail {
			t.Fatalf("%s: exit %d: %s", out, code, errs)
		}
		return readJSONReport(t, filepath.Join(dir, out))
	}
	one := night("2026-03-02", "n1", "--mutate", "0.5", "--corpus-batch", "50")
	c1, err := fuzz.LoadCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c1.Entries) == 0 || one.Settings.Corpus != (&fuzz.Corpus{}).Digest() {
		t.Fatalf("first guided night: %d entries in %s, started from %q; want entries, from the empty corpus", len(c1.Entries), corpusDir, one.Settings.Corpus)
	}
	shard := night("2026-03-03", "s0", "--mutate", "0.5", "--shard", "0/2", "--seed", "3")
	if shard.Settings.Corpus != c1.Digest() {
		t.Errorf("shard started from %q, want the state's corpus %q", shard.Settings.Corpus, c1.Digest())
	}
	if after, err := fuzz.LoadCorpus(corpusDir); err != nil || after.Digest() != c1.Digest() {
		t.Errorf("a shard changed the state's corpus: %v, %d entries, want %d", err, len(after.Entries), len(c1.Entries))
	}
	two := night("2026-03-03", "n2", "--mutate", "0.5", "--corpus-batch", "50", "--seed", "2")
	if two.Settings.Corpus != c1.Digest() || two.Guided == nil || two.Guided.Mutants == 0 {
		t.Errorf("second night started from %q (summary %+v), want the state's corpus %q and mutants", two.Settings.Corpus, two.Guided, c1.Digest())
	}
	if f := two.Guided.Found; f == nil || f.Known == 0 || f.New+f.Known != two.Guided.Features {
		t.Errorf("second night's found features %+v of %d: want some known (the state's corpus showed them), new and known adding up", f, two.Guided.Features)
	}
	plain := filepath.Join(dir, "plain-state")
	if code, _, errs := runCmd([]string{"run", "--graphs", "20", "--state", plain, "--progress", "none", "--minimize=false", "--out", filepath.Join(dir, "plain")}, ""); code != exitOK {
		t.Fatalf("--state without guided flags: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(plain, fuzz.StateCorpusDir)); !os.IsNotExist(err) {
		t.Errorf("--state without guided flags: %s/corpus exists (%v), want none", plain, err)
	}
	t.Logf("state corpus: %d entries after night 1; night 2: %+v", len(c1.Entries), two.Guided)
}

// TestGuidedCorpusNotSavedIncomplete: an interrupted campaign's grown
// corpus is not written back; --resume checks the corpus against the
// one the campaign started from.
func TestGuidedCorpusNotSavedIncomplete(t *testing.T) {
	g := guidedFlags{corpus: filepath.Join(t.TempDir(), "corpus"), mutate: 0.5}
	var c fuzz.Config
	if err := g.apply(&c, false, "", io.Discard); err != nil {
		t.Fatal(err)
	}
	grown := &fuzz.Corpus{}
	note := &fuzz.CorpusNote{NotWritten: fuzz.CorpusInterrupted}
	o := &fuzz.Outcome{Report: &fuzz.Report{Incomplete: &fuzz.Incomplete{}, Guided: &fuzz.GuidedSummary{Corpus: note}}, Corpus: grown}
	if err := g.save(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, fuzz.CorpusFile)); !os.IsNotExist(err) {
		t.Errorf("interrupted campaign wrote its corpus (%v)", err)
	}
	o.Report.Incomplete, note.Written, note.NotWritten = nil, g.dir, ""
	if err := g.save(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, fuzz.CorpusFile)); err != nil {
		t.Errorf("complete campaign did not write its corpus: %v", err)
	}
}

// TestGuidedShardsWithExplicitCorpus: shards given --corpus DIR read it
// and write nothing back (with --state and without), and merge --corpus
// DIR writes the corpus the whole night grew there, the same corpus the
// unsharded frozen night (--corpus-batch 0) leaves; merge --state alone
// refuses shards that read another corpus than the state's corpus/
// holds, naming --corpus, rather than growing a corpus they never read.
func TestGuidedShardsWithExplicitCorpus(t *testing.T) {
	dir := t.TempDir()
	campaign := func(out string, extra ...string) {
		t.Helper()
		args := append([]string{"run", "--graphs", "80", "--seed", "4", "--workers", "2", "--mutate", "0.5",
			"--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}, extra...)
		if code, _, errs := runCmd(args, ""); code != exitOK && code != exitFail {
			t.Fatalf("%s: exit %d: %s", out, code, errs)
		}
	}
	merge := func(args ...string) (int, string) {
		code, _, errs := runCmd(append([]string{"merge", "--progress", "none", "--minimize=false"}, args...), "")
		return code, errs
	}
	whole := filepath.Join(dir, "whole-corpus")
	campaign("whole", "--corpus", whole, "--corpus-batch", "0")
	want, err := fuzz.LoadCorpus(whole)
	if err != nil || len(want.Entries) == 0 {
		t.Fatalf("the unsharded night grew %s to %v (%v): want entries", whole, want, err)
	}
	for _, withState := range []bool{true, false} {
		name, corpus, state := "g", filepath.Join(dir, "gcorp"), ""
		if withState {
			name, corpus, state = "h", filepath.Join(dir, "hcorp"), filepath.Join(dir, "hst")
		}
		var stateArgs []string
		if state != "" {
			stateArgs = []string{"--state", state, "--night", "2026-12-01"}
		}
		for i := range 2 {
			campaign(fmt.Sprintf("%s-s%d", name, i), append(stateArgs, "--corpus", corpus, "--shard", fmt.Sprintf("%d/2", i))...)
			if _, err := os.Stat(filepath.Join(corpus, fuzz.CorpusFile)); !os.IsNotExist(err) {
				t.Fatalf("%s: shard %d wrote its corpus into %s (%v): a shard writes none", name, i, corpus, err)
			}
		}
		shards := []string{filepath.Join(dir, name+"-s0"), filepath.Join(dir, name+"-s1")}
		if withState { // the state's corpus/ is not the one the shards read
			stateCorpus := filepath.Join(state, fuzz.StateCorpusDir)
			if err := fuzz.SaveCorpus(stateCorpus, want); err != nil {
				t.Fatal(err)
			}
			code, errs := merge(append([]string{"--state", state, "--out", filepath.Join(dir, "h-wrong")}, shards...)...)
			if code != exitUsage || !strings.Contains(errs, "--corpus") {
				t.Errorf("merge --state of shards that read %s: exit %d, %q; want 2 and a message naming --corpus", corpus, code, errs)
			}
			if err := os.RemoveAll(stateCorpus); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(dir, name+"-m")
		mergeArgs := []string{"--corpus", corpus, "--out", out}
		if state != "" {
			mergeArgs = append(mergeArgs, "--state", state)
		}
		if code, errs := merge(append(mergeArgs, shards...)...); code != exitOK && code != exitFail {
			t.Fatalf("%s: merge --corpus: exit %d: %s", name, code, errs)
		}
		got, err := fuzz.LoadCorpus(corpus)
		if err != nil || got.Digest() != want.Digest() {
			t.Errorf("%s: merge --corpus left %s holding %v (%v), want the unsharded night's %s", name, corpus, got.Digest(), err, want.Digest())
		}
		if note := readReportJSON(t, out).Guided.Corpus; note == nil || note.Written != corpus || note.Read != 0 || note.Added == nil || *note.Added != len(want.Entries) {
			t.Errorf("%s: merged report's corpus note %+v, want %d entries added, written to %s", name, note, len(want.Entries), corpus)
		}
		if withState {
			if _, err := os.Stat(filepath.Join(state, fuzz.StateCorpusDir)); !os.IsNotExist(err) {
				t.Errorf("merge --corpus wrote the state's corpus/ too (%v)", err)
			}
		}
	}
}

// TestGuidedCorpusNoteAndForeignEntries: a guided night's summary line,
// report.md and report.json say how many entries the corpus it read held,
// how many it added and where it wrote the corpus back; its entries name
// the structurizer that found them, and a corpus whose entries another
// structurizer found is taken with a warning that the report repeats.
func TestGuidedCorpusNoteAndForeignEntries(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	night := func(out string) (*fuzz.Report, string, string) {
		t.Helper()
		out = filepath.Join(dir, out)
		code, stdout, errs := runCmd([]string{"run", "--graphs", "60", "--seed", "2", "--workers", "2", "--mutate", "0.5", "--corpus", corpus,
			"--progress", "none", "--minimize=false", "--out", out}, "")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", out, code, errs)
		}
		return readReportJSON(t, out), stdout + readFile(t, filepath.Join(out, "report.md")), errs
	}
	rep, text, errs := night("n1")
	c, err := fuzz.LoadCorpus(corpus)
	if err != nil || len(c.Entries) == 0 {
		t.Fatalf("first night left %s with %v (%v)", corpus, c, err)
	}
	note := rep.Guided.Corpus
	if note == nil || note.Read != 0 || note.Added == nil || *note.Added != len(c.Entries) || note.Written != corpus || note.Foreign != nil {
		t.Errorf("first night's corpus note %+v, want 0 read, %d added, written to %s", note, len(c.Entries), corpus)
	}
	if line := fmt.Sprintf("read 0 entries, added %d; written back to %s", len(c.Entries), corpus); strings.Count(text, line) != 2 {
		t.Errorf("summary and report.md do not both say %q:\n%s", line, text)
	}
	if strings.Contains(errs, "warning") || c.Entries[0].Structurizer != rep.Settings.Current {
		t.Errorf("own corpus: stderr %q, first entry found by %q (want %q, no warning)", errs, c.Entries[0].Structurizer, rep.Settings.Current)
	}
	for k := range c.Entries[:2] { // two entries found by someone else
		c.Entries[k].Structurizer = "cmd:/opt/adapter --fast"
	}
	if err := fuzz.SaveCorpus(corpus, c); err != nil {
		t.Fatal(err)
	}
	rep, text, errs = night("n2")
	const foreign = "2 entries found by the command /opt/adapter"
	if !strings.Contains(errs, "warning") || !strings.Contains(errs, foreign) || !strings.Contains(text, foreign) {
		t.Errorf("a corpus of another structurizer's entries: stderr %q, summary and report.md lack %q:\n%s", errs, foreign, text)
	}
	if note := rep.Guided.Corpus; note == nil || note.Read != len(c.Entries) || len(note.Foreign) != 1 {
		t.Errorf("second night's corpus note %+v, want %d read and the foreign entries", note, len(c.Entries))
	}
}
