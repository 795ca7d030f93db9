// budgetgaps_test.go: a merge of time-budget shards whose budgets ran out
// at different graph indices says which indices it covers in full; one of
// shards that reached the same index says nothing.
package fuzz

import (
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// slowSide is InProcess taking 30 ms a graph more.
type slowSide struct{ InProcess }

func (s *slowSide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	time.Sleep(30 * time.Millisecond)
	return s.InProcess.Structurize(g, opt, limit)
}

func TestMergedTimeBudgetShardsNoteTheirGaps(t *testing.T) {
	var dirs []string
	for i := range 2 {
		c := testConfig(t, 0)
		c.Graphs, c.Duration, c.Workers, c.Shard = 0, Duration(400*time.Millisecond), 1, Shard{I: i, N: 2}
		if i == 1 { // the same spec, slower: its budget runs out at a lower index
			c.Current = SideFactory{Describe: SpecSelf, New: func() (Side, error) { return &slowSide{}, nil }}
		}
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	rep, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if n := rep.TimeBudgetNote; !strings.Contains(n, "time budgets ran out at different graph indices: every index below ") {
		t.Errorf("merged note %q, want the covered prefix named", n)
	}
	if n := budgetGapsNote(&indexSet{bits: []uint64{0xff}}, 8, 7); n != "" {
		t.Errorf("indices 0-7: note %q, want none", n)
	}
	if n := budgetGapsNote(&indexSet{bits: []uint64{0x2ff}}, 9, 9); !strings.Contains(n, "below 8 has its graph, and 1 of the 2 from 8 to 9") {
		t.Errorf("indices 0-7 and 9: note %q", n)
	}
}
