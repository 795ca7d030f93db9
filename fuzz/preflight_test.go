// preflight_test.go: Resolve refuses a command spec whose program the
// shell cannot find or execute (status 127 or 126 before a line is
// written), with an error that names the command and says which, and
// accepts every other command, whatever it answers: a crash or a protocol
// violation of its own is the campaign's finding, not a setup error.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPreflight(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "server")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, c := range []struct {
		cmd  string
		want string // in the error; "" accepted
	}{
		{filepath.Join(dir, "no-such-server"), "was not found"},
		{notExec, "could not be executed"},
		{"sh -c 'read line; exit 127'", "was not found"}, // silent 127: what the shell says of a missing program
		{"sh -c 'exit 3'", ""},
		{"sh -c 'read line; echo garbage'", ""},
		{"sh -c 'echo answer; exit 127'", ""}, // it wrote a line: it ran
		{"sleep 60", ""},                      // silent past the limit: a hang is the campaign's finding
	} {
		_, _, err := Resolve(Spec{Kind: SpecCmd, Cmd: c.cmd}, ResolveOptions{})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("cmd:%s: %v, want it left to the campaign", c.cmd, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.cmd)):
			t.Errorf("cmd:%s: error %v, want one naming the command and saying it %s", c.cmd, err, c.want)
		}
	}
	if took := time.Since(start); took > 5*preflightLimit {
		t.Errorf("the preflights took %v, more than the silent server's limit (%v) and a little", took, preflightLimit)
	}
}
