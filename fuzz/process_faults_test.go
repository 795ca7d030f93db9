// process_faults_test.go drives Process against the misbehaving servers of
// testdata/redteam/server (and two shell one-liners): the per-graph limit
// holds whatever the server does with its pipes, an answer is bounded in
// size, no descendant outlives its server (Linux), and each protocol
// violation gets the finding PROTOCOL.md gives it.
package fuzz

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var (
	redteamOnce sync.Once
	redteamBin  string
	redteamErr  string
)

// redteamServer builds testdata/redteam/server once per test binary.
func redteamServer(t *testing.T) string {
	t.Helper()
	redteamOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cfgfuzz-redteam-")
		if err != nil {
			redteamErr = err.Error()
			return
		}
		redteamBin = dir + "/server"
		if out, err := goBuild(redteamBin, "./testdata/redteam/server"); err != nil {
			redteamErr = fmt.Sprintf("%v\n%s", err, out)
		}
	})
	if redteamErr != "" {
		t.Fatal(redteamErr)
	}
	return redteamBin
}

// structurizeWithin runs one request and fails the test when it takes
// longer than bound (a hang of the client, not of the server).
func structurizeWithin(t *testing.T, p *Process, g *cfg.Graph, limit, bound time.Duration) (Answer, time.Duration) {
	t.Helper()
	done := make(chan Answer, 1)
	start := time.Now()
	go func() { done <- p.Structurize(g, proto.Options{}, limit) }()
	select {
	case a := <-done:
		return a, time.Since(start)
	case <-time.After(bound):
		t.Fatalf("Structurize still running after %v (limit %v)", bound, limit)
		return Answer{}, 0
	}
}

func smallGraph(t *testing.T) *cfg.Graph {
	t.Helper()
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chainGraph is a chain of n blocks: its request line is about 8n bytes.
func chainGraph(t *testing.T, n int) *cfg.Graph {
	t.Helper()
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n-1; i++ {
		fmt.Fprintf(&b, "{%d},", i+1)
	}
	b.WriteString("{}}")
	g, err := cfg.ParseCompact(b.String(), cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestProcessClosedStdoutKeepsTheLimit(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", "exec >&-; exec sleep 3600"}}
	defer p.Close()
	a, took := structurizeWithin(t, p, smallGraph(t), 500*time.Millisecond, 10*time.Second)
	if a.Outcome != OutCrash || !strings.Contains(a.Reason, "closed its output without exiting") {
		t.Errorf("answer %s %q, want a crash: closed its output without exiting", a.Outcome, clip(a.Reason))
	}
	// The hello and the graph each end the server that closed its
	// output: exitGrace and inputGrace each, the requests having the
	// start-up allowance.
	if took > 2*(exitGrace+inputGrace)+time.Second {
		t.Errorf("took %v for a limit of 500ms", took)
	}
}

// TestProcessRedirectedOutputClosedWithoutExiting: a wrapper script whose
// adapter reads its input with its output sent to a log closed its output
// without exiting, though it exits (status 0) once its input is closed:
// the signature PROTOCOL.md gives, the reason saying it exited then. The
// hello and the graph each start it.
func TestProcessRedirectedOutputClosedWithoutExiting(t *testing.T) {
	dir := t.TempDir()
	wrapper, log := filepath.Join(dir, "adapter.sh"), filepath.Join(dir, "adapter.log")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec cat >"+log+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Process{Argv: []string{wrapper}}
	defer p.Close()
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 20*time.Second)
	sig := oracle.HarnessSignature(a.Outcome, a.Signed)
	if a.Outcome != OutCrash || sig != "structurize:crash:closed its output without exiting" ||
		!strings.Contains(a.Reason, "closed its output without exiting; it exited only once its input was closed") {
		t.Errorf("answer %s %q (signature %q), want a crash: closed its output without exiting, it exited once its input was closed", a.Outcome, clip(a.Reason), sig)
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), `"id"`) {
		t.Errorf("the adapter's log %q holds no request: it did not read its input", b)
	}
}

// answerHelloV1 is a shell server's start: it answers the hello (request
// 1) as a v1 server does, so it has started; what follows it misbehaves.
const answerHelloV1 = `read -r line; echo '{"id":1,"outcome":"error","reason":"request: version 2"}'; `

func TestProcessIgnoredStdinKeepsTheLimit(t *testing.T) {
	// It answers the hello, then reads nothing more.
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + "exec sleep 3600"}}
	defer p.Close()
	g := chainGraph(t, 40000) // a request of about 300 KB: more than a pipe holds
	a, took := structurizeWithin(t, p, g, 500*time.Millisecond, 10*time.Second)
	if a.Outcome != OutTimeout {
		t.Errorf("answer %s %q, want a timeout", a.Outcome, clip(a.Reason))
	}
	if took > 2*time.Second {
		t.Errorf("took %v for a limit of 500ms", took)
	}
}

