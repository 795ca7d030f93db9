// interrupt_test.go sends real signals to a real cfgfuzz campaign: SIGINT,
// SIGTERM and SIGHUP each stop it through the normal teardown (no server
// left running), its exit status is 128 + the signal, every report and the
// last line on stderr say it is incomplete and give the resume command,
// and the resumed campaign is complete. A time budget that runs out is
// complete. merge refuses an incomplete shard set unless --partial, and a
// partial report names the missing shards.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func readReportJSON(t *testing.T, dir string) *fuzz.Report {
	t.Helper()
	var rep fuzz.Report
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "report.json"))), &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func TestRunStopsOnSignal(t *testing.T) {
	bin := cfgfuzzBinary(t)
	for _, tc := range []struct {
		sig   syscall.Signal
		name  string
		extra []string
	}{
		{syscall.SIGINT, "SIGINT", nil},
		// The resume command repeats the minimization's limits, which
		// the campaign's settings do not record.
		{syscall.SIGTERM, "SIGTERM", []string{"--minimize=true", "--minimize-budget", "7m", "--minimize-steps", "9"}},
		{syscall.SIGHUP, "SIGHUP", []string{"--isolate"}}, // servers closed by the teardown
	} {
		if signal.Ignored(tc.sig) {
			t.Logf("%s: skipped: this test process was started ignoring it, and so is the campaign", tc.name)
			continue
		}
		dir := filepath.Join(t.TempDir(), "c")
		args := append([]string{"run", "--graphs", "1000", "--progress", "none", "--minimize=false", "--out", dir}, tc.extra...)
		code, out := signalled(t, exec.Command(bin, args...), dir, tc.sig)
		t.Logf("%s: exit %d\n%s", tc.name, code, out)
		if code != 128+int(tc.sig) {
			t.Errorf("%s: exit %d, want %d", tc.name, code, 128+int(tc.sig))
		}
		rep := readReportJSON(t, dir)
		resume := "cfgfuzz run --resume " + dir + " --minimize=false"
		if tc.sig == syscall.SIGTERM {
			resume = "cfgfuzz run --resume " + dir + " --minimize-steps 9 --minimize-budget 7m0s"
		}
		in := rep.Incomplete
		if in == nil || in.Reason != "interrupted ("+tc.name+")" || in.Done != rep.Graphs+rep.Skipped || in.Planned != 1000 || in.Resume != resume {
			t.Fatalf("%s: report.json incomplete = %+v, want interrupted at %d of 1000 with %q", tc.name, in, rep.Graphs+rep.Skipped, resume)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "interrupted ("+tc.name+")") || !strings.HasSuffix(last, "resume with: "+resume) {
			t.Errorf("%s: last line %q", tc.name, last)
		}
		for _, f := range []string{"report.md", "report.html"} {
			if !strings.Contains(readFile(t, filepath.Join(dir, f)), "resume with: "+resume) {
				t.Errorf("%s: %s does not say the report is incomplete", tc.name, f)
			}
		}
		if left := processesRunning(bin); len(left) > 0 {
			t.Errorf("%s: processes of %s left: %v", tc.name, bin, left)
		}
		if tc.sig != syscall.SIGINT {
			continue
		}
		if code, out := exitCode(t, exec.Command(bin, "run", "--resume", dir, "--progress", "none", "--minimize=false")); code != 0 {
			t.Errorf("resume: exit %d\n%s", code, out)
		}
		if rep := readReportJSON(t, dir); rep.Incomplete != nil || rep.Graphs+rep.Skipped != 1000 {
			t.Errorf("resumed: %d graphs and %d skipped, incomplete %+v", rep.Graphs, rep.Skipped, rep.Incomplete)
		}
	}
}

// processesRunning lists the pids whose command line starts with bin.
func processesRunning(bin string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.HasPrefix(b, []byte(bin+"\x00")) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func TestDurationBudgetIsComplete(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "c")
	if code, out := exitCode(t, exec.Command(bin, "run", "--duration", "1s", "--progress", "none", "--minimize=false", "--out", dir)); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if rep := readReportJSON(t, dir); rep.Incomplete != nil || rep.Graphs == 0 {
		t.Errorf("a spent time budget: %d graphs, incomplete %+v", rep.Graphs, rep.Incomplete)
	}
}

