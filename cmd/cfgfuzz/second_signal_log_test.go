// second_signal_log_test.go: the second stop signal kills the servers and
// ends the campaign without a report (and without its lock), for --resume
// to continue from the log: the graphs whose server the kill cut off are
// not results, so the log must not record them (as
// structurize:crash:signal: killed), or the resumed campaign reports
// crashes the structurizer never had.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSecondSignalLogsNoKilledGraphs(t *testing.T) {
	bin := cfgfuzzBinary(t)
	server := slowServer(t, t.TempDir(), bin, "2", "")
	dir := filepath.Join(t.TempDir(), "c")
	cmd := exec.Command(bin, "run", "--structurizer", server, "--graphs", "20", "--workers", "2", "--checks", "exec", "--progress", "none", "--out", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "results.jsonl")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(log); bytes.Count(b, []byte("\n")) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no record in a minute\n%s", out.String())
		}
	}
	// A graph per worker is in flight, each two seconds long, the last record synced more than the log.s second ago.
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	b, _ := os.ReadFile(log)
	if code != 130 || strings.Contains(string(b), `"crash"`) {
		t.Errorf("exit %d (want 130); the log records a crash the kill made:\n%s\n%s", code, b, out.String())
	}
	if left := processesRunning(bin); len(left) > 0 {
		t.Errorf("processes of %s left: %v", bin, left)
	}
	// The graphs were in flight: no report, as the second signal's line
	// says, and no lock of a process gone.
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil || !strings.Contains(out.String(), "the report is not written") {
		t.Errorf("a report written (%v) or the line does not say none is:\n%s", err == nil, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "lock")); err == nil {
		t.Errorf("the lock is left behind")
	}
}
