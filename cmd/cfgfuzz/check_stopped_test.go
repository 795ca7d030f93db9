// check_stopped_test.go: check (a command that ends at once on a stop
// signal) on a slow structurizer stopped part way writes nothing about the
// graphs it had not judged: killing its server must not show as findings
// ("FAIL structurize:..." on graphs no structurizer answered) or as a
// summary of graphs that failed, between the kill and the exit.
package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCheckStoppedWritesNoFalseFindings(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.3", "")
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte(strings.Repeat("{{1, 2}, {3}, {3}, {}}\n", 8)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "check", "--structurizer", server, "--checks", "exec", in)
	var errs bytes.Buffer
	cmd.Stderr = &errs
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(pipe)
	first, err := rd.ReadString('\n')
	if err != nil || !strings.HasPrefix(first, "ok ") {
		t.Fatalf("first line %q (%v); stderr:\n%s", first, err, errs.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	rest, _ := io.ReadAll(rd)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 143 || strings.Contains(string(rest), "FAIL") || strings.Contains(errs.String(), "graphs passed") {
		t.Errorf("exit %d (want 143) and, after the signal, no FAIL line or summary:\n%s%s---\n%s", code, first, rest, errs.String())
	}
	if left := processesRunning(bin); len(left) > 0 {
		t.Errorf("processes of %s left: %v", bin, left)
	}
}
