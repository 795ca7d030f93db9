// bothinvalid_test.go: a comparison's output-changed graphs that are
// invalid on both sides (different invalid modules) are counted apart
// from the layout changes of valid modules: the summary's divergences
// line, report.json (both_invalid) and report.md say how many.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestOutputChangedSaysBothInvalid(t *testing.T) {
	s := fuzz.Settings{Streams: []fuzz.Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "rev:old", Current: "rev:new"}
	side := func(out, hash string) fuzz.SideResult { return fuzz.SideResult{Outcome: out, Hash: hash} }
	var recs []fuzz.Record
	for i, p := range [][2]fuzz.SideResult{
		{side(fuzz.OutOK, "a"), side(fuzz.OutOK, "b")},           // a layout change
		{side(fuzz.OutOK, "c"), side(fuzz.OutOK, "d")},           // another
		{side(fuzz.OutInvalid, "e"), side(fuzz.OutInvalid, "f")}, // invalid on both sides
		{side(fuzz.OutOK, "g"), side(fuzz.OutOK, "g")},           // same
		{side(fuzz.OutInvalid, "h"), side(fuzz.OutOK, "i")},      // newly invalid
	} {
		cur, base := p[0], p[1]
		recs = append(recs, fuzz.Record{Index: i, Current: cur, Baseline: &base, Class: fuzz.Classify(cur, base)})
	}
	rep := fuzz.BuildReport(s, recs)
	if d := rep.Divergences; d.Classes[fuzz.ClassChanged] != 3 || d.BothInvalid != 1 {
		t.Fatalf("output-changed %d, both invalid %d; want 3, 1", d.Classes[fuzz.ClassChanged], d.BothInvalid)
	}
	if sum := summaryLines(rep); !strings.Contains(sum, "output-changed 3 (of which both invalid 1) newly-structured") {
		t.Errorf("summary:\n%s\nwant the output-changed count with how many of them are invalid on both sides", sum)
	}
	if md := fuzz.Markdown(rep); !strings.Contains(md, "Of the 3 graphs whose output changed (output-changed), 1 is invalid on both sides") {
		t.Errorf("report.md:\n%s\nwant how many output-changed graphs are invalid on both sides", md)
	}
}
