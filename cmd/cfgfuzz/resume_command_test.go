// resume_command_test.go: the resume command an interrupted report prints
// runs as printed: it names the state and the corpus the campaign read,
// which --resume takes again, and the directory it saves regressions into.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestResumeCommandNamesStateAndCorpus(t *testing.T) {
	for _, tc := range []struct {
		dir, state, corpus, regs, want string
	}{
		{"out", "", "", "", "cfgfuzz run --resume out"},
		{"night out", "st", "", "", "cfgfuzz run --resume 'night out' --state st"},
		{"out", "", "my corpus", "", "cfgfuzz run --resume out --corpus 'my corpus'"},
		{"out", "st", "c", "regs", "cfgfuzz run --resume out --state st --corpus c --save-regressions regs"},
	} {
		if got := resumeCommand("run", tc.dir, tc.state, tc.corpus, tc.regs); got != tc.want {
			t.Errorf("resumeCommand(%q, %q, %q, %q) = %q, want %q", tc.dir, tc.state, tc.corpus, tc.regs, got, tc.want)
		}
	}
}

// TestResumeGuidedCampaignWithItsCorpus: a guided campaign that started
// from --corpus DIR and was killed resumes with --corpus DIR; without it
// the resume is refused, as the corpus it reads is not the one the
// campaign started from.
func TestResumeGuidedCampaignWithItsCorpus(t *testing.T) {
	tmp := t.TempDir()
	corpus := filepath.Join(tmp, "corpus")
	guided := []string{"run", "--graphs", "60", "--seed", "5", "--progress", "none", "--minimize=false", "--mutate", "0.5", "--corpus", corpus}
	var out, errOut strings.Builder
	if code := run(append(guided, "--out", filepath.Join(tmp, "grow")), strings.NewReader(""), &out, &errOut); code > exitFail {
		t.Fatalf("growing the corpus: exit %d\n%s", code, errOut.String())
	}
	start := readFile(t, filepath.Join(corpus, "entries.jsonl"))
	if start == "" {
		t.Fatal("the first campaign grew no corpus")
	}
	dir := filepath.Join(tmp, "c")
	if code := run(append(guided, "--seed", "6", "--out", dir), strings.NewReader(""), &out, &errOut); code > exitFail {
		t.Fatalf("campaign: exit %d\n%s", code, errOut.String())
	}
	whole := readReportJSON(t, dir)
	// A kill: half the log, and the corpus as the campaign found it (an
	// interrupted campaign does not write it back).
	log := filepath.Join(dir, "results.jsonl")
	lines := strings.SplitAfter(readFile(t, log), "\n")
	if err := os.WriteFile(log, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "entries.jsonl"), []byte(start), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"run", "--resume", dir, "--progress", "none", "--minimize=false", "--corpus", corpus}, strings.NewReader(""), &out, &errOut); code > exitFail {
		t.Fatalf("--resume with the campaign's --corpus: exit %d\n%s", code, errOut.String())
	}
	resumed := readReportJSON(t, dir)
	whole.Throughput, resumed.Throughput, whole.Provenance, resumed.Provenance = fuzz.Throughput{}, fuzz.Throughput{}, nil, nil
	a, _ := json.Marshal(whole)
	b, _ := json.Marshal(resumed)
	if string(a) != string(b) {
		t.Errorf("the resumed report differs from the whole campaign's:\n%s\n%s", a, b)
	}
}

// TestResumeOfNoCampaignSaysSo: --resume of a directory that holds no
// campaign, with the campaign's flags beside it, says there is none to
// resume, not that a flag cannot change; without them, the missing file.
func TestResumeOfNoCampaignSaysSo(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--resume", dir, "--seed", "1"}, "--resume " + dir + ": no campaign to resume there"},
		{[]string{"run", "--resume", dir}, "campaign.json: no such file or directory"},
	} {
		code, out, errs := runCmd(c.args, "")
		if code != exitUsage || !strings.Contains(errs, c.want) || strings.Contains(errs, "cannot change") {
			t.Errorf("%q: exit %d, want 2 and %q\n%s%s", c.args, code, c.want, out, errs)
		}
	}
}
