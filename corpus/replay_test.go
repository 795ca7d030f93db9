// replay_test.go: corpus.Replay's cases on this tree's structurizer: a
// file's clean case gives what its expect header says, its fault case
// fails with its signature when the structurizer plants faults and is
// skipped when it does not.
package corpus

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestReplayCases(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	found := newTestRunner(t, structurizer.Options{Strategy: "dispatch", Inject: []string{"swap-arms"}}).Run(g)
	if !found.Failed() {
		t.Fatal("swap-arms passes the graph")
	}
	reg := func(expect string) *Regression {
		return &Regression{Name: expect, Path: expect + ".cfg", Graph: g,
			Header: Header{Signature: found.Signature, Fault: "swap-arms", Strategy: "dispatch", Expect: expect}}
	}
	runner := func(_ *Regression, strategy string, faults []string) (*Runner, error) {
		return NewRunner(RunnerOptions{Structurizer: structurizer.Options{Strategy: strategy, Inject: faults}})
	}
	plants := func(*Regression) bool { return true }
	cases := Replay([]*Regression{reg(""), reg(ExpectFail)}, ReplayOptions{Runner: runner, PlantsFaults: plants})
	want := []struct{ name, cas, status string }{
		{"", "clean", CasePass}, {"", "fault:swap-arms", CasePass},
		{ExpectFail, "clean", CaseFail}, {ExpectFail, "fault:swap-arms", CasePass},
	}
	if len(cases) != len(want) {
		t.Fatalf("%d cases, want %d: %+v", len(cases), len(want), cases)
	}
	for i, w := range want {
		if c := cases[i]; c.Regression.Name != w.name || c.Case != w.cas || c.Status != w.status {
			t.Errorf("case %d: %s %s %s (want %s, got %s); want %s %s %s", i, c.Regression.Name, c.Case, c.Status, c.Want, c.Got, w.name, w.cas, w.status)
		}
	}
	cases = Replay([]*Regression{reg("")}, ReplayOptions{Runner: runner})
	if len(cases) != 2 || cases[1].Status != CaseSkip {
		t.Errorf("without PlantsFaults the fault case is %+v, want skipped", cases[1])
	}
}