// TestProcessQuotesAnUnendedAnswer: what a server writes of an answer
// without the newline that ends it, before it exits or while it holds
// its output open, is quoted in the finding's reason, and kept out of its
// signature (one defect, one signature, whatever the answer held).
func TestProcessQuotesAnUnendedAnswer(t *testing.T) {
	const answer = `{"id":2,"outcome":"refused","reason":"no"}`
	for _, c := range []struct {
		then, outcome, sig string
	}{
		{"exit 0", OutCrash, "structurize:crash:exited"},
		{"echo 'bad input' >&2; exit 3", OutCrash, "structurize:crash:exit status N: bad input"},
		{"exec sleep 3600", OutTimeout, "structurize:timeout"},
	} {
		t.Run(c.then, func(t *testing.T) {
			p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + "read -r line; printf '%s' '" + answer + "'; " + c.then}}
			defer p.Close()
			a, _ := structurizeWithin(t, p, smallGraph(t), 500*time.Millisecond, 10*time.Second)
			out, sig, detail := classifyAnswer(a)
			quoted := fmt.Sprintf("it wrote %d bytes without the newline that ends an answer: %s", len(answer), excerpt([]byte(answer)))
			if out != c.outcome || sig != c.sig || !strings.HasSuffix(detail, "; "+quoted) {
				t.Errorf("answer %s %q (%s), want %s %q and a reason ending %q", out, sig, detail, c.outcome, c.sig, quoted)
			}
		})
	}
}

// TestProcessClipsALongReason: a refused or error answer whose reason is
// a megabyte, well within the answer limit, keeps the reason's first
// maxReason bytes and says how long it was, so that the records, reports
// and store entries of a server that answers every graph so do not grow by
// a megabyte a graph; its signature is the one its start gives.
func TestProcessClipsALongReason(t *testing.T) {
	for _, outcome := range []string{"refused", "error"} {
		t.Run(outcome, func(t *testing.T) {
			reply := `read -r line; printf '{"id":2,"outcome":"` + outcome + `","reason":"long '; head -c 1048576 /dev/zero | tr '\0' R; echo '"}'; exec sleep 3600`
			p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + reply}}
			defer p.Close()
			a, _ := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second)
			const note = "... (cut: a reason of 1048581 bytes)"
			if a.Outcome != outcome || len(a.Reason) != maxReason+len(note) || !strings.HasPrefix(a.Reason, "long RRR") || !strings.HasSuffix(a.Reason, note) {
				t.Errorf("answer %s, reason of %d bytes %q, want %s and %d bytes ending %q", a.Outcome, len(a.Reason), clip(a.Reason), outcome, maxReason+len(note), note)
			}
			if _, sig, _ := classifyAnswer(a); outcome == "error" && sig != harnessSignature("error", "long "+strings.Repeat("R", 100)) {
				t.Errorf("signature %q", sig)
			}
		})
	}
}

// TestProcessTimeoutCountsBlankLines: a server that writes lines of white
// space alone and never an answer times out, the reason saying how many
// such lines came, so it reads apart from a silent one; the signature is
// a timeout's, whatever it wrote.
func TestProcessTimeoutCountsBlankLines(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + "read -r line; while :; do echo '  '; done"}}
	defer p.Close()
	a, _ := structurizeWithin(t, p, smallGraph(t), 500*time.Millisecond, 10*time.Second)
	out, sig, detail := classifyAnswer(a)
	if out != OutTimeout || sig != "structurize:timeout" || !strings.HasPrefix(detail, "no answer within 500ms; it wrote ") || !strings.HasSuffix(detail, " bytes), which are no answer") {
		t.Errorf("answer %s %q (%s), want a timeout counting the lines of white space", out, sig, clip(detail))
	}
}

// TestProcessClipsLongLabels: an ok answer whose labels, which no check
// reads (stats.strategy, a block's and a variable's name), are kilobytes
// long keeps each to its first maxLabel bytes, saying how long it was,
// as the records and reports of the graph hold them; a passes_used entry
// (a fallback's report) keeps its first maxReason bytes.
func TestProcessClipsLongLabels(t *testing.T) {
	long := func(c string) string { return `'; head -c 5000 /dev/zero | tr '\0' ` + c + `; printf '` }
	reply := `read -r line; printf '{"id":2,"outcome":"ok","stats":{"strategy":"` + long("s") + `","passes_used":["fallback: p: r: ` + strings.Repeat(long("d"), 2) + `"]},"func":{"blocks":[{"name":"` + long("b") +
		`","kind":"original","orig":0,"merge":{"kind":"none"},"term":{"kind":"return"}}],"vars":[{"name":"` + long("v") + `"}]}}\n'; exec sleep 3600`
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + reply}}
	defer p.Close()
	g, err := cfg.ParseCompact("{{}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := structurizeWithin(t, p, g, 10*time.Second, 20*time.Second)
	if a.Outcome != proto.OK || a.Stats == nil || len(a.Stats.PassesUsed) != 1 || a.Func == nil || len(a.Func.Blocks) != 1 || len(a.Func.Vars) != 1 {
		t.Fatalf("answer %s %q, want ok with stats and a func of one block and one variable", a.Outcome, clip(a.Reason))
	}
	for _, c := range []struct{ got, want string }{
		{a.Stats.Strategy, strings.Repeat("s", maxLabel) + "... (cut: a strategy of 5000 bytes)"},
		{a.Stats.PassesUsed[0], ("fallback: p: r: " + strings.Repeat("d", 10000))[:maxReason] + "... (cut: a passes_used entry of 10016 bytes)"},
		{a.Func.Blocks[0].Name, strings.Repeat("b", maxLabel) + "... (cut: a name of 5000 bytes)"},
		{a.Func.Vars[0].Name, strings.Repeat("v", maxLabel) + "... (cut: a name of 5000 bytes)"},
	} {
		if c.got != c.want {
			t.Errorf("label %q, want %q", clip(c.got), c.want)
		}
	}
}

