package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A structurizer's error reason with terminal escape sequences (a window
// title, a screen clear), a bell and a carriage return reaches the
// console as visible escapes: none of its control characters is written.
func TestConsoleShowsControlCharactersAsEscapes(t *testing.T) {
	dir := t.TempDir()
	srv := filepath.Join(dir, "srv.sh")
	script := `while read -r l; do
  id=$(printf '%s' "$l" | sed 's/.*"id":\([0-9]*\).*/\1/')
  printf '{"id":%s,"outcome":"error","reason":"\\u001b]0;pwned\\u0007\\u001b[2Jred\\rforged\\u009b"}\n' "$id"
done
`
	if err := os.WriteFile(srv, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--structurizer", "cmd:sh " + srv}, strings.NewReader("{{}}\n"), &stdout, &stderr)
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFail, stdout.String(), stderr.String())
	}
	out := stdout.String() + stderr.String()
	if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
		t.Errorf("the console got control characters: %q", out)
	}
	if !strings.Contains(stdout.String(), `\x1b]0;pwned\x07\x1b[2Jred\rforged\u009b`) {
		t.Errorf("the reason is not shown with its control characters escaped: %q", stdout.String())
	}
}

func TestPrintableWriterLeavesPlainTextAlone(t *testing.T) {
	var b bytes.Buffer
	w := printableWriter{&b}
	for _, s := range []string{"ok 1 of 2\n", "tab\tand é\n", "esc \x1b[1m\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := b.String(), "ok 1 of 2\ntab\tand é\nesc \\x1b[1m\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
