// engine_test.go checks the campaign's promises on small counts: the same
// seed gives the same report whatever the workers, shards merged equal the
// whole run, a fault planted on the current side shows up as newly invalid
// against a clean baseline, and a hanging or panicking side becomes a
// finding while the campaign completes.
package fuzz

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// readReport reads dir/report.json.
func readReport(t *testing.T, dir string) *Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

// reportJSON is report.json of dir without its timing fields (and the
// shard, which a merged report drops).
func reportJSON(t *testing.T, dir string) string {
	t.Helper()
	rep := *readReport(t, dir)
	rep.Throughput, rep.Provenance = Throughput{}, nil
	rep.Settings.Shard = Shard{}
	out, _ := json.MarshalIndent(rep, "", " ")
	return string(out)
}

func mustRun(t *testing.T, c Config) *Outcome {
	t.Helper()
	o, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Harness) > 0 {
		t.Fatalf("harness errors: %v", o.Harness)
	}
	return o
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	a, b := testConfig(t, 200), testConfig(t, 200)
	a.Workers, b.Workers = 1, 2
	oa := mustRun(t, a)
	mustRun(t, b)
	if oa.Report.Graphs+oa.Report.Skipped != 200 {
		t.Fatalf("report covers %d graphs and %d skipped, want 200", oa.Report.Graphs, oa.Report.Skipped)
	}
	if ja, jb := reportJSON(t, a.Dir), reportJSON(t, b.Dir); ja != jb {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", ja, jb)
	}
}

func TestShardsMergeToWholeRun(t *testing.T) {
	whole := testConfig(t, 150)
	mustRun(t, whole)
	var dirs []string
	for i := range 2 {
		c := testConfig(t, 150)
		c.Shard = Shard{I: i, N: 2}
		o := mustRun(t, c)
		if o.Report.Graphs+o.Report.Skipped != 75 {
			t.Fatalf("shard %d: %d graphs and %d skipped, want 75", i, o.Report.Graphs, o.Report.Skipped)
		}
		dirs = append(dirs, c.Dir)
	}
	if jw, jm := reportJSON(t, whole.Dir), mergedReportJSON(t, dirs); jw != jm {
		t.Errorf("merged shards differ from the whole run:\n%s\n---\n%s", jw, jm)
	}
}

func TestPlantedFaultIsNewlyInvalid(t *testing.T) {
	c := testConfig(t, 100)
	c.Inject = []string{"swap-arms"}
	c.Baseline = SideFactory{Describe: "in-process (clean)", New: InProcessFactory().New}
	o := mustRun(t, c)
	d := o.Report.Divergences
	if d == nil || d.Classes[ClassNewlyInvalid] == 0 {
		t.Fatalf("no newly invalid graphs: %+v", d)
	}
	if d.BaselineFindings != 0 || o.Report.BaselineOutcomes[OutInvalid] != 0 {
		t.Errorf("baseline not clean: %v", o.Report.BaselineOutcomes)
	}
	for _, f := range o.Report.Findings {
		if !strings.HasPrefix(f.Signature, "exec:") || f.New != f.Count {
			t.Errorf("finding %s: %d graphs, %d new", f.Signature, f.Count, f.New)
		}
	}
	if o.Report.NewFindings != d.Classes[ClassNewlyInvalid] {
		t.Errorf("%d new findings, %d newly invalid", o.Report.NewFindings, d.Classes[ClassNewlyInvalid])
	}
}

func TestSameTreeHasNoDivergence(t *testing.T) {
	c := testConfig(t, 60)
	c.Baseline = SideFactory{Describe: "in-process", New: InProcessFactory().New}
	o := mustRun(t, c)
	if d := o.Report.Divergences; d.Classes[ClassSame] != 60 {
		t.Errorf("classes %v, want 60 same", d.Classes)
	}
}