func TestProcessAnswerLimit(t *testing.T) {
	bin := redteamServer(t)
	for _, mode := range []string{"huge-line", "endless"} {
		t.Run(mode, func(t *testing.T) {
			p := &Process{Argv: []string{bin, mode}, Options: ProcessOptions{MaxAnswer: 1 << 20}}
			defer p.Close()
			a, _ := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second)
			want := "protocol: answer longer than 1048576 bytes (--max-answer)"
			if a.Outcome != OutCrash || a.Reason != want {
				t.Errorf("answer %s %q, want crash %q", a.Outcome, clip(a.Reason), want)
			}
			if _, sig, _ := classifyAnswer(a); sig != "structurize:crash:protocol: answer longer than N bytes (--max-answer)" {
				t.Errorf("signature %q", sig)
			}
		})
	}
}

func TestReadAnswerLineBounds(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string // "" an error
	}{
		{"abc\n", 3, "abc\n"},
		{"abcd\n", 3, ""},
		{strings.Repeat("x", 100000) + "\n", 100000, strings.Repeat("x", 100000) + "\n"},
		{strings.Repeat("x", 100001) + "\n", 100000, ""},
		{"abc", 10, ""}, // cut short by the end of the output
	} {
		r := bufioReader(c.in)
		got, err := readAnswerLine(r, c.max)
		if c.want == "" && err == nil {
			t.Errorf("%d bytes, max %d: no error", len(c.in), c.max)
		}
		if c.want != "" && string(got) != c.want {
			t.Errorf("%d bytes, max %d: got %d bytes, %v", len(c.in), c.max, len(got), err)
		}
	}
	// A line cut short comes back with its error: what the server wrote
	// of an answer it did not end.
	if got, err := readAnswerLine(bufioReader(strings.Repeat("y", 70000)), 100000); err == nil || string(got) != strings.Repeat("y", 70000) {
		t.Errorf("a line cut short: %d bytes, %v", len(got), err)
	}
}

func TestProcessProtocolViolations(t *testing.T) {
	bin := redteamServer(t)
	for _, c := range []struct {
		mode, outcome string
		// sig is the finding's signature, the rule broken alone; detail
		// is a part of the reason that says what the answer held.
		sig, detail string
	}{
		{"good", proto.OK, "", ""},
		{"blank-line", proto.OK, "", ""},
		{"both", OutCrash, "structurize:crash:protocol: ok answer with both module and func", ""},
		{"neither", OutCrash, "structurize:crash:protocol: ok answer with neither module nor func", ""},
		{"huge-orig", OutCrash, "structurize:crash:protocol: func block whose orig is not a block of the graph", "orig 1000000000000 of a 4-block graph"},
		{"huge-func", OutCrash, "structurize:crash:protocol: func of more blocks than an answer may have", "blocks for a 4-block graph, at most 4352"},
		{"wrong-id", OutCrash, "structurize:crash:protocol: answer id other than the request's", "1002 to request 2"}, // the hello was request 1
		{"bad-outcome", OutCrash, "structurize:crash:protocol: unknown outcome", `"splendid"`},
		{"empty-block", OutCrash, "structurize:crash:protocol: func block without a required field", "block 0 lacks kind, orig, merge.kind, term.kind"},
		{"garbage", OutCrash, "structurize:crash:protocol: answer is not JSON", `first bytes received "hello, this is not json" (invalid character 'h' looking for beginning of value); standard output carries the protocol's answers only, one JSON object a line: logs and banners belong on standard error`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p := &Process{Argv: []string{bin, c.mode}}
			defer p.Close()
			a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
			_, sig, detail := classifyAnswer(a)
			if a.Outcome != c.outcome || sig != c.sig || !strings.Contains(detail, c.detail) {
				t.Errorf("answer %s %q (signature %q), want %s, signature %q, a reason holding %q", a.Outcome, clip(a.Reason), sig, c.outcome, c.sig, c.detail)
			}
			if c.outcome == proto.OK {
				if _, err := ModuleOf(a); err != nil {
					t.Errorf("module: %v", err)
				}
			}
		})
	}
}

// markedAlive lists the live processes (zombies excluded) whose
// environment holds mark.
func markedAlive(t *testing.T, mark string) []int {
	t.Helper()
	return liveWith(t, "environ", mark)
}

// runningWith lists the live processes whose command line holds arg.
func runningWith(t *testing.T, arg string) []int {
	t.Helper()
	return liveWith(t, "cmdline", arg)
}

