package fuzz

import (
	"strings"
	"testing"
)

// TestGraftStreamLabel: a guided campaign's mutant (a corpus graph's
// mutant grafted onto the index's fresh graph, its part from the corpus
// keeping its parent's weights) is labelled a graft in its example and in
// the store's kept graph, not with the fresh graph's stream, whose kind
// and weights describe only part of it; its replay command still prints
// the graph itself.
func TestGraftStreamLabel(t *testing.T) {
	s := Settings{Walks: 16, Seed: 1, Night: "2026-04-01", Current: "self", Streams: []Stream{{Kind: "reducible", Weights: "w0"}}}
	r := Record{Index: 20, Stream: 0, Seed: 77, Graph: "{{1, 2}, {3}, {3}, {}}", Weights: []int{0, 16, 16, 0},
		Mutant: "corpus[2] split; fresh from block 3", Current: SideResult{Outcome: OutInvalid}}
	e := exampleOf(&s, &r, "")
	if e.Stream != GraftStream() {
		t.Errorf("the mutant's example is labelled %s, want %s", e.Stream, GraftStream())
	}
	cmd := replayCommand(testSource{}, &s, &e, "exec:trace-mismatch")
	if strings.Contains(cmd, "testsource") || !strings.HasPrefix(cmd, "printf ") || !strings.Contains(cmd, "16") {
		t.Errorf("the mutant's replay %q does not print its graph with its weights", cmd)
	}
	fresh := exampleOf(&s, &Record{Index: 3, Stream: 0, Seed: 5, Graph: "{{}}"}, "")
	if fresh.Stream != s.Streams[0] {
		t.Errorf("a fresh graph's example is labelled %s, want its stream %s", fresh.Stream, s.Streams[0])
	}
	rep := &Report{Settings: s, Findings: []Finding{{Signature: "exec:trace-mismatch", Count: 1, New: 1, First: e}},
		State: &StateReport{Signatures: []SignatureState{{Signature: "exec:trace-mismatch", Class: ClassNew, Outcome: OutInvalid}}}}
	up := NextState(&State{Seen: NewBloom()}, rep, nil)
	if len(up.Store) != 1 || len(up.Store[0].Graphs) != 1 || up.Store[0].Graphs[0].Stream != GraftStream() {
		t.Errorf("the store keeps %+v, want the graft labelled %s", up.Store, GraftStream())
	}
}
