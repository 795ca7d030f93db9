// regress_slow_test.go: regress on a slow structurizer (a real process
// that takes a while on every request): each case's line is written as
// the case is judged, not after the whole directory, and a stop signal
// ends the replay after the case in flight with the cases judged so far
// kept (their lines, the summary saying it stopped, the JUnit file).
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRegressSlowStructurizerStopped(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.4", "")
	regs := filepath.Join(dir, "regs")
	os.Mkdir(regs, 0o755)
	const files = 6
	for i := range files {
		g := fmt.Sprintf("{{1, 2}, {3}, {3}, {%d}, {}}", 4+i%2)
		body := "# signature: exec:trace-mismatch\n# expect: pass\n" + g + "\n"
		if err := os.WriteFile(filepath.Join(regs, fmt.Sprintf("r%d.cfg", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	junit := filepath.Join(dir, "j.xml")
	cmd := exec.Command(bin, "regress", regs, "--structurizer", server, "--checks", "exec", "--junit", junit)
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
	if err != nil {
		t.Fatalf("no first line: %v; stderr:\n%s", err, errs.String())
	}
	// The first case's line came while the others are still to judge:
	// stop the replay now, as a CI job past its time limit does.
	cmd.Process.Signal(syscall.SIGTERM)
	rest, _ := io.ReadAll(rd)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	out := first + string(rest)
	lines := strings.Count(out, "\n")
	if code != 143 || lines >= files || !strings.HasPrefix(first, "ok "+filepath.Join(regs, "r0.cfg")) {
		t.Fatalf("exit %d (want 143) with %d of %d lines (want fewer, the first case first):\n%s%s", code, lines, files, out, errs.String())
	}
	if !strings.Contains(errs.String(), fmt.Sprintf("interrupted (SIGTERM) after %d of %d files", lines, files)) {
		t.Errorf("the summary does not say the replay stopped after %d of %d files:\n%s", lines, files, errs.String())
	}
	// The JUnit file holds the cases judged, and an error case saying the
	// replay stopped, which a CI dashboard shows.
	rep := readJUnit(t, junit)
	if rep.Tests != lines+1 || rep.Failures != 0 || rep.Errors != 1 || len(rep.Suites) != 1 {
		t.Fatalf("junit: %d tests %d failures %d errors, want the %d cases judged, passed, and the interruption's error", rep.Tests, rep.Failures, rep.Errors, lines)
	}
	last := rep.Suites[0].Cases[len(rep.Suites[0].Cases)-1]
	if last.Error == nil || !strings.Contains(last.Error.Message, fmt.Sprintf("interrupted (SIGTERM) after %d of %d files", lines, files)) {
		t.Errorf("junit's last case %+v, want the interruption's error", last)
	}
	if left := processesRunning(bin); len(left) > 0 {
		t.Errorf("processes of %s left: %v", bin, left)
	}
}
