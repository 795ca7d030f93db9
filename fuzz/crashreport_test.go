// crashreport_test.go holds the report table to reports real runtimes
// printed (Rust, g++, glibc's assert, AddressSanitizer, Go), and runs a
// server that dies with one to see the headline reach the answer, its
// signature and answer.json.
package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// rustPanic is what a Rust server printed on an out-of-bounds index with
// RUST_BACKTRACE=1, a log line first.
const rustPanic = `log: serving

thread 'main' (31893) panicked at src/main.rs:1:115:
index out of bounds: the len is 3 but the index is 5
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/library/std/src/panicking.rs:689:5
   3: p::main
note: Some details are omitted, run with ` + "`RUST_BACKTRACE=full`" + ` for a verbose backtrace.
`

func TestCrashReport(t *testing.T) {
	cases := []struct {
		name, tail, headline string
		panic, found         bool
	}{
		{"go panic", "log\npanic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n", "main.main: runtime error: index out of range [5] with length 3", true, true},
		{"go fatal error", "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n", "fatal error: all goroutines are asleep - deadlock!", false, true},
		{"rust panic with a backtrace", rustPanic, "main.rs: index out of bounds: the len is 3 but the index is 5", true, true},
		{"rust panic without", "\nthread 'main' panicked at src/lower.rs:40:5:\nswitch lowering not implemented\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n", "lower.rs: switch lowering not implemented", true, true},
		{"rust panic before 1.73", "thread 'main' panicked at 'switch lowering not implemented', src/lower.rs:40:5\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n", "lower.rs: switch lowering not implemented", true, true},
		{"c++ exception", "log: serving\nterminate called after throwing an instance of 'std::out_of_range'\n  what():  block 7 has no merge\n", "uncaught std::out_of_range: block 7 has no merge", true, true},
		{"c++ exception without what", "terminate called after throwing an instance of 'int'\n", "uncaught int", true, true},
		{"assert", "log: serving\nss: lower.cpp:5: int main(int, char**): Assertion `argc == 7 && \"merge found\"' failed.\n", `assertion failed: argc == 7 && "merge found"`, false, true},
		{"address sanitizer", "log\n=================================================================\n==31995==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000030 at pc 0x55579881e5df\nREAD of size 4 at 0x602000000030 thread T0\n    #0 0x55579881e5de in main /src/e.cpp:5\n", "AddressSanitizer: heap-buffer-overflow", false, true},
		{"rust stack overflow", "\nthread 'main' (24385) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n", "fatal runtime error: stack overflow, aborting", false, true},
		{"undefined behaviour", "lower.cpp:12:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n", "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'", false, true},
		{"the first of two", "panic: first\npanic: second\n", "first", true, true},
		{"go panic in a method", "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\ngithub.com/acme/lower/passes.(*nester).place(...)\n\t/src/passes/nest.go:11\nmain.main()\n", "passes.(*nester).place: runtime error: index out of range [5] with length 3", true, true},
		{"python", "Traceback (most recent call last):\n  File \"error_handler.py\", line 4, in <module>\n  File \"error_handler.py\", line 3, in f\nKeyError: 7\n", "f: KeyError: 7", true, true},
		{"python, chained", "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nKeyError: 7\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 5, in <module>\nValueError: no merge\n", "f: KeyError: 7", true, true},
		{"no report", "flag provided but not defined: -serve\nUsage of ./structurize:\n", "", false, false},
		{"nothing", "", "", false, false},
	}
	for _, c := range cases {
		h, p, f := crashReport(c.tail)
		if h != c.headline || p != c.panic || f != c.found {
			t.Errorf("%s: got (%q, panic %v, found %v), want (%q, %v, %v)", c.name, h, p, f, c.headline, c.panic, c.found)
		}
	}
}

