// slow_start_test.go: a structurizer server's start-up (a JIT, an
// interpreter loading its libraries, a large binary) has an allowance of
// its own, --start-timeout, beyond the per-graph --timeout: a server
// slower to start than --timeout is judged on its graphs by run, compare,
// check and minimize, never charged with timeouts; one that answers
// nothing within both has not started, a harness error (exit 2) naming
// --start-timeout, not a finding. selftest gives the first answer after
// each start of its server the same allowance. A campaign whose every
// graph timed out says how to tell a structurizer too slow for --timeout.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// slowStartServer is a protocol server (cfgfuzz structurize, flags added)
// that sleeps delay seconds before it reads its input.
func slowStartServer(t *testing.T, dir, delay, flags string) string {
	t.Helper()
	server := filepath.Join(dir, "slow-start.sh")
	script := "#!/bin/sh\nsleep " + delay + "\nexec " + cfgfuzzBinary(t) + " structurize " + flags + "\n"
	if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return server
}

// hangsOnGraphs is a server script that answers the protocol's hello as
// a v1 server does (it has started), then hangs on the graph.
const hangsOnGraphs = `#!/bin/sh
read -r line
case "$line" in *'"hello"'*)
	id=$(printf '%s\n' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
	echo "{\"id\":$id,\"outcome\":\"error\",\"reason\":\"request: version 2\"}"
	read -r line;;
esac
exec sleep 1000
`

// The commands run side by side, and beside other tests (parallelTests):
// they mostly wait for their servers to start.
func TestSlowStartIsNoFinding(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server := slowStartServer(t, dir, "1.5", "")
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {4, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--structurizer", server, "--graphs", "2", "--workers", "1", "--timeout", "1s", "--checks", "exec", "--minimize=false", "--progress", "none", "--out", filepath.Join(dir, "run")},
		{"compare", "--baseline-structurizer", "self", "--structurizer", server, "--graphs", "2", "--workers", "1", "--timeout", "1s", "--checks", "exec", "--minimize=false", "--progress", "none", "--out", filepath.Join(dir, "compare")},
		{"check", "--structurizer", server, "--timeout", "1s", "--checks", "exec", g},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCmd(args, "")
			if code != exitOK || strings.Contains(stdout, "timeout 1") || strings.Contains(stdout, "timeout 2") || strings.Contains(stdout, "structurize:timeout") {
				t.Errorf("exit %d, want 0 and no timeout: a start-up slower than --timeout is within --start-timeout\n%s%s", code, stdout, stderr)
			}
		})
	}
	// minimize: every judgement (three of them on new processes) starts
	// a server; the planted fault is what fails, never the start-up.
	t.Run("minimize", func(t *testing.T) {
		t.Parallel()
		planted := slowStartServer(t, t.TempDir(), "1.5", "--inject swap-arms")
		code, stdout, stderr := runCmd([]string{"minimize", "--structurizer", planted, "--timeout", "1s", "--checks", "exec", "--max-steps", "2", g}, "")
		if code != exitOK || !strings.Contains(stdout+stderr, "exec:trace-mismatch") || strings.Contains(stdout+stderr, "structurize:timeout") {
			t.Errorf("exit %d, want 0 minimizing exec:trace-mismatch, no timeout\n%s%s", code, stdout, stderr)
		}
	})
}

// TestSelfTestSlowStart: selftest passes a server slower to start than
// --timeout on --start-timeout's default, and fails its hello's case,
// naming both flags, when --start-timeout is too short for the start:
// exit 2, as no case got an answer (a server that did not start).
func TestSelfTestSlowStart(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	server := slowStartServer(t, t.TempDir(), "0.4", "")
	for _, c := range []struct {
		flags []string
		code  int
		want  string
	}{
		{nil, exitOK, " ok, 0 failed"},
		{[]string{"--start-timeout", "1ms"}, exitUsage, "FAIL v2 hello answered (or refused as a version): no answer within 200ms (--timeout) and the start-up allowance of 1ms (--start-timeout)"},
		{[]string{"--start-timeout", "0s"}, exitUsage, "start-timeout"},
	} {
		code, stdout, stderr := runCmd(append([]string{"selftest", "--structurizer", server, "--timeout", "200ms"}, c.flags...), "")
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("selftest %q: exit %d, want %d and %q in:\n%s%s", c.flags, code, c.code, c.want, stdout, stderr)
		}
	}
}

