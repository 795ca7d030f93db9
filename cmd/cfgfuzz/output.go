// output.go defines the standard output every subcommand writes through:
// it remembers the first write error, so that a command whose output was
// lost (a full disk, a closed pipe reader, /dev/full) exits 2 whatever it
// returned, instead of reporting success with nothing written.

package main

import (
	"fmt"
	"io"
)

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
