// fallback_test.go: the fallback check and the signatures it makes from a
// structurizer's passes.
package oracle

import "testing"

func TestFallbackSignature(t *testing.T) {
	for _, c := range []struct {
		passes []string
		want   string
	}{
		{[]string{"fallback: selfcheck: R6: at block 12: loop 3 left for 5"}, "structurize:fallback:selfcheck:R6"},
		{[]string{"fallback: selections: panic: runtime error: index out of range [5] with length 3"}, "structurize:fallback:selections:panic"},
		{[]string{"fallback: loops: edge from level 2 to node 7 at level 1 enters a loop past its header"}, "structurize:fallback:loops:edge from level N to node N at level N enters a loop past its header"},
		{[]string{"nested", "fallback:   region   0x1f2  failed\nsecond line"}, "structurize:fallback:region N failed"},
		{[]string{"fallback:"}, "structurize:fallback"},
		{[]string{"loops", "selections"}, "structurize:fallback"},
		{nil, "structurize:fallback"},
	} {
		got := FallbackSignature(c.passes)
		if got != c.want {
			t.Errorf("FallbackSignature(%q) = %q, want %q", c.passes, got, c.want)
		}
		if !KnownSignature(got) {
			t.Errorf("%s is not in the signature table", got)
		}
	}
	long := "fallback: selfcheck: a very long reason that goes on and on, past the eighty bytes a field of a signature may hold"
	if got := FallbackSignature([]string{long}); len(got) > len("structurize:fallback:selfcheck:")+fallbackFieldMax {
		t.Errorf("long reason not cut: %q", got)
	}
}

func TestFallbackCheck(t *testing.T) {
	o := &Oracle{}
	if v := o.checkFallback(&Subject{Info: ResultInfo{Passes: []string{"loops"}}}); v.Status != Pass {
		t.Errorf("no fallback: %+v", v)
	}
	v := o.checkFallback(&Subject{Info: ResultInfo{Fallbacks: 1, Passes: []string{"fallback: selfcheck: R12: at block 4: conditional without a selection merge"}}})
	if v.Status != Fail || v.Signature != "structurize:fallback:selfcheck:R12" {
		t.Errorf("fallback: %+v", v)
	}
	if want := "1 fallbacks to the dispatch loop: selfcheck: R12: at block 4: conditional without a selection merge" + fallbackNote; v.Detail != want {
		t.Errorf("detail %q, want %q", v.Detail, want)
	}
}
