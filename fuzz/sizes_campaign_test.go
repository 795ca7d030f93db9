package fuzz

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// sizeConfig is testConfig comparing the dispatch strategy (the current
// side) with this tree's default strategy (the baseline), whose modules
// differ in size on most graphs.
func sizeConfig(t *testing.T, n int) Config {
	c := testConfig(t, n)
	c.Baseline = SideFactory{Describe: "in-process (default strategy)", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			opt.Strategy = ""
			return structureLocal(g, opt)
		}}, nil
	}}
	return c
}

// TestSizesDeterministicAcrossWorkersAndShards: a comparison's size
// section (totals, counts, the examples of both directions) is the same
// with one worker and two, and as two or three shards merged.
func TestSizesDeterministicAcrossWorkersAndShards(t *testing.T) {
	const n = 120
	one, two := sizeConfig(t, n), sizeConfig(t, n)
	one.Workers, two.Workers = 1, 2
	o := mustRun(t, one)
	mustRun(t, two)
	z := o.Report.Divergences.Size
	if z.Graphs < n/2 || z.Larger == 0 || z.Smaller == 0 || len(z.Grew) != sizeExamples || len(z.Shrank) != sizeExamples {
		t.Fatalf("the sides' sizes do not differ both ways on enough graphs: %+v", z)
	}
	want := reportJSON(t, one.Dir)
	if got := reportJSON(t, two.Dir); got != want {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", want, got)
	}
	for _, shards := range []int{2, 3} {
		var dirs []string
		for i := range shards {
			c := sizeConfig(t, n)
			c.Shard = Shard{I: i, N: shards}
			mustRun(t, c)
			dirs = append(dirs, c.Dir)
		}
		rep, err := Merge(dirs)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if err := WriteReports(out, rep, testSource{}); err != nil {
			t.Fatal(err)
		}
		if got := reportJSON(t, out); got != want {
			t.Errorf("%d shards merged differ from the whole run:\n%s\n---\n%s", shards, want, got)
		}
	}
}
