// output.go defines the standard output every subcommand writes through:
// it remembers the first write error, so that a command whose output was
// lost (a full disk, a closed pipe reader, /dev/full) exits 2 whatever it
// returned, instead of reporting success with nothing written. Both
// standard output and standard error go through a printableWriter, which
// shows the control characters of text from outside (a structurizer's
// reasons and standard error, file names) as escapes.

package main

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// printableWriter passes writes to w with their control characters but
// newline and tab escaped (fuzz.Printable): what cfgfuzz prints on a
// terminal or a CI log cannot carry a terminal's escape sequences, bell or
// carriage return. A write that ends inside a character's UTF-8 encoding
// (the first byte of a C1 control such as U+009B, CSI) keeps those bytes
// back and escapes them with the bytes of the next write, so a control
// split between two writes is escaped as a whole one is; Flush writes what
// is kept back when no write follows.
type printableWriter struct {
	w       io.Writer
	mu      sync.Mutex
	pending []byte // the start of a character a write ended inside
}

func newPrintableWriter(w io.Writer) *printableWriter { return &printableWriter{w: w} }

func (p *printableWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := string(p.pending) + string(b)
	p.pending = p.pending[:0]
	if k := incompleteTail(s); k > 0 {
		p.pending = append(p.pending, s[len(s)-k:]...)
		s = s[:len(s)-k]
	}
	if s == "" {
		return len(b), nil
	}
	if _, err := io.WriteString(p.w, fuzz.Printable(s)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush writes the bytes a write ended with that began a character no
// later write finished, as Printable shows stray bytes.
func (p *printableWriter) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.pending) == 0 {
		return nil
	}
	s := string(p.pending)
	p.pending = p.pending[:0]
	_, err := io.WriteString(p.w, fuzz.Printable(s))
	return err
}

// incompleteTail is the length of the start of a UTF-8 encoding that s ends
// with and that more bytes could complete, or 0.
func incompleteTail(s string) int {
	for k := 1; k < utf8.UTFMax && k <= len(s); k++ {
		c := s[len(s)-k]
		if utf8.RuneStart(c) {
			if c < utf8.RuneSelf || utf8.FullRuneInString(s[len(s)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// rawWriter is the writer under a printableWriter and an endingGate, for
// the progress bar, which draws with carriage returns and escape sequences
// of its own (and needs the terminal itself to know it is one).
func rawWriter(w io.Writer) io.Writer {
	switch v := w.(type) {
	case *printableWriter:
		return rawWriter(v.w)
	case endingGate:
		return rawWriter(v.w)
	case linesUnderBar:
		return rawWriter(v.w)
	}
	return w
}

// barLine is the terminal the progress bar draws on. The lines of the
// printable writer put under it (underBar) first erase a bar left drawn
// on the cursor's line: a line another goroutine writes while the bar is
// drawn (the stop signal's, a lock's warning) starts on a clean line,
// not after the bar's last frame.
type barLine struct {
	mu    sync.Mutex
	w     io.Writer
	drawn bool // the bar's last write left the cursor after a frame
}

func (b *barLine) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(p) > 0 {
		last := p[len(p)-1]
		b.drawn = last != '\n' && last != '\r' // a frame, not a line or the bar's clearing
	}
	return b.w.Write(p)
}

// linesUnderBar writes to w once the bar's frame, if drawn, is erased.
type linesUnderBar struct {
	bar *barLine
	w   io.Writer
}

func (l linesUnderBar) Write(p []byte) (int, error) {
	l.bar.mu.Lock()
	defer l.bar.mu.Unlock()
	if l.bar.drawn && len(p) > 0 {
		if _, err := io.WriteString(l.bar.w, "\r\x1b[K"); err != nil { // to the line's start, erasing it
			return 0, err
		}
		l.bar.drawn = false
	}
	return l.w.Write(p)
}

// underBar has p's writes erase bar's frame first (linesUnderBar).
func (p *printableWriter) underBar(bar *barLine) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.w = linesUnderBar{bar: bar, w: p.w}
}

// checkedWriter passes writes to w and keeps the first error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// outputStatus is the exit status of a command that returned code and
// wrote through out: exitUsage, with the error on stderr, when a write
// failed; code otherwise.
func outputStatus(name string, code int, out *checkedWriter, stderr io.Writer) int {
	if out.err == nil {
		return code
	}
	fmt.Fprintf(stderr, "cfgfuzz %s: writing standard output: %v\n", name, out.err)
	return exitUsage
}
