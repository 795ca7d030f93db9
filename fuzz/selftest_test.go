// selftest_test.go: the conformance suite skips a case whose graph the
// server's declared promises exclude, naming the promise, and gives a
// server slower to start than the limit its start-up allowance on the
// first answer after each start (the suite against this tree's servers is
// cmd/cfgfuzz's selftest_test.go).
package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func TestSelfTestUnserved(t *testing.T) {
	const irreducible = "{{1, 2}, {2}, {1}}"
	for _, c := range []struct {
		promises *proto.Promises
		graph    string
		want     string // "" served
	}{
		{nil, selfTestSwitch, ""},
		{&proto.Promises{Switches: true, Irreducible: true}, selfTestSwitch, ""},
		{&proto.Promises{Irreducible: true}, selfTestSwitch, `declares "switches":false`},
		{&proto.Promises{Irreducible: true}, selfTestLoop, ""},
		{&proto.Promises{Switches: true}, irreducible, `declares "irreducible":false`},
		{&proto.Promises{Switches: true, Irreducible: true, MaxBlocks: 3}, selfTestGraph, `declares "max_blocks":3`},
		{&proto.Promises{Switches: true, Irreducible: true, MaxBlocks: 3}, selfTestSmallGraph, ""},
	} {
		st := &selfTester{promises: c.promises}
		got := st.unserved([]string{selfTestSmallGraph, c.graph})
		if c.want == "" && got != "" || c.want != "" && (!strings.Contains(got, c.want) || !strings.Contains(got, c.graph)) {
			t.Errorf("promises %+v, graph %s: %q, want %q naming the graph", c.promises, c.graph, got, c.want)
		}
	}
}

// TestSelfTestSlowStart: real servers that sleep longer than the limit
// before they read their input pass the suite on their start-up
// allowance: the hello's server, the next one, and (badstruct, which
// panics on the v1 request case) the restart after a case that ended one;
// badstruct's hang on the switch, after its server answered, costs the
// limit alone. A FAIL line shows the request it is about.
// With an allowance too short the hello's case fails, naming both waits.
func TestSelfTestSlowStart(t *testing.T) {
	const limit, sleep = 200 * time.Millisecond, "0.4"
	slow := func(bin, mode string) []string {
		return []string{"sh", "-c", "sleep " + sleep + "; exec " + bin + " " + mode}
	}
	v1, bad := slow(redteamServer(t), "v1"), slow(buildCmd(t, "./testdata/badstruct"), "")
	for _, c := range []struct {
		argv      []string
		allowance time.Duration
		want      []string // in the report
		failed    int      // -1: any number
	}{
		{v1, 10 * time.Second, []string{"11 cases: 11 ok, 0 failed"}, 0},
		{bad, 10 * time.Second, []string{
			"FAIL v1 request answered: no answer: the server ended (panic: main.main.func1: badstruct: four blocks)\n     sent: {\"v\":1,\"id\":1,\"graph\":\"{{1, 2}, {3}, {3}, {}}\",\"options\":{}}\nok   ids echoed in order\n",
			"FAIL answer of a switch: no answer within 200ms\n"}, 3},
		{v1, time.Nanosecond, []string{"FAIL v2 hello answered (or refused as a version): no answer within 200ms (--timeout) and the start-up allowance of 1ns (--start-timeout)"}, -1},
	} {
		start := time.Now()
		cases := SelfTest(c.argv, "", SelfTestOptions{Limit: limit, Process: ProcessOptions{StartTimeout: c.allowance}})
		text, _ := FormatSelfTest(cases)
		failed := 0
		for _, sc := range cases {
			if sc.Problem != "" {
				failed++
			}
		}
		missing := c.failed >= 0 && failed != c.failed
		for _, w := range c.want {
			missing = missing || !strings.Contains(text, w)
		}
		if missing {
			t.Errorf("%q, allowance %v: %d failed, want %d and %q, in:\n%s", c.argv, c.allowance, failed, c.failed, c.want, text)
		}
		t.Logf("%q, allowance %v: %v", c.argv, c.allowance, time.Since(start))
	}
}

// TestSelfTestRefusalNeedsAReason: the suite's answer to a valid graph
// may be a refusal, with the reason that says why; without one it fails,
// naming what is missing.
func TestSelfTestRefusalNeedsAReason(t *testing.T) {
	if got := checkOK(proto.Response{ID: 1, Outcome: proto.Refused, Reason: "irreducible"}, 4); got != "" {
		t.Errorf("a refusal with a reason: %q", got)
	}
	got := checkOK(proto.Response{ID: 1, Outcome: proto.Refused}, 4)
	if want := ruleNoReason + `: outcome "refused", reason absent or empty`; got != want {
		t.Errorf("a refusal without a reason: %q, want %q", got, want)
	}
}

