// preflight_test.go: Resolve refuses a command spec whose program the
// shell cannot find or execute (status 127 or 126 before a line is
// written), with an error that names the command and says which, and
// accepts every other command, whatever it answers: a crash or a protocol
// violation of its own is the campaign's finding, not a setup error. With
// HandOn the server the preflight started is the one the first
// structurizer call talks to, a fast one and one slower to start than
// the preflight's limit alike: one start, not two.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func TestPreflight(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "server")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, c := range []struct {
		cmd  string
		want string // in the error; "" accepted
	}{
		{filepath.Join(dir, "no-such-server"), "was not found"},
		{notExec, "could not be executed"},
		{"sh -c 'read line; exit 127'", "was not found"}, // silent 127: what the shell says of a missing program
		{`sh -c 'echo "./adapter: error while loading shared libraries: libshx.so: cannot open shared object file: No such file or directory" >&2; exit 127'`, "could not be loaded (a missing shared library) (exit status 127): ./adapter: error while loading shared libraries: libshx.so"}, // the dynamic loader's words
		{"sh -c 'exit 3'", "ends before it answers anything, on the protocol's hello, on the one-block graph {{}} and on the diamond {{1, 2}, {3}, {3}, {}} alike (exit status 3)"},
		{"sh -c 'echo no config >&2; exit 1'", "(exit status 1: no config)"},
		{"sh -c 'kill -SEGV $$'", "(killed by a signal)"},
		// A server that dies on the version 2 hello but answers a version
		// 1 request runs: the handshake serves it version 1.
		{`sh -c 'read line; case "$line" in *hello*) exit 3;; esac; echo "{\"id\":1,\"outcome\":\"refused\",\"reason\":\"x\"}"'`, ""},
		// One that dies on the hello and on the one-block graph (a bug of
		// that graph's) but answers the diamond runs: the campaign judges it.
		{`sh -c 'read line; case "$line" in *hello*|*"{{}}"*) exit 3;; esac; echo "{\"id\":1,\"outcome\":\"refused\",\"reason\":\"x\"}"'`, ""},
		{"sh -c 'read line; echo garbage'", ""},
		{"sh -c 'echo answer; exit 127'", ""}, // it wrote a line: it ran
		{"sleep 60", ""},                      // silent past the limit: a hang is the campaign's finding
	} {
		_, _, err := Resolve(Spec{Kind: SpecCmd, Cmd: c.cmd}, ResolveOptions{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("cmd:%s: %v, want it left to the campaign", c.cmd, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.cmd)):
			t.Errorf("cmd:%s: error %v, want one naming the command and saying it %s", c.cmd, err, c.want)
		}
	}
	// selftest shows such a server's exchange itself.
	if _, _, err := Resolve(Spec{Kind: SpecCmd, Cmd: "sh -c 'exit 3'"}, ResolveOptions{LeaveEnded: true}); err != nil {
		t.Errorf("LeaveEnded: %v, want the ended server left to the caller", err)
	}
	if took := time.Since(start); took > 5*preflightLimit {
		t.Errorf("the preflights took %v, more than the silent server's limit (%v) and a little", took, preflightLimit)
	}
}

// TestPreflightHandsItsServerOn: with HandOn, a real server that counts
// its starts in a file is started once from Resolve to its first graph's
// answer, whether it answers the preflight's hello at once or starts
// slower than the preflight's limit; the second graph, and a second New,
// start no more. With no options the preflight's hello is the handshake
// (request ids 1, then 2 and 3 for the graphs); with a strategy its
// answer is set aside and the strategy's hello follows (ids up to 4).
// Without HandOn the preflight ends its server: two starts.
func TestPreflightHandsItsServerOn(t *testing.T) {
	server := redteamServer(t)
	for _, c := range []struct {
		sleep  string
		opt    proto.Options
		handOn bool
		lastID int64
		starts int
	}{
		{"0", proto.Options{}, true, 3, 1},
		{"0", proto.Options{Strategy: "dispatch"}, true, 4, 1},
		{"1.3", proto.Options{}, true, 3, 1},
		{"1.3", proto.Options{Strategy: "dispatch"}, true, 4, 1},
		{"0", proto.Options{}, false, 3, 2},
	} {
		dir := t.TempDir()
		count := filepath.Join(dir, "starts")
		script := filepath.Join(dir, "server.sh")
		if err := os.WriteFile(script, []byte("#!/bin/sh\necho start >> "+count+"\nsleep "+c.sleep+"\nexec "+server+" v1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		f, _, err := Resolve(Spec{Kind: SpecCmd, Cmd: script}, ResolveOptions{Process: ProcessOptions{StartTimeout: 10 * time.Second}, HandOn: c.handOn})
		if err != nil {
			t.Fatalf("sleep %s: %v", c.sleep, err)
		}
		resolved := time.Since(began)
		side, err := f.New()
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if a := side.Structurize(smallGraph(t), c.opt, time.Second); a.Outcome != proto.OK {
				t.Errorf("sleep %s, options %+v, graph %d: %s %s, want ok", c.sleep, c.opt, i, a.Outcome, a.Reason)
			}
		}
		if id := side.(*Process).nextID; id != c.lastID {
			t.Errorf("sleep %s, options %+v: last request id %d, want %d", c.sleep, c.opt, id, c.lastID)
		}
		side.Close()
		other, err := f.New() // a second worker's: a process of its own, not started yet
		if err != nil {
			t.Fatal(err)
		}
		other.Close()
		b, err := os.ReadFile(count)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "start"); n != c.starts {
			t.Errorf("sleep %s, options %+v, hand on %v: %d starts, want %d", c.sleep, c.opt, c.handOn, n, c.starts)
		}
		if resolved > preflightLimit+time.Second {
			t.Errorf("sleep %s: Resolve took %v, want the preflight's limit (%v) at most and a little", c.sleep, resolved, preflightLimit)
		}
		t.Logf("sleep %s, options %+v, hand on %v: Resolve %v, two graphs answered %v", c.sleep, c.opt, c.handOn, resolved, time.Since(began))
	}
}
