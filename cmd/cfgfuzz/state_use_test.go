// state_use_test.go runs two nights on one state directory at once, as
// real processes: the second is warned at its start, on standard error,
// in its summary and in its reports, naming the first, which is still
// running; the first's mark goes when it ends. A night whose structurizer
// is a revision to build is warned before its build ends.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
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
	if n := strings.Count(stderr.String(), "cfgfuzz: warning: another process that commits to the state "+state+" is running: "+who); n != 1 {
		t.Errorf("the second night's stderr warns of the first (%s) %d times, want once:\n%s", who, n, stderr.String())
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

// TestConcurrentNightWarnedBeforeItsBuild: a night on a state that this
// test process has marked (a live night, as far as the night can tell)
// whose structurizer is a revision with a build that does not end says
// so on standard error while its build runs, not once the build is done.
func TestConcurrentNightWarnedBeforeItsBuild(t *testing.T) {
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "pid")
	sb := slowBuildRepo(t, tmp, "sleep 1000 & echo $! > "+pidFile+"; wait")
	state := filepath.Join(tmp, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if others, release := (&fuzz.State{Dir: state}).MarkNight(); len(others) != 0 {
		t.Fatalf("the new state is in use already: %v", others)
	} else {
		defer release()
	}
	cmd, out, pid := startInSlowBuild(t, bin, tmp, sb.cache, pidFile, "run", "--structurizer", "repo:"+sb.repo+"@"+sb.good, "--state", state, "--night", "2026-12-01",
		"--graphs", "5", "--progress", "none", "--out", filepath.Join(tmp, "out"))
	warning := "cfgfuzz: warning: another process that commits to the state " + state + " is running: process " + strconv.Itoa(os.Getpid()) + " on "
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), warning); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("20s into the build, the night has not warned %q:\n%s", warning, out.String())
		}
	}
	if syscall.Kill(pid, 0) != nil || strings.Contains(out.String(), "cfgfuzz: built ") {
		t.Fatalf("the build ended before the warning was checked:\n%s", out.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	exitWithin(t, cmd, time.Minute, func() string { return out.String() })
	if m, _ := filepath.Glob(filepath.Join(state, "running-*.night")); len(m) != 1 {
		t.Errorf("marks %v once the stopped night ended, want this test's alone", m)
	}
}