// TestDeathLine: a death without a report is worded by its first line
// that reads as an error, not by a usage text or frame after it; else by
// its last line.
func TestDeathLine(t *testing.T) {
	goFlag := "flag provided but not defined: -serve\nUsage of ./bin/structurize:\n  -form string\n    \twhat an ok response carries (default \"module\")\n  -inject string\n    \tfaults planted in every answer, whatever the request asks: clone-wrong-id\n"
	for _, c := range []struct{ name, text, want string }{
		{"go flag", goFlag, "flag provided but not defined: -serve"},
		{"argparse", "usage: adapter.py [-h] [--form FORM]\nadapter.py: error: unrecognized arguments: --serve\n", "adapter.py: error: unrecognized arguments: --serve"},
		{"clap", "error: unexpected argument '--serve' found\n\nUsage: lower [OPTIONS]\n\nFor more information, try '--help'.\n", "error: unexpected argument '--serve' found"},
		{"a missing file", "loading rules\nrules.json: No such file or directory\n", "rules.json: No such file or directory"},
		{"no error line", "step 1\nstep 2\nAborted\n", "Aborted"},
		{"an indented error is a frame", "step 1\n    at error_handler (x.js:3)\nAborted\n", "Aborted"},
		{"nothing", "", ""},
	} {
		if got := deathLine(c.text); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestServerDeathReported runs servers that die on every request with a
// report on standard error: the answer's reason is the headline, two
// different panics get two signatures, and answer.json keeps the tail.
func TestServerDeathReported(t *testing.T) {
	dir := t.TempDir()
	server := func(name, report string) Side {
		t.Helper()
		file := filepath.Join(dir, name+".txt")
		if err := os.WriteFile(file, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		side, err := ProcessFactory(name, []string{"sh", "-c", "read line; cat " + file + " >&2; exit 101"}, "").New()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { side.Close() })
		return side
	}
	g := cfg.FromSuccs([][]int{{1, 2}, {2}, {}})
	bounds := server("bounds", rustPanic)
	lowering := server("lowering", strings.ReplaceAll(rustPanic, "index out of bounds: the len is 3 but the index is 5", "switch lowering not implemented"))
	cxx := server("cxx", "terminate called after throwing an instance of 'std::out_of_range'\n  what():  block 7 has no merge\n")
	python := server("python", "Traceback (most recent call last):\n  File \"adapter.py\", line 40, in <module>\n    lower(graph)\n  File \"adapter.py\", line 12, in lower\n    return merges[b]\n           ~~~~~~^^^\nKeyError: 7\n")
	seen := map[string]string{}
	for _, c := range []struct {
		side               Side
		outcome, signature string
	}{
		{bounds, OutPanic, "structurize:panic:main.rs: index out of bounds: the len is N but the index is N"},
		{lowering, OutPanic, "structurize:panic:main.rs: switch lowering not implemented"},
		{cxx, OutPanic, "structurize:panic:uncaught std::out_of_range: block N has no merge"},
		{python, OutPanic, "structurize:panic:lower: KeyError: N"},
	} {
		a := c.side.Structurize(g.Clone(), proto.Options{}, 10*time.Second)
		out, sig, _ := classifyAnswer(a)
		if out != c.outcome || sig != c.signature {
			t.Errorf("answer %q: %q, signature %q; want %q, %q", a.Reason, out, sig, c.outcome, c.signature)
		}
		if prev, ok := seen[sig]; ok {
			t.Errorf("two reports share signature %q: %q and %q", sig, prev, a.Reason)
		}
		seen[sig] = a.Reason
		if js := string(AnswerJSON(a)); !strings.Contains(js, `"stderr"`) || !strings.Contains(js, "panicked at") && !strings.Contains(js, "terminate called") && !strings.Contains(js, "Traceback") {
			t.Errorf("answer.json keeps no standard error:\n%s", js)
		}
	}
}

// TestStderrLogKeepsTheFirstReport: the first report's start is kept
// apart from the tail, so a backtrace longer than the tail, or a second
// report (a joined thread's panic raised again by main), does not take the
// headline's place; written in chunks that split its lines.
func TestStderrLogKeepsTheFirstReport(t *testing.T) {
	deep := "log: serving\n" + strings.Replace(rustPanic, "log: serving\n", "", 1) +
		strings.Repeat("  42: lower::nest\n             at src/lower.rs:99:9\n", 400) +
		"\nthread 'main' panicked at src/main.rs:9:22:\ncalled `Result::unwrap()` on an `Err` value: Any { .. }\n"
	for _, chunk := range []int{1, 7, 4096, len(deep)} {
		l := &stderrLog{}
		for s := deep; s != ""; {
			k := min(chunk, len(s))
			if n, err := l.Write([]byte(s[:k])); n != k || err != nil {
				t.Fatalf("Write = %d, %v; want %d", n, err, k)
			}
			s = s[k:]
		}
		if len(l.String()) > tailSize {
			t.Errorf("chunks of %d: tail of %d bytes", chunk, len(l.String()))
		}
		h, p, f := crashReport(l.Report())
		if h != "main.rs: index out of bounds: the len is 3 but the index is 5" || !p || !f {
			t.Errorf("chunks of %d: headline %q (panic %v, found %v), want the first panic's", chunk, h, p, f)
		}
	}
	for _, logs := range []string{strings.Repeat("x", 3*lineSize) + "\nok\n", "log: panic hook installed\n", "log: no panic: yet\n"} {
		l := &stderrLog{}
		l.Write([]byte(logs))
		if l.Report() != "" {
			t.Errorf("a log line started a report: %q", l.Report())
		}
	}
}

// TestStderrLogForgetsEarlierRequests: a report printed for an earlier
// graph (a panic the server caught and answered as an error) is not the
// report of the death on a later one.
func TestStderrLogForgetsEarlierRequests(t *testing.T) {
	l := &stderrLog{}
	l.Write([]byte("log: starting\n"))
	l.newRequest() // the first: what the server wrote as it started goes with it
	if got := l.SinceRequest(); got != "log: starting\n" {
		t.Errorf("since the first request: %q", got)
	}
	l.Write([]byte("thread 'main' panicked at src/a.rs:1:1:\ncaught and answered\n"))
	l.newRequest()
	l.Write([]byte("log: next graph\nterminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n"))
	if h, _, _ := crashReport(l.Report()); h != "uncaught std::bad_alloc: std::bad_alloc" {
		t.Errorf("headline %q, want this request's", h)
	}
	l.newRequest()
	l.Write([]byte("log: a graph\n"))
	if got := l.SinceRequest(); got != "log: a graph\n" {
		t.Errorf("since the request: %q", got)
	}
	if l.Report() != "" || !strings.Contains(l.String(), "caught and answered") {
		t.Errorf("after a request: report %q, tail %q", l.Report(), l.String())
	}
}

// TestStartupDeathWorded: a server that cannot start (a wrong flag in its
// command) dies on its first request; its answer names the error line, not
// the usage text printed after it.
func TestStartupDeathWorded(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "structurize")
	build := exec.Command("go", "build", "-o", bin, "github.com/cfgfuzz/cfgfuzz/cmd/structurize")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/structurize: %v\n%s", err, out)
	}
	side, err := ProcessFactory("wrong flag", []string{bin, "--serve"}, "").New()
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close()
	a := side.Structurize(cfg.FromSuccs([][]int{{1}, {}}), proto.Options{}, 10*time.Second)
	out, sig, _ := classifyAnswer(a)
	if want := "structurize:crash:exit status N: flag provided but not defined: -serve"; out != OutCrash || sig != want {
		t.Errorf("%s %q (%s), want crash %q", out, sig, a.Reason, want)
	}
}

// TestInProcessPanicSite: a panic of a structurizer in this process is
// led by the function that panicked, as a dead server's Go trace is: one
// message from two functions is two signatures.
func TestInProcessPanicSite(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1}, {}})
	var sigs []string
	for _, fn := range []func(*cfg.Graph, proto.Options) Answer{placeMergesPanics, buildLoopsPanics} {
		a := answerRecovered(fn, g, proto.Options{})
		_, sig, _ := classifyAnswer(a)
		sigs = append(sigs, sig)
	}
	want := []string{
		"structurize:panic:fuzz.placeMergesPanics: runtime error: index out of range [N] with length N",
		"structurize:panic:fuzz.buildLoopsPanics: runtime error: index out of range [N] with length N",
	}
	if !slices.Equal(sigs, want) {
		t.Errorf("signatures %q, want %q", sigs, want)
	}
}

var outOfRange []int

func placeMergesPanics(g *cfg.Graph, _ proto.Options) Answer {
	return Answer{Reason: fmt.Sprint(outOfRange[g.Len()])}
}

func buildLoopsPanics(g *cfg.Graph, _ proto.Options) Answer {
	return Answer{Reason: fmt.Sprint(outOfRange[g.Len()+1])}
}
