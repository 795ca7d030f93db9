// entrynote_test.go: the note for a line-notation graph whose block named
// "entry" is not its first block (entrynote.go).
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckNotesEntryNotFirst: a line-notation graph whose block named
// "entry" is not its first block gets a note on stderr naming both blocks
// (the first block is the entry); the verdict and exit status stay those
// of the graph as read, and graphs whose "entry" comes first, or that
// have none, get no note.
func TestCheckNotesEntryNotFirst(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.cfg")
	src := "{{1}, {}}\n---\nentry: br x\nx: ret\n---\n# the entry is last\nexit: ret\n  body: br exit\n  entry: if body exit\n"
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--checks", "pdom", f}, strings.NewReader(""), &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, want %d: %s%s", code, exitOK, stdout.String(), stderr.String())
	}
	want := "cfgfuzz check: note: " + f + `:9:3: block "entry" is not the first block: the first, "exit" (7:1), is the entry` + "\n"
	if got := stderr.String(); strings.Count(got, "note:") != 1 || !strings.Contains(got, want) {
		t.Errorf("stderr:\n%s\nwant one note:\n%s", got, want)
	}
	if got := strings.Count(stdout.String(), "ok "); got != 3 {
		t.Errorf("stdout:\n%s\nwant 3 graphs ok", stdout.String())
	}
}
