// state_use_test.go runs two nights on one state directory at once, as
// real processes: the second is warned at its start, on standard error,
// in its summary and in its reports, naming the first, which is still
// running; the first's mark goes when it ends.
package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSecondNightOnAStateIsWarned(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	first := exec.Command(bin, "run", "--state", state, "--night", "2026-12-01", "--seed", "1", "--duration", "10m", "--progress", "none", "--out", filepath.Join(dir, "first"))
	var firstOut lockedBuffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	marks := filepath.Join(state, "running-*.night")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if m, _ := filepath.Glob(marks); len(m) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first night never marked the state:\n%s", firstOut.String())
		}
	}
	out := filepath.Join(dir, "second")
	second := exec.Command(bin, "run", "--state", state, "--night", "2026-12-02", "--seed", "2", "--graphs", "20", "--minimize=false", "--progress", "none", "--out", out)
	var stdout, stderr lockedBuffer
	second.Stdout, second.Stderr = &stdout, &stderr
	second.Run()
	who := "process " + strconv.Itoa(first.Process.Pid) + " on "
	if !strings.Contains(stderr.String(), "cfgfuzz: warning: another process that commits to the state "+state+" is running: "+who) {
		t.Errorf("the second night's stderr does not warn of the first (%s):\n%s", who, stderr.String())
	}
	if !strings.Contains(stdout.String(), "  warning: another process that commits to the state") {
		t.Errorf("the second night's summary does not warn:\n%s", stdout.String())
	}
	if rep := readReportJSON(t, out); rep.State == nil || !strings.Contains(rep.State.Concurrent, who) {
		t.Errorf("report.json's state.concurrent does not name the first night: %+v", rep.State)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "Warning at the start: another process") {
		t.Errorf("report.md does not warn:\n%s", md)
	}
	first.Process.Signal(syscall.SIGINT)
	exitWithin(t, first, time.Minute, func() string { return firstOut.String() })
	if m, _ := filepath.Glob(marks); len(m) != 0 {
		t.Errorf("marks left after both nights ended: %v", m)
	}
}
