// printable.go makes text from outside cfgfuzz (a structurizer's reasons,
// standard error and names, file names, triage reasons) safe to print on a
// terminal: control characters become visible escapes, so an answer can
// neither move the cursor, retitle the window, ring the bell nor overwrite
// a line cfgfuzz printed; nor can it reorder what a reader sees with
// Unicode's bidirectional formatting characters (the "Trojan Source"
// trick, CVE-2021-42574) or hide behind a byte-order mark.

package fuzz

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable is s with every control character but newline and tab (C0,
// DEL and C1) and every bidirectional formatting character and byte-order
// mark written as an escape: \x1b for ESC, \r for a carriage return,
// \u009b for a C1 control, \u202e for a right-to-left override. Other
// text, invalid UTF-8 included, is left as it is.
func Printable(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1:
			b.WriteByte(s[0])
		case isControl(r):
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// PrintableLine is Printable with newlines and tabs escaped too: one line
// whatever s holds.
func PrintableLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(Printable(s), "\n", `\n`), "\t", `\t`)
}

func isControl(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r < 0x7f:
		return false
	case r <= 0x9f:
		return true
	}
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0xfeff
}

func hasControl(s string) bool {
	for _, r := range s {
		if isControl(r) {
			return true
		}
	}
	return false
}
