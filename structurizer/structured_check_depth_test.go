// structured_check_depth_test.go: R16 in the self-check on construct
// chains: MaxNestingDepth selections nest, one more does not, and a
// continue construct adds no level.
package structurizer

import "testing"

// chainOf is n constructs each inside the one before, of the given kinds
// (kind(i) for construct i).
func chainOf(n int, kind func(int) cKind) []construct {
	cs := make([]construct, n)
	for i := range cs {
		cs[i] = construct{kind: kind(i), header: i, merge: -1, cont: -1, parent: i - 1, loop: -1}
	}
	return cs
}

func TestCheckNestingDepth(t *testing.T) {
	sel := func(int) cKind { return cSelection }
	if err := checkNestingDepth(chainOf(MaxNestingDepth, sel)); err != nil {
		t.Errorf("%d nested selections: %v", MaxNestingDepth, err)
	}
	err := checkNestingDepth(chainOf(MaxNestingDepth+1, sel))
	if re, ok := err.(*RuleError); !ok || re.Rule != "R16" || re.Block != MaxNestingDepth {
		t.Errorf("%d nested selections: %v, want R16 at the innermost header %d", MaxNestingDepth+1, err, MaxNestingDepth)
	}
	// A continue construct adds no level: loop, its continue construct,
	// then selections inside it.
	withCont := func(i int) cKind {
		switch i {
		case 0:
			return cLoop
		case 1:
			return cContinue
		}
		return cSelection
	}
	if err := checkNestingDepth(chainOf(MaxNestingDepth+1, withCont)); err != nil {
		t.Errorf("a loop, its continue construct and %d selections: %v", MaxNestingDepth-1, err)
	}
}
