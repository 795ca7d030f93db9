// errorstop_test.go: a campaign whose first ErrorStopGraphs graphs are all
// harness errors stops early, on any number of workers, with an incomplete
// report that says why, and after UnstartedStopGraphs when their servers
// did not start; one of those graphs answering keeps it going to its
// budget; a resume judges the stop on its own graphs.
package fuzz

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// markWeight marks the graph that unstartedSide answers.
const markWeight = 777

// unstartedSide answers every graph, after 20 ms, as a structurizer that
// did not start (or, served, as one that started and cannot read the
// request: a harness error too), but for a graph whose first block weighs
// markWeight, which it answers late (after the errors of the other
// workers' graphs) through InProcess.
type unstartedSide struct {
	InProcess
	served bool
}

func (s *unstartedSide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if g.Weight(0) == markWeight {
		time.Sleep(100 * time.Millisecond)
		return s.InProcess.Structurize(g, opt, limit)
	}
	time.Sleep(20 * time.Millisecond)
	if s.served {
		return Answer{Outcome: proto.Error, Reason: proto.RequestError + "stub cannot read it"}
	}
	return Answer{Outcome: proto.Error, Reason: "start stub: no hello", NotStarted: true}
}

// unstarted is a side factory under SpecSelf's name (a resume may swap it
// for InProcessFactory) whose sides are unstartedSide.
func unstarted() SideFactory {
	return SideFactory{Describe: SpecSelf, New: func() (Side, error) { return &unstartedSide{}, nil }}
}

// unserved is unstarted whose sides started: each graph a request error.
func unserved() SideFactory {
	return SideFactory{Describe: SpecSelf, New: func() (Side, error) { return &unstartedSide{served: true}, nil }}
}

// markedSource is testSource with graph index marked's first block
// weighing markWeight.
type markedSource struct {
	testSource
	set    *Settings
	marked int
}

func (s markedSource) Item(st Stream, run uint64, j int) (Item, error) {
	it, err := s.testSource.Item(st, run, j)
	if stream, n := s.set.Place(s.marked); err == nil && st == s.set.Streams[stream] && j == n {
		it.Graph.Weights[0] = markWeight
	}
	return it, err
}

func TestErrorStopAllHarnessErrors(t *testing.T) {
	for _, workers := range []int{1, 4} {
		c := testConfig(t, 200)
		c.Workers, c.Current = workers, unserved()
		rep := mustRun(t, c).Report
		in := rep.Incomplete
		if in == nil || in.Reason != StoppedEarly || len(rep.HarnessErrors) == 0 || rep.HarnessErrors[0].Index != 0 || !strings.Contains(rep.HarnessErrors[0].Detail, "stub cannot read it") || in.Resume != "" {
			t.Fatalf("%d workers: incomplete %+v, want stopped early, graph 0 the first harness error, no resume command", workers, in)
		}
		if rep.Graphs < ErrorStopGraphs || rep.Graphs >= 60 || rep.Outcomes[OutError] != rep.Graphs || in.Done != rep.Graphs+rep.Skipped || in.Planned != 200 {
			t.Errorf("%d workers: %d graphs (%v), done %d of %d; want %d and those in flight (well under 60), all errors, of 200", workers, rep.Graphs, rep.Outcomes, in.Done, in.Planned, ErrorStopGraphs)
		}
	}
}

// TestErrorStopUnstartedServers: servers that answer nothing, not even
// the hello, stop a campaign after UnstartedStopGraphs graphs (and those
// in flight), on any number of workers; one answer among them, or a graph
// whose server started, and the count goes on to ErrorStopGraphs.
func TestErrorStopUnstartedServers(t *testing.T) {
	for _, workers := range []int{1, 4} {
		c := testConfig(t, 200)
		c.Workers, c.Current = workers, unstarted()
		rep := mustRun(t, c).Report
		in := rep.Incomplete
		if in == nil || in.Reason != StoppedUnstarted || len(rep.HarnessErrors) == 0 || !strings.Contains(rep.HarnessErrors[0].Detail, "start stub") {
			t.Fatalf("%d workers: incomplete %+v, want %q", workers, in, StoppedUnstarted)
		}
		if rep.Graphs < UnstartedStopGraphs || rep.Graphs >= ErrorStopGraphs+workers || rep.Outcomes[OutError] != rep.Graphs {
			t.Errorf("%d workers: %d graphs (%v); want %d and those in flight, all errors", workers, rep.Graphs, rep.Outcomes, UnstartedStopGraphs)
		}
		if stoppedEarlyMarkdown(rep) == "" {
			t.Errorf("%d workers: report.md gives no advice under the stop", workers)
		}
	}
	c := testConfig(t, 40)
	c.Workers, c.Current = 1, unstarted()
	c.Source = markedSource{set: &c.Settings, marked: UnstartedStopGraphs - 1}
	if rep := mustRun(t, c).Report; rep.Incomplete != nil || rep.Graphs+rep.Skipped != 40 || rep.Outcomes[OutOK] != 1 {
		t.Errorf("graph %d answered: incomplete %+v, %d graphs %v; want all 40 run", UnstartedStopGraphs-1, rep.Incomplete, rep.Graphs, rep.Outcomes)
	}
}