// liveWith lists the live processes but this one (zombies excluded) whose
// /proc/PID/file holds text.
func liveWith(t *testing.T, file, text string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/" + file)
		if err != nil || !bytes.Contains(b, []byte(text)) {
			continue
		}
		if st, ok := readProcStat(pid); ok && st.state != 'Z' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// leftAlive is markedAlive once the marked processes had time to end: a
// process killed a moment ago may still be on its way out (its parent
// reaps it), while a leaked one (the red-team's lingering children sleep
// for an hour) is still there after the wait.
func leftAlive(t *testing.T, mark string) []int {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := markedAlive(t, mark)
		if len(left) == 0 || time.Now().After(deadline) {
			for _, pid := range left {
				st, _ := readProcStat(pid)
				cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				t.Logf("left alive: pid %d, parent %d, state %c: %q", pid, st.ppid, st.state, bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))
			}
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// markProcesses sets a unique environment entry that every process the
// test starts inherits, and returns it.
func markProcesses(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("descendants are found through /proc and a child subreaper: Linux only")
	}
	v := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Setenv("CFGFUZZ_TEST_MARK", v)
	return "CFGFUZZ_TEST_MARK=" + v
}

func TestProcessLeavesNoDescendants(t *testing.T) {
	bin := redteamServer(t)
	for _, c := range []struct {
		mode    string
		outcome string
	}{
		{"detach", OutCrash},      // detached children of a live server: a leak, the server ended
		{"detach-exit", OutCrash}, // a server that detaches a child and exits
		{"detach-deep", OutCrash}, // an orphaned grandchild, reparented while the server runs: a leak
		{"helper", proto.OK},      // a child and a detached child from its start-up, then Close
	} {
		t.Run(c.mode, func(t *testing.T) {
			mark := markProcesses(t)
			p := &Process{Argv: []string{bin, c.mode}}
			for range 3 {
				a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
				if a.Outcome != c.outcome {
					t.Fatalf("answer %s %q, want %s", a.Outcome, clip(a.Reason), c.outcome)
				}
			}
			p.Close()
			if left := leftAlive(t, mark); len(left) > 0 {
				t.Errorf("%d processes left: %v", len(left), left)
			}
		})
	}
}

func TestProcessTimeoutKillsDescendants(t *testing.T) {
	mark := markProcesses(t)
	p := &Process{Argv: []string{"sh", "-c", "setsid sleep 3600 & " + answerHelloV1 + "exec sleep 3600"}}
	defer p.Close()
	a, _ := structurizeWithin(t, p, smallGraph(t), 500*time.Millisecond, 10*time.Second)
	if a.Outcome != OutTimeout {
		t.Fatalf("answer %s %q, want a timeout", a.Outcome, clip(a.Reason))
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left after the timeout: %v", len(left), left)
	}
}

// TestProcessExitWithItsOutputHeld: a server that exits leaving a
// detached process that holds its standard output open (setsid, with or
// without its environment), or a one-shot structurizer that answers and
// exits so (the next request's line failing to be written, or written to
// the input the process holds too), is judged by its end, exitGrace after
// it, not by the limit as a timeout: the reason names the processes
// holding the output, and none of them outlives the finding. A server
// that answers and keeps running is judged by its answer (a leak).
func TestProcessExitWithItsOutputHeld(t *testing.T) {
	// execed waits until the stray the script started last is sleep (or
	// gone): before its exec it is named setsid (or env), and the process
	// found holding the output, or left at the answer, would be named
	// "setsid sleep 3600".
	const execed = `while read -r comm </proc/$!/comm && [ "$comm" != sleep ]; do :; done; `
	mark := markProcesses(t)
	stray := fmt.Sprintf("3599.%d%d", os.Getpid(), time.Now().UnixNano()%1000) // no other sleep's
	for _, c := range []struct {
		name, script, sig, holder string
	}{
		{"exits", answerHelloV1 + "read -r line; setsid sleep 3600 & " + execed + "exit 3", "structurize:crash:exit status N", "output stays open, held by a process it left: 1 process: sleep 3600"},
		{"one-shot", `read -r line; exec 0<&-; setsid sleep 3600 & ` + execed + `echo '{"id":1,"outcome":"error","reason":"request: version 2"}'`, "structurize:crash:exited", "output stays open, held by a process it left: 1 process: sleep 3600"},
		{"one-shot holding its input", `read -r line; setsid sleep 3600 <&0 & ` + execed + `echo '{"id":1,"outcome":"error","reason":"request: version 2"}'`, "structurize:crash:exited", "output stays open, held by a process it left: 1 process: sleep 3600"},
		{"env -i", answerHelloV1 + "read -r line; setsid env -i /bin/sleep " + stray + " & " + execed + "exit 3", "structurize:crash:exit status N", "output stays open, held by a process it left: 1 process: /bin/sleep " + stray},
		{"answers", answerHelloV1 + `read -r line; setsid sleep 3600 & ` + execed + `echo '{"id":2,"outcome":"refused","reason":"no"}'; exec sleep 3600`, LeakSignature, "1 process: sleep 3600"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Process{Argv: []string{"sh", "-c", c.script}}
			a, took := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 15*time.Second)
			p.Close()
			if _, sig, detail := classifyAnswer(a); sig != c.sig || !strings.Contains(detail, c.holder) {
				t.Errorf("answer %s %q (%s), want %q naming %q", a.Outcome, sig, detail, c.sig, c.holder)
			}
			if took > exitGrace+2*time.Second {
				t.Errorf("took %v for a limit of 5s: the end waited for the limit", took)
			}
			if left := leftAlive(t, mark); len(left) > 0 {
				t.Errorf("%d processes left: %v", len(left), left)
			}
			if left := runningWith(t, stray); len(left) > 0 {
				t.Errorf("the holder without an environment is left: %v", left)
			}
		})
	}
}