func TestMergeRefusesIncompleteShardSet(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	shard := func(name, sh string) string {
		d := filepath.Join(dir, name)
		if code, out := exitCode(t, smallRun(bin, d, "--shard", sh)); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s", sh, code, out)
		}
		return d
	}
	s0, s1, other := shard("s0", "0/2"), shard("s1", "1/2"), shard("x", "1/3")
	torn := copyDir(t, s1, filepath.Join(dir, "torn"))
	f, _ := os.OpenFile(filepath.Join(torn, "results.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"sum":"01`)
	f.Close()
	nolog := copyDir(t, s1, filepath.Join(dir, "nolog"))
	os.Remove(filepath.Join(nolog, "results.jsonl"))
	for _, tc := range []struct {
		name   string
		inputs []string
		want   string
	}{
		{"missing shard", []string{s0}, "missing shards 1/2"},
		{"torn log", []string{s0, torn}, "torn results log"},
		{"no log", []string{s0, nolog}, "no results log"},
		{"another split", []string{s0, s1, other}, "another split"},
	} {
		out := filepath.Join(dir, "m-"+strings.ReplaceAll(tc.name, " ", "-"))
		code, msg := exitCode(t, exec.Command(bin, append([]string{"merge", "--out", out}, tc.inputs...)...))
		if code != exitUsage || !strings.Contains(msg, tc.want) || !strings.Contains(msg, "--partial") {
			t.Errorf("%s: exit %d, want 2 naming %q and --partial\n%s", tc.name, code, tc.want, msg)
		}
	}
	part := filepath.Join(dir, "partial")
	code, msg := exitCode(t, exec.Command(bin, "merge", "--partial", "--out", part, s0))
	rep := readReportJSON(t, part)
	if code != exitUsage || rep.Incomplete == nil || len(rep.Incomplete.MissingShards) != 1 || rep.Incomplete.MissingShards[0] != "1/2" {
		t.Errorf("--partial: exit %d, incomplete %+v\n%s", code, rep.Incomplete, msg)
	}
	if !strings.Contains(readFile(t, filepath.Join(part, "report.md")), "missing shards 1/2") {
		t.Errorf("--partial: report.md does not name the missing shard")
	}
	whole := filepath.Join(dir, "whole")
	if code, msg := exitCode(t, exec.Command(bin, "merge", "--out", whole, s0, s1)); code != 0 || readReportJSON(t, whole).Incomplete != nil {
		t.Errorf("complete set: exit %d\n%s", code, msg)
	}
}

// copyDir copies the files of a directory (one level).
func copyDir(t *testing.T, from, to string) string {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Type().IsRegular() {
			os.WriteFile(filepath.Join(to, e.Name()), []byte(readFile(t, filepath.Join(from, e.Name()))), 0o644)
		}
	}
	return to
}

// TestSecondSignalKillsServers: a second SIGINT ends a campaign whose
// servers hang and ignore SIGTERM at once, and kills them and what they
// started: no process of the campaign is left.
func TestSecondSignalKillsServers(t *testing.T) {
	cmd, out, token := startServersCampaign(t, "#!/bin/sh\ntrap '' TERM INT HUP\nread -r line\nsleep 1000 &\nwait\n")
	if len(processesWithEnv(token)) == 0 {
		t.Fatalf("no server of the campaign is running\n%s", out.String())
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	took := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	t.Logf("exit %d after %v\n%s", code, took, out.String())
	if code != 130 || took > 10*time.Second {
		t.Errorf("exit %d after %v, want 130 at once", code, took)
	}
	if left := leftAfter(token, 5*time.Second); len(left) > 0 {
		t.Errorf("processes of the campaign left: %v", left)
		killPids(left)
	}
}

// startServersCampaign starts a campaign of two workers on the server
// script and returns once its servers run: the command, its output and
// the environment entry that marks its servers and what they start.
func startServersCampaign(t *testing.T, script string) (*exec.Cmd, *bytes.Buffer, string) {
	t.Helper()
	server := filepath.Join(t.TempDir(), "server.sh")
	os.WriteFile(server, []byte(script), 0o755)
	dir := filepath.Join(t.TempDir(), "c")
	cmd := exec.Command(cfgfuzzBinary(t), "run", "--structurizer", server, "--graphs", "20", "--workers", "2", "--timeout", "60s", "--progress", "none", "--out", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(dir, "lock"))
	time.Sleep(time.Second)
	return cmd, &out, "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
}

// killPids kills what a failed test left running.
func killPids(pids []string) {
	for _, p := range pids {
		if n, err := strconv.Atoi(p); err == nil {
			syscall.Kill(n, syscall.SIGKILL)
		}
	}
}

// processesWithEnv lists the pids whose environment holds an entry that
// starts with prefix.
func processesWithEnv(prefix string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(b, []byte{0}) {
			if bytes.HasPrefix(kv, []byte(prefix)) {
				pids = append(pids, e.Name())
				break
			}
		}
	}
	return pids
}

// settledProcesses is processesWithEnv once the list stops changing: the
// parent-death signal reaches the servers when the system gets to it,
// later on a loaded machine (two equal readings 200 ms apart, 5 s at most).
func settledProcesses(prefix string) []string {
	last := processesWithEnv(prefix)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		now := processesWithEnv(prefix)
		if slices.Equal(now, last) {
			return now
		}
		last = now
	}
	return last
}

// leftAfter is processesWithEnv once it is empty, or after wait: a killed
// process stays listed until the system has torn it down, later on a
// loaded machine; one still listed after wait was left alive.
func leftAfter(prefix string, wait time.Duration) []string {
	left := processesWithEnv(prefix)
	for deadline := time.Now().Add(wait); len(left) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		left = processesWithEnv(prefix)
	}
	return left
}

// TestKilledCampaignLeavesNothing: a campaign killed by SIGKILL takes its
// servers with it (their parent-death signal), and the next campaign kills
// what they started. Every campaign that starts on the machine sweeps
// what the servers of a cfgfuzz no longer running left (fuzz.SweepOrphans):
// one of another test package's, started between the kill and this test's
// next campaign, may take the orphans first. A round that lost them so is
// run again; a fault shows in every round.
func TestKilledCampaignLeavesNothing(t *testing.T) {
	const rounds = 3
	for round := 1; ; round++ {
		lost := killedCampaignRound(t)
		if lost == "" {
			return
		}
		if round == rounds {
			t.Fatalf("%d rounds, each losing the orphans to another sweep: %s", rounds, lost)
		}
		t.Logf("round %d: %s; again", round, lost)
	}
}

// killedCampaignRound is a round of TestKilledCampaignLeavesNothing: ""
// when it ran to its end (failing t where it found a fault), else how it
// lost the orphans to another campaign's sweep.
func killedCampaignRound(t *testing.T) string {
	cmd, _, token := startServersCampaign(t, "#!/bin/sh\nsleep 1000 &\nread -r line\nexec sleep 1000\n")
	before := processesWithEnv(token)
	cmd.Process.Kill()
	cmd.Wait()
	left := settledProcesses(token)
	t.Logf("processes of the campaign: %v before SIGKILL, %v after", before, left)
	if len(before) >= 4 && len(left) == 0 {
		return fmt.Sprintf("the %d processes of the campaign were all gone after its kill", len(before))
	}
	if len(before) < 4 || len(left) >= len(before) {
		killPids(left)
		t.Fatalf("want the servers dead and their background sleeps left: %d before, %d after", len(before), len(left))
	}
	code, out := exitCode(t, exec.Command(cfgfuzzBinary(t), "run", "--graphs", "5", "--progress", "none", "--out", filepath.Join(t.TempDir(), "next")))
	still := leftAfter(token, 5*time.Second)
	if code == 0 && len(still) == 0 && !strings.Contains(out, "killed "+strconv.Itoa(len(left))+" processes") {
		return fmt.Sprintf("the %d orphans were gone and the next campaign killed fewer", len(left))
	}
	if code != 0 || !strings.Contains(out, "killed "+strconv.Itoa(len(left))+" processes") {
		t.Errorf("the next campaign: exit %d, want it to say it killed %d\n%s", code, len(left), out)
	}
	if len(still) > 0 {
		t.Errorf("left after the next campaign: %v", still)
		killPids(still)
	}
	return ""
}

// TestInterruptedNightResumesAsPrinted: a night with --state stopped by
// SIGINT prints a resume command that names the state directory, leaves
// that directory as it read it, and the command, run as printed, completes
// the night and commits its state.
func TestInterruptedNightResumesAsPrinted(t *testing.T) {
	t.Parallel() // its builds and campaigns keep the cores busy while the tests that mostly wait wait (parallelTests)
	bin := cfgfuzzBinary(t)
	dir, state := filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "state")
	if code, out := exitCode(t, exec.Command(bin, "run", "--graphs", "40", "--seed", "1", "--state", state, "--night", "2026-03-01",
		"--progress", "none", "--minimize=false", "--out", filepath.Join(t.TempDir(), "first"))); code != 0 {
		t.Fatalf("first night: exit %d\n%s", code, out)
	}
	before := readFile(t, filepath.Join(state, fuzz.StateSeenFile))
	_, out := signalled(t, exec.Command(bin, "run", "--graphs", "3000", "--seed", "2", "--state", state, "--night", "2026-03-02",
		"--progress", "none", "--minimize=false", "--out", dir), dir, syscall.SIGINT)
	rep := readReportJSON(t, dir)
	want := "cfgfuzz run --resume " + dir + " --state " + state + " --minimize=false"
	if rep.Incomplete == nil || rep.Incomplete.Resume != want {
		t.Fatalf("incomplete %+v, want the resume command %q\n%s", rep.Incomplete, want, out)
	}
	if readFile(t, filepath.Join(state, fuzz.StateSeenFile)) != before {
		t.Errorf("the interrupted night changed %s", state)
	}
	args := strings.Fields(strings.TrimPrefix(want, "cfgfuzz "))
	if code, out := exitCode(t, exec.Command(bin, append(args, "--progress", "none", "--minimize=false")...)); code != 0 {
		t.Fatalf("%s: exit %d\n%s", want, code, out)
	}
	if rep := readReportJSON(t, dir); rep.Incomplete != nil || rep.State == nil {
		t.Errorf("resumed night: incomplete %+v, state %v", rep.Incomplete, rep.State != nil)
	}
	if readFile(t, filepath.Join(state, fuzz.StateSeenFile)) == before {
		t.Errorf("the resumed night did not commit its state")
	}
}

// signalled starts cmd, a campaign into dir, sends it sig once it holds
// dir's lock and has run a little, and returns its exit status and output.
func signalled(t *testing.T, cmd *exec.Cmd, dir string, sig syscall.Signal) (int, string) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(dir, "lock"))
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(sig)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, out.String()
}

// TestCheckStoppedKillsServers: check (a command with no campaign to stop
// gracefully) stopped by SIGTERM or SIGINT kills its structurizer server
// and what the server started before it exits 128 + the signal's number:
// the signal's default action would leave the server's children running.
func TestCheckStoppedKillsServers(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			// The server starts a sleep of its own, then, once it has read
			// the graph's request (the file read says so), becomes a sleep
			// itself: two processes, the check waiting for an answer.
			dir := t.TempDir()
			server, read := filepath.Join(dir, "server.sh"), filepath.Join(dir, "read")
			os.WriteFile(server, []byte("#!/bin/sh\nsleep 1000 &\nread -r line\n: > "+read+"\nexec sleep 1000\n"), 0o755)
			in := filepath.Join(dir, "g.cfg")
			os.WriteFile(in, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644)
			cmd := exec.Command(cfgfuzzBinary(t), "check", "--structurizer", server, "--timeout", "60s", in)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
			waitForFile(t, read)
			for deadline := time.Now().Add(10 * time.Second); len(processesWithEnv(token)) < 2 && time.Now().Before(deadline); {
				time.Sleep(50 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			code := 0
			if ee, ok := cmd.Wait().(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if want := 128 + int(sig); code != want {
				t.Errorf("exit %d, want %d\n%s", code, want, out.String())
			}
			if left := leftAfter(token, 5*time.Second); len(left) > 0 {
				t.Errorf("processes of the server left: %v", left)
				killPids(left)
			}
		})
	}
}

// TestCheckKeepsAnIgnoredSignalIgnored: a check started with SIGINT
// ignored (a shell script's background job) is not stopped by one; it
// runs on to its verdict (here the hanging server's timeout, exit 1).
func TestCheckKeepsAnIgnoredSignalIgnored(t *testing.T) {
	server := filepath.Join(t.TempDir(), "server.sh")
	os.WriteFile(server, []byte(hangsOnGraphs), 0o755)
	in := filepath.Join(t.TempDir(), "g.cfg")
	os.WriteFile(in, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644)
	cmd := exec.Command("sh", "-c", `trap '' INT; exec "$0" check --structurizer "$1" --timeout 3s "$2"`, cfgfuzzBinary(t), server, in)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
	for deadline := time.Now().Add(10 * time.Second); len(processesWithEnv(token)) < 1 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != exitFail || !strings.Contains(out.String(), "timeout") {
		t.Errorf("exit %d, want %d with the timeout finding (SIGINT was ignored)\n%s", code, exitFail, out.String())
	}
	if left := leftAfter(token, 5*time.Second); len(left) > 0 {
		t.Errorf("processes of the server left: %v", left)
		killPids(left)
	}
}

// TestMinimizeStopsOnSignal: SIGINT to a minimize whose structurizer is
// slow (a server answering each request after 0.5 s) lets the judgement
// in flight finish, then writes the smallest graph accepted so far and
// exits 130, leaving no server behind.
func TestMinimizeStopsOnSignal(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.5", "--inject swap-arms")
	in := filepath.Join(dir, "g.cfg")
	g, err := exec.Command(bin, "gen", "--kind", "reducible", "--seed", "5", "--count", "1", "--lines", "--blocks", "40").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, g, 0o644)
	cmd := exec.Command(bin, "minimize", "--structurizer", server, "--checks", "exec", in)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // the first judgement, and a candidate or two
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 || !strings.Contains(errs.String(), "minimize: interrupted: the smallest graph accepted so far is written") {
		t.Fatalf("exit %d, want 130 and the interruption said:\n%s", code, errs.String())
	}
	if !strings.Contains(out.String(), "# compact: {{") {
		t.Errorf("no graph written:\n%s", out.String())
	}
	if left := processesRunning(bin); len(left) > 0 {
		t.Errorf("processes of %s left: %v", bin, left)
	}
}

// slowServer writes into dir a structurizer server, slow.sh, that sleeps
// delay seconds before answering each request through bin's own
// structurize (with flags, "" for none), and returns its path: a real
// process that takes a while on every graph.
func slowServer(t *testing.T, dir, bin, delay, flags string) string {
	t.Helper()
	server := filepath.Join(dir, "slow.sh")
	script := "#!/bin/sh\nwhile IFS= read -r line; do sleep " + delay + "; printf '%s\\n' \"$line\" | " + bin + " structurize " + flags + "; done\n"
	if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return server
}

// skipIfStartedIgnoring skips a test that stops a command with sig when
// this test process was started ignoring it (`nohup go test`): the
// commands it starts are then started ignoring it too, and keep ignoring
// it, as heardStopSignals and campaignStopSignals have them do.
func skipIfStartedIgnoring(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if signal.Ignored(sig) {
		t.Skipf("this test process was started ignoring %v (nohup?), and so are the commands it starts", sig)
	}
}

// TestNohupCampaignOutlivesItsTerminal: a campaign started ignoring SIGHUP
// (`nohup cfgfuzz run ...`) is not stopped by one: it runs to its end and
// exits 0 with a complete report, where it would otherwise stop with 129.
func TestNohupCampaignOutlivesItsTerminal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	cmd := exec.Command("sh", "-c", `trap '' HUP; exec "$0" run --graphs 400 --progress none --minimize=false --out "$1"`, cfgfuzzBinary(t), dir)
	code, out := signalled(t, cmd, dir, syscall.SIGHUP)
	if code != exitOK {
		t.Errorf("exit %d, want %d: the campaign ignores SIGHUP\n%s", code, exitOK, out)
	}
	if rep := readReportJSON(t, dir); rep.Incomplete != nil || rep.Graphs+rep.Skipped != 400 {
		t.Errorf("report: %d graphs, %d skipped, incomplete %+v: want every graph of 400 and a complete report", rep.Graphs, rep.Skipped, rep.Incomplete)
	}
}
