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
	w := newPrintableWriter(&b)
	for _, s := range []string{"ok 1 of 2\n", "tab\tand é\n", "esc \x1b[1m\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := b.String(), "ok 1 of 2\ntab\tand é\nesc \\x1b[1m\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

// A control split between two writes at any byte is escaped as the whole
// one is: the two-byte encoding of U+009B (CSI), ESC followed by '[', and
// a C1 control next to multi-byte characters. Every write reports all its
// bytes taken, and what a write ends inside is written by the next write
// or by Flush.
func TestPrintableWriterEscapesAControlSplitBetweenWrites(t *testing.T) {
	for _, s := range []string{
		"\u009b31mred",
		"a\x1b[2Jb",
		"é\u009bé\u0085€\n",
		"title \x1b]0;pwned\x07 \u009d0;x\u009c end",
		"€\xc2", // ends inside a character that never comes
	} {
		var whole bytes.Buffer
		ww := newPrintableWriter(&whole)
		ww.Write([]byte(s))
		if err := ww.Flush(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s); j++ {
				var b bytes.Buffer
				w := newPrintableWriter(&b)
				for _, part := range []string{s[:i], s[i:j], s[j:]} {
					if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
						t.Fatalf("%q split at %d, %d: Write(%q) = %d, %v", s, i, j, part, n, err)
					}
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if b.String() != whole.String() {
					t.Errorf("%q split at %d, %d: wrote %q, whole it writes %q", s, i, j, b.String(), whole.String())
				}
				if strings.ContainsAny(b.String(), "\x1b\x07\u009b\u0085\u009c\u009d") {
					t.Errorf("%q split at %d, %d: a control got through: %q", s, i, j, b.String())
				}
			}
		}
	}
}

// A write ending inside a character writes nothing of it until the next
// write finishes it; Flush then has nothing left.
func TestPrintableWriterHoldsAnUnfinishedCharacter(t *testing.T) {
	var b bytes.Buffer
	w := newPrintableWriter(&b)
	w.Write([]byte("ok \xc2"))
	if got := b.String(); got != "ok " {
		t.Fatalf("after a write ending inside a character: %q", got)
	}
	w.Write([]byte("\x9b!"))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `ok \u009b!`; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
