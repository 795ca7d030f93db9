// harness_replay_test.go: a harness error's example carries the replay a
// finding gets, the graph's --blocks tier included, so its graph can be
// had again; one whose checks ran past the check limit says what to do.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
)

func TestHarnessErrorReplay(t *testing.T) {
	var seed uint64 = 1
	for ; ; seed++ {
		if lo, _ := gen.CampaignBlocks(gen.Reducible, seed); lo == gen.CampaignHugeMin {
			break
		}
	}
	dir := t.TempDir()
	rep := &fuzz.Report{Graphs: 2, Outcomes: map[string]int{fuzz.OutOK: 1, fuzz.OutError: 1},
		Settings: fuzz.Settings{Seed: 9, Walks: 16, Current: "self", Registers: 64, GPUEvery: 1},
		HarnessErrors: []fuzz.Example{{Index: 1, Stream: fuzz.Stream{Kind: "reducible", Weights: "w0"}, Seed: seed, Graph: "{{1}, {}}", Current: fuzz.OutError,
			Detail: fuzz.CheckLimitDetail + " 2m0s (--check-timeout): gpu still running"}}}
	if err := fuzz.WriteReports(dir, rep, genSource{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		HarnessErrors []struct{ Replay string } `json:"harness_errors"`
	}
	if err := json.Unmarshal(b, &got); err != nil || len(got.HarnessErrors) != 1 {
		t.Fatalf("report.json's harness_errors: %v %s", err, b)
	}
	want := "--blocks 41-400"
	if r := got.HarnessErrors[0].Replay; !strings.Contains(r, want) || !strings.Contains(r, "| cfgfuzz check --registers 64 --seed 9 --checks +gpu") {
		t.Errorf("harness error's replay %q, want the graph's tier (%s) and the campaign's judging flags", r, want)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"  replay: `cfgfuzz gen --kind reducible", "a larger --check-timeout gives them the time they need, or a larger --gpu-every than 1"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q:\n%s", w, md)
		}
	}
}

// TestAllCheckLimitHintSaysWhatToDo: a campaign whose every graph ran past
// the check limit with the gpu check running is told to raise
// --check-timeout or run the gpu check on fewer graphs.
func TestAllCheckLimitHintSaysWhatToDo(t *testing.T) {
	rep := &fuzz.Report{Graphs: 2, Outcomes: map[string]int{fuzz.OutError: 2}, Settings: fuzz.Settings{Current: "self", GPUEvery: 1},
		HarnessErrors: []fuzz.Example{{Index: 0, Current: fuzz.OutError, Detail: fuzz.CheckLimitDetail + " 2m0s (--check-timeout): gpu still running"}}}
	if got := allErrorsHint(rep); !strings.Contains(got, "a larger --check-timeout gives them the time they need, or a larger --gpu-every than 1 runs the gpu check") {
		t.Errorf("hint %q, want --check-timeout and --gpu-every named", got)
	}
}

// TestBaselineHarnessErrorReplaysTheBaseline: a compare's harness error
// that is the baseline side's alone replays on the baseline's
// structurizer and strategy, where it happened, not on the current side,
// which answered; one of the current side replays on the current side.
func TestBaselineHarnessErrorReplaysTheBaseline(t *testing.T) {
	rep := &fuzz.Report{Graphs: 2, Outcomes: map[string]int{fuzz.OutOK: 2}, BaselineOutcomes: map[string]int{fuzz.OutOK: 1, fuzz.OutError: 1},
		Settings: fuzz.Settings{Seed: 1, Walks: 16, Current: "self", Baseline: "cmd:./theirs", BaselineStrategy: "dispatch", Inject: []string{"swap-arms"}},
		HarnessErrors: []fuzz.Example{
			{Index: 0, Stream: fuzz.Stream{Kind: "reducible", Weights: "w0"}, Seed: 1, Graph: "{{1}, {}}", Current: fuzz.OutOK, Baseline: fuzz.OutError, Detail: "error: request: busy"},
			{Index: 1, Stream: fuzz.Stream{Kind: "reducible", Weights: "w0"}, Seed: 2, Graph: "{{1}, {}}", Current: fuzz.OutError, Baseline: fuzz.OutOK, Detail: "error: request: busy"},
		}}
	dir := t.TempDir()
	if err := fuzz.WriteReports(dir, rep, genSource{}); err != nil {
		t.Fatal(err)
	}
	base, cur := rep.HarnessErrors[0].Replay, rep.HarnessErrors[1].Replay
	if !strings.Contains(base, "| cfgfuzz check --structurizer cmd:./theirs --strategy dispatch") || strings.Contains(base, "--inject") {
		t.Errorf("the baseline's harness error replays %q, want the baseline's structurizer and strategy, no faults", base)
	}
	if !strings.Contains(cur, "| cfgfuzz check --inject swap-arms") || strings.Contains(cur, "theirs") {
		t.Errorf("the current side's harness error replays %q, want the current side", cur)
	}
}

// TestRequestErrorNoteNamesTheSideThatErred: the note on a request error
// of a generated graph shows how to ask the structurizer that answered
// it: the baseline's for an error of the baseline alone.
func TestRequestErrorNoteNamesTheSideThatErred(t *testing.T) {
	rep := &fuzz.Report{Graphs: 2, Outcomes: map[string]int{fuzz.OutOK: 2}, BaselineOutcomes: map[string]int{fuzz.OutOK: 1, fuzz.OutError: 1},
		Settings:      fuzz.Settings{Current: "rev:abc", Baseline: "cmd:./theirs"},
		HarnessErrors: []fuzz.Example{{Index: 0, Graph: "{{1}, {}}", Current: fuzz.OutOK, Baseline: fuzz.OutError, Detail: "error: request: busy"}}}
	if got := requestErrorsHint(rep); !strings.Contains(got, "the baseline's structurizer answered") || !strings.Contains(got, "--structurizer cmd:./theirs") {
		t.Errorf("note %q, want the baseline's structurizer named", got)
	}
	rep.HarnessErrors[0].Current, rep.HarnessErrors[0].Baseline = fuzz.OutError, fuzz.OutOK
	rep.Outcomes = map[string]int{fuzz.OutOK: 1, fuzz.OutError: 1}
	if got := requestErrorsHint(rep); !strings.Contains(got, "--structurizer rev:abc") {
		t.Errorf("note %q, want the current structurizer named", got)
	}
}
