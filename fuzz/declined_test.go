package fuzz

import "testing"

// TestDeclinedTooMany: up to maxDeclinedReasons distinct reasons are
// listed; one more and none is, the report saying so, whatever the order
// the records came in.
func TestDeclinedTooMany(t *testing.T) {
	word := func(i int) string { // distinct after normalization: letters only
		b := []byte("reason ")
		for ; i > 0; i /= 26 {
			b = append(b, byte('a'+i%26))
		}
		return string(b)
	}
	s := &Settings{}
	for _, n := range []int{maxDeclinedReasons, maxDeclinedReasons + 1} {
		for _, reversed := range []bool{false, true} {
			var tally declinedTally
			for k := range n {
				i := k
				if reversed {
					i = n - 1 - k
				}
				tally.add(s, &Record{Index: i, Current: SideResult{Outcome: OutRefused, Detail: word(i)}})
				tally.add(s, &Record{Index: n + i, Current: SideResult{Outcome: OutRefused, Detail: word(i)}})
			}
			d := tally.report()
			switch {
			case n > maxDeclinedReasons && (d == nil || !d.TooMany || len(d.Reasons) > 0):
				t.Errorf("%d reasons (reversed %v): %+v, want too many and none listed", n, reversed, d)
			case n <= maxDeclinedReasons && (d == nil || d.TooMany || len(d.Reasons) != n || d.Reasons[0].Graphs != 2 || d.Reasons[0].First.Index >= n):
				t.Errorf("%d reasons (reversed %v): want each listed with 2 graphs, its first the lower index", n, reversed)
			}
		}
	}
}

// TestDeclinedReasonNormalized: a reason reads without the outcome it
// repeats, with its numbers read alike, and an empty one says so.
func TestDeclinedReasonNormalized(t *testing.T) {
	for _, tc := range []struct{ outcome, detail, want string }{
		{OutUnsupported, "unsupported: switches", "switches"},
		{OutRefused, "more than 6 blocks (9)", "more than N blocks (N)"},
		{OutRefused, "unsupported: a switch of 20000 cases", "unsupported: a switch of N cases"}, // the emitter's limit, refused
		{OutRefused, "  ", "(none given)"},
		{OutRefused, "red \x1b[31m\u202e", `red \x1b[Nm\u202e`},
	} {
		if got := declinedReason(tc.outcome, tc.detail); got != tc.want {
			t.Errorf("declinedReason(%q, %q) = %q, want %q", tc.outcome, tc.detail, got, tc.want)
		}
	}
}

// TestDeclinedSummary: the console's line names the three most frequent
// reasons and where the rest are.
func TestDeclinedSummary(t *testing.T) {
	rep := &Report{Declined: &Declined{}}
	for i, r := range []string{"a", "b", "c", "d"} {
		rep.Declined.Reasons = append(rep.Declined.Reasons, DeclinedReason{Outcome: OutRefused, Reason: r, Graphs: 9 - i})
	}
	if got, want := DeclinedSummary(rep), "declined: 9 refused: a; 8 refused: b; 7 refused: c; 1 more reason in report.json (report.md: the first 10)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if got := DeclinedSummary(&Report{Declined: &Declined{TooMany: true}}); got != "declined: more than 1024 distinct reasons, none listed" {
		t.Errorf("too many: %q", got)
	}
	if got := DeclinedSummary(&Report{}); got != "" {
		t.Errorf("none declined: %q", got)
	}
}

// TestDeclinedReasonAsGiven: a group whose graphs all gave one text (a
// declared max_blocks: "more than 6 blocks") is listed by that text; a
// group whose texts differ only in their numbers, by the normalized one,
// past the 80 bytes that group them where they agree.
func TestDeclinedReasonAsGiven(t *testing.T) {
	s := &Settings{}
	var tally declinedTally
	for i, detail := range []string{
		"unsupported: more than 6 blocks", "unsupported: more than 6 blocks",
		"graph of 12 blocks\nsecond line", "graph of 40 blocks",
		"switch of 9 cases\nat block 3", "switch of 9 cases\nat block 7",
		"unsupported: OpSwitch of 40445 cases exceeds the 16383 (literal, label) pairs SPIR-V allows in one instruction",
		"unsupported: OpSwitch of 20001 cases exceeds the 16383 (literal, label) pairs SPIR-V allows in one instruction",
	} {
		out := OutUnsupported
		if i >= 2 {
			out = OutRefused
		}
		tally.add(s, &Record{Index: i, Current: SideResult{Outcome: out, Detail: detail}})
	}
	got := map[string]int{}
	for _, r := range tally.report().Reasons {
		got[r.Outcome+": "+r.Reason] = r.Graphs
	}
	want := map[string]int{"unsupported: more than 6 blocks": 2, "refused: graph of N blocks": 2, "refused: switch of 9 cases": 2,
		"refused: unsupported: OpSwitch of N cases exceeds the N (literal, label) pairs SPIR-V allows in one instruction": 2} // whole, past a signature's 80 bytes
	if len(got) != len(want) {
		t.Fatalf("reasons %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("reasons %v, want %q with %d graphs", got, k, n)
		}
	}
}

// TestDeclinedReportedMidway: a report made while graphs still come in
// (a checkpoint) leaves the tally as it was: a reason given alike so far
// and then in other words is listed normalized at the end.
func TestDeclinedReportedMidway(t *testing.T) {
	s := &Settings{}
	var tally declinedTally
	tally.add(s, &Record{Index: 0, Current: SideResult{Outcome: OutRefused, Detail: "graph of 12 blocks"}})
	if got := tally.report().Reasons[0].Reason; got != "graph of 12 blocks" {
		t.Fatalf("one graph: reason %q, want it as given", got)
	}
	tally.add(s, &Record{Index: 1, Current: SideResult{Outcome: OutRefused, Detail: "graph of 40 blocks"}})
	if got := tally.report().Reasons[0].Reason; got != "graph of N blocks" {
		t.Errorf("two graphs in other words: reason %q, want the normalized one", got)
	}
}
