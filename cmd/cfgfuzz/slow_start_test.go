// slow_start_test.go: a structurizer that takes longer than --timeout to
// start (a JIT, an interpreter loading its libraries) times out on every
// graph, as each timeout kills it and its restart takes as long again:
// the campaign's findings stand as they are, but a note says what else
// makes every graph time out, and what to try.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEveryGraphTimedOutHint(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := filepath.Join(dir, "slow-start.sh")
	if err := os.WriteFile(server, []byte("#!/bin/sh\nsleep 1.5\nexec "+bin+" structurize\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "2", "--workers", "1", "--timeout", "1s", "--checks", "exec",
		"--minimize=false", "--progress", "none", "--out", filepath.Join(dir, "c")}, "")
	want := "every graph timed out (--timeout 1s): a structurizer that takes longer than that to start times out on every graph"
	if code != exitFail || !strings.Contains(stdout, "timeout 2 ") || !strings.Contains(stderr, want) || !strings.Contains(stderr, "selftest --structurizer cmd:"+server+" --timeout ") {
		t.Errorf("exit %d, want 1, 2 timeouts and the note %q naming selftest:\n%s%s", code, want, stdout, stderr)
	}
}
