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

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// printableWriter passes writes to w with their control characters but
// newline and tab escaped (fuzz.Printable): what cfgfuzz prints on a
// terminal or a CI log cannot carry a terminal's escape sequences, bell or
// carriage return. A C1 control split between two writes is passed as it
// is.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	s := string(b)
	t := fuzz.Printable(s)
	if t == s {
		return p.w.Write(b)
	}
	if _, err := io.WriteString(p.w, t); err != nil {
		return 0, err
	}
	return len(b), nil
}

// rawWriter is the writer under a printableWriter, for the progress bar,
// which draws with carriage returns and escape sequences of its own.
func rawWriter(w io.Writer) io.Writer {
	if p, ok := w.(printableWriter); ok {
		return p.w
	}
	return w
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
