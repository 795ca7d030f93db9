// summary_test.go: the summary a campaign prints. A signature found under
// two strategies gives two lines that say which strategy each is, in the
// findings and in the state's classes; with a state and no baseline the
// signatures' classes say what is new, and no count contradicts them.
package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestSummaryLinesNameStrategies(t *testing.T) {
	rep := &fuzz.Report{Graphs: 10, Findings: []fuzz.Finding{
		{Signature: "exec:trace-mismatch", Count: 7, New: 7, Replay: "r1"},
		{Signature: "exec:trace-mismatch", Strategy: "dispatch", Count: 2, New: 2, Replay: "r2"},
	}, NewFindings: 9}
	plain := summaryLines(rep)
	for _, want := range []string{"9 findings (2 signatures), 9 new\n", "  exec:trace-mismatch: 7 graphs, 7 new; replay: r1\n", "  exec:trace-mismatch (strategy dispatch): 2 graphs, 2 new; replay: r2\n"} {
		if !strings.Contains(plain, want) {
			t.Errorf("without a state, the summary lacks %q:\n%s", want, plain)
		}
	}
	rep.State = &fuzz.StateReport{Night: "2026-03-02", Classes: map[string]int{fuzz.ClassKnown: 2}, Signatures: []fuzz.SignatureState{
		{Signature: "exec:trace-mismatch", Class: fuzz.ClassKnown, Reason: "r"},
		{Signature: "exec:trace-mismatch", Strategy: "dispatch", Class: fuzz.ClassKnown, Reason: "r"},
	}}
	night := summaryLines(rep)
	for _, want := range []string{"9 findings (2 signatures) in tonight's graphs; 2 signatures classed against the state (tonight's graphs and the re-runs of the state's):\n", "  known exec:trace-mismatch: r\n", "  known exec:trace-mismatch (strategy dispatch): r\n", "  exec:trace-mismatch (strategy dispatch): 2 graphs; replay: r2\n"} {
		if !strings.Contains(night, want) {
			t.Errorf("with a state, the summary lacks %q:\n%s", want, night)
		}
	}
	if strings.Contains(night, " new") && !strings.Contains(night, " new 0") {
		t.Errorf("with a state and no baseline, the summary counts graphs as new besides the classes:\n%s", night)
	}
	// No signature classed: the sentence ends, no list follows it.
	rep.Findings, rep.NewFindings = nil, 0
	rep.State = &fuzz.StateReport{Night: "2026-03-02", Classes: map[string]int{}, Signatures: []fuzz.SignatureState{}}
	if got, want := summaryLines(rep), "0 findings (0 signatures) in tonight's graphs; 0 signatures classed against the state (tonight's graphs and the re-runs of the state's).\n"; !strings.Contains(got, want) {
		t.Errorf("with no signature classed, the summary lacks %q:\n%s", want, got)
	}
}

// TestNewlyFailingWordedAlike: beside a baseline, a finding's graphs the
// baseline passed are "newly failing against the baseline" in the
// summary, report.md and report.html, never "new", which with a state
// is a signature's class on the lines before (known, yet "185 new").
func TestNewlyFailingWordedAlike(t *testing.T) {
	rep := &fuzz.Report{Graphs: 200, Settings: fuzz.Settings{Current: "self", Baseline: "rev:HEAD~1", Night: "2026-12-02"},
		Findings: []fuzz.Finding{{Signature: "exec:trace-mismatch", Count: 185, New: 185, Replay: "r1", First: fuzz.Example{Graph: "{{}}"}}}, NewFindings: 185}
	rep.State = &fuzz.StateReport{Night: "2026-12-02", Classes: map[string]int{fuzz.ClassKnown: 1}, Signatures: []fuzz.SignatureState{
		{Signature: "exec:trace-mismatch", Class: fuzz.ClassKnown, Reason: "seen since 2026-12-01"}}}
	for _, c := range []struct {
		what, text string
		want       []string
	}{
		{"the summary", summaryLines(rep), []string{"185 findings (1 signature), 185 newly failing against the baseline\n", "  known exec:trace-mismatch: seen since 2026-12-01\n", "  exec:trace-mismatch: 185 graphs, 185 newly failing against the baseline; replay: r1\n"}},
		{"report.md", fuzz.Markdown(rep), []string{"| graphs | class (newly failing against the baseline) |", "| 185 | known (185) |"}},
		{"report.html", fuzz.HTML(rep), []string{"185 graphs, class known, 185 newly failing against the baseline."}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s lacks %q:\n%s", c.what, w, c.text)
			}
		}
		if regexp.MustCompile(`\b185 new\b`).MatchString(c.text) || strings.Contains(c.text, "baseline passed") {
			t.Errorf("%s still counts the graphs as new, or as the baseline passed:\n%s", c.what, c.text)
		}
	}
	rep.State = nil // compare without a state
	if got, want := summaryLines(rep), "  exec:trace-mismatch: 185 graphs, 185 newly failing against the baseline; replay: r1\n"; !strings.Contains(got, want) {
		t.Errorf("without a state, the summary lacks %q:\n%s", want, got)
	}
	if got, want := fuzz.Markdown(rep), "| signature | strategy | graphs | newly failing against the baseline | first graph |"; !strings.Contains(got, want) {
		t.Errorf("without a state, report.md lacks %q:\n%s", want, got)
	}
}

