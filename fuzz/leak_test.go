package fuzz

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// TestProcessLeakIsAFinding: a server that answers correctly but leaves a
// process running (a child, the orphan of a child that exited, a
// detached child, a detached orphan) has its answer judged a crash of the
// leak signature, and is ended with what it started, so nothing piles up
// from one graph to the next; a graph it does not leak on (leak and
// leak-orphan leak on 3 blocks or more) is answered as usual.
func TestProcessLeakIsAFinding(t *testing.T) {
	bin := redteamServer(t)
	for _, mode := range []string{"leak", "leak-orphan", "detach", "detach-deep"} {
		t.Run(mode, func(t *testing.T) {
			mark := markProcesses(t)
			p := &Process{Argv: []string{bin, mode}}
			defer p.Close()
			for range 3 {
				a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
				out, sig, detail := classifyAnswer(a)
				if out != OutCrash || sig != LeakSignature || !strings.Contains(detail, "1 process: "+bin+" linger") {
					t.Fatalf("answer %s %q (signature %q), want a crash %q naming the process", a.Outcome, clip(a.Reason), sig, LeakSignature)
				}
				if left := leftAlive(t, mark); len(left) > 0 {
					t.Fatalf("%d processes left after the leak: %v", len(left), left)
				}
			}
			if mode == "leak" || mode == "leak-orphan" {
				for range 2 {
					if a, _ := structurizeWithin(t, p, chainGraph(t, 2), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
						t.Fatalf("2 blocks: answer %s %q, want ok", a.Outcome, clip(a.Reason))
					}
				}
			}
			p.Close()
			if left := leftAlive(t, mark); len(left) > 0 {
				t.Errorf("%d processes left: %v", len(left), left)
			}
		})
	}
}

// TestProcessChildEndingLateIsNoLeak: a server whose child for a request
// outlives the answer by 200 ms (on a loaded machine, a child that wrote
// the answer and waits its turn to exit) left nothing running: every
// answer is ok, and one server serves them all.
func TestProcessChildEndingLateIsNoLeak(t *testing.T) {
	mark := markProcesses(t)
	p := &Process{Argv: []string{redteamServer(t), "exiting"}}
	defer p.Close()
	for i := range 3 {
		a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
		if a.Outcome != proto.OK {
			t.Fatalf("graph %d: answer %s %q, want ok", i, a.Outcome, clip(a.Reason))
		}
	}
	if p.Starts != 1 {
		t.Errorf("%d servers started, want 1", p.Starts)
	}
	p.Close()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestProcessKeepsStartupHelpers: the processes a server has once it has
// answered the hello (a child and a detached child it started before
// reading its input) are its own, not a leak: every graph is answered,
// and the helpers run on until the server is closed.
func TestProcessKeepsStartupHelpers(t *testing.T) {
	mark := markProcesses(t)
	p := &Process{Argv: []string{redteamServer(t), "helper"}}
	defer p.Close()
	var first []int
	for i := range 5 {
		a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
		if a.Outcome != proto.OK {
			t.Fatalf("graph %d: answer %s %q, want ok", i, a.Outcome, clip(a.Reason))
		}
		alive := markedAlive(t, mark)
		slices.Sort(alive)
		if i == 0 {
			first = alive
		}
		if len(alive) != 3 || !slices.Equal(alive, first) {
			t.Fatalf("graph %d: processes %v, want the server and its two helpers, %v", i, alive, first)
		}
	}
	if p.Starts != 1 {
		t.Errorf("%d servers started, want 1", p.Starts)
	}
	p.Close()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestCampaignCountsLeaks: a campaign against a leaking server counts the
// graphs that leaked (report.json's leaked), each a finding of the leak
// signature, the same whatever the number of workers, and leaves nothing
// running.
func TestCampaignCountsLeaks(t *testing.T) {
	mark := markProcesses(t)
	var reports []*Report
	for _, workers := range []int{1, 3} {
		c := testConfig(t, 24)
		c.Workers = workers
		c.Current = ProcessFactory("leak", []string{redteamServer(t), "leak"}, "")
		rep := mustRun(t, c).Report
		var leaked int
		for _, f := range rep.Findings {
			if f.Signature == LeakSignature {
				leaked = f.Count
			}
		}
		if leaked == 0 || rep.Leaked != leaked || rep.Outcomes[OutCrash] != leaked {
			t.Fatalf("%d workers: leaked %d, findings %d of the leak signature, crashes %d: want them equal, not 0", workers, rep.Leaked, leaked, rep.Outcomes[OutCrash])
		}
		if !strings.Contains(Markdown(rep), "left processes running") {
			t.Errorf("%d workers: report.md does not say that answers left processes running", workers)
		}
		reports = append(reports, rep)
	}
	a, b := reports[0], reports[1]
	if a.Leaked != b.Leaked || !reflect.DeepEqual(a.Outcomes, b.Outcomes) || a.Findings[0].First.Index != b.Findings[0].First.Index {
		t.Errorf("1 worker: leaked %d, outcomes %v; 3 workers: leaked %d, outcomes %v", a.Leaked, a.Outcomes, b.Leaked, b.Outcomes)
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}
