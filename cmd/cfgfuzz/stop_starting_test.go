// stop_starting_test.go: SIGINT to a campaign whose structurizer servers
// are still silent on the protocol's hello (a slow start-up) stops it
// within seconds, not after --timeout and --start-timeout: the servers
// are ended, their graphs get no verdict and no harness error, and the
// resume judges them.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRunStopsWhileServerStarts(t *testing.T) {
	bin := cfgfuzzBinary(t)
	tmp := t.TempDir()
	// The server sleeps before it reads its input while the file the
	// environment names exists: the command's own files stay the same
	// for the resume.
	mute := filepath.Join(tmp, "mute")
	server := filepath.Join(tmp, "server.sh")
	script := "#!/bin/sh\nif [ -e \"$CFGFUZZ_TEST_MUTE\" ]; then exec sleep 1000; fi\nexec " + bin + " structurize\n"
	if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mute, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CFGFUZZ_TEST_MUTE", mute)
	dir := filepath.Join(tmp, "c")
	cmd := exec.Command(bin, "run", "--structurizer", "cmd:"+server, "--graphs", "20", "--workers", "2",
		"--progress", "none", "--minimize=false", "--out", dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
	waitForFile(t, filepath.Join(dir, "lock"))
	time.Sleep(2500 * time.Millisecond) // past the set-up: the workers wait for their servers' hellos
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	took := time.Since(sent)
	t.Logf("exit %d %v after SIGINT\n%s", code, took, out.String())
	if code != 128+int(syscall.SIGINT) || took > 5*time.Second {
		t.Errorf("exit %d after %v, want %d within seconds", code, took, 128+int(syscall.SIGINT))
	}
	if left := leftAfter(token, 5*time.Second); len(left) > 0 {
		t.Errorf("processes of the servers left: %v", left)
		killPids(left)
	}
	recs, _, err := fuzz.ReadRecords(dir)
	if rep := readReportJSON(t, dir); err != nil || len(recs) != 0 || rep.Incomplete == nil || rep.Incomplete.Reason != "interrupted (SIGINT)" {
		t.Fatalf("%d graphs logged (%v), want none (no verdict, no harness error); incomplete %+v", len(recs), err, rep.Incomplete)
	}
	os.Remove(mute)
	if code, out := exitCode(t, exec.Command(bin, "run", "--resume", dir, "--progress", "none", "--minimize=false")); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	if rep := readReportJSON(t, dir); rep.Incomplete != nil || rep.Graphs+rep.Skipped != 20 {
		t.Errorf("resumed: %d graphs and %d skipped, incomplete %+v", rep.Graphs, rep.Skipped, rep.Incomplete)
	}
}