// TestBackgroundedServerAnswering: a wrapper that starts its server in the
// background and exits has ended, but a server answering on the pipes it
// inherited within exitGrace of each request is judged by its answers, on
// graphs long after the wrapper's exit too.
func TestBackgroundedServerAnswering(t *testing.T) {
	mark := markProcesses(t)
	p := &Process{Argv: []string{"sh", "-c", "exec 3<&0; " + redteamServer(t) + " good <&3 3<&- & exit 0"}}
	defer p.Close()
	for i := range 5 {
		if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
			t.Fatalf("graph %d, %v after the wrapper started: answer %s %q", i, time.Duration(i)*exitGrace/2, a.Outcome, clip(a.Reason))
		}
		time.Sleep(exitGrace / 2)
	}
	p.Close()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

func TestKillAllServers(t *testing.T) {
	mark := markProcesses(t)
	p := &Process{Argv: []string{redteamServer(t), "helper"}}
	if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
		t.Fatalf("answer %s %q", a.Outcome, clip(a.Reason))
	}
	if len(markedAlive(t, mark)) < 3 {
		t.Fatalf("want the server, its child and its detached child running")
	}
	KillAllServers()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
	done := make(chan struct{})
	go func() { p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs after KillAllServers")
	}
}

// clip cuts a reason for a test message (a flood can make it huge).
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReaderSize(strings.NewReader(s), 1<<16) }

// goBuild builds a package of this module into out.
func goBuild(out, pkg string) ([]byte, error) {
	return exec.Command("go", "build", "-o", out, pkg).CombinedOutput()
}

func TestCampaignLeavesNoOrphans(t *testing.T) {
	mark := markProcesses(t)
	c := testConfig(t, 12)
	c.Current = ProcessFactory("detach-exit", []string{redteamServer(t), "detach-exit"}, "")
	o := mustRun(t, c)
	// It answers no graph: the campaign stops early, every graph run a crash.
	if rep := o.Report; rep.Outcomes[OutCrash] != rep.Graphs || rep.Graphs < ErrorStopGraphs || rep.Incomplete == nil || rep.Incomplete.Reason != StoppedEarly {
		t.Errorf("outcomes %v of %d graphs, incomplete %+v: want only crashes, at least %d, and a stop", rep.Outcomes, rep.Graphs, rep.Incomplete, ErrorStopGraphs)
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left by a campaign of 12 graphs: %v", len(left), left)
	}
}

func TestHandshakeDeclaresPromises(t *testing.T) {
	bin := buildCmd(t, "../cmd/structurize")
	for _, c := range []struct {
		strategy   string
		idempotent bool
	}{{"", true}, {"dispatch", false}} {
		p := &Process{Argv: []string{bin}}
		opt := proto.Options{Strategy: c.strategy}
		a := p.Structurize(smallGraph(t), opt, 10*time.Second)
		p.Close()
		if a.Outcome != proto.OK {
			t.Fatalf("%q: answer %s %q", c.strategy, a.Outcome, a.Reason)
		}
		d := a.Declared
		if d == nil || !d.Deterministic || !d.RenumberingInvariant || d.Idempotent != c.idempotent || !d.Switches || !d.Irreducible {
			t.Errorf("%q: declared %+v, want everything, idempotent %v", c.strategy, d, c.idempotent)
		}
		if h := p.Declared(opt); h == nil || !strings.HasPrefix(h.Name, "cfgfuzz/") {
			t.Errorf("%q: hello %+v", c.strategy, h)
		}
	}
}

// TestHandshakeClipsALongName: a hello whose name is kilobytes long is
// kept to its first maxLabel bytes, saying how long it was: the report
// shows the name and a nightly state records it with every signature.
func TestHandshakeClipsALongName(t *testing.T) {
	hello := `read -r line; printf '{"id":1,"outcome":"ok","hello":{"v":2,"name":"'; head -c 5000 /dev/zero | tr '\0' n; echo '","promises":{"switches":true}}}'; `
	p := &Process{Argv: []string{"sh", "-c", hello + `read -r line; echo '{"id":2,"outcome":"refused","reason":"no"}'; exec sleep 3600`}}
	defer p.Close()
	if a, _ := structurizeWithin(t, p, smallGraph(t), 10*time.Second, 20*time.Second); a.Outcome != proto.Refused {
		t.Fatalf("answer %s %q, want the refusal", a.Outcome, clip(a.Reason))
	}
	want := strings.Repeat("n", maxLabel) + "... (cut: a name of 5000 bytes)"
	if h := p.Declared(proto.Options{}); h == nil || h.Name != want || !h.Promises.Switches {
		t.Errorf("hello %+v, want the name %q and the promises", h, want)
	}
}

func TestHandshakeFallsBackToV1(t *testing.T) {
	bin := buildCmd(t, "./testdata/badstruct") // proto.Serve: v1 only
	p := &Process{Argv: []string{bin}}
	defer p.Close()
	for range 2 {
		a := p.Structurize(chainGraph(t, 3), proto.Options{}, 10*time.Second) // badstruct panics on 4 blocks
		if a.Outcome != proto.OK || a.Declared != nil {
			t.Fatalf("answer %s %q, declared %+v: want ok, nothing declared", a.Outcome, a.Reason, a.Declared)
		}
	}
	if p.Starts != 1 {
		t.Errorf("%d starts: the v1 server answered the hello with an error and should be kept", p.Starts)
	}
}

