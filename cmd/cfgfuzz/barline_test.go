// barline_test.go: a line written to standard error while the progress
// bar is drawn starts on a line of its own, the bar's frame erased.
package main

import (
	"bytes"
	"fmt"
	"testing"
)

// TestLineWrittenUnderTheBarErasesItsFrame: a line another goroutine
// writes while the bar's frame is on the cursor's line (the stop signal's)
// erases the frame first; a line after the bar cleared itself, or after
// another line, is written as it is.
func TestLineWrittenUnderTheBarErasesItsFrame(t *testing.T) {
	var term bytes.Buffer
	stderr := newPrintableWriter(&term)
	bar, isBar := progressOutput("bar", stderr)
	if !isBar {
		t.Fatal("--progress bar: no bar")
	}
	fmt.Fprint(bar, "\r  0% |    | (0/20, 0 indices/hr) [3s:0s]")
	fmt.Fprintln(stderr, "cfgfuzz run: SIGINT: stopping")
	fmt.Fprintln(stderr, "cfgfuzz run: another line")
	fmt.Fprint(bar, "\r  5% |    | (1/20) [4s:1m0s]\r                \r")
	fmt.Fprintln(stderr, "cfgfuzz: a line after the bar cleared itself")
	want := "\r  0% |    | (0/20, 0 indices/hr) [3s:0s]\r\x1b[Kcfgfuzz run: SIGINT: stopping\ncfgfuzz run: another line\n" +
		"\r  5% |    | (1/20) [4s:1m0s]\r                \rcfgfuzz: a line after the bar cleared itself\n"
	if got := term.String(); got != want {
		t.Errorf("the terminal got\n%q\nwant\n%q", got, want)
	}
}
