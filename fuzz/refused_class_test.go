// refused_class_test.go: in a comparison, a graph the current side
// declines (refuses it, or declares it unsupported) where the baseline
// failed on it is newly-refused or newly-unsupported, not output-changed,
// which is for graphs both sides answered with a module; and a graph the
// current side fails where the baseline declined it is the current
// side's failure class and a new finding.
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// oddGraphsSide is this tree's structurizer answering every graph of an
// odd number of blocks with odd instead.
func oddGraphsSide(describe string, odd Answer) SideFactory {
	return SideFactory{Describe: describe, New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len()%2 == 1 {
				return odd
			}
			return structureLocal(g, opt)
		}}, nil
	}}
}

var (
	oddRefused     = Answer{Outcome: OutRefused, Reason: "odd graphs"}
	oddUnsupported = Answer{Outcome: OutUnsupported, Reason: "unsupported: odd graphs"}
	oddPanic       = Answer{Outcome: OutPanic, Reason: "index out of range [3] with length 3"}
)

// TestDeclinedWhereTheBaselineFailedIsNotOutputChanged: the odd graphs
// of 40, one side declining them and the other panicking on them, are all
// of one class, newly-refused or newly-unsupported when the current side
// declines, crash (each a new finding) when it panics; the even graphs
// are the same on both sides.
func TestDeclinedWhereTheBaselineFailedIsNotOutputChanged(t *testing.T) {
	for _, tc := range []struct {
		name          string
		current, base Answer
		class         string
		newFindings   bool // the odd graphs are the current side's new findings
	}{
		{"current refuses, baseline panicked", oddRefused, oddPanic, ClassNewlyRefused, false},
		{"current declares unsupported, baseline panicked", oddUnsupported, oddPanic, ClassNewlyUnsupported, false},
		{"current panics, baseline refused", oddPanic, oddRefused, ClassCrash, true},
		{"current panics, baseline declared unsupported", oddPanic, oddUnsupported, ClassCrash, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig(t, 40)
			c.Current = oddGraphsSide("current", tc.current)
			c.Baseline = oddGraphsSide("baseline", tc.base)
			o := mustRun(t, c)
			d := o.Report.Divergences
			odd := o.Report.Outcomes[tc.current.Outcome]
			if odd == 0 || o.Report.BaselineOutcomes[tc.base.Outcome] != odd {
				t.Fatalf("outcomes %v, baseline %v: want the odd graphs %s on the current side and %s on the baseline", o.Report.Outcomes, o.Report.BaselineOutcomes, tc.current.Outcome, tc.base.Outcome)
			}
			if d.Classes[ClassChanged] != 0 || d.Classes[tc.class] != odd || d.Classes[ClassSame]+odd != 40 {
				t.Errorf("classes %v; want %s %d, the rest same, output-changed 0", d.Classes, tc.class, odd)
			}
			for _, e := range d.Examples {
				if e.Class != tc.class {
					t.Errorf("example graph %d of class %s, want %s", e.Index, e.Class, tc.class)
				}
			}
			want := 0
			if tc.newFindings {
				want = odd
			}
			if o.Report.NewFindings != want {
				t.Errorf("new findings %d, want %d (the current side's failures where the baseline declined are new)", o.Report.NewFindings, want)
			}
		})
	}
}
