// Package shown bounds what a report shows of a word a structurizer wrote:
// a name of 100 KB (an OpName of its module, which a check quotes in its
// detail and a picture labels a block with) shows as its first bytes and
// its size, so a report shows each such name in a line, whatever its
// length; in a disassembly (Listing) a quoted string is bounded as a
// whole, its newlines escaped. The data files (report.json, the findings
// store) keep it whole.
package shown

import (
	"fmt"
	"strconv"
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

// Listing is a disassembly's text (spirv-dis's, or emit/spirv's) as a
// report shows it: each quoted string (an OpName's, an OpSource's) shows
// in one line, its line breaks and other control characters escaped
// (spirv-dis prints a string's bytes as they are, escaping only '"' and
// '\'), and one longer than Max bytes as its first Head bytes and its
// size, however many spaces or lines it holds; the text is then bounded
// as Text bounds it. A string is a run from a '"' to the next '"' not
// escaped by a '\'.
func Listing(s string) string {
	if !strings.Contains(s, `"`) {
		return Text(s)
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		n, closed := quotedLen(s[i:])
		b.WriteString(quoted(s[i:i+n], closed))
		s = s[i+n:]
	}
	return Text(b.String())
}

// quotedLen is the length of the quoted string q starts with (q[0] is
// '"'): up to its closing '"' (closed), or all of q when it has none.
func quotedLen(q string) (n int, closed bool) {
	for i := 1; i < len(q); i++ {
		switch q[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(q), false
}

// quoted is the quoted string q as Listing shows it; closed says whether q
// ends with its closing '"'.
func quoted(q string, closed bool) string {
	body, end := q[1:], ""
	if closed {
		body, end = body[:len(body)-1], `"`
	}
	var e strings.Builder
	size := 0 // the string's bytes, an escape pair counted as one
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body) && body[i+1] >= 0x20 && body[i+1] != 0x7f:
			e.WriteByte(c)
			e.WriteByte(body[i+1])
			i++
		case c == '\n':
			e.WriteString(`\n`)
		case c == '\r':
			e.WriteString(`\r`)
		case c == '\t':
			e.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&e, `\x%02x`, c)
		default:
			e.WriteByte(c)
		}
		size++
	}
	if u, err := strconv.Unquote(q); err == nil {
		size = len(u) // Go's quoting (emit/spirv's text): its escapes are exact
	}
	shown := e.String()
	if len(shown)+2 <= Max {
		return `"` + shown + end
	}
	cut := Head
	for cut > 0 && !utf8.RuneStart(shown[cut]) {
		cut--
	}
	if n := cut - len(strings.TrimRight(shown[:cut], `\`)); n%2 == 1 {
		cut-- // not between a '\' and the byte it escapes
	}
	return fmt.Sprintf(`"%s…%s (%d bytes)`, shown[:cut], end, size)
}
