// checklimit_test.go: a side's checks past the campaign's check limit give
// the graph the outcome error, without a verdict, and the campaign goes on
// with a new oracle and side; within the limit nothing changes.
package fuzz

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckLimit(t *testing.T) {
	c := testConfig(t, 12)
	c.CheckTimeout = Duration(time.Nanosecond)
	var opened atomic.Int64
	cur := InProcessFactory()
	c.Current = SideFactory{Describe: cur.Describe, New: func() (Side, error) { opened.Add(1); return cur.New() }}
	o, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	rep := o.Report
	if rep.Outcomes[OutError] != rep.Graphs || rep.Graphs == 0 || len(rep.Findings) != 0 {
		t.Fatalf("past the limit: outcomes %v over %d graphs, %d findings; want every graph an error, no finding", rep.Outcomes, rep.Graphs, len(rep.Findings))
	}
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if !r.Skipped && !strings.Contains(r.Current.Detail, "no verdict within 1ns") {
			t.Errorf("graph %d: detail %q, want the check limit named", r.Index, r.Current.Detail)
		}
	}
	if n := opened.Load(); n <= int64(c.Workers) {
		t.Errorf("%d sides opened for %d workers: the abandoned ones were not replaced", n, c.Workers)
	}

	c = testConfig(t, 12)
	c.CheckTimeout = Duration(time.Minute)
	if rep := mustRun(t, c).Report; rep.Outcomes[OutError] != 0 || rep.Outcomes[OutOK] != rep.Graphs {
		t.Errorf("within the limit: outcomes %v", rep.Outcomes)
	}
}

// TestAbandonedChecksBounded: a third abandoned check waits for a token,
// and gives up after its wait rather than stop the campaign.
func TestAbandonedChecksBounded(t *testing.T) {
	for len(abandonedChecks) < cap(abandonedChecks) {
		abandonedChecks <- struct{}{}
	}
	if takeToken(20 * time.Millisecond) {
		t.Fatal("took a token while every one is held")
	}
	go func() { time.Sleep(10 * time.Millisecond); <-abandonedChecks }()
	if !takeToken(time.Second) {
		t.Error("no token after one was given back")
	}
	for len(abandonedChecks) > 0 {
		<-abandonedChecks
	}
}
