// recordset_test.go: a recordSet's report against the obvious one (every
// record through Report.add in index order) on random records of every
// kind, and the index set against a map.
package fuzz

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// reportOfAll is the reference: every record kept, added in index order.
func reportOfAll(s Settings, recs []Record) *Report {
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(a, b Record) int { return a.Index - b.Index })
	rep := newReport(s)
	var walked uint64
	bySig := map[findingKey]int{}
	for i := range recs {
		if k, ok := exhaustiveStep(&s, &recs[i]); ok && k+1 > walked {
			walked = k + 1
		}
		rep.add(&recs[i], bySig)
		if rep.Divergences != nil {
			rep.Divergences.Size.add(&s, &recs[i])
		}
	}
	if s.Night != "" && walked > 0 {
		next := exhaustiveNext(s.exhaustiveStart() + walked)
		rep.ExhaustiveNext = &next
	}
	rep.sortFindings()
	rep.Declined = declinedOfAll(s, recs)
	if s.Guided {
		rep.Guided = guidedSummary(s, recs)
	}
	if rep.Divergences != nil {
		rep.Divergences.Size.judge(s.MaxGrowth)
	}
	return rep
}

// declinedOfAll is the Declined of records recs (in index order), the
// obvious way: every declined record's normalized reason in a list, the
// list sorted, and each run of one reason counted, its first record its
// example, and shown as given where every record of the run gave it
// alike, else normalized up to declinedShownLimit where they agree that
// far.
func declinedOfAll(s Settings, recs []Record) *Declined {
	type entry struct {
		DeclinedReason
		given, long string
	}
	var all []entry
	for i := range recs {
		r := &recs[i]
		if (r.Current.Outcome == OutRefused || r.Current.Outcome == OutUnsupported) && !r.Skipped && !r.Seen {
			out := r.Current.Outcome
			all = append(all, entry{DeclinedReason{Outcome: out, Reason: declinedReason(out, r.Current.Detail), Graphs: 1, First: exampleOf(&s, r, "")},
				declinedGiven(out, r.Current.Detail), declinedLong(out, r.Current.Detail)})
		}
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.Outcome, b.Outcome), cmp.Compare(a.Reason, b.Reason))
	})
	var groups [][]entry // by outcome and normalized reason
	for _, e := range all {
		if n := len(groups); n > 0 && groups[n-1][0].Outcome == e.Outcome && groups[n-1][0].Reason == e.Reason {
			groups[n-1] = append(groups[n-1], e)
			continue
		}
		groups = append(groups, []entry{e})
	}
	if len(groups) == 0 {
		return nil
	}
	if len(groups) > maxDeclinedReasons {
		return &Declined{TooMany: true}
	}
	var d Declined
	for _, g := range groups {
		r := g[0].DeclinedReason
		r.Graphs = len(g)
		switch {
		case !slices.ContainsFunc(g, func(e entry) bool { return e.given != g[0].given }):
			r.Reason = g[0].given // every graph gave the same text
		case !slices.ContainsFunc(g, func(e entry) bool { return e.long != g[0].long }):
			r.Reason = g[0].long // the same normalized, past the key's cut
		}
		d.Reasons = append(d.Reasons, r)
	}
	slices.SortFunc(d.Reasons, func(a, b DeclinedReason) int {
		return cmp.Or(b.Graphs-a.Graphs, cmp.Compare(a.Outcome, b.Outcome), cmp.Compare(a.Reason, b.Reason))
	})
	return &d
}

// randomSide is a side's result drawn from every outcome.
func randomSide(r *rand.Rand) SideResult {
	out := Outcomes[r.IntN(len(Outcomes))]
	sd := SideResult{Outcome: out, Fallbacks: r.IntN(3) / 2, GPU: r.IntN(4) == 0, Hash: []string{"a", "b"}[r.IntN(2)]}
	if out == OutOK && r.IntN(5) == 0 {
		sd.Unchecked = [][]string{{"filler", "growth:clones"}, {"filler"}}[r.IntN(2)]
	}
	if out == OutOK || out == OutInvalid {
		sd.ModuleBlocks, sd.ModuleWords = 1+r.IntN(4), 100+r.IntN(3)
	}
	if isFailure(out) || out == OutRefused {
		sd.Signature = []string{"exec:trace-mismatch", "rules:R6", "spirv-val:x"}[r.IntN(3)]
		sd.Detail = "detail"
	}
	if out == OutRefused || out == OutUnsupported {
		sd.Detail = []string{"irreducible control flow", fmt.Sprintf("block %d has too many successors", r.IntN(50)), "", "loop with several exits\nat b3", out + ": switches"}[r.IntN(5)]
	}
	return sd
}