// TestInProcessWatchdog: a panic and a hang in-process become findings.
func TestInProcessWatchdog(t *testing.T) {
	c := testConfig(t, 30)
	c.Timeout = Duration(200 * time.Millisecond)
	c.Current = SideFactory{Describe: "misbehaving", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			switch g.Len() {
			case 4:
				panic("four blocks")
			case 5:
				select {}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	o := mustRun(t, c)
	checkMisbehaviour(t, o.Report, 30)
}

// TestInProcessServesOnAfterMisbehaviour: one InProcess side answers
// normally after a panic (on the same serving goroutine), after a timeout
// (on a fresh one) and after Close.
func TestInProcessServesOnAfterMisbehaviour(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	p := &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
		switch g.Len() {
		case 2:
			panic("two blocks")
		case 3:
			<-release
		}
		return Answer{Outcome: proto.OK, Reason: fmt.Sprint(g.Len())}
	}}
	ask := func(succs [][]int, want string) {
		t.Helper()
		a := p.Structurize(cfg.FromSuccs(succs), proto.Options{}, 100*time.Millisecond)
		if a.Outcome != want {
			t.Fatalf("%v: answer %+v, want %s", succs, a, want)
		}
	}
	ask([][]int{{}}, proto.OK)
	ask([][]int{{1}, {}}, OutPanic)
	ask([][]int{{}}, proto.OK)
	ask([][]int{{1}, {2}, {}}, OutTimeout)
	ask([][]int{{}}, proto.OK)
	p.Close()
	ask([][]int{{}}, proto.OK)
	if p.Leaked != 1 {
		t.Errorf("Leaked %d, want 1", p.Leaked)
	}
	p.Close()
}

