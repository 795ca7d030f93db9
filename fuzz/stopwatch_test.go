// stopwatch_test.go: a campaign's stop ends a structurizer process that
// has not spoken yet at once, and its graph is left unjudged for
// --resume; a server that has spoken is not cut by it.
package fuzz

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// TestProcessStopWhileStarting: a server silent on its hello (a graph
// limit of 10 s and a start-up allowance of 30 s) is ended within a
// second of the stop, and the answer is a stopped one, neither a timeout
// nor a harness error; nothing of the server is left.
func TestProcessStopWhileStarting(t *testing.T) {
	mark := markProcesses(t)
	stop := make(chan struct{})
	p := &Process{Argv: []string{"sleep", "60"}, Options: ProcessOptions{StartTimeout: 30 * time.Second}}
	defer p.Close()
	hearStop(p, stopEar{stop: stop})
	time.AfterFunc(300*time.Millisecond, func() { close(stop) })
	a, took := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second)
	if !a.Stopped || a.NotStarted || a.Outcome != proto.Error || took > 3*time.Second {
		t.Errorf("answer %+v after %v, want a stopped one within a few seconds", a, took)
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("the server's processes left: %v", left)
	}
}

// TestProcessStopSpares: a server that has spoken answers its graph
// whatever the stop.
func TestProcessStopSpares(t *testing.T) {
	bin := redteamServer(t)
	stop := make(chan struct{})
	p := &Process{Argv: []string{bin, "good"}}
	defer p.Close()
	hearStop(p, stopEar{stop: stop})
	if a, _ := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second); a.Outcome != proto.OK {
		t.Fatalf("first answer %s %q", a.Outcome, a.Reason)
	}
	close(stop)
	if a, _ := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second); a.Outcome != proto.OK || a.Stopped || p.Starts != 1 {
		t.Errorf("after the stop: answer %s %q (stopped %v), %d starts", a.Outcome, a.Reason, a.Stopped, p.Starts)
	}
}

// TestStopWhileServerStarts: a campaign stopped while its servers are
// silent on their hellos ends within seconds, logs no graph (none has a
// verdict, none is a harness error) and is incomplete; its resume, the
// servers answering, gives the uninterrupted campaign's report. A guided
// campaign's batch handed out whole is left unmerged by the stop.
func TestStopWhileServerStarts(t *testing.T) {
	for _, guided := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "guided"}[guided], func(t *testing.T) {
			stopWhileServerStarts(t, guided)
		})
	}
}

func stopWhileServerStarts(t *testing.T, guided bool) {
	bin := redteamServer(t)
	mute := filepath.Join(t.TempDir(), "mute")
	if err := os.WriteFile(mute, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The file is named in the environment, not the command, whose named
	// files a resume finds unchanged.
	t.Setenv("CFGFUZZ_TEST_MUTE", mute)
	config := func(dir string) Config {
		c := testConfigIn(dir, 20)
		script := `if [ -e "$CFGFUZZ_TEST_MUTE" ]; then exec sleep 60; fi; exec ` + bin + " good"
		c.Current = ProcessFactoryWith("cmd:"+script, []string{"sh", "-c", script}, "", ProcessOptions{StartTimeout: 30 * time.Second})
		c.Timeout = Duration(10 * time.Second)
		if guided {
			c.Strategy = ""
			c.Guided, c.Mutate, c.CorpusBatch = true, 0.5, 2 // the first batch is handed out whole before the stop
		}
		return c
	}
	dir := t.TempDir()
	c := config(dir)
	ctx, cancel := context.WithCancel(context.Background())
	c.Context = ctx
	time.AfterFunc(time.Second, cancel)
	start := time.Now()
	o, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("the stopped campaign took %v", took)
	}
	recs, _, err := ReadRecords(dir)
	if rep := o.Report; err != nil || len(recs) != 0 || rep.Incomplete == nil || rep.Graphs != 0 || len(o.Harness) > 0 {
		t.Fatalf("stopped: %d records (%v), %d graphs, incomplete %+v, harness %v", len(recs), err, rep.Graphs, rep.Incomplete, o.Harness)
	}
	os.Remove(mute)
	saved, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := config(dir)
	r.Settings, r.Resume = saved, true
	if o := mustRun(t, r); o.Report.Incomplete != nil || o.Report.Graphs != 20 {
		t.Fatalf("resumed: %d graphs, incomplete %+v", o.Report.Graphs, o.Report.Incomplete)
	}
	whole := config(t.TempDir())
	mustRun(t, whole)
	if jr, jw := reportJSON(t, dir), reportJSON(t, whole.Dir); jr != jw {
		t.Errorf("resumed report differs from the uninterrupted one:\n%s\n---\n%s", jr, jw)
	}
}