// randomRecords draws n records with indices 0..n-1 in a random order.
func randomRecords(r *rand.Rand, s *Settings, n int) []Record {
	recs := make([]Record, n)
	for i, idx := range r.Perm(n) {
		rec := Record{Index: idx, Stream: r.IntN(len(s.Streams) + 1), Seed: uint64(r.IntN(1000)), Graph: "{{1}, {}}", Current: randomSide(r)}
		switch r.IntN(12) {
		case 0:
			rec.Current = SideResult{}
			rec.Skipped, rec.SameAs = true, r.IntN(n)
		case 1:
			rec.Current = SideResult{}
			rec.Seen = true
		}
		if r.IntN(5) == 0 {
			rec.Strategy = DispatchStrategy
		}
		if s.Baseline != "" && !rec.Skipped && !rec.Seen {
			b := randomSide(r)
			rec.Baseline = &b
			rec.Class = Classify(rec.Current, b)
		}
		recs[i] = rec
	}
	return recs
}

func TestRecordSetReportsAsAllRecords(t *testing.T) {
	seed := uint64(20261204)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	streams := []Stream{{Kind: "reducible", Weights: "w0"}, {Kind: ExhaustiveKind, Weights: "w0"}, {Kind: "program", Weights: "w16"}}
	kept := 0
	for round := range 60 {
		s := Settings{Streams: streams, Strategy: "structured"}
		if round%2 == 1 {
			s.Baseline = "rev:HEAD~1"
		}
		if round%3 == 0 {
			s.Night = "2026-12-04"
		}
		if round%4 == 1 {
			limit := float64(round % 7)
			s.MaxGrowth = &limit
		}
		recs := randomRecords(r, &s, 1+r.IntN(400))
		rs := newRecordSet(&s, false)
		if round%4 < 2 {
			rs.compactAt = 1 + r.IntN(40) // compact often, from the first records on
		}
		for _, rec := range recs {
			rs.add(rec)
		}
		kept += len(rs.kept)
		got, err := json.Marshal(rs.report(s))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(reportOfAll(s, recs))
		if string(got) != string(want) {
			t.Fatalf("round %d (%d records): the record set's report\n%s\nevery record's\n%s", round, len(recs), got, want)
		}
		if rs.total != len(recs) || len(rs.kept) >= len(recs) && len(recs) > 20 {
			t.Fatalf("round %d: %d records taken, %d kept of %d", round, rs.total, len(rs.kept), len(recs))
		}
	}
	t.Logf("%d records kept in full over 60 rounds", kept)
}

// TestRecordSetKeepsAGuidedCampaign: a guided campaign's set keeps every
// record (its corpus and summary read them all).
func TestRecordSetKeepsAGuidedCampaign(t *testing.T) {
	s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Guided: true}
	rs := newRecordSet(&s, false)
	for i := range 50 {
		rs.add(Record{Index: i, Current: SideResult{Outcome: OutOK}})
	}
	if len(rs.kept) != 50 {
		t.Fatalf("a guided campaign's set kept %d of 50 records", len(rs.kept))
	}
}

func TestIndexSet(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var x indexSet
	ref := map[int]bool{}
	for range 5000 {
		i := r.IntN(3000)
		if got, want := x.add(i), !ref[i]; got != want {
			t.Fatalf("add(%d) = %v, want %v", i, got, want)
		}
		ref[i] = true
	}
	for i := -1; i < 3100; i++ {
		if x.has(i) != ref[i] {
			t.Fatalf("has(%d) = %v, want %v", i, x.has(i), ref[i])
		}
	}
	var none *indexSet
	if none.has(0) {
		t.Fatal("a nil set has 0")
	}
	if x.add(-5) || x.has(-5) {
		t.Fatal("a negative index went in")
	}
	// Indices a log can claim past any campaign's count: a map entry each,
	// the bitset no longer than the dense ones need.
	words := len(x.bits)
	for _, i := range []int{denseIndices, denseIndices + 1, 1 << 62, denseIndices} {
		if got, want := x.add(i), !ref[i]; got != want {
			t.Fatalf("add(%d) = %v, want %v", i, got, want)
		}
		ref[i] = true
	}
	for _, i := range []int{denseIndices - 1, denseIndices, denseIndices + 1, denseIndices + 2, 1 << 62, 1<<62 + 1} {
		if x.has(i) != ref[i] {
			t.Fatalf("has(%d) = %v, want %v", i, x.has(i), ref[i])
		}
	}
	if len(x.bits) != words {
		t.Fatalf("the bitset grew from %d to %d words for indices past %d", words, len(x.bits), denseIndices)
	}
}