// TestHandshakeRefusesAKeyWrittenTwice: a hello answer whose object
// writes a key twice ("promises", then "Promises") is a failed hello, as
// an answer to a graph with one is a protocol violation: nothing is
// declared, whichever of the two would have been read, and the server,
// started afresh, is served v1; selftest's hello case names the key.
func TestHandshakeRefusesAKeyWrittenTwice(t *testing.T) {
	bin := redteamServer(t)
	p := &Process{Argv: []string{bin, "v2-dupkey"}}
	defer p.Close()
	for range 2 {
		a := p.Structurize(chainGraph(t, 3), proto.Options{}, 10*time.Second)
		if a.Outcome != proto.OK || a.Declared != nil {
			t.Fatalf("answer %s %q, declared %+v: want ok, nothing declared", a.Outcome, a.Reason, a.Declared)
		}
	}
	if h := p.Declared(proto.Options{}); h != nil {
		t.Errorf("the hello that writes promises twice declared %+v", h)
	}
	cases := SelfTest([]string{bin, "v2-dupkey"}, "", SelfTestOptions{Limit: 2 * time.Second})
	text, _ := FormatSelfTest(cases)
	if len(cases) == 0 || cases[0].Problem == "" || !strings.Contains(cases[0].Problem, `"Promises"`) {
		t.Errorf("selftest of a hello that writes promises twice:\n%s", text)
	}
	t.Logf("selftest:\n%s", text)
}

// TestMetaHonoursDeclaredDeterminism: the same nondeterministic server is a
// meta finding under v1 (determinism assumed) and none under v2, where it
// declares that it is not deterministic.
func TestMetaHonoursDeclaredDeterminism(t *testing.T) {
	bin := redteamServer(t)
	for _, c := range []struct {
		mode    string
		finding bool
	}{{"nondet", true}, {"v2-nondet", false}} {
		cf := testConfig(t, 12)
		cf.Current = ProcessFactory(c.mode, []string{bin, c.mode}, "")
		o := mustRun(t, cf)
		found := false
		for _, f := range o.Report.Findings {
			found = found || f.Signature == "meta:"+oracle.SigNondeterministic
		}
		if found != c.finding {
			t.Errorf("%s: meta:nondeterministic found %v, want %v (findings %+v)", c.mode, found, c.finding, o.Report.Findings)
		}
	}
}

func TestReportListsDeclaredProperties(t *testing.T) {
	bin := redteamServer(t)
	c := testConfig(t, 4)
	c.Current = ProcessFactory("v2-nondet", []string{bin, "v2-nondet"}, "")
	o := mustRun(t, c)
	h := o.Report.Declared["current"]
	if h == nil || h.Name != "redteam/v2-nondet" || h.Promises.Deterministic || !h.Promises.RenumberingInvariant {
		t.Fatalf("declared %+v", o.Report.Declared)
	}
	md, err := os.ReadFile(c.Dir + "/report.md")
	if err != nil {
		t.Fatal(err)
	}
	// The name is said once, where the revision would be, and the
	// command is a code span, not escaped backticks.
	for _, want := range []string{
		"current side `v2-nondet` (the external structurizer `v2-nondet`, which declares itself \"redteam/v2-nondet\" in its protocol v2 hello",
		`The current side's protocol v2 hello promises {"deterministic":false`,
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%.900s", want, md)
		}
	}
	if n := strings.Count(string(md), "redteam/v2-nondet"); n != 1 || strings.Contains(string(md), "revision unknown: cfgfuzz cannot ask") || strings.Contains(string(md), "\\`") {
		t.Errorf("report.md names the declaration %d times, or says the revision is unknown, or escapes a backtick:\n%.900s", n, md)
	}
	c = testConfig(t, 4)
	c.Current = ProcessFactory("v1", []string{bin, "v1"}, "")
	if o := mustRun(t, c); o.Report.Declared != nil {
		t.Errorf("a v1 server declared %+v", o.Report.Declared)
	}
}

// TestUnsupportedGraphsAreNotSent: a v2 server that declares no switches,
// no irreducible graphs and at most 6 blocks gets none of them (it would
// exit, a crash): they are `unsupported`, no finding; meta does not ask it
// for the CFG of a module it does not serve either.
func TestUnsupportedGraphsAreNotSent(t *testing.T) {
	bin := redteamServer(t)
	for _, strategy := range []string{"dispatch", ""} {
		c := testConfig(t, 40)
		c.Strategy = strategy
		c.Current = ProcessFactory("v2-limited", []string{bin, "v2-limited"}, "")
		o := mustRun(t, c)
		if o.Report.Outcomes[OutUnsupported] == 0 || o.Report.Outcomes[OutOK] == 0 {
			t.Errorf("%q: outcomes %v: want unsupported and ok graphs", strategy, o.Report.Outcomes)
		}
		if len(o.Report.Findings) > 0 {
			t.Errorf("%q: findings %+v", strategy, o.Report.Findings)
		}
	}
}

