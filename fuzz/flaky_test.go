// flaky_test.go tests what a campaign's report says of findings the
// minimizer saw fail in only some of its judgements (Finding.Flaky) or in
// none (Finding.NotReproduced), or whose baseline failed it when judged
// again (Finding.BaselineFlaky).

package fuzz

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestFlakyFindingsSaySo: a minimizer that reports judgements that
// disagreed (beside a minimized graph, or with none) marks the finding
// flaky, one whose baseline fails the graph baseline flaky; report.json,
// report.md and report.html say so, and the summary line counts them.
func TestFlakyFindingsSaySo(t *testing.T) {
	for _, c := range []struct {
		name      string
		graph     bool
		err       error
		flaky     string
		baseline  string
		minimized bool
	}{
		{"mixed, minimized", true, errors.Join(&corpus.StoppedEarly{Limit: "step limit (5)"}, &corpus.Flaky{Original: corpus.Tally{Failed: 2, Judged: 3}, Minimized: corpus.Tally{Failed: 3, Judged: 3}}),
			"judged again by the minimizer, it failed with the signature in 2 of 3 judgements, its minimized graph in 3 of 3", "", true},
		{"result never failed", false, &corpus.Flaky{Original: corpus.Tally{Failed: 3, Judged: 3}, Minimized: corpus.Tally{Judged: 3}},
			"judged again by the minimizer, it failed with the signature in 3 of 3 judgements, its minimized graph in 0 of 3", "", false},
		{"baseline fails it", false, &corpus.BaselineFailsError{Got: "rules:R7"},
			"", "judged again by the minimizer, the baseline fails it too (rules:R7), though it did not fail it in the campaign", false},
		{"baseline fails its minimized graph", false, &corpus.BaselineFailsError{Got: "rules:R7", Minimized: true},
			"", "judged again by the minimizer, the baseline fails its minimized graph (rules:R7), though it did not fail it during the search", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, f := minimizedBy(t, c.graph, c.err)
			if f.Flaky != c.flaky || f.BaselineFlaky != c.baseline || f.NotReproduced != "" || (f.Minimized != "") != c.minimized {
				t.Fatalf("flaky %q, baseline flaky %q, not reproduced %q, minimized %q; want %q, %q, none, minimized %v",
					f.Flaky, f.BaselineFlaky, f.NotReproduced, f.Minimized, c.flaky, c.baseline, c.minimized)
			}
			if c.minimized && f.MinimizeStopped != "step limit (5)" {
				t.Errorf("minimize_stopped %q beside a flaky error, want the step limit", f.MinimizeStopped)
			}
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			note := ReproductionNote(rep)
			if !strings.HasSuffix(note, "the same campaign run again may report other graphs") || strings.Contains(note, "may pass") != (c.baseline == "") {
				t.Errorf("reproduction note %q", note)
			}
			md, html := Markdown(rep), HTML(rep)
			want := map[string]string{"report.md": "# baseline flaky: " + c.baseline, "report.html": "Baseline flaky</strong>: " + c.baseline, "report.json": `"baseline_flaky":"` + c.baseline}
			if c.flaky != "" {
				want = map[string]string{"report.md": "# flaky: " + c.flaky, "report.html": "Flaky</strong>: " + c.flaky, "report.json": `"flaky":"` + c.flaky}
			}
			for name, text := range map[string]string{"report.md": md, "report.html": html, "report.json": string(b)} {
				if !strings.Contains(text, want[name]) {
					t.Errorf("%s lacks %q", name, want[name])
				}
			}
			if !strings.Contains(md, strings.ToUpper(note[:1])+note[1:]) {
				t.Errorf("report.md lacks the note %q", note)
			}
		})
	}
}

// TestReproductionNoteCounts: the note counts flaky, not reproduced and
// baseline flaky signatures apart, and is empty when every finding
// reproduced.
func TestReproductionNoteCounts(t *testing.T) {
	rep := &Report{Findings: []Finding{{Signature: "a"}, {Signature: "b", Flaky: "x"}, {Signature: "c", NotReproduced: "y"}, {Signature: "d", Flaky: "z"}, {Signature: "e", BaselineFlaky: "w"}}}
	if got := ReproductionNote(rep); !strings.HasPrefix(got, "2 flaky and 1 not reproduced of the 5 signatures when the minimizer judged them again (their replays may pass); 1 whose graph the baseline failed when the minimizer judged it there again (perhaps not new): ") {
		t.Errorf("note %q", got)
	}
	if got := ReproductionNote(&Report{Findings: []Finding{{Signature: "a"}}}); got != "" {
		t.Errorf("note %q for findings that all reproduced", got)
	}
}

// TestMinimizeErrorRecorded: an error of the minimizer that is no limit,
// reproduction or disagreement (a harness error) is recorded in the
// finding and said in report.md and report.html, beside a minimized graph
// or without one, never dropped.
func TestMinimizeErrorRecorded(t *testing.T) {
	harness := errors.New("judging the minimized graph again: fresh side did not start")
	for _, c := range []struct {
		name  string
		graph bool
		err   error
	}{
		{"beside a graph", true, errors.Join(&corpus.StoppedEarly{Limit: "step limit (5)"}, harness)},
		{"without a graph", false, harness},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, f := minimizedBy(t, c.graph, c.err)
			if f.MinimizeError != harness.Error() || f.Flaky != "" || f.NotReproduced != "" || (f.Minimized != "") != c.graph {
				t.Fatalf("minimize_error %q, flaky %q, not reproduced %q, minimized %q", f.MinimizeError, f.Flaky, f.NotReproduced, f.Minimized)
			}
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			for name, text := range map[string]string{"report.md": Markdown(rep), "report.html": HTML(rep), "report.json": string(b)} {
				if !strings.Contains(text, harness.Error()) {
					t.Errorf("%s lacks %q", name, harness.Error())
				}
			}
		})
	}
}

// minimizedBy runs a small campaign with swap-arms planted whose minimizer
// answers every finding with err, beside the graph itself when graph is
// set, and returns the report and its first finding.
func minimizedBy(t *testing.T, graph bool, err error) (*Report, Finding) {
	t.Helper()
	cf := testConfig(t, 30)
	cf.Inject = []string{"swap-arms"}
	cf.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		if graph {
			return g, err
		}
		return nil, err
	}
	rep := mustRun(t, cf).Report
	if len(rep.Findings) == 0 {
		t.Fatal("no finding")
	}
	return rep, rep.Findings[0]
}

// TestTimingFindingsBlameTheLoad: a finding of the structurizer's time
// that the minimizer did not see again (structurize:timeout, growth:time)
// is put down to the machine's load, which differs between the campaign's
// workers and the minimizer judging alone, not to chance or to the
// requests before it, as any other finding's is.
func TestTimingFindingsBlameTheLoad(t *testing.T) {
	for sig, want := range map[string]string{"structurize:timeout": "machine's load", "growth:time": "machine's load", "exec:trace-mismatch": "or on chance"} {
		if got := AnswerCause(sig); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", sig, got, want)
		}
	}
	rep := &Report{Findings: []Finding{{Signature: "growth:time", Flaky: "x"}, {Signature: "structurize:timeout", NotReproduced: "y"}}}
	if got := ReproductionNote(rep); !strings.HasSuffix(got, ": as the structurizer's time depends on the machine's load, the same campaign run again may report other graphs") {
		t.Errorf("note %q", got)
	}
}