// TestErrorStopUnstartedAfterAServedGraph: a first graph whose server
// started but could not serve it leaves the early stop to ErrorStopGraphs,
// however many unstarted servers follow.
func TestErrorStopUnstartedAfterAServedGraph(t *testing.T) {
	e := &errorStop{mine: func(int) bool { return true }, limit: 100, pending: map[int]*Record{}}
	unstarted := SideResult{Outcome: OutError, NotStarted: true}
	served := SideResult{Outcome: OutError}
	for i := range ErrorStopGraphs {
		r := &Record{Index: i, Current: unstarted}
		if i == 0 {
			r.Current = served
		}
		if stop := e.add(r); stop != (i == ErrorStopGraphs-1) {
			t.Fatalf("graph %d: stop %v", i, stop)
		}
	}
	if e.reason != StoppedEarly {
		t.Errorf("reason %q, want %q", e.reason, StoppedEarly)
	}
}

func TestErrorStopNotWhenOneAnswers(t *testing.T) {
	for _, workers := range []int{1, 8} {
		c := testConfig(t, 40)
		c.Workers, c.Current = workers, unserved()
		c.Source = markedSource{set: &c.Settings, marked: ErrorStopGraphs - 1}
		rep := mustRun(t, c).Report
		if rep.Incomplete != nil || rep.Graphs+rep.Skipped != 40 || rep.Outcomes[OutOK] != 1 {
			t.Errorf("%d workers: incomplete %+v, %d graphs %v; want all 40 run, one ok: graph %d answered", workers, rep.Incomplete, rep.Graphs, rep.Outcomes, ErrorStopGraphs-1)
		}
	}
}

func TestErrorStopResume(t *testing.T) {
	c := testConfig(t, 60)
	c.Workers, c.Current = 1, unserved()
	first := mustRun(t, c).Report
	if first.Incomplete == nil || first.Graphs < ErrorStopGraphs || first.Graphs > ErrorStopGraphs+2 {
		t.Fatalf("incomplete %+v after %d graphs, want a stop after %d and the one in flight", first.Incomplete, first.Graphs, ErrorStopGraphs)
	}
	// Still unstarted: the resume stops after its own first graphs.
	c.Resume = true
	again := mustRun(t, c).Report
	if ran := again.Throughput.Graphs; again.Incomplete == nil || ran < ErrorStopGraphs || ran > ErrorStopGraphs+2 || again.Throughput.Resumed != first.Graphs+first.Skipped {
		t.Fatalf("resume: incomplete %+v, ran %d graphs after %d resumed; want a stop after %d of its own", again.Incomplete, again.Throughput.Graphs, again.Throughput.Resumed, ErrorStopGraphs)
	}
	// Started: the resume runs the rest, the earlier graphs' errors kept.
	c.Current = InProcessFactory()
	done := mustRun(t, c).Report
	if done.Incomplete != nil || done.Graphs+done.Skipped != 60 || done.Outcomes[OutError] != again.Graphs {
		t.Errorf("resume with a structurizer that answers: incomplete %+v, %d graphs %v; want all 60, the %d errors kept", done.Incomplete, done.Graphs, done.Outcomes, again.Graphs)
	}
}

// crashingSide crashes on every graph, as a program that exits before it
// answers, but for the marked graph, which it answers through InProcess.
type crashingSide struct{ InProcess }

func (s *crashingSide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if g.Weight(0) == markWeight {
		return s.InProcess.Structurize(g, opt, limit)
	}
	time.Sleep(5 * time.Millisecond) // a process started and gone: the stop comes before the budget is handed out
	return Answer{Outcome: OutCrash, Reason: "exit status 3: fatal: cannot load tables"}
}

// TestErrorStopAllCrashes: a structurizer that crashes on each of the
// first graphs (a broken build, a banner on stdout) stops the campaign
// early, as harness errors do, so that a night does not class that crash
// known from the second night on and pass; one answer among those graphs
// and the campaign runs to its budget.
func TestErrorStopAllCrashes(t *testing.T) {
	c := testConfig(t, 100)
	c.Current = SideFactory{Describe: "crashes", New: func() (Side, error) { return &crashingSide{}, nil }}
	rep := mustRun(t, c).Report
	if in := rep.Incomplete; in == nil || in.Reason != StoppedEarly || rep.Outcomes[OutCrash] != rep.Graphs || rep.Graphs >= 100 {
		t.Errorf("incomplete %+v, %d graphs %v: want a stop after the first %d crashes", in, rep.Graphs, rep.Outcomes, ErrorStopGraphs)
	}
	c = testConfig(t, 30)
	c.Current = SideFactory{Describe: "crashes", New: func() (Side, error) { return &crashingSide{}, nil }}
	c.Source = markedSource{set: &c.Settings, marked: ErrorStopGraphs - 1}
	if rep := mustRun(t, c).Report; rep.Incomplete != nil || rep.Graphs+rep.Skipped != 30 || rep.Outcomes[OutOK] != 1 {
		t.Errorf("one graph answered: incomplete %+v, %d graphs %v; want all 30 run", rep.Incomplete, rep.Graphs, rep.Outcomes)
	}
}