// TestOneBlockAskedOncePerSide: the meta check's one-block graph reaches
// the structurizer once per side, not once per graph, and the campaign
// still passes every graph.
func TestOneBlockAskedOncePerSide(t *testing.T) {
	c := testConfig(t, 40)
	c.Workers, c.Strategy = 1, ""
	var oneBlock, all atomic.Int32
	c.Current = SideFactory{Describe: "counted", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			all.Add(1)
			if isOneBlock(g) {
				oneBlock.Add(1)
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	o := mustRun(t, c)
	if o.Report.Outcomes[OutOK] != 40 {
		t.Fatalf("outcomes %v, want 40 ok", o.Report.Outcomes)
	}
	if oneBlock.Load() != 1 || all.Load() < 40*4 {
		t.Fatalf("%d calls on the one-block graph (want 1) of %d calls (want at least 4 a graph: judge, determinism, renumbering, idempotence)", oneBlock.Load(), all.Load())
	}
}

// TestOneBlockFailureAskedAgain: a side that fails the one-block graph once
// costs one graph a meta finding; the failure is not kept, so the next
// graph asks again and passes.
func TestOneBlockFailureAskedAgain(t *testing.T) {
	c := testConfig(t, 20)
	c.Workers, c.Strategy = 1, ""
	var oneBlock atomic.Int32
	c.Current = SideFactory{Describe: "fails once", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if isOneBlock(g) && oneBlock.Add(1) == 1 {
				return Answer{Outcome: proto.Error, Reason: "transient"}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	o := mustRun(t, c)
	if oneBlock.Load() != 2 {
		t.Errorf("%d calls on the one-block graph, want 2", oneBlock.Load())
	}
	if o.Report.Outcomes[OutOK] != 19 || o.Report.Outcomes[OutInvalid] != 1 {
		t.Errorf("outcomes %v, want 19 ok and 1 invalid", o.Report.Outcomes)
	}
}

func checkMisbehaviour(t *testing.T, rep *Report, n int) {
	t.Helper()
	if rep.Graphs != n {
		t.Fatalf("campaign did %d of %d graphs", rep.Graphs, n)
	}
	if rep.Outcomes[OutPanic] == 0 || rep.Outcomes[OutTimeout] == 0 {
		t.Fatalf("outcomes %v: want panics and timeouts", rep.Outcomes)
	}
	sigs := map[string]bool{}
	for _, f := range rep.Findings {
		sigs[f.Signature] = true
	}
	if !sigs["structurize:timeout"] {
		t.Errorf("no timeout finding: %v", sigs)
	}
	found := false
	for s := range sigs {
		found = found || strings.HasPrefix(s, "structurize:panic:") && strings.Contains(s, "four blocks")
	}
	if !found {
		t.Errorf("no panic finding: %v", sigs)
	}
}

// TestEscalateAfterHang: after an in-process hang the worker moves to the
// escalation side, and no second goroutine leaks.
func TestEscalateAfterHang(t *testing.T) {
	c := testConfig(t, 30)
	c.Workers = 1
	c.Timeout = Duration(200 * time.Millisecond)
	var hangs atomic.Int32
	c.Current = SideFactory{Describe: "hangs", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len() == 5 {
				hangs.Add(1)
				select {}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	escalated := 0
	c.Escalate = SideFactory{Describe: "escalated", New: func() (Side, error) {
		escalated++
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len() == 5 {
				return Answer{Outcome: OutTimeout, Reason: "stand-in"}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	o := mustRun(t, c)
	if hangs.Load() != 1 || escalated != 1 {
		t.Errorf("%d hangs in-process, %d escalations; want 1 and 1", hangs.Load(), escalated)
	}
	if o.Report.Outcomes[OutTimeout] < 2 {
		t.Errorf("outcomes %v: want several timeouts", o.Report.Outcomes)
	}
}

// TestShardsMergeMinimized: the shards defer minimization to the merge,
// which minimizes each new signature once, as the whole run does.
func TestShardsMergeMinimized(t *testing.T) {
	var calls atomic.Int32
	minimize := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls.Add(1)
		return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
	}
	whole := testConfig(t, 60)
	whole.Inject, whole.Minimize = []string{"swap-arms"}, minimize
	o := mustRun(t, whole)
	wholeCalls := calls.Swap(0)
	var dirs []string
	for i := range 2 {
		c := testConfig(t, 60)
		c.Inject, c.Minimize, c.Shard = []string{"swap-arms"}, minimize, Shard{I: i, N: 2}
		if rep := mustRun(t, c).Report; rep.Minimization != MinimizationDeferred {
			t.Errorf("shard %d: minimization %q, want deferred", i, rep.Minimization)
		}
		dirs = append(dirs, c.Dir)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the shards minimized %d times, want 0 (deferred to the merge)", n)
	}
	rep, _, _, err := MergeNight(dirs, MergeOptions{Minimize: minimize})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	WriteReports(out, rep, testSource{})
	jw, jm := reportJSON(t, whole.Dir), reportJSON(t, out)
	if jw != jm || !strings.Contains(jw, `"minimized"`) {
		t.Errorf("merged report differs from the whole run's (or nothing minimized)")
	}
	if n := calls.Load(); n != wholeCalls || int(n) != len(o.Report.Findings) {
		t.Errorf("the merge minimized %d times, the whole run %d, for %d signatures", n, wholeCalls, len(o.Report.Findings))
	}
}

// oneBlockSource gives the one-block graph at every index.
type oneBlockSource struct{}

func (oneBlockSource) Item(Stream, uint64, int) (Item, error) {
	return Item{Graph: cfg.FromSuccs([][]int{{}})}, nil
}
func (oneBlockSource) Replay(Stream, uint64) string { return "echo '{{}}'" }

// TestOneBlockKeptPerStrategy: the one-block graph on the dispatch share
// is re-run by the determinism check on its own strategy, not answered
// with the default strategy's kept module (which would make it
// meta:nondeterministic). The distinct work runs the graph once per
// strategy (the other indices repeat it), both on the one worker.
func TestOneBlockKeptPerStrategy(t *testing.T) {
	c := testConfig(t, 24)
	c.Source, c.Workers, c.Strategy, c.DispatchEvery = oneBlockSource{}, 1, "", 2
	o := mustRun(t, c)
	if o.Report.Strategies[DispatchStrategy] != 1 || o.Report.Outcomes[OutOK] != 2 || o.Report.Throughput.Skipped != 22 {
		t.Fatalf("outcomes %v (dispatch share %d, %d skipped), want 2 ok, one on dispatch, 22 skipped; findings %+v", o.Report.Outcomes, o.Report.Strategies[DispatchStrategy], o.Report.Throughput.Skipped, o.Report.Findings)
	}
}

// mergedReportJSON merges the shard directories and returns the merged
// report.json as reportJSON reads it.
func mergedReportJSON(t *testing.T, dirs []string) string {
	t.Helper()
	rep, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := WriteReports(out, rep, testSource{}); err != nil {
		t.Fatal(err)
	}
	return reportJSON(t, out)
}
