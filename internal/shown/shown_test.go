package shown

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWordsAndText(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes: the head's cut falls inside a character
	if got := Word(long); !utf8.ValidString(got) || !strings.HasSuffix(got, "… (400 bytes)") || len(got) > Head+len("… (400 bytes)") {
		t.Errorf("Word of a 400-byte name: %q", got)
	}
	if short := strings.Repeat("x", Max); Word(short) != short {
		t.Errorf("Word cut a name of Max bytes")
	}
	in := "R12 in %" + strings.Repeat("L", 1000) + " [%a %b]:\n\tnext line"
	want := "R12 in %" + strings.Repeat("L", Head-1) + "… (1001 bytes) [%a %b]:\n\tnext line"
	if got := Text(in); got != want {
		t.Errorf("Text:\n got %q\nwant %q", got, want)
	}
	spaced := strings.Repeat("ab ", 1000) // 3000 bytes of short words on one line
	if got := Text(spaced + "\nend"); !strings.HasSuffix(got, "… (a line of 3000 bytes)\nend") || len(got) > Max+40 {
		t.Errorf("Text of a long line of short words: %q", got)
	}
}
