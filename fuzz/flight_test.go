// flight_test.go: a campaign stopped (its context cancelled, as the first
// stop signal does) while a graph's checks run says which graph and which
// check it waits for, and that a second signal ends at once; the graph
// still gets its verdict. The progress line names the graphs in flight
// once none has finished for stallAfter, and from the stop on.
package fuzz

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle/oracletest"
)

func TestStopNamesTheGraphsInFlight(t *testing.T) {
	release := make(chan struct{})
	c := testConfig(t, 4)
	c.Workers = 1
	c.CheckTimeout = Duration(time.Minute)
	c.Checks = []string{"pdom", "exec"}
	c.Oracle.Executor = oracletest.Held{Release: release}
	ctx, cancel := context.WithCancel(context.Background())
	c.Context = ctx
	var out lockedBuffer
	c.Progress, c.ProgressEvery = &out, time.Hour
	type result struct {
		o   *Outcome
		err error
	}
	done := make(chan result, 1)
	go func() { o, err := Run(c); done <- result{o, err} }()
	time.Sleep(300 * time.Millisecond) // graph 0's exec is held
	cancel()
	want := regexp.MustCompile(`cfgfuzz: stopping: waiting for 1 graph in flight, .*: graph 0 \([a-z]+/[a-z0-9+]+, \d+ blocks?\): the exec check, \d+s of --check-timeout 1m0s; a second stop signal ends at once \(without the report; --resume continues the campaign\)\n`)
	deadline := time.Now().Add(5 * time.Second)
	for !want.MatchString(out.String()) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	close(release)
	r := <-done
	if !want.MatchString(out.String()) {
		t.Errorf("the stop's lines do not name graph 0's exec check:\n%s", out.String())
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if rep := r.o.Report; rep.Graphs < 1 || rep.Outcomes[OutOK] < 1 {
		t.Errorf("graph 0, released after the stop, has no verdict: %d graphs, outcomes %v", rep.Graphs, rep.Outcomes)
	}
	if last := strings.TrimSpace(out.String()[strings.LastIndex(strings.TrimSpace(out.String()), "\n")+1:]); strings.Contains(last, "ETA") || !strings.HasSuffix(last, ", stopped") {
		t.Errorf("the last line after the stop: %q, want no ETA and \", stopped\"", last)
	}
}

func TestProgressLineNamesTheGraphsInFlightWhenStalled(t *testing.T) {
	p := newProgress(nil, false, time.Second, 100)
	p.inFlight = func() string {
		return "graph 32 (reducible/w16, 398 blocks): the gpu check, 1m40s of --check-timeout 2m0s"
	}
	p.start = time.Now().Add(-time.Minute)
	p.done, p.fresh, p.indices = 37, 37, 37
	p.moved = time.Now().Add(-2 * time.Second)
	if l := p.line(); strings.Contains(l, "in flight") {
		t.Errorf("a graph finished 2s ago: %s", l)
	}
	p.moved = time.Now().Add(-stallAfter - time.Second)
	if l := p.line(); !strings.HasSuffix(l, "; in flight: graph 32 (reducible/w16, 398 blocks): the gpu check, 1m40s of --check-timeout 2m0s") || !strings.Contains(l, "ETA") {
		t.Errorf("no graph finished for %v: %s", stallAfter+time.Second, l)
	}
	p.moved, p.halting = time.Now(), true
	if l := p.line(); strings.Contains(l, "ETA") || !strings.HasSuffix(l, ", stopping: the graphs in flight finish; in flight: graph 32 (reducible/w16, 398 blocks): the gpu check, 1m40s of --check-timeout 2m0s") {
		t.Errorf("stopping: %s", l)
	}
}

// TestProgressBarNamesTheGraphsInFlightWhenStalled: under the terminal's
// bar, the heartbeat prints nothing while graphs finish, and a line naming
// the graphs in flight once none has finished for stallAfter.
func TestProgressBarNamesTheGraphsInFlightWhenStalled(t *testing.T) {
	var out strings.Builder
	p := newProgress(&out, true, time.Millisecond, 100)
	p.inFlight = func() string {
		return "graph 32 (reducible/w16, 398 blocks): the gpu check, 1m40s of --check-timeout 2m0s"
	}
	p.last = time.Now().Add(-time.Second)
	p.heartbeat()
	if strings.Contains(out.String(), "in flight") {
		t.Errorf("graphs finishing: the bar's heartbeat printed %q", out.String())
	}
	p.moved = time.Now().Add(-stallAfter - time.Second)
	p.last = time.Now().Add(-time.Second)
	p.heartbeat()
	if !strings.Contains(out.String(), "cfgfuzz: no graph finished for 11s; in flight: graph 32 (reducible/w16, 398 blocks): the gpu check") {
		t.Errorf("stalled: the bar's heartbeat printed %q", out.String())
	}
}

// TestInFlightNamesTheStructurizersLimits: a graph waiting for an answer,
// or in the meta check (the structurizer's re-runs), is described with the
// limits that end that wait, --timeout and a new process's
// --start-timeout, not the check limit alone, which is minutes away.
func TestInFlightNamesTheStructurizersLimits(t *testing.T) {
	f := newFlights(2*time.Minute, true, 10*time.Second, 30*time.Second)
	answer := f.waitsFor(&flight{side: "baseline", since: time.Now()})
	if want := "the structurizer's answer on the baseline side, 0s (--timeout 10s, and --start-timeout 30s more while its process has not answered its first request)"; answer != want {
		t.Errorf("waiting for an answer: %q, want %q", answer, want)
	}
	meta := checksWait([]string{"meta"}, " on the baseline side", 8*time.Second, 2*time.Minute, 10*time.Second)
	if want := "the meta check on the baseline side (the structurizer's re-runs, each within --timeout 10s), 8s of --check-timeout 2m0s"; meta != want {
		t.Errorf("in the meta check: %q, want %q", meta, want)
	}
	if gpu := checksWait([]string{"gpu"}, "", 100*time.Second, 2*time.Minute, 10*time.Second); gpu != "the gpu check, 1m40s of --check-timeout 2m0s" {
		t.Errorf("in the gpu check: %q", gpu)
	}
}