// TestProcessSignalSignatureIgnoresCoreDumps: a server killed by a signal
// gets one signature whether or not the machine let it dump core (ulimit
// -c), which says nothing about the bug.
func TestProcessSignalSignatureIgnoresCoreDumps(t *testing.T) {
	dir := t.TempDir() // where a core file goes
	sigs := map[string]string{}
	for _, limit := range []string{"0", "unlimited"} {
		p := &Process{Argv: []string{"sh", "-c", "cd " + dir + " && ulimit -c " + limit + "; read line; kill -SEGV $$"}}
		a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 20*time.Second)
		p.Close()
		if a.Outcome != OutCrash {
			t.Fatalf("ulimit -c %s: answer %s %q, want a crash", limit, a.Outcome, clip(a.Reason))
		}
		sigs[limit] = oracle.HarnessSignature(a.Outcome, a.Reason)
	}
	if sigs["0"] != sigs["unlimited"] || sigs["0"] != "structurize:crash:signal: segmentation fault" {
		t.Errorf("signatures %q (no core) and %q (core dumped), want both structurize:crash:signal: segmentation fault", sigs["0"], sigs["unlimited"])
	}
}

// TestProcessReapsDeadOrphans: a server that exits leaving a child that
// had already died unreaped (a zombie, reparented to cfgfuzz as the child
// subreaper) gets that zombie reaped when the server ends, so a campaign
// whose server keeps dying does not fill the process table with them.
func TestProcessReapsDeadOrphans(t *testing.T) {
	markProcesses(t)
	p := &Process{Argv: []string{"sh", "-c", "echo group=$$ >&2; (exit 0) & exec sleep 0.3"}}
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	p.Close()
	if a.Outcome != OutCrash {
		t.Fatalf("answer %s %q, want a crash", a.Outcome, clip(a.Reason))
	}
	_, rest, ok := strings.Cut(a.Stderr, "group=")
	group, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0]))
	if !ok || err != nil {
		t.Fatalf("no group in the server's standard error %q", a.Stderr)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		var left []int
		for _, ps := range scanProcs() {
			if ps.ppid == os.Getpid() && ps.state == 'Z' && ps.pgrp == group {
				left = append(left, ps.pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("zombie children of the server's group %d left unreaped: %v", group, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHandshakeKeepsV2WhenOptionsAreRefused: a v2 server that answers the
// hello of some options with an error (faults it does not plant) keeps
// version 2 and the promises it declared for the options it answered; the
// refused options declare nothing and are not asked again.
func TestHandshakeKeepsV2WhenOptionsAreRefused(t *testing.T) {
	server := `while read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  case "$line" in
  *'"hello"'*'"inject"'*) echo "{\"id\":$id,\"outcome\":\"error\",\"reason\":\"request: no faults here\"}" ;;
  *'"hello"'*) echo "{\"id\":$id,\"outcome\":\"ok\",\"hello\":{\"v\":2,\"name\":\"toy\",\"promises\":{\"deterministic\":false}}}" ;;
  *'"inject"'*) echo "{\"id\":$id,\"outcome\":\"error\",\"reason\":\"request: no faults here\"}" ;;
  *) echo "{\"id\":$id,\"outcome\":\"ok\",\"func\":{\"blocks\":[{\"kind\":\"original\",\"orig\":0,\"merge\":{\"kind\":\"none\"},\"term\":{\"kind\":\"return\"}}]}}" ;;
  esac
done`
	p := &Process{Argv: []string{"sh", "-c", server}}
	defer p.Close()
	g, err := cfg.ParseCompact("{{}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plain, faulty := proto.Options{}, proto.Options{Inject: []string{"swap-arms"}}
	if a := p.Structurize(g, plain, 10*time.Second); a.Outcome != proto.OK || a.Declared == nil || a.Declared.Deterministic {
		t.Fatalf("first answer %s %q, declared %+v: want ok, not deterministic declared", a.Outcome, a.Reason, a.Declared)
	}
	for range 2 {
		if a := p.Structurize(g, faulty, 10*time.Second); a.Outcome != proto.Error || !strings.HasPrefix(a.Reason, "request: ") || a.Declared != nil {
			t.Errorf("answer with faults %s %q, declared %+v: want the server's request error, nothing declared", a.Outcome, a.Reason, a.Declared)
		}
	}
	if a := p.Structurize(g, plain, 10*time.Second); a.Outcome != proto.OK || a.Declared == nil || a.Declared.Deterministic {
		t.Errorf("answer after the refused hello %s %q, declared %+v: want the promises declared before kept", a.Outcome, a.Reason, a.Declared)
	}
	if p.version() != proto.Version2 || p.Starts != 1 {
		t.Errorf("version %d, %d starts: want version 2 on the one server", p.version(), p.Starts)
	}
}

// TestProcessLineNoRequestAskedFor: a server that writes a second line
// after its answer, or an answer to a request it has not been sent, wrote
// a line no request asked for. Written at once with the answer, it is the
// answered graph's finding; written later, it is found before the next
// request is sent, and that graph's finding says so: the line is never
// read as the next graph's answer, which would count as its verdict
// (here a refusal) a graph the server never read.
func TestProcessLineNoRequestAskedFor(t *testing.T) {
	const sig = "structurize:crash:protocol: a line no request asked for"
	const first, second = `{"id":2,"outcome":"refused","reason":"first"}`, `{"id":3,"outcome":"refused","reason":"unread"}`
	t.Run("with its answer", func(t *testing.T) {
		p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + `read -r line; printf '%s\n%s\n' '` + first + `' '` + second + `'; exec sleep 3600`}}
		defer p.Close()
		a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
		out, s, detail := classifyAnswer(a)
		if out != OutCrash || s != sig || !strings.Contains(detail, "after its answer to this request") || !strings.Contains(detail, `"{\"id\":3,`) {
			t.Errorf("answer %s %q (%s), want %s %q after its answer to this request", out, s, detail, OutCrash, sig)
		}
	})
	t.Run("after its answer", func(t *testing.T) {
		// It writes the second line once the test writes to a fifo: no
		// process of its own, which the answer's check for processes
		// left would wait for, seeing the line with the answer.
		fifo := filepath.Join(t.TempDir(), "go")
		if err := exec.Command("mkfifo", fifo).Run(); err != nil {
			t.Skip("mkfifo:", err)
		}
		p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + `read -r line; echo '` + first + `'; read -r x <'` + fifo + `'; echo '` + second + `'; exec sleep 3600`}}
		defer p.Close()
		p.noteGraph("graph 7")
		if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.Refused || a.Reason != "first" {
			t.Fatalf("first answer %s %q, want refused %q", a.Outcome, a.Reason, "first")
		}
		if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		p.noteGraph("graph 8")
		a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
		out, s, detail := classifyAnswer(a)
		if out != OutCrash || s != sig || !strings.Contains(detail, "before this request was sent, after its answer to the previous one (graph 7)") {
			t.Errorf("answer %s %q (%s), want %s %q before this request was sent", out, s, detail, OutCrash, sig)
		}
	})
}

// TestProcessSecondAnswerReadLate: a second answer to a graph's request
// that comes only once the next request was sent is that line, not an
// answer of another id to the next request: the finding says whose it is.
func TestProcessSecondAnswerReadLate(t *testing.T) {
	const answer = `{"id":2,"outcome":"refused","reason":"first"}`
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + `read -r line; echo '` + answer + `'; read -r line; echo '` + answer + `'; exec sleep 3600`}}
	defer p.Close()
	p.noteGraph("graph 7")
	if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.Refused {
		t.Fatalf("first answer %s %q, want refused", a.Outcome, a.Reason)
	}
	p.noteGraph("graph 8")
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	out, s, detail := classifyAnswer(a)
	if want := "structurize:crash:protocol: a line no request asked for"; out != OutCrash || s != want || !strings.Contains(detail, "the previous request's id, an answer to it again (graph 7)") {
		t.Errorf("answer %s %q (%s), want %s %q naming graph 7", out, s, detail, OutCrash, want)
	}
}

