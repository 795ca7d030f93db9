// record_test.go checks the divergence classes and what counts as new.
package fuzz

import (
	"testing"
)

func TestClassify(t *testing.T) {
	ok := func(h string) SideResult { return SideResult{Outcome: OutOK, Hash: h} }
	inv := func(h string) SideResult { return SideResult{Outcome: OutInvalid, Hash: h, Signature: "exec:x"} }
	out := func(o string) SideResult { return SideResult{Outcome: o} }
	for _, tc := range []struct {
		cur, base SideResult
		class     string
		isNew     bool
	}{
		{ok("a"), ok("a"), ClassSame, false},
		{ok("a"), ok("b"), ClassChanged, false},
		{ok("a"), out(OutRefused), ClassNewlyStructured, false},
		{out(OutRefused), ok("a"), ClassNewlyRefused, false},
		{out(OutRefused), inv("a"), ClassNewlyRefused, false},
		{out(OutRefused), out(OutPanic), ClassNewlyRefused, false},
		{out(OutRefused), out(OutCrash), ClassNewlyRefused, false},
		{out(OutRefused), out(OutTimeout), ClassNewlyRefused, false},
		{out(OutCrash), out(OutRefused), ClassCrash, true},
		{out(OutTimeout), out(OutRefused), ClassTimeout, true},
		{out(OutRefused), out(OutRefused), ClassSame, false},
		{inv("a"), ok("b"), ClassNewlyInvalid, true},
		{inv("a"), out(OutRefused), ClassNewlyInvalid, true},
		{inv("a"), inv("a"), ClassSame, false},
		{inv("a"), inv("b"), ClassChanged, false},
		{ok("a"), inv("b"), ClassInvalidFixed, false},
		{ok("a"), out(OutTimeout), ClassInvalidFixed, false},
		{out(OutPanic), ok("a"), ClassCrash, true},
		{out(OutCrash), ok("a"), ClassCrash, true},
		{out(OutTimeout), ok("a"), ClassTimeout, true},
		{out(OutTimeout), out(OutTimeout), ClassSame, false},
		{out(OutPanic), inv("a"), ClassCrash, false},
		{ok("a"), out(OutError), ClassError, false},
		{out(OutUnsupported), ok("a"), "newly-unsupported", false},
		{out(OutUnsupported), inv("a"), "newly-unsupported", false},
		{out(OutUnsupported), out(OutCrash), "newly-unsupported", false},
		{out(OutUnsupported), out(OutRefused), "newly-unsupported", false},
		{out(OutUnsupported), out(OutUnsupported), ClassSame, false},
		{ok("a"), out(OutUnsupported), "newly-supported", false},
		{out(OutRefused), out(OutUnsupported), "newly-supported", false},
		{inv("a"), out(OutUnsupported), ClassNewlyInvalid, true},
		{out(OutCrash), out(OutUnsupported), ClassCrash, true},
		{out(OutTimeout), out(OutUnsupported), ClassTimeout, true},
	} {
		if got := Classify(tc.cur, tc.base); got != tc.class {
			t.Errorf("Classify(%s, %s) = %s, want %s", tc.cur.Outcome, tc.base.Outcome, got, tc.class)
		}
		r := Record{Current: tc.cur, Baseline: &tc.base}
		if r.isNew() != tc.isNew {
			t.Errorf("%s against %s: new %v, want %v", tc.cur.Outcome, tc.base.Outcome, r.isNew(), tc.isNew)
		}
	}
	if r := (Record{Current: inv("a")}); !r.isNew() {
		t.Error("without a baseline a failure is new")
	}
}

func TestHarnessSignature(t *testing.T) {
	a := harnessSignature(OutPanic, "index out of range [7] with length 3\ngoroutine 1")
	b := harnessSignature(OutPanic, "index out of range [12] with length 5")
	if a != b || a != "structurize:panic:index out of range [N] with length N" {
		t.Errorf("signatures %q and %q", a, b)
	}
	if s := harnessSignature(OutTimeout, "no answer within 10s"); s != "structurize:timeout" {
		t.Errorf("timeout signature %q", s)
	}
}
