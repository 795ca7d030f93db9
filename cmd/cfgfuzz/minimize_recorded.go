// minimize_recorded.go: minimize judges a graph file whose header records
// how it was judged (a finding's graph.cfg or min.cfg, a regression file:
// corpus.Header) under that judging, flag by flag, wherever the command
// line leaves the flag out: the faults, strategy, register file, walks and
// their seed, checks, limits, target environment and rules reading. So a
// finding taken from a findings store is searched, written and saved as a
// regression under the judging it failed under, and regress replays it
// so. A flag given is a choice and wins (recorded.go notes where it
// differs from the header); the structurizer is never taken from the
// header (a note names it instead: --structurizer is what is tested).

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// adoptRecorded sets each judging flag left out of the command line to
// what the header of the file at path, whose bytes as read are data,
// records, and says which it set on stderr; nothing for standard input or
// a file without a header. A header that records a judging but does not
// read is the error (recordedIn).
func (mf *minimizeFlags) adoptRecorded(path string, data []byte, stderr io.Writer) error {
	h, err := recordedIn(path, data)
	if err != nil {
		return fmt.Errorf("%w: its header records how it was judged, which minimize takes for the flags left out; correct the header, or minimize the graph from a file without one", err)
	}
	if h == nil {
		return nil // no judging recorded: judged under the flags alone
	}
	if taken := mf.takeHeader(*h); len(taken) > 0 {
		fmt.Fprintf(stderr, "minimize: note: judging %s as its header records: %s (a flag given instead wins)\n", path, strings.Join(taken, " "))
	}
	return nil
}

// takeHeader sets the flags not in mf.set from h where h records a value
// other than the default (recordedFields), and returns them as flags.
func (mf *minimizeFlags) takeHeader(h corpus.Header) []string {
	u := mf.used(fuzz.Spec{})
	taken := u.adopt(h, mf.set)
	mf.inject, mf.strategy, mf.registers = u.inject, u.strategy, u.registers
	mf.walks, mf.seed, mf.checks, mf.callTimeout, mf.judge = u.walks.Random, u.walks.Seed, u.checks, u.timeout, u.judge
	return taken
}
