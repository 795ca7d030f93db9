// selftest.go is `cfgfuzz selftest --structurizer SPEC`: the protocol
// conformance suite (fuzz.SelfTest) against a structurizer server named as
// every command names one (fuzz/spec.go; self and isolated are this
// binary's `cfgfuzz structurize`), one line a case, exit 1 when the server
// gets anything wrong, 2 when it cannot be started or built or answers
// none of the cases (fuzz.NeverAnswered).

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

func runSelfTest(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("selftest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cmd := fs.String("structurizer", "", "the server, a `SPEC` as for run --structurizer: cmd:CMD (or CMD alone), rev:REV, repo:DIR@REV, isolated")
	timeout := fs.Duration("timeout", 5*time.Second, "longest wait for one answer (the first after each start of the server has --start-timeout more)")
	var proc processFlags
	proc.define(fs)
	var project projectFlags
	project.define(fs)
	// What the two limits mean to the suite: a case fails, no harness error
	// and no finding.
	fs.Lookup("start-timeout").Usage = "start-up allowance of the server: the first answer after each start may take this much longer than --timeout (after a restart: twice the longest start seen and 1s, this at most); past both the case fails"
	fs.Lookup("max-answer").Usage = "longest answer line the server may write (`SIZE`, e.g. 256MiB); a longer one fails the case"
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz selftest --structurizer SPEC\n\nRun the protocol conformance suite against a structurizer server: versions, ids,")
		fmt.Fprintln(fs.Output(), "bad requests, stable reasons, both answer forms, a module answer's register file (options.registers). A case whose graph a v2 server's promises exclude is")
		fmt.Fprintln(fs.Output(), "skipped, naming the promise. Exit status: 0 conformant, 1 not, 2 usage or a server that\ncannot be started or built, or that answered none of the cases.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	switch {
	case *cmd == "":
		fmt.Fprintln(stderr, "cfgfuzz selftest: --structurizer SPEC is required (the server to test)")
		return exitUsage
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "cfgfuzz selftest: unexpected arguments %q (the server is --structurizer SPEC)\n", fs.Args())
		return exitUsage
	}
	if err := project.needRepo(*cmd); err != nil {
		fmt.Fprintln(stderr, flagError(fs.Name(), err))
		return exitUsage
	}
	proc.stop = builds
	argv, dir, err := selfTestServer(*cmd, proc.builds(nil, stderr), project.project())
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz selftest:", err)
		return exitUsage
	}
	cases := fuzz.SelfTest(argv, dir, fuzz.SelfTestOptions{Limit: *timeout, Process: proc.options()})
	text, ok := fuzz.FormatSelfTest(cases)
	fmt.Fprint(stdout, text)
	if fuzz.NeverAnswered(cases) {
		fmt.Fprintf(stderr, "cfgfuzz selftest: %s answered none of the cases: it did not start as a protocol server (a command that does not serve fuzz/PROTOCOL.md, or one slower to start than --start-timeout), so nothing of its answers was tested\n", *cmd)
		return exitUsage
	}
	if !ok {
		fmt.Fprintf(stderr, "cfgfuzz selftest: %s does not conform to the protocol (fuzz/PROTOCOL.md): see the FAIL lines\n", *cmd)
		return exitFail
	}
	fmt.Fprintf(stderr, "cfgfuzz selftest: %s conforms to the protocol\n", *cmd)
	return exitOK
}

// selfTestServer resolves spec (building a revision when it names one, as
// bo says, a repo spec's with project's commands where set) to the
// server's command line and directory. self is served as isolated: the
// suite talks to a process.
func selfTestServer(spec string, bo fuzz.BuildOptions, project fuzz.Project) (argv []string, dir string, err error) {
	sp, err := fuzz.ParseSpec(spec)
	if err != nil {
		return nil, "", err
	}
	if sp.Kind == fuzz.SpecSelf {
		sp.Kind = fuzz.SpecIsolated
	}
	f, _, err := fuzz.Resolve(sp, fuzz.ResolveOptions{Build: bo, Project: project, LeaveEnded: true})
	if err != nil {
		return nil, "", err
	}
	side, err := f.New()
	if err != nil {
		return nil, "", err
	}
	defer side.Close()
	p, ok := side.(*fuzz.Process)
	if !ok {
		return nil, "", fmt.Errorf("structurizer %s is not a process", sp)
	}
	return p.Argv, p.Dir, nil
}
