package fuzz

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
		if got := mergedReportJSON(t, dirs); got != want {
			t.Errorf("%d shards merged differ from the whole run:\n%s\n---\n%s", shards, want, got)
		}
	}
}

// stripSizes rewrites dir's results log as a cfgfuzz that did not
// measure modules wrote it: no record has module_blocks or module_words.
func stripSizes(t *testing.T, dir string) {
	t.Helper()
	s, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := EachRecord(dir, func(r Record) {
		r.Current.ModuleBlocks, r.Current.ModuleWords = 0, 0
		if r.Baseline != nil {
			r.Baseline.ModuleBlocks, r.Baseline.ModuleWords = 0, 0
		}
		r.Schema = RecordSchema
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(sealRecord(b, SettingsSum(s)))
		out.WriteByte('\n')
	}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMergeAcrossVersionsSaysUnmeasured: shards merged (Mixed) where one
// was written by a cfgfuzz that did not measure modules count that shard's
// graphs as unmeasured, so the sizes say how many graphs they leave out;
// the measured and unmeasured graphs add up to the whole run's.
func TestMergeAcrossVersionsSaysUnmeasured(t *testing.T) {
	const n = 60
	whole := sizeConfig(t, n)
	mustRun(t, whole)
	var dirs []string
	for i := range 2 {
		c := sizeConfig(t, n)
		c.Shard = Shard{I: i, N: 2}
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	stripSizes(t, dirs[1])
	dropWriter(t, dirs[1]) // as a cfgfuzz that recorded no version wrote it
	if _, err := Merge(dirs); err == nil {
		t.Fatal("shards of two cfgfuzz builds merged without Mixed")
	}
	rep, err := MergeWith(dirs, MergeOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	w, m := readReport(t, whole.Dir).Divergences.Size, rep.Divergences.Size
	if w.Unmeasured != 0 || m.Unmeasured == 0 || m.Graphs == 0 || m.Graphs+m.Unmeasured != w.Graphs {
		t.Fatalf("whole run %d graphs (%d unmeasured), merged %d graphs and %d unmeasured: want the merged to add up to the whole, some unmeasured", w.Graphs, w.Unmeasured, m.Graphs, m.Unmeasured)
	}
	out := t.TempDir()
	if err := WriteReports(out, rep, testSource{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("no measured size")) {
			t.Errorf("%s does not say graphs had no measured size", name)
		}
	}
}