// TestStoppedEarlyReasonDocumented: REPORT.md and README.md quote the
// early stops' reasons as the report writes them, so a job that matches the
// documented text matches the report.
func TestStoppedEarlyReasonDocumented(t *testing.T) {
	for _, doc := range []string{"REPORT.md", "README.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, reason := range []string{StoppedEarly, StoppedUnstarted} {
			if !strings.Contains(text, reason) {
				t.Errorf("%s does not quote the reason %q", doc, reason)
			}
		}
	}
}

// TestBaselineHarnessErrorsShowTheBaselinesError: a comparison whose
// baseline never starts, while the current side fails graphs of its own,
// lists its harness errors with the baseline's error, the reason the
// graphs have no verdict (not the current side's finding), and report.md's
// advice under the early stop names the baseline's selftest.
func TestBaselineHarnessErrorsShowTheBaselinesError(t *testing.T) {
	c := testConfig(t, 40)
	c.Inject = []string{"swap-arms"}
	c.Baseline = SideFactory{Describe: "cmd:./never-starts", New: func() (Side, error) { return &unstartedSide{served: true}, nil }}
	rep := mustRun(t, c).Report
	if rep.Incomplete == nil || rep.Incomplete.Reason != StoppedEarly || len(rep.HarnessErrors) == 0 {
		t.Fatalf("incomplete %+v, %d harness errors; want a stop after the baseline's first %d errors", rep.Incomplete, len(rep.HarnessErrors), ErrorStopGraphs)
	}
	invalid := 0
	for _, e := range rep.HarnessErrors {
		if strings.HasPrefix(e.Current, OutInvalid) {
			invalid++
		}
		if !strings.Contains(e.Detail, "stub cannot read it") {
			t.Errorf("graph %d (current %s, baseline %s): detail %q, want the baseline's error", e.Index, e.Current, e.Baseline, e.Detail)
		}
	}
	if invalid == 0 {
		t.Fatalf("no harness error with a current side that failed: the test shows nothing")
	}
	md := stoppedEarlyMarkdown(rep)
	if !strings.Contains(md, "cfgfuzz selftest --structurizer cmd:./never-starts") || !strings.Contains(md, "baseline") {
		t.Errorf("report.md's advice %q, want the baseline's selftest", md)
	}
}

// TestNotNewAgainstABaselineWithoutVerdict: a finding not new because the
// baseline had no verdict on its graphs (a harness error there) says so,
// not that the baseline fails them.
func TestNotNewAgainstABaselineWithoutVerdict(t *testing.T) {
	rep := &Report{}
	f := &Finding{Signature: "exec:trace-mismatch", Count: 3, First: Example{Current: "invalid: exec:trace-mismatch", Baseline: OutError}}
	if why := notMinimizedWhy(rep, f); !strings.Contains(why, "no verdict") || !strings.Contains(why, "harness error") {
		t.Errorf("baseline error: %q, want the baseline's missing verdict named", why)
	}
	f.First.Baseline = "invalid: exec:trace-mismatch"
	if why := notMinimizedWhy(rep, f); why != "not new (the baseline fails its graphs too): only new findings are minimized" {
		t.Errorf("baseline failing too: %q", why)
	}
}

// TestUnstartedStopRule: the rule check and regress share with a
// campaign stops on the UnstartedStopGraphs-th graph in a row from the
// first whose server did not start, once, and never after another graph
// came first.
func TestUnstartedStopRule(t *testing.T) {
	for _, c := range []struct {
		graphs []bool // notStarted of each graph in order
		stopAt int    // the graph Add stops on; -1 none
	}{
		{[]bool{true, true, true, true}, UnstartedStopGraphs - 1},
		{[]bool{false, true, true, true}, -1},
		{[]bool{true, false, true, true, true}, -1},
	} {
		var u UnstartedStop
		stopAt := -1
		for i, ns := range c.graphs {
			if u.Add(ns) {
				if stopAt >= 0 {
					t.Errorf("%v: stopped twice, at %d and %d", c.graphs, stopAt, i)
				}
				stopAt = i
			}
		}
		if stopAt != c.stopAt {
			t.Errorf("%v: stopped at %d, want %d", c.graphs, stopAt, c.stopAt)
		}
	}
}

// TestSideStructurizerNotStarted: the harness error of a graph whose
// server did not start is a NotStartedError, which check and regress
// count; another harness error is not.
func TestSideStructurizerNotStarted(t *testing.T) {
	g, err := cfg.ParseCompact("{{}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		side Side
		want bool
	}{{&unstartedSide{}, true}, {&unstartedSide{served: true}, false}} {
		s := SideStructurizer(c.side, proto.Options{}, time.Second)(g)
		if s.Err == nil || NotStarted(s.Err) != c.want {
			t.Errorf("served %v: err %v, NotStarted %v, want %v", c.side.(*unstartedSide).served, s.Err, NotStarted(s.Err), c.want)
		}
	}
}