// TestProcessEndlessBlankLinesAfterAnswer: white space that a server
// writes without end after its answer is skipped for a bounded time, not
// waited out: the answer is the graph's.
func TestProcessEndlessBlankLinesAfterAnswer(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + `read -r line; echo '{"id":2,"outcome":"refused","reason":"no"}'; exec yes ' '`}}
	defer p.Close()
	if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.Refused {
		t.Errorf("answer %s %q, want refused", a.Outcome, a.Reason)
	}
}

// TestProcessClosedInputWithoutExiting: a server that closes its
// standard input and keeps running (its output open) will read no request:
// the write of the next one fails, and the finding says it closed its
// input, not its output, within the limit.
func TestProcessClosedInputWithoutExiting(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", `read -r line; exec 0<&-; echo '{"id":1,"outcome":"error","reason":"request: version 2"}'; exec sleep 3600`}}
	defer p.Close()
	a, took := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	out, sig, detail := classifyAnswer(a)
	if want := "structurize:crash:closed its input without exiting"; out != OutCrash || sig != want {
		t.Errorf("answer %s %q (%s), want %s %q", out, sig, detail, OutCrash, want)
	}
	if took > 4*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestProcessExitAfterItsAnswer: a server that exits after answering a
// graph has ended before the next graph's request is sent: that graph's
// finding is its end, as of any server that exits, and its reason says the
// output ended ahead of the request, after the answer to the graph named.
func TestProcessExitAfterItsAnswer(t *testing.T) {
	p := &Process{Argv: []string{"sh", "-c", answerHelloV1 + `read -r line; echo '{"id":2,"outcome":"refused","reason":"first"}'; exit 0`}}
	defer p.Close()
	p.noteGraph("graph 7")
	if a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second); a.Outcome != proto.Refused {
		t.Fatalf("first answer %s %q, want refused", a.Outcome, a.Reason)
	}
	time.Sleep(300 * time.Millisecond)
	p.noteGraph("graph 8")
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	out, sig, detail := classifyAnswer(a)
	if want := "its output ended before this request was sent, after its answer to the previous one (graph 7)"; out != OutCrash || sig != "structurize:crash:exited" || !strings.Contains(detail, want) {
		t.Errorf("answer %s %q (%s), want %s %q saying %q", out, sig, detail, OutCrash, "structurize:crash:exited", want)
	}
}
