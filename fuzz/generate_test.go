// generate_test.go: a source that panics on one graph (directly, or in a
// graph analysis it calls) gives a harness:generator-panic record with the
// graph's seed while the campaign goes on.
package fuzz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// panicSource is testSource with a panic on graph number bad of the
// streams' generator (the one graph index that gets it): a plain panic, or an out-of-range index inside a cfg analysis.
type panicSource struct {
	testSource
	bad      int
	analysis bool
}

func (s panicSource) Item(st Stream, run uint64, j int) (Item, error) {
	if j == s.bad {
		if s.analysis {
			g := cfg.New(2)
			g.Succs[0] = []int{5} // an edge to no block: the analysis indexes past the end
			_ = cfg.Dominators(g)
		}
		panic("generator bug on purpose")
	}
	return s.testSource.Item(st, run, j)
}

func (panicSource) SeedOf(st Stream, run uint64, j int) uint64 { return run*1_000_003 + uint64(j) }

func TestGeneratorPanicIsAHarnessErrorAndTheCampaignGoesOn(t *testing.T) {
	for _, analysis := range []bool{false, true} {
		c := testConfig(t, 40)
		c.Source = panicSource{bad: 7, analysis: analysis}
		o := mustRun(t, c)
		rep := o.Report
		if rep.Graphs+rep.Skipped != 40 {
			t.Fatalf("analysis %v: report covers %d graphs and %d skipped, want 40", analysis, rep.Graphs, rep.Skipped)
		}
		// Graph number 7 of the generator both streams share: index 7.
		if rep.Outcomes[OutError] != 1 || rep.Outcomes[OutOK] != rep.Graphs-1 {
			t.Fatalf("analysis %v: outcomes %v, want 1 error and the rest ok", analysis, rep.Outcomes)
		}
		recs, _, err := ReadRecords(c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			if r.Current.Outcome != OutError {
				continue
			}
			n++
			want := c.Settings.Seed*1_000_003 + 7
			if r.Current.Signature != SigGeneratorPanic || r.Seed != want || !strings.Contains(r.Current.Detail, fmt.Sprintf("(seed %d)", want)) {
				t.Errorf("analysis %v: record %+v: want %s with seed %d", analysis, r, SigGeneratorPanic, want)
			}
			if !strings.Contains(r.Current.Detail, " at ") {
				t.Errorf("analysis %v: detail %q does not say where", analysis, r.Current.Detail)
			}
			t.Logf("analysis %v: %s", analysis, r.Current.Detail)
		}
		if n != 1 || len(rep.HarnessErrors) != 1 {
			t.Errorf("analysis %v: %d error records, %d harness examples, want 1", analysis, n, len(rep.HarnessErrors))
		}
	}
}
