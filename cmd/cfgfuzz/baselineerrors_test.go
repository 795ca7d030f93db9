// baselineerrors_test.go: a comparison's outcomes line counts the graphs
// without a verdict on the baseline beside the current side's, so a
// baseline that never started does not read as "error 0", and the
// baseline's outcomes follow on a line of their own.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestOutcomesLineCountsTheBaselinesErrors: graphs the current side
// passes and the baseline has no verdict on give "error 0 (baseline 3)";
// a campaign of one side says nothing of a baseline.
func TestOutcomesLineCountsTheBaselinesErrors(t *testing.T) {
	s := fuzz.Settings{Streams: []fuzz.Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "cmd:never-starts", Current: "self"}
	var recs []fuzz.Record
	for i := range 3 {
		cur, base := fuzz.SideResult{Outcome: fuzz.OutOK, Hash: "a"}, fuzz.SideResult{Outcome: fuzz.OutError, Detail: "start: no answer"}
		recs = append(recs, fuzz.Record{Index: i, Current: cur, Baseline: &base, Class: fuzz.Classify(cur, base)})
	}
	sum := summaryLines(fuzz.BuildReport(s, recs))
	if !strings.Contains(sum, "3 graphs: ok 3 ") || !strings.Contains(sum, " error 0 (baseline 3);") {
		t.Errorf("summary:\n%s\nwant the current side's outcomes and the baseline's 3 graphs without a verdict", sum)
	}
	if !strings.Contains(sum, "\nbaseline's outcomes: ok 0 invalid 0 refused 0 unsupported 0 panic 0 timeout 0 crash 0 error 3\n") {
		t.Errorf("summary:\n%s\nwant a line of the baseline's outcomes", sum)
	}
	s.Baseline = ""
	for i := range recs {
		recs[i].Baseline, recs[i].Class = nil, ""
	}
	if sum := summaryLines(fuzz.BuildReport(s, recs)); !strings.Contains(sum, " error 0; fallbacks 0") || strings.Contains(sum, "baseline's outcomes") {
		t.Errorf("one side's summary:\n%s\nwant its errors alone", sum)
	}
}