// TestSummarySingular: counts of one read in the singular.
func TestSummarySingular(t *testing.T) {
	rep := &fuzz.Report{Graphs: 1, Skipped: 1, Findings: []fuzz.Finding{
		{Signature: "exec:trace-mismatch", Count: 1, New: 1, Replay: "r1"},
	}, NewFindings: 1}
	got := summaryLines(rep)
	for _, want := range []string{"1 distinct graph (1 repeat skipped)", "\n1 graph:", "1 finding (1 signature), 1 new\n", "  exec:trace-mismatch: 1 graph, 1 new; replay: r1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	rep.State = &fuzz.StateReport{Night: "2026-03-02", Reruns: 1, Seen: 1}
	if got, want := summaryLines(rep), "1 kept graph re-run, 1 graph skipped as seen\n"; !strings.Contains(got, want) {
		t.Errorf("the summary lacks %q:\n%s", want, got)
	}
}

// TestAllCrashedHint: a campaign whose every graph crashed the server with
// one signature gets a note naming selftest; any graph answered, or a
// second signature, and it gets none.
func TestAllCrashedHint(t *testing.T) {
	crashed := func(graphs, crashes, sigs int) *fuzz.Report {
		rep := &fuzz.Report{Graphs: graphs, Outcomes: map[string]int{fuzz.OutCrash: crashes, fuzz.OutOK: graphs - crashes}}
		rep.Settings.Current = "cmd:python3 adapter.py"
		for i := range sigs {
			rep.Findings = append(rep.Findings, fuzz.Finding{Signature: "structurize:crash:" + string(rune('a'+i))})
		}
		return rep
	}
	if h := allCrashedHint(crashed(10, 10, 1)); !strings.Contains(h, "selftest --structurizer 'cmd:python3 adapter.py'") {
		t.Errorf("every graph crashed: hint %q, want one naming selftest with the spec", h)
	}
	for _, rep := range []*fuzz.Report{crashed(10, 9, 1), crashed(10, 10, 2), crashed(1, 1, 1)} {
		if h := allCrashedHint(rep); h != "" {
			t.Errorf("%d of %d crashed, %d signatures: hint %q, want none", rep.Outcomes[fuzz.OutCrash], rep.Graphs, len(rep.Findings), h)
		}
	}
}

// TestSummarySaysIncomplete: an incomplete campaign's summary on stdout
// says so first, for a job that reads only stdout.
func TestSummarySaysIncomplete(t *testing.T) {
	rep := &fuzz.Report{Graphs: 3, Incomplete: &fuzz.Incomplete{Reason: "interrupted (SIGINT)", Done: 3, Planned: 10, Resume: "cfgfuzz run --resume out"}}
	got := summaryLines(rep)
	if !strings.HasPrefix(got, "incomplete: interrupted (SIGINT) at 3 of 10 graph indices") || strings.Contains(got, "resume with") {
		t.Errorf("an incomplete campaign's summary:\n%s", got)
	}
	rep.Incomplete = nil
	if got := summaryLines(rep); strings.Contains(got, "incomplete") {
		t.Errorf("a complete campaign's summary says incomplete:\n%s", got)
	}
}

// TestSummarySaysGPUChecked: with the gpu check on, the summary counts the
// modules it judged; without it, it says nothing of it.
func TestSummarySaysGPUChecked(t *testing.T) {
	rep := &fuzz.Report{Graphs: 30, GPUChecked: 3, Settings: fuzz.Settings{GPUEvery: 10}}
	if got := summaryLines(rep); !strings.Contains(got, "; gpu check 3\n") {
		t.Errorf("with --gpu-every 10, the summary lacks the gpu check's count:\n%s", got)
	}
	rep.Settings.GPUEvery, rep.GPUChecked = 0, 0
	if got := summaryLines(rep); strings.Contains(got, "gpu") {
		t.Errorf("without the gpu check, the summary mentions it:\n%s", got)
	}
}

// TestSummaryNotesFilesLeftOutOfTheDigest: a cmd structurizer whose
// command names a relative path in a directory it does not name (after
// cd $TOOLS, or after a call of a function that changes directory) gets
// a note naming the side and the path the digest leaves out; one whose
// every path is known gets none.
func TestSummaryNotesFilesLeftOutOfTheDigest(t *testing.T) {
	rep := &fuzz.Report{Graphs: 1}
	rep.Settings.Current = "cmd:cd $TOOLS && ./adapter"
	rep.Settings.Baseline = "cmd:f() { cd old; }; f; ./adapter --model m/x.bin"
	got := summaryLines(rep)
	for _, want := range []string{"note: the current structurizer's build digest (side_files) leaves out", "): ./adapter; ", "the baseline structurizer's build digest (side_files) leaves out", "): ./adapter, m/x.bin; "} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
	rep.Settings.Current, rep.Settings.Baseline = "cmd:(cd tools && make) && ./adapter", "self"
	if got := summaryLines(rep); strings.Contains(got, "side_files") {
		t.Errorf("every path known, the summary notes some left out:\n%s", got)
	}
}

// TestSummarySaysNotMinimized: a finding that is not minimized has a line
// saying why beneath it; findings all not minimized for one reason
// (minimization off) get one line for all; a minimized one gets none.
func TestSummarySaysNotMinimized(t *testing.T) {
	rep := &fuzz.Report{Graphs: 10, Findings: []fuzz.Finding{
		{Signature: "structurize:timeout", Count: 1, New: 1, Replay: "r1", NotMinimized: "it went back to the finding's graph"},
		{Signature: "exec:trace-mismatch", Count: 7, New: 7, Replay: "r2", IsMinimized: true},
	}, NewFindings: 8}
	got := summaryLines(rep)
	if want := "  structurize:timeout: 1 graph, 1 new; replay: r1\n    not minimized: it went back to the finding's graph\n  exec:trace-mismatch"; !strings.Contains(got, want) {
		t.Errorf("the summary lacks %q:\n%s", want, got)
	}
	if strings.Count(got, "not minimized") != 1 {
		t.Errorf("the summary says a minimized finding is not minimized:\n%s", got)
	}
	rep.Findings[1].IsMinimized, rep.Findings[0].NotMinimized, rep.Findings[1].NotMinimized = false, fuzz.MinimizeOff, fuzz.MinimizeOff
	got = summaryLines(rep)
	if want := "  not minimized, both signatures: " + fuzz.MinimizeOff + "\n"; !strings.Contains(got, want) || strings.Count(got, "not minimized") != 1 {
		t.Errorf("the summary does not say once %q:\n%s", want, got)
	}
}

// TestSummarySaysRegisters: with --registers N, the summary's outcomes
// line says every module carried the file; without it, nothing of it.
func TestSummarySaysRegisters(t *testing.T) {
	rep := &fuzz.Report{Graphs: 30, Settings: fuzz.Settings{Registers: 64}}
	if got := summaryLines(rep); !strings.Contains(got, "; register file of 64 in every module (--registers 64)\n") {
		t.Errorf("with --registers 64, the summary does not say so:\n%s", got)
	}
	rep.Settings.Registers = 0
	if got := summaryLines(rep); strings.Contains(got, "register") {
		t.Errorf("without registers, the summary mentions them:\n%s", got)
	}
}

// TestInjectRejectedHint: a cmd structurizer that answers the requests
// carrying --inject's faults with a request error gets, in place of the
// selftest hint (the selftest sends no faults, so it passes), its own
// error text first and why: --inject plants faults only in structurizers
// that implement them. Without --inject the selftest hint stays.
func TestInjectRejectedHint(t *testing.T) {
	rep := &fuzz.Report{Graphs: 8, Outcomes: map[string]int{fuzz.OutError: 8},
		Settings:      fuzz.Settings{Current: "cmd:./adapter", Inject: []string{"swap-arms"}},
		HarnessErrors: []fuzz.Example{{Index: 0, Current: fuzz.OutError, Detail: "error: request: no planted faults here"}}}
	got := allErrorsHint(rep)
	if !strings.HasPrefix(got, `"request: no planted faults here" is the structurizer's answer`) || !strings.Contains(got, "--inject plants faults only in structurizers that implement them") || strings.Contains(got, "selftest") {
		t.Errorf("hint %q, want the structurizer's error first, then why --inject fails", got)
	}
	if md := fuzz.Markdown(rep); !strings.Contains(md, "## Harness errors (not findings)\n\n\"request: no planted faults here\" is the structurizer's answer") {
		t.Errorf("report.md's harness errors lack the hint:\n%s", md)
	}
	rep.Settings.Inject = nil
	if got := allErrorsHint(rep); !strings.Contains(got, "cfgfuzz selftest") {
		t.Errorf("without --inject: hint %q, want the selftest's", got)
	}
}

// TestBaselineErrorsHint: a comparison whose every graph is a harness
// error on the baseline alone gets the selftest hint for the baseline's
// structurizer; one where the current side erred too, or not every
// graph, gets none of it.
func TestBaselineErrorsHint(t *testing.T) {
	rep := &fuzz.Report{Graphs: 5, Outcomes: map[string]int{fuzz.OutOK: 5}, BaselineOutcomes: map[string]int{fuzz.OutError: 5},
		Settings: fuzz.Settings{Current: "cmd:./new", Baseline: "cmd:./old adapter"}}
	if got := allErrorsHint(rep); !strings.Contains(got, "on the baseline side") || !strings.Contains(got, "cfgfuzz selftest --structurizer 'cmd:./old adapter'") {
		t.Errorf("hint %q, want the baseline's selftest", got)
	}
	rep.BaselineOutcomes = map[string]int{fuzz.OutError: 4, fuzz.OutOK: 1}
	if got := allErrorsHint(rep); got != "" {
		t.Errorf("4 of 5 baseline errors: hint %q, want none", got)
	}
}
