// starttimeout_test.go: a structurizer server's start-up has an allowance
// of its own (ProcessOptions.StartTimeout, PROTOCOL.md "Failure
// behaviour"): a server slower to start than the per-graph limit answers
// its graphs, after its first start and after a restart, and one that
// answers nothing, not even the hello, within both has not started: a
// harness error of the graph, not a finding. A restarted server spends
// the allowance on the hello, never on a graph.
package fuzz

import (
	"strings"
	"testing"
	"time"
)

func TestSlowStartIsNotATimeout(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", "sleep 1.5; exec " + redteamServer(t) + " v1"}}
	defer p.Close()
	for start := 1; start <= 2; start++ {
		a, _ := structurizeWithin(t, p, smallGraph(t), time.Second, 20*time.Second)
		if out, sig, detail := classifyAnswer(a); out != OutOK {
			t.Errorf("start %d: %s %s %q, want ok: the start-up is not the graph's", start, out, sig, detail)
		}
		p.end(true, 0) // the next graph starts a new server
	}
	if p.Starts != 2 {
		t.Errorf("%d starts, want 2", p.Starts)
	}
}

func TestServerThatNeverStartsIsAHarnessError(t *testing.T) {
	p := &Process{Argv: []string{redteamServer(t), "ignore-stdin"}, Options: ProcessOptions{StartTimeout: 300 * time.Millisecond}}
	defer p.Close()
	a, took := structurizeWithin(t, p, smallGraph(t), 200*time.Millisecond, 10*time.Second)
	out, sig, detail := classifyAnswer(a)
	if out != OutError || sig != "" || !strings.Contains(detail, "--start-timeout") || !strings.Contains(detail, "did not start") ||
		!strings.Contains(detail, `skips a request of a version it does not know (the hello is a request of "v":2, which a v1 server must answer with an error`) ||
		!strings.Contains(detail, "cfgfuzz selftest") {
		t.Errorf("answer %s %s %q, want a harness error naming --start-timeout, a hello skipped and selftest", out, sig, detail)
	}
	// The hello, then a v1 request to a new server (answersV1).
	if took < time.Second || took > 4*time.Second {
		t.Errorf("took %v, want the limit and the allowance twice, 1s, and a little", took)
	}
}

// TestHangsCostTheLimitAlone: a server that answers its hello but hangs
// on every graph is restarted after each; the restarted server's start-up
// allowance goes to the hello it is sent again (probeStart), so each
// hanging graph costs its limit, not its limit and the allowance.
func TestHangsCostTheLimitAlone(t *testing.T) {
	p := &Process{Argv: []string{redteamServer(t), "hang-graphs"}, Options: ProcessOptions{StartTimeout: 20 * time.Second}}
	defer p.Close()
	hangsCostLittle(t, p, 3)
	if p.Starts != 3 {
		t.Errorf("%d starts, want 3 (one a hanging graph)", p.Starts)
	}
}

// TestUnprobedHangsCostLittleMore: a server that dies on the hello (an
// adapter that reads only graphs) and hangs on every graph is restarted
// unprobed; each restart's first graph gets twice the start seen and a
// second on top of its limit, not the whole allowance.
func TestUnprobedHangsCostLittleMore(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", `read line; case "$line" in *hello*) exit 3;; esac; sleep 3600`}, Options: ProcessOptions{StartTimeout: 20 * time.Second}}
	defer p.Close()
	hangsCostLittle(t, p, 3)
}

// hangsCostLittle sends p n graphs, each of which must time out within
// 5 s at a limit of 300 ms: p's start-up allowance (20 s in these tests)
// not spent on them.
func hangsCostLittle(t *testing.T, p *Process, n int) {
	t.Helper()
	for i := range n {
		a, took := structurizeWithin(t, p, smallGraph(t), 300*time.Millisecond, 30*time.Second)
		if out, sig, _ := classifyAnswer(a); out != OutTimeout {
			t.Fatalf("graph %d: %s %s, want a timeout", i, out, sig)
		}
		if took > 5*time.Second {
			t.Errorf("graph %d: its timeout took %v: the start-up allowance (20s) was spent on the graph", i, took)
		}
	}
}

// skipsHelloV1 is a v1 server that skips, unanswered, a request of a
// version other than 1 (the hello among them) and refuses every graph.
const skipsHelloV1 = `while IFS= read -r l; do case $l in *'"v":1,'*) id=${l#*'"id":'}; echo "{\"id\":${id%%,*},\"outcome\":\"refused\",\"reason\":\"no\"}";; esac; done`

// TestServerThatSkipsTheHelloIsServedV1: a v1 server that skips the
// hello, a request of a version it does not know, and answers a v1
// request is served v1 after its silent hello, on its first graph and
// the next, one server for both; a v1 request is tried once a Process.
func TestServerThatSkipsTheHelloIsServedV1(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", skipsHelloV1}, Options: ProcessOptions{StartTimeout: 300 * time.Millisecond}}
	defer p.Close()
	for graph := 1; graph <= 2; graph++ {
		a, _ := structurizeWithin(t, p, smallGraph(t), 200*time.Millisecond, 10*time.Second)
		if out, _, detail := classifyAnswer(a); out != OutRefused {
			t.Errorf("graph %d: %s %q, want the server's refusal: served v1", graph, out, detail)
		}
	}
	if p.Starts != 2 || !p.hello.v1 {
		t.Errorf("%d starts (want 2: the silent hello's and the v1 server's), v1 %v", p.Starts, p.hello.v1)
	}
}
