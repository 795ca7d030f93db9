// unsupported_class_test.go: in a comparison, a graph one side declared
// unsupported (not sent) and the other served is not output-changed, which
// is for graphs both sides answered with a module: it is newly-unsupported
// (the current side declared it) or newly-supported (the baseline did).
package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// declaringSide is this tree's structurizer, declaring every graph of an
// odd number of blocks unsupported.
func declaringSide() SideFactory {
	return SideFactory{Describe: "declares odd graphs unsupported", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len()%2 == 1 {
				return Answer{Outcome: OutUnsupported, Reason: "unsupported: odd graphs"}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
}

func TestUnsupportedOnOneSideIsNotOutputChanged(t *testing.T) {
	for _, tc := range []struct {
		name      string
		declaring string // the side that declares
		class     string
	}{
		{"current declares", "current", "newly-unsupported"},
		{"baseline declares", "baseline", "newly-supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig(t, 40)
			c.Baseline = SideFactory{Describe: "in-process", New: InProcessFactory().New}
			if tc.declaring == "current" {
				c.Current = declaringSide()
			} else {
				c.Baseline = declaringSide()
			}
			o := mustRun(t, c)
			d := o.Report.Divergences
			declared := o.Report.Outcomes[OutUnsupported] + o.Report.BaselineOutcomes[OutUnsupported]
			if declared == 0 {
				t.Fatalf("no graph was declared unsupported: outcomes %v, baseline %v", o.Report.Outcomes, o.Report.BaselineOutcomes)
			}
			if d.Classes[ClassChanged] != 0 || d.Classes[tc.class] != declared || d.Classes[ClassSame]+declared != 40 {
				t.Errorf("classes %v; want %s %d, the rest same, output-changed 0", d.Classes, tc.class, declared)
			}
			for _, e := range d.Examples {
				if e.Class != tc.class {
					t.Errorf("example graph %d of class %s, want %s", e.Index, e.Class, tc.class)
				}
			}
		})
	}
}
