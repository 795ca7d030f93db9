// sigpipe_test.go: standard output a pipe whose reader has gone
// (cfgfuzz run ... | head -1) is a write error on standard output, exit
// 2 with the campaign's output written, not a death by SIGPIPE; and the
// structurizer processes cfgfuzz starts get SIGPIPE's default action.
package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestClosedStdoutPipeExits2(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	dir := t.TempDir()
	sigs := filepath.Join(dir, "sigign")
	adapter := filepath.Join(dir, "adapter")
	writeFile(t, adapter, "#!/bin/sh\ngrep '^SigIgn:' /proc/$$/status >> "+sigs+"\nexec "+cfgfuzzBinary(t)+" structurize\n")
	if err := os.Chmod(adapter, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "c")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before cfgfuzz writes
	cmd := exec.Command(cfgfuzzBinary(t), "run", "--structurizer", adapter, "--graphs", "50", "--out", out, "--progress", "none")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
		t.Fatalf("run with its standard output a closed pipe died by %v, want exit 2\n%s", ee.Sys().(syscall.WaitStatus).Signal(), stderr.String())
	case cmd.ProcessState.ExitCode() != exitUsage || !strings.Contains(stderr.String(), "writing standard output"):
		t.Fatalf("run with its standard output a closed pipe: %v, want exit 2 naming the write error\n%s", err, stderr.String())
	}
	for _, f := range []string{"campaign.json", "report.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the campaign's %s: %v", f, err)
		}
	}
	lines := strings.Fields(readFile(t, sigs))
	if len(lines) < 2 {
		t.Fatalf("no structurizer recorded its ignored signals: %q", lines)
	}
	for i := 1; i < len(lines); i += 2 {
		mask, err := strconv.ParseUint(lines[i], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		if mask&(1<<(syscall.SIGPIPE-1)) != 0 {
			t.Errorf("a structurizer process started with SIGPIPE ignored (SigIgn: %s)", lines[i])
		}
	}
}
