// preflight.go: a structurizer command that cannot run at all is the
// user's setup error, not the structurizer's failing. The shell that runs a
// command spec exits with status 127 when it cannot find the program and
// 126 when it cannot execute it (POSIX, "Command Search and Execution");
// left to the campaign, every graph would become a crash finding and the
// campaign would exit 1. The protocol's hello, sent before any graph is
// judged, tells the two apart.

package fuzz

import (
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// preflightLimit bounds the preflight: a command the shell cannot find or
// run ends within milliseconds; a server still silent after it is left to
// the command (one silent past its start-up allowance has not started, a
// harness error of the graph it was started for: handshake.go).
const preflightLimit = time.Second

// preflight starts one process of f and sends it the protocol v2 hello
// (which a v1 server answers with an error line). It fails only when the
// command could not run: the process exited with status 126 or 127
// without writing a line. Whatever else happens (an answer, another exit,
// silence past limit) is left for the campaign to judge; the process is
// ended either way.
func preflight(f SideFactory, limit time.Duration) error {
	side, err := f.New()
	if err != nil {
		return fmt.Errorf("structurizer %s: %w", f.Describe, err)
	}
	defer side.Close()
	p, ok := side.(*Process)
	if !ok {
		return nil
	}
	if err := p.start(); err != nil {
		return fmt.Errorf("structurizer %s: %w", f.Describe, err)
	}
	p.nextID++
	p.exchange(proto.Request{V: proto.Version2, ID: p.nextID, Hello: &proto.Hello{}}, limit, 0)
	if p.answered || (p.lastExit != 126 && p.lastExit != 127) {
		return nil
	}
	what := "was not found"
	if p.lastExit == 126 {
		what = "could not be executed"
	}
	return fmt.Errorf("structurizer %s: the command %s (exit status %d): %s", f.Describe, what, p.lastExit, p.lastTail)
}
