// selftest_test.go: `cfgfuzz selftest` passes this tree's servers (v2) and
// a conformant v1 one, skips the case of a graph a v2 server declared it
// does not serve (naming the promise), and names what a misbehaving server
// gets wrong, exit 1.
package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestSelfTest(t *testing.T) {
	t.Parallel() // beside other tests (parallelTests)
	// Each program by its name; a name of none is a path where nothing is.
	prog := map[string]string{"no-such-server": filepath.Join(t.TempDir(), "no-such-server")}
	for _, pkg := range []string{"../structurize", "../../fuzz/testdata/redteam/server", "../../fuzz/testdata/badstruct"} {
		prog[filepath.Base(pkg)] = builtProgram(t, pkg)
	}
	for _, c := range []struct {
		server string
		code   int
		want   string
	}{
		{"structurize", exitOK, `speaks v2 as "cfgfuzz/structured"`},
		{"structurize --form func", exitOK, "ok   answer of a switch (answered with func)\nok   answer of a loop (answered with func)\n"},
		{"structurize", exitOK, " ok, 0 failed, 0 skipped\n"},
		// A module answer is run against the register file's checksum; a
		// func answer gets its file from cfgfuzz.
		{"structurize", exitOK, "ok   a module answer carries options.registers' file (answered with module, its register file's checksum right)\n"},
		{"structurize --form func", exitOK, "ok   a module answer carries options.registers' file (answered with func: cfgfuzz emits the file itself)\n"},
		{"server no-registers", exitFail, "FAIL a module answer carries options.registers' file: graph {{1, 2}, {2}, {}} with options.registers 5: the module fails exec:registers-mismatch (walk 0: register file of 5: checksum 0x00000000"},
		{"server v1", exitOK, "speaks v1 only"},
		{"server v2-limited", exitOK, " ok, 0 failed, 1 skipped (the server's promises exclude their graphs"},
		// It declares no switches and exits if sent one: the switch's case
		// is skipped, naming the promise, and the loop's still runs.
		{"server v2-limited", exitOK, "skip answer of a switch: the server declares \"switches\":false, so a campaign does not send it {{1, 2, 3}, {4}, {4}, {4}, {}} (unsupported: switches)\nok   answer of a loop (answered with func)\n"},
		{"badstruct", exitFail, "FAIL v1 request answered: no answer: the server ended (panic: main.main.func1: badstruct: four blocks)"},
		{"server wrong-id", exitFail, "FAIL ids echoed in order: answer id 1007 to request 7"},
		{"server both", exitFail, "FAIL v1 request answered: ok answer with both module and func"},
		{"server empty-block", exitFail, "FAIL v1 request answered: func block without a required field: block 0 lacks kind, orig, merge.kind, term.kind"},
		{"server good", exitFail, `FAIL unknown version is a request error: outcome "ok"`},
		// A line that is not JSON (a banner, a log) shows its first bytes
		// and where such lines belong.
		{"server garbage", exitFail, `FAIL v1 request answered: answer is not JSON: first bytes received "hello, this is not json" (invalid character 'h' looking for beginning of value); standard output carries the protocol's answers only, one JSON object a line: logs and banners belong on standard error`},
		{"cmd:" + prog["structurize"], exitOK, `speaks v2 as "cfgfuzz/structured"`}, // a spec, as every command takes
		{"no-such-server", exitUsage, "the command was not found"},
		{"cmd:", exitUsage, "cmd: needs a command"},
		{"", exitUsage, "--structurizer: empty value"},
	} {
		server := c.server
		if name, args, ok := strings.Cut(server, " "); ok {
			server = prog[name] + " " + args
		} else if server != "" && !strings.Contains(server, ":") {
			server = prog[server]
		}
		// The cases run side by side (parallelTests): a selftest mostly
		// waits for its servers to start and answer.
		t.Run(c.server, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			code := run([]string{"selftest", "--structurizer", server, "--timeout", "2s"}, nil, &stdout, &stderr)
			if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.want) {
				t.Errorf("%s: exit %d, want %d and %q in:\n%s%s", c.server, code, c.code, c.want, stdout.String(), stderr.String())
			}
			// A verdict names the server it is about.
			verdict := map[int]string{exitOK: " conforms to the protocol\n", exitFail: " does not conform to the protocol"}[c.code]
			if verdict != "" && !strings.Contains(stderr.String(), "cfgfuzz selftest: "+server+verdict) {
				t.Errorf("%s: exit %d without the verdict %q naming the server:\n%s", c.server, code, server+verdict, stderr.String())
			}
		})
	}
}

// TestSelfTestOfAServerThatNeverAnswers: a command that never writes a
// line (one that exits at once, one that sleeps) fails every case without
// an answer: no nonconformance of its answers but a server that did not
// start, exit 2 as run treats it, saying so.
func TestSelfTestOfAServerThatNeverAnswers(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	for _, server := range []string{"cmd:true", "cmd:sleep 100"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"selftest", "--structurizer", server, "--timeout", "100ms", "--start-timeout", "100ms"}, nil, &stdout, &stderr)
		if want := "cfgfuzz selftest: " + server + " answered none of the cases: it did not start as a protocol server"; code != exitUsage || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s%s", server, code, want, stdout.String(), stderr.String())
		}
	}
}

// TestMostlyUnsupportedCampaignWarns: a campaign whose every graph the
// structurizer's hello excludes (at most 6 blocks, graphs of 10-20)
// structurizes nothing; it warns, naming the promises, and judged no
// graph: incomplete, exit 2.
func TestMostlyUnsupportedCampaignWarns(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--structurizer", hostileServer(t) + " v2-limited", "--graphs", "12", "--blocks", "10-20", "--kinds", "reducible",
		"--progress", "none", "--out", filepath.Join(dir, "out")}, nil, &stdout, &stderr)
	want := `warning: 12 of 12 graphs unsupported: the structurizer's hello declares it does not serve them ({"deterministic":true`
	if code != exitUsage || !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), `"max_blocks":6`) ||
		!strings.Contains(stderr.String(), "declined every graph, so the campaign judged none: incomplete (exit 2)") {
		t.Errorf("exit %d, want 2, %q naming max_blocks 6 and the campaign incomplete:\n%s%s", code, want, stdout.String(), stderr.String())
	}
}
