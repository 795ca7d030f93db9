// parse_scan.go: the byte scanner both notations share. It defines scanner
// (position tracking by 1-based line and column), whitespace and '#'
// comment skipping with UTF-8 checks, decimal numbers with an upper bound,
// names, the "---" separator test, and found, which describes the byte at the
// current position for "expected X, found Y" messages.

package cfg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// eofByte is what peek returns at the end of input.
const eofByte = -1

// scanner walks src byte by byte. Copying a scanner saves its position.
type scanner struct {
	file      string
	src       string
	pos       int // offset of the next byte
	line      int // 1-based line of pos
	lineStart int // offset where pos's line starts
}

// byteOrderMark is skipped at the start of input.
const byteOrderMark = "\uFEFF"

func newScanner(file, src string) *scanner {
	s := &scanner{file: file, src: src, line: 1}
	if strings.HasPrefix(src, byteOrderMark) {
		s.pos = len(byteOrderMark)
		s.lineStart = s.pos // not counted in line 1's columns: an editor does not show it
	}
	return s
}

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

// peek returns the next byte, or eofByte.
func (s *scanner) peek() int {
	if s.pos >= len(s.src) {
		return eofByte
	}
	return int(s.src[s.pos])
}

// col is the 1-based column of pos. It counts bytes, which are characters
// wherever the parser stops: only comments may hold non-ASCII text, and an
// error inside one counts its characters (skipComment).
func (s *scanner) col() int { return s.pos - s.lineStart + 1 }

// newline consumes the '\n' at pos.
func (s *scanner) newline() {
	s.pos++
	s.line++
	s.lineStart = s.pos
}

func (s *scanner) errAt(line, col int, format string, args ...any) *ParseError {
	return &ParseError{File: s.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (s *scanner) errHere(format string, args ...any) *ParseError {
	return s.errAt(s.line, s.col(), format, args...)
}

// skipSpace skips blanks, tabs, carriage returns and comments, and newlines
// too when newlines is set. It stops at the first other byte (a newline when
// newlines is not set). The only error is invalid UTF-8 in a comment.
func (s *scanner) skipSpace(newlines bool) error {
	if s.pos < len(s.src) && !skippable[s.src[s.pos]] {
		return nil // the common case, inlined
	}
	return s.skipSpaceSlow(newlines)
}

// skippable marks the bytes skipSpace may skip or stop at: blanks, tabs,
// carriage returns, newlines and '#'.
var skippable = [256]bool{' ': true, '\t': true, '\r': true, '\n': true, '#': true}

func (s *scanner) skipSpaceSlow(newlines bool) error {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\r':
			s.pos++
		case '\n':
			if !newlines {
				return nil
			}
			s.newline()
		case '#':
			if err := s.skipComment(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// skipComment skips from '#' to the end of the line (the '\n' stays).
func (s *scanner) skipComment() error {
	end := strings.IndexByte(s.src[s.pos:], '\n')
	if end < 0 {
		end = len(s.src) - s.pos
	}
	text := s.src[s.pos : s.pos+end]
	if !utf8.ValidString(text) {
		bad := firstInvalidUTF8(text)
		return s.errAt(s.line, s.col()+utf8.RuneCountInString(text[:bad]), "invalid UTF-8 in comment (byte 0x%02x); comments must be UTF-8 text", text[bad])
	}
	s.pos += end
	return nil
}

// firstInvalidUTF8 is the offset of the first byte of text that does not
// start a valid UTF-8 sequence.
func firstInvalidUTF8(text string) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(text)
}

// skipLine consumes the rest of the line, its newline included. The caller
// has checked that only a separator, blanks and a valid comment remain.
func (s *scanner) skipLine() {
	end := strings.IndexByte(s.src[s.pos:], '\n')
	if end < 0 {
		s.pos = len(s.src)
		return
	}
	s.pos += end
	s.newline()
}

// atSeparator reports whether pos starts "---" followed on its line by
// nothing but blanks and an optional comment (a name such as "---x" or a
// block line "---: ret" is not a separator).
func (s *scanner) atSeparator() bool {
	if !strings.HasPrefix(s.src[s.pos:], "---") {
		return false
	}
	probe := *s
	probe.pos += 3
	if probe.skipSpace(false) != nil {
		return false // the comment is bad; let the block-line parser report it
	}
	c := probe.peek()
	return c == eofByte || c == '\n'
}

// found describes the byte at pos for an error message: 'x', '\x00',
// end of line, end of input, a non-ASCII character or an invalid UTF-8 byte.
func (s *scanner) found() string {
	if s.pos >= len(s.src) {
		return "end of input"
	}
	c := s.src[s.pos]
	switch {
	case c == '\n':
		return "end of line"
	case c < utf8.RuneSelf:
		return strconv.QuoteRune(rune(c))
	}
	r, size := utf8.DecodeRuneInString(s.src[s.pos:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("invalid UTF-8 byte 0x%02x", c)
	}
	return fmt.Sprintf("%s (U+%04X, only ASCII is allowed outside comments)", strconv.QuoteRune(r), r)
}

func isDigit(c int) bool { return '0' <= c && c <= '9' }

// nameBytes marks the bytes a name is made of: ASCII letters, digits, '_',
// '.' and '-'.
var nameBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) || c == '_' || c == '.' || c == '-'
	}
	return t
}()

func isNameByte(c int) bool { return c >= 0 && nameBytes[c] }

// isName reports whether text is a valid block name.
func isName(text string) bool {
	if text == "" {
		return false
	}
	for i := 0; i < len(text); i++ {
		if !nameBytes[text[i]] {
			return false
		}
	}
	return true
}

// name reads a run of name bytes (possibly empty).
func (s *scanner) name() string {
	start := s.pos
	for s.pos < len(s.src) && nameBytes[s.src[s.pos]] {
		s.pos++
	}
	return s.src[start:s.pos]
}

// maxNumber keeps number's arithmetic clear of overflow whatever the limits.
const maxNumber = math.MaxInt/10 - 10

// number reads the decimal number at pos (the caller has seen a digit). A
// value above max is not computed: big is set and text holds the digits
// (shortened when long), which are consumed either way.
func (s *scanner) number(max int) (v int, text string, big bool) {
	max = min(max, maxNumber)
	start := s.pos
	for s.pos < len(s.src) && isDigit(int(s.src[s.pos])) {
		if !big {
			v = v*10 + int(s.src[s.pos]-'0')
			big = v > max
		}
		s.pos++
	}
	text = s.src[start:s.pos]
	if len(text) > 24 {
		text = text[:20] + "..."
	}
	return v, text, big
}
