// compare_interrupt_test.go sends SIGINT to a real compare whose current
// side, an external structurizer, turned slow (testdata/slowafter.py):
// compare stops at once, cutting the requests in flight and killing the
// processes it started, writes the report marked incomplete with the
// graphs that did complete, and exits 130.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCompareStopsPromptlyOnSignal(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	dir, log := filepath.Join(tmp, "c"), filepath.Join(tmp, "requests.log")
	py, _ := filepath.Abs(filepath.Join("testdata", "slowafter.py"))
	slow := "cmd:python3 " + py + " 6 " + log + " " + bin + " structurize"
	cmd := exec.Command(bin, "compare", "--baseline", "cmd:"+bin+" structurize", "--structurizer", slow,
		"--timeout", "10m", "--graphs", "200", "--workers", "2", "--progress", "plain", "--minimize=false", "--out", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
	for deadline := time.Now().Add(time.Minute); !strings.Contains(readIfThere(log), "slow"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the structurizer never turned slow\n%s", out.String())
		}
	}
	started := processesWithEnv(token)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("compare still running 30 s after SIGINT: it waits for the slow structurizer\n%s", out.String())
	}
	took := time.Since(sent)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	t.Logf("exit %d after %v\n%s", code, took, out.String())
	if code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if len(started) == 0 {
		t.Errorf("no structurizer process of compare seen before the signal")
	}
	if left := processesWithEnv(token); len(left) > 0 {
		t.Errorf("processes compare started are left running: %v", left)
	}
	rep := readReportJSON(t, dir)
	if in := rep.Incomplete; in == nil || in.Reason != "interrupted (SIGINT)" || in.Done != rep.Graphs+rep.Skipped {
		t.Errorf("report.json incomplete = %+v, want interrupted (SIGINT) at the %d graphs judged", in, rep.Graphs+rep.Skipped)
	}
	if rep.Graphs == 0 || rep.Graphs >= 200 {
		t.Errorf("report.json: %d graphs, want those answered before the structurizer turned slow", rep.Graphs)
	}
	if rep.Outcomes["timeout"] != 0 {
		t.Errorf("report.json: %d timeouts: a graph cut by the stop is no finding", rep.Outcomes["timeout"])
	}
	if !strings.Contains(out.String(), "cutting the structurizer requests of") {
		t.Errorf("no line saying the requests in flight are cut")
	}
}

// readIfThere is the file's text, "" when it cannot be read.
func readIfThere(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
