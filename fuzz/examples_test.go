// examples_test.go: a compare report's divergence examples are chosen per
// class and carry modules as a function of the records alone, whatever
// the number of workers that made them.
package fuzz

import (
	"encoding/json"
	"testing"
)

// divergentRecords are n invalid-fixed graphs followed by two newly-invalid
// ones; keep says whether record i still carries its modules, as the
// worker that made it decided (keepModules).
func divergentRecords(n int, keep func(i int) bool) []Record {
	var recs []Record
	for i := range n + 2 {
		r := Record{Index: i, Seed: uint64(i), Graph: "{{1}, {}}",
			Current:  SideResult{Outcome: OutOK, Hash: "c"},
			Baseline: &SideResult{Outcome: OutInvalid, Signature: "exec:trace-mismatch", Hash: "b"},
			Class:    ClassInvalidFixed}
		if i >= n {
			r.Current, r.Baseline = SideResult{Outcome: OutInvalid, Signature: "rules:R12", Hash: "c"}, &SideResult{Outcome: OutOK, Hash: "b"}
			r.Class = ClassNewlyInvalid
		}
		if keep(i) {
			r.Current.Module, r.Baseline.Module = []byte{1, byte(i)}, []byte{2, byte(i)}
		}
		recs = append(recs, r)
	}
	return recs
}

func TestDivergenceExamplesPerClass(t *testing.T) {
	s := Settings{Seed: 1, Graphs: 27, Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "rev:base"}
	rep := BuildReport(s, divergentRecords(25, func(int) bool { return true }))
	per := map[string]int{}
	for _, e := range rep.Divergences.Examples {
		per[e.Class]++
	}
	if per[ClassNewlyInvalid] != 2 || per[ClassInvalidFixed] != maxExamples {
		t.Errorf("examples per class %v, want %d invalid-fixed and both newly-invalid graphs", per, maxExamples)
	}
}

func TestDivergenceModulesIndependentOfWorkers(t *testing.T) {
	s := Settings{Seed: 1, Graphs: 14, Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "rev:base"}
	// One worker keeps the modules of the first sideBySide graphs of a
	// class; two workers, taking turns, keep those of up to twice as many.
	one := BuildReport(s, divergentRecords(12, func(i int) bool { return i < sideBySide || i >= 12 }))
	two := BuildReport(s, divergentRecords(12, func(i int) bool { return i < 2*sideBySide || i >= 12 }))
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(two)
	if string(a) != string(b) {
		t.Errorf("the report depends on how many modules the workers kept:\n%s\n%s", a, b)
	}
	for i, e := range one.Divergences.Examples {
		if want := i < sideBySide || e.Class == ClassNewlyInvalid; (e.CurrentModule != nil) != want {
			t.Errorf("example %d (%s, graph %d) has modules %v, want %v", i, e.Class, e.Index, e.CurrentModule != nil, want)
		}
	}
}
