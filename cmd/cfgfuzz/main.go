// Command cfgfuzz is a differential fuzzer for CFG structurizers: it
// generates control-flow graphs, structurizes them into SPIR-V, checks every
// module with independent oracles, compares revisions, and shrinks failures
// into regression tests.
//
// main.go holds the subcommand table; each subcommand lives in its own file
// and registers itself there.
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

// Exit codes shared by every subcommand.
const (
	exitOK    = 0 // nothing failed / nothing new found
	exitFail  = 1 // a check failed, a new finding, lint violations
	exitUsage = 2 // usage, input or infrastructure error
)

// command is one subcommand. run gets the arguments after the subcommand's
// name, the streams, and builds, the BuildStop through which the
// command's stop-signal handling stops the revisions' builds it starts
// (the command hands it to every build's options; nil: never stopped but
// through a build's context), and returns the exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("cfgfuzz: subcommand registered twice: " + c.name)
	}
	commands[c.name] = c
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cfgfuzz <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "cfgfuzz fuzzes CFG structurizers: graphs in, structured SPIR-V out, every module")
	fmt.Fprintln(w, "checked by independent oracles. Run 'cfgfuzz <command> -h' for a command's flags;")
	fmt.Fprintln(w, "flags go before or after a command's operands. cfgfuzz --version prints the build.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "exit status: 0 ok, 1 failures or new findings, 2 usage, input or output errors, or verdicts")
	fmt.Fprintln(w, "left incomplete (check, run, compare, merge, regress: a check past its limit or unable to judge a module;")
	fmt.Fprintln(w, "bench: a structurizer's harness error, its figures then incomplete);")
	fmt.Fprintln(w, "stopped by SIGINT, SIGTERM, SIGHUP: 130, 143, 129 (run and compare write their report first,")
	fmt.Fprintln(w, "minimize the smallest graph it found, regress its summary and JUnit file of the cases judged,")
	fmt.Fprintln(w, "merge leaves the state as it was and says how to run it again, bench prints what it measured so far;")
	fmt.Fprintln(w, "check, bisect and selftest end at once;")
	fmt.Fprintln(w, "a revision's build in progress is stopped first, nothing of it left)")
}

// ownStop are the commands that stop on signals their own way
// (onStopSignals): the others end at once (killServersOnStop).
var ownStop = map[string]bool{"run": true, "compare": true, "minimize": true, "regress": true}

func main() {
	gpu.ServeIfAsked() // a driver server of the gpu check: this program started again
	// A write to a closed pipe (cfgfuzz run ... | head -1) fails with
	// EPIPE, a write error on standard output (exit 2), when SIGPIPE is
	// notified; unnotified, the runtime ends the process by the signal.
	// Notified, not ignored: an ignored signal stays ignored across exec,
	// in the structurizer processes cfgfuzz starts, where a handled one
	// has its default action.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if os.Getenv("GOGC") == "" {
		// Every subcommand is a batch job with a high allocation rate
		// (fuzz.CampaignGCPercent says how much a high target buys); the
		// target comes down as a long campaign's live heap grows.
		fuzz.TuneGC(time.Second)
	}
	// The command's builds are stopped through builds, by the stop
	// handler installed here or by the command's own (onStopSignals).
	builds := fuzz.NewBuildStop()
	if len(os.Args) < 2 || !ownStop[os.Args[1]] {
		name := strings.Join(os.Args[1:2], "")
		killServersOnStop(name, endStopSignals(name), builds)
	}
	code := runStopping(os.Args[1:], os.Stdin, endingGate{os.Stdout}, endingGate{os.Stderr}, builds)
	waitForStop()      // a stop signal being handled ends the process
	fuzz.StopServers() // whatever path run took, no structurizer server outlives it
	gpu.CloseShared()  // nor a driver server
	// Only a command that ran a server has strays to name.
	if strays := fuzz.KilledStrays(); len(strays) > 0 {
		fmt.Fprintf(os.Stderr, "cfgfuzz %s: warning: %s\n", strings.Join(os.Args[1:2], ""), fuzz.StraysLine(strays))
	}
	os.Exit(stopStatus(code))
}

// unknownCommand says that name is no command: one line naming the
// command it most likely meant (nearestName, as for a flag), else the
// usage with every command.
func unknownCommand(name string, stderr io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	if near := nearestName(names, strings.TrimPrefix(name, "--")); near != "" {
		fmt.Fprintf(stderr, "cfgfuzz: unknown command %q: did you mean %s? ('cfgfuzz -h' lists the commands)\n", name, near)
		return
	}
	fmt.Fprintf(stderr, "cfgfuzz: unknown command %q\n\n", name)
	usage(stderr)
}

// runStopping runs the command args names, its builds stopped through
// builds (nil: never stopped but through their context).
func runStopping(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) == 2 && name == "help" {
			return runStopping([]string{args[1], "-h"}, stdin, stdout, stderr, builds) // help CMD is CMD -h
		}
		out := &checkedWriter{w: stdout}
		usage(out)
		return outputStatus("help", exitOK, out, stderr)
	}
	if name == "--version" || name == "-version" {
		name = "version"
	}
	c, ok := commands[strings.TrimPrefix(name, "--")]
	if !ok {
		unknownCommand(name, stderr)
		return exitUsage
	}
	var pout *printableWriter
	if name != "structurize" { // a protocol server's output is JSON lines, written by encoding/json
		pout = newPrintableWriter(stdout)
		stdout = pout
	}
	perr := newPrintableWriter(stderr)
	stderr = perr
	out := &checkedWriter{w: stdout}
	code := c.run(args[1:], stdin, out, stderr, builds)
	if pout != nil {
		if err := pout.Flush(); err != nil && out.err == nil {
			out.err = err
		}
	}
	code = outputStatus(c.name, code, out, stderr)
	perr.Flush()
	return code
}