// TestRecordSetReplaysIntoProgress: a resumed campaign's progress line
// counts the replayed set (each, compacted) as it counts every record one
// by one.
func TestRecordSetReplaysIntoProgress(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	for _, base := range []string{"", "rev:HEAD~1"} {
		s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}, {Kind: "program", Weights: "w16"}}, Baseline: base}
		recs := randomRecords(r, &s, 500)
		one := newProgress(io.Discard, false, time.Hour, 500)
		rs := newRecordSet(&s, false)
		for i := range recs {
			one.count(&recs[i], true)
			rs.add(recs[i])
		}
		set := newProgress(io.Discard, false, time.Hour, 500)
		set.start = one.start // the line shows the time since the start
		rs.compactAt = 8
		rs.compact()
		rs.each(func(r *Record, n int, whole bool) { set.countN(r, n, true, whole) }, set.countSignatures)
		if got, want := set.line(), one.line(); got != want {
			t.Errorf("baseline %q: replayed set\n%s\nrecord by record\n%s", base, got, want)
		}
	}
}

// TestRecordSetKeepsFewOfManyFailures: a campaign failing or diverging on
// every graph keeps a bounded number of records, and its report is every
// record's.
func TestRecordSetKeepsFewOfManyFailures(t *testing.T) {
	s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "rev:HEAD~1"}
	r := rand.New(rand.NewPCG(5, 9))
	var recs []Record
	rs := newRecordSet(&s, false)
	for _, i := range r.Perm(50000) {
		sig := []string{"exec:trace-mismatch", "rules:R6"}[i%2]
		rec := Record{Index: i, Graph: "{{1}, {}}", Current: SideResult{Outcome: OutInvalid, Signature: sig, Hash: "a"},
			Baseline: &SideResult{Outcome: OutOK, Hash: "b"}}
		rec.Class = Classify(rec.Current, *rec.Baseline)
		recs = append(recs, rec)
		rs.add(rec)
	}
	if len(rs.kept) > 2*compactFirst {
		t.Errorf("%d of 50,000 failing records kept, want at most %d", len(rs.kept), 2*compactFirst)
	}
	got, _ := json.Marshal(rs.report(s))
	want, _ := json.Marshal(reportOfAll(s, recs))
	if string(got) != string(want) {
		t.Errorf("the compacted set's report differs from every record's:\n%s\n%s", got, want)
	}
}

// TestExhaustiveNextOfAWrappingWalk: a night's exhaustive_next is one past
// the last graph of its walk, the graph the walk would take next, also for
// a walk started near 2^64 whose positions wrap past it (the last graph's
// position is then small, and the one before the wrap the largest), and
// for one that ends past 2^63 (recorded as the same graph's position below
// it); records come in any order.
func TestExhaustiveNextOfAWrappingWalk(t *testing.T) {
	top := ^uint64(0)
	for _, c := range []struct {
		seed, from uint64 // from: the state's start, 0 none
		n          int
		want       uint64
	}{
		{seed: top - 5, n: 12, want: 6},
		{seed: top - 5, n: 6, want: 0},
		{seed: top - 20, n: 40, want: 19},
		{seed: MaxExhaustiveNext - 3, n: 10, want: (MaxExhaustiveNext + 7) % gen.GrowingCount()},
		{seed: 7, from: top - 1, n: 5, want: 3},
		{seed: 20261206, n: 8, want: 20261214},
	} {
		s := Settings{Seed: c.seed, Night: "2026-12-06", Streams: []Stream{{Kind: ExhaustiveKind, Weights: "w0"}}}
		if c.from != 0 {
			s.ExhaustiveFrom = &c.from
		}
		rs := newRecordSet(&s, false)
		for _, j := range rand.New(rand.NewPCG(c.seed, 2)).Perm(c.n) {
			rs.add(Record{Index: j, Seed: gen.SeedFor(gen.Exhaustive, s.runSeed(0), j), Graph: "{{}}", Current: SideResult{Outcome: OutOK}})
		}
		rep := rs.report(s)
		if rep.ExhaustiveNext == nil {
			t.Fatalf("seed %d, %d graphs: no exhaustive_next", c.seed, c.n)
		}
		if *rep.ExhaustiveNext != c.want {
			t.Errorf("seed %d (from %d), %d graphs: exhaustive_next %d, want %d", c.seed, c.from, c.n, *rep.ExhaustiveNext, c.want)
		}
		want := cfg.FormatCompact(gen.GrowingAt(gen.SeedFor(gen.Exhaustive, s.runSeed(0), c.n)))
		if got := cfg.FormatCompact(gen.GrowingAt(c.want)); got != want {
			t.Errorf("seed %d, %d graphs: the next night starts on %s, the walk's next graph is %s", c.seed, c.n, got, want)
		}
	}
}
