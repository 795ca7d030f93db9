// Package shown bounds what a report shows of a word a structurizer wrote:
// a name of 100 KB (an OpName of its module, which a check quotes in its
// detail and a picture labels a block with) shows as its first bytes and
// its size, so a report shows each such name in a line, whatever its
// length. The data files (report.json, the findings store) keep it whole.
package shown

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	// Max is the longest word (run of bytes without white space) shown
	// whole.
	Max = 256
	// Head is how much of a longer word is shown, in bytes.
	Head = 64
	// MaxLine is the longest line Text shows whole once its words are
	// bounded (a name with spaces in it is many words); a longer one
	// shows its first Max bytes.
	MaxLine = 1024
)

// Word is w when it is at most Max bytes long, else its first Head bytes
// (cut at the start of a character) and "… (N bytes)", N its length.
func Word(w string) string {
	if len(w) <= Max {
		return w
	}
	cut := Head
	for cut > 0 && !utf8.RuneStart(w[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", w[:cut], len(w))
}

// Words is s with every word longer than Max bytes shown as Word shows
// it; the white space between words is kept.
func Words(s string) string {
	if len(s) <= Max {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexFunc(s, isSpace)
		if i < 0 {
			i = len(s)
		}
		b.WriteString(Word(s[:i]))
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !isSpace(r) })
		if j < 0 {
			j = len(s)
		}
		b.WriteString(s[:j])
		s = s[j:]
	}
	return b.String()
}

// Text is s with its words bounded as Words bounds them and every line
// still longer than MaxLine bytes cut to its first Max bytes (at the start
// of a character) and "… (a line of N bytes)", N the line's length in s.
func Text(s string) string {
	if len(s) <= Max {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		w := Words(body)
		if len(w) > MaxLine {
			cut := Max
			for cut > 0 && !utf8.RuneStart(w[cut]) {
				cut--
			}
			w = fmt.Sprintf("%s… (a line of %d bytes)", w[:cut], len(body))
		}
		lines[i] = w + l[len(body):]
	}
	return strings.Join(lines, "")
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }
