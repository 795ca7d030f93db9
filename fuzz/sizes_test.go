package fuzz

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sizeReference is SizeDiff by the obvious way: every counted graph's
// change listed, sorted whole, the first sizeExamples of each direction.
func sizeReference(s *Settings, recs []Record) *SizeDiff {
	d := newSizeDiff(&Settings{})
	var grew, shrank []SizeExample
	for i := range recs {
		r := &recs[i]
		b, c := r.Baseline, &r.Current
		if r.Skipped || r.Seen || b == nil || c.Outcome != OutOK || b.Outcome != OutOK {
			continue
		}
		if c.ModuleBlocks == 0 || b.ModuleBlocks == 0 {
			d.Unmeasured++
			continue
		}
		d.Graphs++
		d.BaselineBlocks += int64(b.ModuleBlocks)
		d.CurrentBlocks += int64(c.ModuleBlocks)
		d.BaselineWords += int64(b.ModuleWords)
		d.CurrentWords += int64(c.ModuleWords)
		e := SizeExample{Example: exampleOf(s, r, ""), BaselineBlocks: b.ModuleBlocks, CurrentBlocks: c.ModuleBlocks, BaselineWords: b.ModuleWords, CurrentWords: c.ModuleWords}
		switch {
		case c.ModuleBlocks > b.ModuleBlocks || c.ModuleBlocks == b.ModuleBlocks && c.ModuleWords > b.ModuleWords:
			d.Larger++
			grew = append(grew, e)
		case c.ModuleBlocks < b.ModuleBlocks || c.ModuleWords < b.ModuleWords:
			d.Smaller++
			shrank = append(shrank, e)
		}
	}
	gain := func(e SizeExample) [2]int {
		return [2]int{e.CurrentBlocks - e.BaselineBlocks, e.CurrentWords - e.BaselineWords}
	}
	slices.SortStableFunc(grew, func(x, y SizeExample) int {
		gx, gy := gain(x), gain(y)
		switch {
		case gx != gy && (gx[0] > gy[0] || gx[0] == gy[0] && gx[1] > gy[1]):
			return -1
		case gx != gy:
			return 1
		}
		return x.Index - y.Index
	})
	slices.SortStableFunc(shrank, func(x, y SizeExample) int {
		gx, gy := gain(x), gain(y)
		switch {
		case gx != gy && (gx[0] < gy[0] || gx[0] == gy[0] && gx[1] < gy[1]):
			return -1
		case gx != gy:
			return 1
		}
		return x.Index - y.Index
	})
	d.Grew = append(d.Grew, grew[:min(len(grew), sizeExamples)]...)
	d.Shrank = append(d.Shrank, shrank[:min(len(shrank), sizeExamples)]...)
	return d
}

// TestSizeDiffMatchesReference: the running comparison equals the
// reference's on random records (ties in blocks and words included), in
// whatever order the records come.
func TestSizeDiffMatchesReference(t *testing.T) {
	seed := uint64(20261205)
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}, {Kind: "program", Weights: "w16"}}, Baseline: "rev:HEAD~1"}
	side := func() SideResult {
		out := []string{OutOK, OutOK, OutOK, OutInvalid, OutRefused}[r.IntN(5)]
		sd := SideResult{Outcome: out}
		if out != OutRefused && r.IntN(10) > 0 {
			sd.ModuleBlocks, sd.ModuleWords = 1+r.IntN(6), 200+r.IntN(4)
		}
		return sd
	}
	for round := range 200 {
		recs := make([]Record, 1+r.IntN(60))
		for i := range recs {
			b := side()
			recs[i] = Record{Index: i, Stream: r.IntN(2), Seed: uint64(i), Graph: "{{1}, {}}", Current: side(), Baseline: &b, Skipped: r.IntN(20) == 0}
		}
		want := sizeReference(&s, recs)
		for _, order := range [][]int{r.Perm(len(recs)), r.Perm(len(recs))} {
			got := newSizeDiff(&Settings{})
			for _, i := range order {
				got.add(&s, &recs[i])
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: got\n%+v\nwant\n%+v", round, got, want)
			}
		}
	}
}

// TestSizeDiffLeavesOut: only graphs both sides structured validly with
// both sizes measured count; a campaign without a baseline has none.
func TestSizeDiffLeavesOut(t *testing.T) {
	s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "self"}
	ok := func(blocks int) *SideResult {
		return &SideResult{Outcome: OutOK, ModuleBlocks: blocks, ModuleWords: 10 * blocks}
	}
	d := newSizeDiff(&Settings{})
	for _, r := range []Record{
		{Index: 0, Current: *ok(5), Baseline: ok(3)},
		{Index: 1, Current: *ok(5)},                                                            // no baseline
		{Index: 2, Current: SideResult{Outcome: OutInvalid, ModuleBlocks: 9}, Baseline: ok(3)}, // current invalid
		{Index: 3, Current: *ok(5), Baseline: &SideResult{Outcome: OutOK}},                     // baseline's size unknown
		{Index: 4, Current: *ok(2), Baseline: ok(3), Skipped: true},
		{Index: 5, Current: *ok(3), Baseline: ok(3)},
	} {
		d.add(&s, &r)
	}
	if d.Graphs != 2 || d.Unmeasured != 1 || d.Larger != 1 || d.Smaller != 0 || d.BaselineBlocks != 6 || d.CurrentBlocks != 8 || len(d.Grew) != 1 || d.Grew[0].Index != 0 || len(d.Shrank) != 0 {
		t.Fatalf("%+v", d)
	}
	for _, text := range []string{d.Summary(), sizeProse(d)} {
		if !strings.Contains(text, "1 graph") || !strings.Contains(text, "measured size") {
			t.Errorf("the sizes do not say a graph had no measured size: %q", text)
		}
	}
	if rep := BuildReport(Settings{Streams: s.Streams}, nil); rep.Divergences != nil {
		t.Fatalf("a campaign without a baseline has divergences: %+v", rep.Divergences)
	}
}

