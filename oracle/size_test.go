// size_test.go holds Subject.Size after a Check, which reads what growth
// measured, to Size on a fresh subject of the same module, and checks that
// each Check measures its own module.

package oracle

import "testing"

func TestSizeAfterCheckMatchesFresh(t *testing.T) {
	withGrowth, err := New(Options{Checks: []string{"growth"}})
	if err != nil {
		t.Fatal(err)
	}
	withoutGrowth, err := New(Options{Checks: []string{"pdom"}})
	if err != nil {
		t.Fatal(err)
	}
	graphs := []string{loopGraph, "{{1, 2}, {3}, {3}, {}}", "{{1, 2, 3}, {4}, {4}, {0}, {}}"}
	var last *Subject
	for _, strategy := range []string{"structured", "dispatch"} {
		for _, src := range graphs {
			s := subjectOf(t, src, dispatchSeam(strategy))
			if last != nil { // a subject checked before, given another module
				last.Graph, last.Module, last.Info = s.Graph, s.Module, s.Info
				s = last
			}
			fb, fw, ferr := (&Subject{Module: s.Module}).Size()
			for _, o := range []*Oracle{withoutGrowth, withGrowth} {
				o.Check(s)
				b, w, err := s.Size()
				if b != fb || w != fw || (err == nil) != (ferr == nil) {
					t.Fatalf("%s %s, checks %v: Size after Check %d blocks %d words (%v), fresh %d %d (%v)", strategy, src, o.Checks(), b, w, err, fb, fw, ferr)
				}
			}
			if !s.sizeKnown {
				t.Fatalf("%s %s: the last Check ran growth, yet no size is kept", strategy, src)
			}
			last = s
		}
	}
}
