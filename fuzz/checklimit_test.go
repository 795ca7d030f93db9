// checklimit_test.go: a side's checks past the campaign's check limit give
// the graph the outcome error, without a verdict, and the campaign goes on
// with a new oracle and side; within the limit nothing changes.
package fuzz

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle/oracletest"
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

// TestCheckLimitNamesTheCheckStillRunning: the detail of a graph whose
// checks ran past the limit names the check it left running, exec of the
// worker's oracle or the gpu check of the sampled graphs' own; graphs
// left in one check have one signature (the detail normalized), and
// graphs left in another check another.
func TestCheckLimitNamesTheCheckStillRunning(t *testing.T) {
	sigs := map[string]string{}
	for _, check := range []string{"exec", "gpu"} {
		release := make(chan struct{})
		c := testConfig(t, 4)
		c.CheckTimeout = Duration(200 * time.Millisecond)
		c.Checks = []string{"pdom", "exec"}
		if check == "exec" {
			c.Oracle.Executor = oracletest.Held{Release: release}
		} else {
			c.GPUEvery = 1
			gpuStandInHold.Store(&release)
		}
		o, err := Run(c)
		gpuStandInHold.Store(nil)
		close(release)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := ReadRecords(c.Dir)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%s 200ms (--check-timeout): %s still running", CheckLimitDetail, check)
		var sig string
		judged := 0
		for _, r := range recs {
			if r.Skipped {
				continue
			}
			judged++
			if r.Current.Outcome != OutError || r.Current.Detail != want {
				t.Errorf("%s held, graph %d: %s %q, want error %q", check, r.Index, r.Current.Outcome, r.Current.Detail, want)
				continue
			}
			s := harnessSignature(OutError, r.Current.Detail)
			if sig != "" && s != sig {
				t.Errorf("%s held: graph %d has signature %q, an earlier graph %q", check, r.Index, s, sig)
			}
			sig = s
		}
		if judged < 2 || o.Report.Outcomes[OutError] != judged {
			t.Errorf("%s held: %d graphs judged, outcomes %v; want 2 or more, every one an error", check, judged, o.Report.Outcomes)
		}
		if !strings.Contains(sig, check+" still running") {
			t.Errorf("%s held: signature %q does not name the check", check, sig)
		}
		sigs[check] = sig
	}
	if sigs["exec"] == sigs["gpu"] {
		t.Errorf("graphs left in exec and in gpu share the signature %q", sigs["exec"])
	}
}

// TestCheckLimitNamesTheCheckRunningAtTheLimit: the detail names the
// check running when the limit passed, though the abandoned checks move
// on to another while the worker abandons them. Exec is held past the
// limit; the side factory, called as the worker replaces the abandoned
// side, releases exec and returns once the gpu check after it has
// started, so a detail read after the abandoning would name gpu.
func TestCheckLimitNamesTheCheckRunningAtTheLimit(t *testing.T) {
	execRelease, gpuRelease := make(chan struct{}), make(chan struct{})
	started := make(chan struct{}, 1)
	gpuStandInHold.Store(&gpuRelease)
	gpuStandInStarted.Store(&started)
	defer func() {
		close(gpuRelease)
		gpuStandInHold.Store(nil)
		gpuStandInStarted.Store(nil)
	}()
	c := testConfig(t, 1)
	c.Workers = 1
	c.CheckTimeout = Duration(200 * time.Millisecond)
	c.Checks = []string{"pdom", "exec"}
	c.Oracle.Executor = oracletest.Held{Release: execRelease}
	c.GPUEvery = 1
	cur := InProcessFactory()
	var opened atomic.Int64
	var movedOn atomic.Bool
	c.Current = SideFactory{Describe: cur.Describe, New: func() (Side, error) {
		if opened.Add(1) == 2 { // the abandoned side's replacement
			close(execRelease)
			select {
			case <-started:
				movedOn.Store(true)
			case <-time.After(10 * time.Second):
			}
		}
		return cur.New()
	}}
	if _, err := Run(c); err != nil {
		t.Fatal(err)
	}
	if !movedOn.Load() {
		t.Fatal("the abandoned checks did not move on to the gpu check: the test proves nothing")
	}
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s 200ms (--check-timeout): exec still running", CheckLimitDetail)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	if got := recs[0].Current.Detail; got != want {
		t.Errorf("detail %q, want %q", got, want)
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