// TestSizeLimit: the totals are held against --max-growth: past it is
// over, at it is not, and with no graph compared nothing is.
func TestSizeLimit(t *testing.T) {
	pct := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		graphs     int
		base, cur  int64
		limit      *float64
		over       bool
		noteSubstr string
	}{
		{10, 100, 106, pct(5), true, "over the limit of +5.0%"},
		{10, 100, 105, pct(5), false, "within the limit of +5.0%"},
		{10, 100, 101, pct(0), true, "over the limit of +0.0%"},
		{10, 100, 90, pct(0), false, "within"},
		{0, 0, 0, pct(5), false, "no sizes for the limit"},
		{10, 100, 300, nil, false, ""},
		// exactly the limit is within it, whatever float64 makes of
		// 1+PCT/100
		{10, 100, 115, pct(15), false, "within the limit of +15.0%"},
		{10, 1000, 1001, pct(0.1), false, "within"},
		{10, 1000, 1003, pct(0.3), false, "within"},
		{10, 1000, 1004, pct(0.3), true, "over"},
		{10, 3, 4, pct(100.0 / 3), false, "within"},
		{10, 100, 116, pct(15), true, "over the limit of +15.0%"},
		{10, 1 << 40, 1<<40 + 1<<39, pct(50), false, "within"},
		{10, 1 << 40, 1<<40 + 1<<39 + 1, pct(50), true, "over"},
		// the limit as given, not rounded to one decimal
		{10, 10000, 10005, pct(0.04), true, "over the limit of +0.04%"},
		{10, 10000, 10003, pct(0.04), false, "within the limit of +0.04%"},
		{10, 100, 100, pct(math.Copysign(0, -1)), false, "within the limit of +0.0%"},
	} {
		d := SizeDiff{Graphs: c.graphs, BaselineBlocks: c.base, CurrentBlocks: c.cur}
		d.judge(c.limit)
		if d.OverLimit != c.over || !strings.Contains(d.limitNote(), c.noteSubstr) || (c.limit == nil) != (d.Limit == nil) {
			t.Errorf("%+v: over %v, note %q", c, d.OverLimit, d.limitNote())
		}
		rep := &Report{Divergences: &Divergences{Size: &d}}
		if rep.SizeOverLimit() != c.over {
			t.Errorf("%+v: the report says over %v", c, rep.SizeOverLimit())
		}
	}
}

// TestSizeDiffCountsTheShareApart: in a campaign with a dispatch share,
// the share's graphs (records of another strategy) count apart, so the
// totals and the limit are the campaign's strategy's; the line and the
// prose say the share's sizes.
func TestSizeDiffCountsTheShareApart(t *testing.T) {
	s := Settings{Streams: []Stream{{Kind: "reducible", Weights: "w0"}}, Baseline: "self", DispatchEvery: 8}
	ok := func(blocks int) *SideResult {
		return &SideResult{Outcome: OutOK, ModuleBlocks: blocks, ModuleWords: 10 * blocks}
	}
	d := newSizeDiff(&s)
	for _, r := range []Record{
		{Index: 0, Current: *ok(12), Baseline: ok(10)},
		{Index: 1, Current: *ok(40), Baseline: ok(40), Strategy: "dispatch"},
		{Index: 2, Current: *ok(6), Baseline: ok(6), Strategy: "dispatch"},
	} {
		d.add(&s, &r)
	}
	limit := 10.0
	d.judge(&limit)
	if d.Graphs != 1 || d.BaselineBlocks != 10 || d.CurrentBlocks != 12 || !d.OverLimit {
		t.Errorf("the campaign's strategy's sizes %+v, want graph 0 alone, +20%% over the +10%% limit", d)
	}
	if sh := d.Share; sh == nil || sh.Graphs != 2 || sh.BaselineBlocks != 46 || sh.CurrentBlocks != 46 {
		t.Errorf("the share's sizes %+v, want graphs 1 and 2", sh)
	}
	for _, text := range []string{d.Summary(), sizeProse(d)} {
		if !strings.Contains(text, "the dispatch share's 2 graphs apart: blocks 46 against 46 (+0.0%)") {
			t.Errorf("the sizes do not say the share's apart: %q", text)
		}
	}
	if none := newSizeDiff(&Settings{Baseline: "self"}); none.Share != nil {
		t.Errorf("a campaign without a share has its sizes: %+v", none.Share)
	}
}
