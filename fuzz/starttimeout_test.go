// starttimeout_test.go: a structurizer server's start-up has an allowance
// of its own (ProcessOptions.StartTimeout, PROTOCOL.md "Failure
// behaviour"): a server slower to start than the per-graph limit answers
// its graphs, after its first start and after a restart, and one that
// answers nothing, not even the hello, within both has not started: a
// harness error of the graph, not a finding, after that one wait. A
// restarted server spends the allowance on the hello, never on a graph.
package fuzz

import (
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
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
	// The hello, and a v1 request to the same server within its wait (v1Probe).
	if took < 500*time.Millisecond || took >= time.Second {
		t.Errorf("took %v, want the limit and the allowance once, 500ms, and a little", took)
	}
}

// TestSilentServerWaitsOneLimit: a server that reads its requests and
// never answers costs its first graph one wait, the limit and the
// start-up allowance (the v1 request a silent hello's server is sent
// comes within it), not two, before the graph is a harness error; its
// server is the hello's alone.
func TestSilentServerWaitsOneLimit(t *testing.T) {
	const limit, allowance = time.Second, time.Second
	p := &Process{Argv: []string{"sh", "-c", "while IFS= read -r l; do :; done"}, Options: ProcessOptions{StartTimeout: allowance}}
	defer p.Close()
	a, took := structurizeWithin(t, p, smallGraph(t), limit, 30*time.Second)
	if out, sig, detail := classifyAnswer(a); out != OutError || sig != "" || !strings.Contains(detail, "did not start") {
		t.Errorf("answer %s %s %q, want a harness error: the server did not start", out, sig, detail)
	}
	if wait := limit + allowance; took < wait || took >= wait*16/10 {
		t.Errorf("took %v, want the limit and the allowance once, %v, and a little (not twice)", took, wait)
	}
	if p.Starts != 1 {
		t.Errorf("%d starts, want 1: the v1 request goes to the hello's server", p.Starts)
	}
}

// TestV2ServerSlowerThanTheAllowanceKeepsItsPromises: a v2 server that
// answers its hello only after the start-up allowance (within the limit
// too) was sent the v1 request on top of it: it is served v2, its
// promises kept, and the answer to that request, which follows the
// hello's, is set aside, not read as the first graph's.
func TestV2ServerSlowerThanTheAllowanceKeepsItsPromises(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", "sleep 0.6; exec " + redteamServer(t) + " v2-limited"}, Options: ProcessOptions{StartTimeout: 300 * time.Millisecond}}
	defer p.Close()
	for graph := 1; graph <= 2; graph++ {
		a, _ := structurizeWithin(t, p, smallGraph(t), 2*time.Second, 20*time.Second)
		if out, sig, detail := classifyAnswer(a); out != OutOK {
			t.Errorf("graph %d: %s %s %q, want ok", graph, out, sig, detail)
		}
		if d := p.Declared(proto.Options{}); d == nil || d.Name != "redteam/v2-limited" {
			t.Errorf("graph %d: declared %+v, want the server's v2 hello", graph, d)
		}
	}
	if p.Starts != 1 {
		t.Errorf("%d starts, want 1", p.Starts)
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
// request (sent to it when the start-up allowance has passed) is served
// v1 after its silent hello, on its first graph and the next, one server
// for both, the one the hello went to.
func TestServerThatSkipsTheHelloIsServedV1(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", skipsHelloV1}, Options: ProcessOptions{StartTimeout: 300 * time.Millisecond}}
	defer p.Close()
	for graph := 1; graph <= 2; graph++ {
		a, _ := structurizeWithin(t, p, smallGraph(t), 200*time.Millisecond, 10*time.Second)
		if out, _, detail := classifyAnswer(a); out != OutRefused {
			t.Errorf("graph %d: %s %q, want the server's refusal: served v1", graph, out, detail)
		}
	}
	if p.Starts != 1 || !p.hello.v1 {
		t.Errorf("%d starts (want 1: the silent hello's server answers the v1 request), v1 %v", p.Starts, p.hello.v1)
	}
}

// crashesOnV1 is a v2 server slower to answer its hello than a short
// start-up allowance, which exits on any v1 request and refuses every
// other graph.
const crashesOnV1 = `read -r l; id=${l#*'"id":'}; sleep 0.5; echo "{\"id\":${id%%,*},\"outcome\":\"ok\",\"hello\":{\"v\":2,\"promises\":{}}}"
while IFS= read -r l; do case $l in *'"v":1,'*) exit 3;; esac; id=${l#*'"id":'}; echo "{\"id\":${id%%,*},\"outcome\":\"refused\",\"reason\":\"no\"}"; done`

// TestProbeCrashIsNoGraphs: a v2 server that answers its hello after the
// start-up allowance, and so was sent the v1 request too (v1Probe), and
// that crashes on that request, charges no graph with the crash: the
// first graph goes to a new server and gets its answer.
func TestProbeCrashIsNoGraphs(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", crashesOnV1}, Options: ProcessOptions{StartTimeout: 200 * time.Millisecond}}
	defer p.Close()
	for graph := 1; graph <= 2; graph++ {
		a, _ := structurizeWithin(t, p, smallGraph(t), 3*time.Second, 20*time.Second)
		if out, sig, detail := classifyAnswer(a); out != OutRefused {
			t.Errorf("graph %d: %s %s %q, want the server's refusal: the v1 request's crash is no graph's", graph, out, sig, detail)
		}
	}
	if p.Starts != 2 {
		t.Errorf("%d starts, want 2: the server the v1 request ended, and one for the graphs", p.Starts)
	}
}