// silentServer is a server script that never answers: it never starts.
func silentServer(t *testing.T, dir string) string {
	t.Helper()
	server := filepath.Join(dir, "silent.sh")
	if err := os.WriteFile(server, []byte("#!/bin/sh\nexec sleep 1000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return server
}

func TestServerThatNeverStartsIsAHarnessError(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	dir := t.TempDir()
	server := silentServer(t, dir)
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	limits := []string{"--timeout", "200ms", "--start-timeout", "300ms"}
	code, stdout, stderr := runCmd(append([]string{"run", "--structurizer", server, "--graphs", "2", "--workers", "1", "--checks", "exec", "--progress", "none", "--out", filepath.Join(dir, "run")}, limits...), "")
	if code != exitUsage || !strings.Contains(stdout, "timeout 0 crash 0 error 2") || !strings.Contains(stdout, "0 findings") {
		t.Errorf("run: exit %d, want 2 with 2 harness errors and no finding\n%s%s", code, stdout, stderr)
	}
	rep := readCampaignReport(t, filepath.Join(dir, "run"))
	if len(rep.HarnessErrors) == 0 || !strings.Contains(rep.HarnessErrors[0].Detail, "--start-timeout") {
		t.Errorf("harness errors %+v, want them to name --start-timeout", rep.HarnessErrors)
	}
	if hint := "every graph is a harness error: `cfgfuzz selftest --structurizer cmd:" + server + "`"; !strings.Contains(stderr, hint) {
		t.Errorf("run: want the hint %q in:\n%s", hint, stderr)
	}
	code, stdout, stderr = runCmd(append([]string{"check", "--structurizer", server, "--checks", "exec", g}, limits...), "")
	if code != exitUsage || strings.Contains(stdout, "structurize:timeout") || !strings.Contains(stdout+stderr, "did not start") {
		t.Errorf("check: exit %d, want 2 saying the structurizer did not start\n%s%s", code, stdout, stderr)
	}
}

// TestEveryGraphAHarnessErrorStopsEarly: a campaign whose first graphs'
// servers do not start stops after fuzz.UnstartedStopGraphs of them, not
// at its budget, the graphs then in flight stopped with their servers:
// incomplete, exit 2, the reason and the selftest command on the progress
// line, stderr and the reports.
func TestEveryGraphAHarnessErrorStopsEarly(t *testing.T) {
	t.Parallel() // it mostly waits (parallelTests)
	dir := t.TempDir()
	server, out := silentServer(t, dir), filepath.Join(dir, "run")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "40", "--workers", "2", "--timeout", "200ms", "--start-timeout", "300ms", "--checks", "exec", "--progress", "plain", "--out", out}, "")
	why := "stopped early (the servers of the first 2 graphs answered nothing, not even the protocol's hello, within --timeout and --start-timeout: every graph would wait as long)"
	selftest := "every graph is a harness error: `cfgfuzz selftest --structurizer cmd:" + server + "`"
	if code != exitUsage || !strings.Contains(stdout, "incomplete: "+why) || !strings.Contains(stderr, "cfgfuzz: "+why) || !strings.Contains(stderr, selftest) || !strings.Contains(stderr, ", stopped early") {
		t.Errorf("exit %d, want 2, %q on stdout and stderr (the progress line's), and %s\n%s%s", code, why, selftest, stdout, stderr)
	}
	rep := readCampaignReport(t, out)
	if in := rep.Incomplete; in == nil || !strings.HasPrefix(in.Reason, why) || in.Planned != 40 || in.Done != 2 || rep.Graphs != 2 || rep.Outcomes["error"] != rep.Graphs {
		t.Errorf("report.json: incomplete %+v over %d graphs %v; want %q after 2 of 40 graphs, both errors, the graphs in flight then stopped (their servers still starting)", in, rep.Graphs, rep.Outcomes, why)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(md), why) || !strings.Contains(string(md), "`cfgfuzz selftest --structurizer cmd:"+server+"` shows") {
		t.Errorf("report.md does not say %q and the selftest command (%v):\n%s", why, err, md)
	}
}

func TestEveryGraphTimedOutHint(t *testing.T) {
	dir := t.TempDir()
	server := filepath.Join(dir, "hangs.sh")
	if err := os.WriteFile(server, []byte(hangsOnGraphs), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "2", "--workers", "1", "--timeout", "300ms", "--start-timeout", "300ms", "--checks", "exec",
		"--minimize=false", "--progress", "none", "--out", filepath.Join(dir, "c")}, "")
	want := "every graph timed out (--timeout 300ms): `cfgfuzz selftest --structurizer cmd:" + server + " --timeout 1m`"
	if code != exitFail || !strings.Contains(stdout, "timeout 2 ") || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want 1, 2 timeouts and the note %q:\n%s%s", code, want, stdout, stderr)
	}
}

// TestCheckLimitStopIsNotBlamedOnTheStructurizer: a campaign whose every
// graph's checks run past --check-timeout stops early, and its note says
// that the checks, not the structurizer, ran out of time, with no
// selftest command.
func TestCheckLimitStopIsNotBlamedOnTheStructurizer(t *testing.T) {
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "20", "--check-timeout", "1ns", "--progress", "none", "--out", filepath.Join(t.TempDir(), "c")}, "")
	if code != exitUsage || !strings.Contains(stderr, "the checks past their limit (--check-timeout 1ns), not the structurizer") || strings.Contains(stderr, "selftest") {
		t.Errorf("exit %d, want 2 and a note on the check limit without a selftest command\n%s%s", code, stdout, stderr)
	}
}