// TestSelfTestOfAServerLeavingItsOutputHeld: a one-shot server that
// answers and exits, leaving a detached process that holds its output,
// fails the cases that send it a second line by its end, the holder
// named, a second after its exit rather than at the limit; no holder
// outlives the suite. The holder keeps the server's input as well (sh
// gives a background job /dev/null for input unless told otherwise), so a
// line sent after the server's exit is written, however late the suite
// sends it, and the answer waited for: with the input closed by the exit,
// a late line's write fails first and the holder goes unnamed.
func TestSelfTestOfAServerLeavingItsOutputHeld(t *testing.T) {
	mark := markProcesses(t)
	const limit = 4 * time.Second
	oneShot := []string{"sh", "-c", `read -r line; setsid sleep 3600 <&0 & echo '{"id":2,"outcome":"error","reason":"request: version 2"}'`}
	start := time.Now()
	text, _ := FormatSelfTest(SelfTest(oneShot, "", SelfTestOptions{Limit: limit}))
	took := time.Since(start)
	if !strings.Contains(text, "no answer: the server ended (crash: exited; its output stays open, held by a process it left: 1 process: sleep 3600)") || strings.Contains(text, "no answer within") {
		t.Errorf("the suite says:\n%s", text)
	}
	if took > 20*time.Second {
		t.Errorf("took %v: its cases waited for the limit of %v", took, limit)
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestSelfTestOfAnAdapterWithItsOutputRedirected: a wrapper script whose
// adapter reads its input with its output sent to a log fails the hello's
// case as a server that closed its output without exiting, exiting only
// once its input was closed, not as one that exited.
func TestSelfTestOfAnAdapterWithItsOutputRedirected(t *testing.T) {
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "adapter.sh")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec cat >"+filepath.Join(dir, "adapter.log")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := SelfTest([]string{wrapper}, "", SelfTestOptions{Limit: 5 * time.Second})
	text, ok := FormatSelfTest(cases)
	if ok || len(cases) == 0 || !strings.Contains(cases[0].Problem, "closed its output without exiting; it exited only once its input was closed") {
		t.Errorf("the suite says:\n%s", text)
	}
}

// TestUnknownPromises: the keys of a hello's promises that no promise has
// are named, quoted and sorted; known keys (in any case, as a campaign
// reads them) and lines that do not read name none.
func TestUnknownPromises(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`{"id":2,"outcome":"ok","hello":{"v":2,"promises":{"deterministic":true,"max_blocks":9}}}`, nil},
		{`{"id":2,"outcome":"ok","hello":{"v":2,"promises":{"renumberingInvariant":true,"maxBlocks":9,"switches":true}}}`, []string{`"maxBlocks"`, `"renumberingInvariant"`}},
		{`{"id":2,"outcome":"ok","hello":{"v":2,"promises":{"SWITCHES":true,"Max_Blocks":6,"":1}}}`, []string{`""`}}, // JSON reads the first two as switches and max_blocks
		{`not json`, nil},
	} {
		if got := unknownPromises([]byte(c.line)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.line, got, c.want)
		}
	}
	if keys := promiseKeys(); !slices.Contains(keys, "renumbering_invariant") || !slices.Contains(keys, "max_clone_words") {
		t.Errorf("promise keys %q", keys)
	}
}

