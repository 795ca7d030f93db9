// guided_state_test.go: a guided campaign with --state DIR and no --corpus
// keeps its corpus in DIR/corpus (fuzz/STATE.md): the first night writes
// it, the next starts from it; a shard reads it and leaves it; --state
// without guided flags writes none; an interrupted campaign leaves the
// corpus it started from, for its --resume.
package main

import (
	"os"
	"path/filepath"
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
	if err := g.apply(&c, false, ""); err != nil {
		t.Fatal(err)
	}
	grown := &fuzz.Corpus{}
	o := &fuzz.Outcome{Report: &fuzz.Report{Incomplete: &fuzz.Incomplete{}}, Corpus: grown}
	if err := g.save(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, fuzz.CorpusFile)); !os.IsNotExist(err) {
		t.Errorf("interrupted campaign wrote its corpus (%v)", err)
	}
	o.Report.Incomplete = nil
	if err := g.save(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, fuzz.CorpusFile)); err != nil {
		t.Errorf("complete campaign did not write its corpus: %v", err)
	}
}
