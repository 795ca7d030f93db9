// rerunnote_test.go: a finding of a meta re-run that timed out says, on
// the summary, why the outcomes line counts its graphs invalid and not
// timeout.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestSummarySaysARerunTimeoutIsInvalid: the graphs of
// meta:rerun-failed:timeout are invalid on the outcomes line ("timeout
// 0"), and the finding's line under it says meta's re-run timed out; a
// finding of another signature gets no such line.
func TestSummarySaysARerunTimeoutIsInvalid(t *testing.T) {
	s := fuzz.Settings{Streams: []fuzz.Stream{{Kind: "reducible", Weights: "w0"}}, Current: "self"}
	recs := []fuzz.Record{
		{Index: 0, Graph: "{{1}, {}}", Current: fuzz.SideResult{Outcome: fuzz.OutInvalid, Signature: "meta:rerun-failed:timeout", Hash: "a"}},
		{Index: 1, Graph: "{{1, 2}, {2}, {}}", Current: fuzz.SideResult{Outcome: fuzz.OutInvalid, Signature: "exec:trace-mismatch", Hash: "b"}},
	}
	sum := summaryLines(fuzz.BuildReport(s, recs))
	if !strings.Contains(sum, " timeout 0 ") {
		t.Fatalf("summary:\n%s\nwant no timeout among the outcomes", sum)
	}
	want := "\n  meta:rerun-failed:timeout: 1 graph, 1 new; replay: "
	i := strings.Index(sum, want)
	if i < 0 {
		t.Fatalf("summary:\n%s\nwant the finding's line %q", sum, want)
	}
	next, _, _ := strings.Cut(sum[i+len(want):], "\n  exec:")
	if !strings.Contains(next, "\n    meta's re-run timed out on these graphs, whose first answers came back with a module: the outcomes count them invalid, not timeout\n") {
		t.Errorf("summary:\n%s\nwant the rerun timeout's line to say its graphs count as invalid", sum)
	}
	if strings.Count(sum, "meta's re-run") != 1 {
		t.Errorf("summary:\n%s\nwant the note under the rerun timeout alone", sum)
	}
}
