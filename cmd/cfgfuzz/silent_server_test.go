// silent_server_test.go: check and regress on a structurizer whose servers
// start but never answer, not even the protocol's hello (a program that
// reads nothing, a `go run` still compiling), stop as a campaign does
// (fuzz.UnstartedStop): after the first 2 graphs, each of which waits
// --timeout and --start-timeout, the graphs left are not judged, the
// output says how many and why, the exit status is 2, and no server is
// left running.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestSilentServerStopsCheckAndRegress(t *testing.T) {
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	// A server that reads nothing and writes nothing.
	server := filepath.Join(tmp, "silent.sh")
	if err := os.WriteFile(server, []byte("#!/bin/sh\nexec sleep 100\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const files = 8
	var graphs []string
	regs := filepath.Join(tmp, "regs")
	if err := os.Mkdir(regs, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range files {
		g := filepath.Join(tmp, fmt.Sprintf("g%d.cfg", i))
		if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
		reg := filepath.Join(regs, fmt.Sprintf("r%d.cfg", i))
		if err := os.WriteFile(reg, []byte("# signature: none\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each graph whose server does not start waits --timeout and
	// --start-timeout, 2 s; the preflight hands its silent server on
	// after a second.
	limits := []string{"--structurizer", "cmd:" + server, "--timeout", "1s", "--start-timeout", "1s"}
	const allowance = 2 * time.Second
	left := files - fuzz.UnstartedStopGraphs
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"check", append(append([]string{"check"}, limits...), graphs...),
			[]string{fmt.Sprintf("%d graphs not judged (incomplete)", left), "stopped early (the servers of the first 2 graphs answered nothing",
				"cfgfuzz selftest --structurizer", fmt.Sprintf("0 of %d graphs passed", files)}},
		{"check-json", append(append([]string{"check", "--json"}, limits...), graphs...),
			[]string{fmt.Sprintf("%d graphs not judged (incomplete)", left)}},
		{"regress", append(append([]string{"regress"}, limits...), regs),
			[]string{fmt.Sprintf("incomplete: %d cases not judged", left), "not judged: the servers of cmd:" + server, "cfgfuzz selftest --structurizer"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			code, token := runWithServerToken(t, cmd)
			took := time.Since(start)
			out := stdout.String() + stderr.String()
			t.Logf("exit %d after %v\n%s", code, took, out)
			// Two allowances and the preflight's second; without the stop
			// every one of the files would wait its allowance.
			if bound := time.Duration(fuzz.UnstartedStopGraphs)*allowance + 4*time.Second; took > bound {
				t.Errorf("took %v, want under %v (about %d allowances of %v, not %d)", took, bound, fuzz.UnstartedStopGraphs, allowance, files)
			}
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			judged := strings.Count(stdout.String(), "no answer to the protocol's hello")
			if c.name == "check-json" {
				judged = strings.Count(stdout.String(), `"outcome":"error"`)
			}
			if judged != fuzz.UnstartedStopGraphs {
				t.Errorf("%d graphs judged (errors of a server that did not start), want %d", judged, fuzz.UnstartedStopGraphs)
			}
			if leftRunning := leftAfter(token, 5*time.Second); len(leftRunning) > 0 {
				t.Errorf("processes of the servers left: %v", leftRunning)
				killPids(leftRunning)
			}
		})
	}
}

// TestSilentServerStopNotAfterAnAnswer: a first graph that a server
// answered keeps check judging every graph, as it keeps a campaign going,
// however many servers after it do not start: one that crashed on the
// first graph, or, with --repeat, answered its first judgement while the
// fresh servers of its later judgements were silent.
func TestSilentServerStopNotAfterAnAnswer(t *testing.T) {
	bin := cfgfuzzBinary(t)
	// crashes answers the hello as a v1 server does (an error) and ends on
	// the first graph without a word: a crash, of a server that started.
	crashes := filepath.Join(t.TempDir(), "crashes.sh")
	script := `read line; id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"id\":$id,\"outcome\":\"error\",\"reason\":\"request: unknown version\"}"; read line; exit 3` + "\n"
	if err := os.WriteFile(crashes, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, first, graphs string
		args                []string
	}{
		// The first server crashes on the first graph; its restarts are
		// silent.
		{"crash", "sh " + crashes, "{{0, 1}, {}}\n{{1}, {}}\n{{}}\n{{1, 2}, {2}, {}}\n", nil},
		// The first server answers; the fresh ones of --repeat are silent.
		{"repeat", bin + " structurize", "{{1}, {}}\n{{}}\n{{1, 2}, {2}, {}}\n", []string{"--repeat", "2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			mark := filepath.Join(tmp, "served")
			server := filepath.Join(tmp, "once.sh")
			script := "#!/bin/sh\nif [ -e " + mark + " ]; then exec sleep 100; fi\ntouch " + mark + "\nexec " + c.first + "\n"
			if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"check", "--structurizer", "cmd:" + server, "--timeout", "1s", "--start-timeout", "1s"}, c.args...)
			cmd := exec.Command(bin, append(args, "-")...)
			cmd.Stdin = strings.NewReader(c.graphs)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
			cmd.Wait()
			t.Logf("%s%s", stdout.String(), stderr.String())
			lines := strings.Count(stdout.String(), "\n")
			if want := strings.Count(c.graphs, "\n"); strings.Contains(stderr.String(), "not judged") || lines != want {
				t.Errorf("%d graphs judged, want all %d, and no early stop", lines, want)
			}
			if leftRunning := leftAfter(token, 5*time.Second); len(leftRunning) > 0 {
				t.Errorf("processes of the servers left: %v", leftRunning)
				killPids(leftRunning)
			}
		})
	}
}

// runWithServerToken runs cmd, a cfgfuzz command, to its end and returns
// its exit status and the token its structurizer servers carry in their
// environment (CFGFUZZ_SERVER=PID.), by which leftAfter finds what they
// left.
func runWithServerToken(t *testing.T, cmd *exec.Cmd) (code int, token string) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	token = "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, token
}