// TestSelfTestOfAWrapperThatBackgroundsItsAdapter: a wrapper script that
// starts its adapter in the background and exits, the adapter keeping
// its pipes, fails a case of its own naming the adapter and advising
// exec, though the adapter answers every case; the same wrapper with exec
// passes every case and gets no such case; no adapter outlives the suite.
func TestSelfTestOfAWrapperThatBackgroundsItsAdapter(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the processes holding a pipe are read from /proc")
	}
	mark := markProcesses(t)
	bin := buildCmd(t, "../cmd/structurize")
	dir := t.TempDir()
	for _, c := range []struct {
		script string
		held   bool
	}{
		// A shell gives a command it starts in the background /dev/null
		// as its input: the wrapper hands its own on as descriptor 3.
		{"#!/bin/sh\nexec 3<&0\n" + bin + " \"$@\" <&3 &\n", true},
		{"#!/bin/sh\nexec " + bin + " \"$@\"\n", false},
	} {
		wrapper := filepath.Join(dir, "wrapper")
		if err := os.WriteFile(wrapper, []byte(c.script), 0o755); err != nil {
			t.Fatal(err)
		}
		cases := SelfTest([]string{wrapper}, "", SelfTestOptions{Limit: 10 * time.Second})
		text, ok := FormatSelfTest(cases)
		last := cases[len(cases)-1]
		if c.held {
			if ok || len(cases) != 12 || last.Problem == "" || !strings.Contains(last.Problem, "a process it left (1 process: /") || !strings.Contains(last.Problem, `exec ./adapter "$@"`) {
				t.Errorf("a wrapper that backgrounds its adapter: the suite says:\n%s", text)
			}
			for _, c := range cases[:len(cases)-1] {
				if c.Problem != "" {
					t.Errorf("the backgrounded adapter fails %q: %s", c.Name, c.Problem)
				}
			}
		} else if !ok || len(cases) != 11 {
			t.Errorf("a wrapper that execs its adapter: the suite says:\n%s", text)
		}
		t.Logf("%s\n%s", c.script, text)
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestSelfTestOfALeakingServer: a server that leaves a process running
// after its answers (a child, a detached child), which a campaign makes a
// crash finding of every graph, fails the leak case, naming the process;
// one that keeps helpers from its start or whose child ends on its own
// passes it; no process outlives the suite.
func TestSelfTestOfALeakingServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a server's processes are read from /proc")
	}
	mark := markProcesses(t)
	bin := redteamServer(t)
	for mode, want := range map[string]string{
		"leak":    "left processes running after its answer: 1 process: " + bin + " linger, which a campaign makes a crash finding of the graph (" + LeakSignature + ")",
		"detach":  "left processes running after its answer: ",
		"helper":  "",
		"exiting": "",
		"v1":      "",
	} {
		cases := SelfTest([]string{bin, mode}, "", SelfTestOptions{Limit: 3 * time.Second})
		text, _ := FormatSelfTest(cases)
		i := slices.IndexFunc(cases, func(c SelfTestCase) bool { return c.Name == "an answer leaves no process running" })
		if i < 0 || want == "" && cases[i].Problem != "" || want != "" && !strings.HasPrefix(cases[i].Problem, want) {
			t.Errorf("server %s: want the leak case to say %q, in:\n%s", mode, want, text)
		}
	}
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestSelfTestOfAServerThatNeverStarts: a server silent past the limit and
// the whole start-up allowance on its first two starts (the hello's and
// the v1 request's) ends the suite: the cases left are skipped, saying
// why, rather than each waiting as long as the first two (35 s each by
// default), and the suite still reads as a server that never answered.
func TestSelfTestOfAServerThatNeverStarts(t *testing.T) {
	start := time.Now()
	cases := SelfTest([]string{"sleep", "100"}, "", SelfTestOptions{Limit: 100 * time.Millisecond, Process: ProcessOptions{StartTimeout: 200 * time.Millisecond}})
	ran := 0
	for _, c := range cases {
		switch {
		case c.Skipped == "":
			ran++
		case !strings.Contains(c.Skipped, "answered nothing on its first 2 starts, each within 100ms (--timeout) and 200ms (--start-timeout)"):
			t.Errorf("%s: skipped %q, want the starts that failed named", c.Name, c.Skipped)
		}
	}
	if text, _ := FormatSelfTest(cases); ran != 2 || !NeverAnswered(cases) || !strings.Contains(text, "9 skipped (the server did not start") || strings.Contains(text, "promises") {
		t.Errorf("%d cases ran (want 2), never answered %v:\n%s", ran, NeverAnswered(cases), text)
	}
	t.Logf("%v", time.Since(start))
}

// TestSelfTestBoundsAHugeReason: a server answering every line with a
// reason of megabytes fails its cases with lines that quote a bounded
// prefix of the reason and its length, as a campaign keeps a reason, not
// the megabytes.
func TestSelfTestBoundsAHugeReason(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	const script = `import json, sys
for line in sys.stdin:
    try:
        rid = json.loads(line).get("id", 0)
    except Exception:
        rid = 0
    sys.stdout.write(json.dumps({"id": rid, "outcome": "error", "reason": "x" * (3 * 1000 * 1000)}) + "\n")
    sys.stdout.flush()
`
	text, ok := FormatSelfTest(SelfTest([]string{"python3", "-c", script}, "", SelfTestOptions{Limit: 10 * time.Second}))
	if want := fmt.Sprintf("(cut: a reason of %d bytes)", 3*1000*1000); ok || !strings.Contains(text, want) {
		t.Errorf("the suite of a server answering a 3 MB reason: conformant %v, want a failure quoting the reason cut\n%.2000s", ok, text)
	}
	for _, line := range strings.Split(text, "\n") {
		if len(line) > 2*maxReason+1024 {
			t.Errorf("a line of %d bytes, want at most a bounded reason's: %.200s", len(line), line)
			break
		}
	}
}

// TestSelfTestOfAServerAnsweringTwice: a server that writes every answer
// twice fails the case whose request it answered twice, the second line
// quoted, not the next case by an id it did not expect.
func TestSelfTestOfAServerAnsweringTwice(t *testing.T) {
	const twice = `while read -r line; do id=$(echo "$line" | sed -n 's/^{"v":\([0-9]*\),"id":\([0-9]*\).*/\2/p'); ` +
		`printf '{"id":%s,"outcome":"refused","reason":"no"}\n{"id":%s,"outcome":"refused","reason":"no"}\n' "$id" "$id"; done`
	cases := SelfTest([]string{"sh", "-c", twice}, "", SelfTestOptions{Limit: 3 * time.Second})
	text, ok := FormatSelfTest(cases)
	if ok || len(cases) < 2 || !strings.Contains(cases[1].Problem, ruleUnasked+`: "{\"id\":`) || !strings.Contains(cases[1].Problem, "after its answer to this request") {
		t.Errorf("self-test of a server answering twice:\n%s\nwant its second case failed by %q after its answer", text, ruleUnasked)
	}
}
