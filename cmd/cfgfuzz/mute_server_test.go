// mute_server_test.go: a structurizer server that never answers the
// protocol's hello has not started, and the error says which
// structurizer: the command as the user gave it (cmd:CMD), not the shell
// cfgfuzz runs it with. Its process is gone when cfgfuzz exits.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMuteServerNamedAsGiven(t *testing.T) {
	bin := cfgfuzzBinary(t)
	const spec = "cmd:sleep 60"
	g := filepath.Join(t.TempDir(), "g.cfg")
	if err := os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--structurizer", spec, "--timeout", "1s", "--start-timeout", "1s", g},
		{"run", "--structurizer", spec, "--graphs", "1", "--workers", "1", "--timeout", "1s", "--start-timeout", "1s",
			"--minimize=false", "--progress", "none", "--out", filepath.Join(t.TempDir(), "c")},
	} {
		t.Run(args[0], func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			code, token := runWithServerToken(t, cmd)
			want := "start " + spec + ": no answer to the protocol's hello"
			if code != exitUsage || !strings.Contains(out.String(), want) || strings.Contains(out.String(), "start sh") {
				t.Errorf("exit %d, want %d with %q\n%s", code, exitUsage, want, out.String())
			}
			if left := leftAfter(token, 5*time.Second); len(left) > 0 {
				t.Errorf("processes of the server left: %v", left)
				killPids(left)
			}
		})
	}
}
