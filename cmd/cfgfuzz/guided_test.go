// guided_test.go: `cfgfuzz run --mutate --corpus` over two nights: the
// first writes the corpus, the second starts from it (its settings name
// it, it makes mutants from its first batch on) and grows it; a mutant's
// replay command prints the graph and judges it as the campaign did.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRunGuidedCorpusAcrossNights(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "corpus")
	night := func(seed string) *fuzz.Report {
		out := filepath.Join(t.TempDir(), "out")
		code, _, errs := runCmd([]string{"run", "--graphs", "150", "--seed", seed, "--workers", "2", "--mutate", "0.5", "--corpus", corpus,
			"--corpus-batch", "50", "--progress", "none", "--minimize=false", "--out", out}, "")
		if code != exitOK {
			t.Fatalf("night %s: exit %d: %s", seed, code, errs)
		}
		b, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep fuzz.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		html, _ := os.ReadFile(filepath.Join(out, "report.html"))
		if !strings.Contains(string(html), `class="curve"`) {
			t.Errorf("night %s: report.html has no features plot", seed)
		}
		return &rep
	}
	first := night("1")
	c1, err := fuzz.LoadCorpus(corpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(c1.Entries) == 0 || first.Guided == nil || first.Guided.Features == 0 {
		t.Fatalf("first night: corpus of %d, summary %+v", len(c1.Entries), first.Guided)
	}
	second := night("2")
	if second.Settings.Corpus != c1.Digest() {
		t.Errorf("second night started from %q, want the first's corpus %q", second.Settings.Corpus, c1.Digest())
	}
	c2, err := fuzz.LoadCorpus(corpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.Entries) < len(c1.Entries) || c2.Entries[0].Graph != c1.Entries[0].Graph {
		t.Errorf("second night's corpus (%d entries) does not extend the first's (%d)", len(c2.Entries), len(c1.Entries))
	}
	t.Logf("corpus: %d entries after night 1, %d after night 2; features %d, %d; mutants %d, %d",
		len(c1.Entries), len(c2.Entries), first.Guided.Features, second.Guided.Features, first.Guided.Mutants, second.Guided.Mutants)
}

// TestGuidedMutantFindingReplays plants a fault, finds it on a mutant (a
// start corpus from a clean campaign and --mutate 1: every graph is one)
// and runs the finding's replay command through this binary: it fails
// again.
func TestGuidedMutantFindingReplays(t *testing.T) {
	start := guidedCampaign(t, nil, 100, "--mutate", "0.5", "--corpus-batch", "50").Corpus
	c := guidedCampaign(t, start, 300, "--inject", "route-not-cleared", "--mutate", "1", "--corpus-batch", "50")
	var mutant *fuzz.Finding
	for i := range c.Report.Findings {
		if c.Report.Findings[i].First.Mutant != "" {
			mutant = &c.Report.Findings[i]
			break
		}
	}
	if mutant == nil {
		t.Fatalf("no finding's first graph was a mutant in 300 graphs (seed 1, --mutate 1, a start corpus of %d)", len(start.Entries))
	}
	bin := cfgfuzzBinary(t)
	replay := strings.ReplaceAll(mutant.Replay, "cfgfuzz check", bin+" check")
	out, err := exec.Command("sh", "-c", replay).CombinedOutput()
	if err == nil || !strings.Contains(string(out), mutant.Signature) {
		t.Errorf("replay %q: %v, output lacks %s:\n%s", replay, err, mutant.Signature, out)
	}
}

// TestGuidedCorpusUnwritable: a campaign whose grown corpus cannot be
// written back (its temporary file blocked: a full disk fails the same
// way) exits 2 naming the file and the resume that writes it, and its
// reports, written again, no longer say the corpus was written; the
// resume, once the file can be written, writes it.
func TestGuidedCorpusUnwritable(t *testing.T) {
	dir := t.TempDir()
	corpus, out := filepath.Join(dir, "corpus"), filepath.Join(dir, "c")
	block := filepath.Join(corpus, fuzz.CorpusFile+".tmp")
	if err := os.MkdirAll(filepath.Join(block, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "100", "--seed", "3", "--mutate", "0.5", "--corpus", corpus,
		"--progress", "none", "--minimize=false", "--out", out}, "")
	if code != exitUsage || !strings.Contains(stderr, block) || !strings.Contains(stderr, "cfgfuzz run --resume "+out) || !strings.Contains(stdout, "reports:") {
		t.Fatalf("exit %d\n%s%s\nwant 2, the summary, the blocked file and the resume", code, stdout, stderr)
	}
	rep := readReportJSON(t, out)
	if c := rep.Guided.Corpus; c == nil || c.Written != "" || !strings.HasPrefix(c.NotWritten, "the write failed: ") {
		t.Errorf("report.json's corpus note %+v: want it not written, saying why", rep.Guided.Corpus)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); strings.Contains(md, "written back to") {
		t.Errorf("report.md says the corpus was written back")
	}
	os.RemoveAll(block)
	if code, stdout, stderr := runCmd([]string{"run", "--resume", out, "--corpus", corpus, "--progress", "none"}, ""); code != exitOK {
		t.Fatalf("resume: exit %d\n%s%s", code, stdout, stderr)
	}
	if c, err := fuzz.LoadCorpus(corpus); err != nil || len(c.Entries) == 0 {
		t.Errorf("the resume wrote no corpus: %v", err)
	}
}

// TestRunCorpusKeepRandom: --corpus-keep random grows a corpus that the
// summary line, report.md and the settings name as kept at random, and is
// refused with an unknown keep or without a guided campaign.
func TestRunCorpusKeepRandom(t *testing.T) {
	dir := t.TempDir()
	corpus, out := filepath.Join(dir, "corpus"), filepath.Join(dir, "out")
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "100", "--seed", "2", "--mutate", "0.5", "--corpus-keep", "random", "--corpus", corpus,
		"--corpus-batch", "50", "--progress", "none", "--minimize=false", "--out", out}, "")
	if code != exitOK || !strings.Contains(stdout, "corpus kept at random") {
		t.Fatalf("exit %d\n%s%s\nwant 0 and the summary naming the random keep", code, stdout, stderr)
	}
	if rep := readReportJSON(t, out); rep.Settings.CorpusKeep != fuzz.KeepRandom || rep.Guided.Keep != fuzz.KeepRandom {
		t.Errorf("report.json: settings keep %q, guided keep %q; want %q", rep.Settings.CorpusKeep, rep.Guided.Keep, fuzz.KeepRandom)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "--corpus-keep random") {
		t.Errorf("report.md does not name the random keep")
	}
	if c, err := fuzz.LoadCorpus(corpus); err != nil || len(c.Entries) == 0 {
		t.Errorf("no corpus written: %v", err)
	}
	for _, args := range [][]string{{"--mutate", "0.5", "--corpus-keep", "fresh"}, {"--corpus-keep", "random"}} {
		args = append([]string{"run", "--graphs", "5", "--progress", "none", "--out", filepath.Join(dir, "refused")}, args...)
		if code, _, stderr := runCmd(args, ""); code == exitOK || !strings.Contains(stderr, "--corpus-keep") {
			t.Errorf("%v: exit %d, %s; want a refusal naming --corpus-keep", args[5:], code, stderr)
		}
	}
}
