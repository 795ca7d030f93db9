// registers_note_test.go: a campaign under an even register file is told
// what that leaves untested (emit/CONVENTION.md, "Register file").
package main

import (
	"strings"
	"testing"
)

// TestEvenRegisterFileNote: a campaign under an even register file says
// that the order of a step's reads and writes goes untested (no step's
// registers alias), and names the odd file that tests it; an odd one says
// nothing.
func TestEvenRegisterFileNote(t *testing.T) {
	for _, tc := range []struct {
		n    string
		note bool
	}{{"64", true}, {"5", false}} {
		out := t.TempDir()
		code, _, stderr := runCmd([]string{"run", "--graphs", "4", "--registers", tc.n, "--checks", "exec", "--progress", "none", "--minimize=false", "--out", out}, "")
		if code != 0 {
			t.Fatalf("--registers %s: exit %d, stderr:\n%s", tc.n, code, stderr)
		}
		got := strings.Contains(stderr, "--registers "+tc.n+" is even") && strings.Contains(stderr, "--registers 5")
		if got != tc.note {
			t.Errorf("--registers %s: the even-file note shown %v, want %v; stderr:\n%s", tc.n, got, tc.note, stderr)
		}
	}
}
