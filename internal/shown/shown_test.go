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

func TestListing(t *testing.T) {
	asm := "               OpName %1 \"main\"\n"
	if got := Listing(asm); got != asm {
		t.Errorf("Listing changed a short string: %q", got)
	}
	// spirv-dis prints a string's bytes as they are, escaping '"' and '\'.
	lines := "               OpName %1 \"" + strings.Repeat("x\n", 300) + "\"\n               OpName %2 \"q\\\"uo\\\\te\ta\nb\"\n"
	want := "               OpName %1 \"" + strings.Repeat(`x\n`, 21) + "x…\" (600 bytes)\n               OpName %2 \"q\\\"uo\\\\te\\ta\\nb\"\n"
	if got := Listing(lines); got != want {
		t.Errorf("Listing of a string of many lines:\n got %q\nwant %q", got, want)
	}
	spaced := "OpSource GLSL 450 %1 \"" + strings.Repeat("ab ", 1000) + "\"\nend"
	if got := Listing(spaced); got != "OpSource GLSL 450 %1 \""+strings.Repeat("ab ", 21)+"a…\" (3000 bytes)\nend" {
		t.Errorf("Listing of a long string of short words: %q", got)
	}
	// emit/spirv's text quotes as Go does: the size is the string's.
	goQuoted := "OpName %1 \"" + strings.Repeat(`\x1b`, 100) + "\""
	if got := Listing(goQuoted); !strings.HasSuffix(got, "…\" (100 bytes)") || len(got) > 100 {
		t.Errorf("Listing of a Go-quoted string: %q", got)
	}
	// A '\' at the cut is not left apart from the byte it escapes.
	escapes := "\"a" + strings.Repeat(`\\`, 200) + "\""
	if got := Listing(escapes); got != "\"a"+strings.Repeat(`\\`, Head/2-1)+"…\" (201 bytes)" {
		t.Errorf("Listing of a string of escapes: %q", got)
	}
	unclosed := "OpName %1 \"" + strings.Repeat("y\n", 300)
	if got := Listing(unclosed); got != "OpName %1 \""+strings.Repeat(`y\n`, 21)+"y… (600 bytes)" {
		t.Errorf("Listing of an unclosed string: %q", got)
	}
}
