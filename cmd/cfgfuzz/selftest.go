// selftest.go is `cfgfuzz selftest --structurizer CMD`: the protocol
// conformance suite (fuzz.SelfTest) against a structurizer server, one
// line a case, exit 1 when the server gets anything wrong.
package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func init() {
	register(command{name: "selftest", summary: "check that a structurizer server speaks the protocol (fuzz/PROTOCOL.md)", run: runSelfTest})
}

func runSelfTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cmd := fs.String("structurizer", "", "the server, a shell `CMD` (as for run --structurizer)")
	timeout := fs.Duration("timeout", 5*time.Second, "longest wait for one answer")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz selftest --structurizer CMD\n\nRun the protocol conformance suite against a structurizer server: versions, ids,")
		fmt.Fprintln(fs.Output(), "bad requests, stable reasons, both answer forms. Exit status: 0 conformant, 1 not, 2 usage.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if *cmd == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	text, ok := fuzz.FormatSelfTest(fuzz.SelfTest([]string{"sh", "-c", "exec " + *cmd}, "", *timeout))
	fmt.Fprint(stdout, text)
	if !ok {
		return exitFail
	}
	return exitOK
}
