// processflags.go: the flags of every command that talks to a structurizer
// process, one definition with one meaning everywhere: --max-answer (the
// longest answer line, PROTOCOL.md "The answer limit"), --start-timeout
// (a server's start-up allowance beyond --timeout, PROTOCOL.md "Failure
// behaviour") and --build-timeout (the limit of a revision's build
// command, for a structurizer built from a revision; bisect and merge,
// which have no other process flag, define it alone).

package main

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// processFlags are the values of the process flags, and the stop of the
// builds they configure. The zero value is not the defaults: define sets
// them.
type processFlags struct {
	maxAnswer    fuzz.ByteSize
	startTimeout time.Duration
	buildTimeout time.Duration // 0: no limit
	// stop is no flag: it is the BuildStop through which the command's
	// stop-signal handling stops the builds it starts (main gives it to
	// the command), carried by every BuildOptions builds makes. nil: the
	// builds are never stopped but through builds' context.
	stop *fuzz.BuildStop
}

// buildTimeoutUsage is the --build-timeout flag's text.
const buildTimeoutUsage = "longest a revision's build command may run (`DURATION`, not negative; 0, the default: no limit): past it the command is killed with its process group and the build fails, not recorded as failed (bisect skips the commit)"

// startTimeoutUsage is the --start-timeout flag's text.
const startTimeoutUsage = "start-up allowance of a structurizer process: the first request each new process gets, the protocol's hello (sent again after each restart), may take this much longer than --timeout; a process that does not answer its hello within both has not started: a harness error of the graph (exit 2), not a finding"

// define declares the flags on fs, at their defaults.
func (p *processFlags) define(fs *flag.FlagSet) {
	p.maxAnswer = fuzz.DefaultMaxAnswer
	fs.Var(&p.maxAnswer, "max-answer", "longest answer line a structurizer process may write (`SIZE`, e.g. 256MiB); a longer one is a crash finding")
	fs.DurationVar(&p.startTimeout, "start-timeout", fuzz.DefaultStartTimeout, startTimeoutUsage)
	fs.DurationVar(&p.buildTimeout, "build-timeout", 0, buildTimeoutUsage)
}

// builds are the build options of the revisions the command builds: ctx
// (nil: none) and p.stop (nil: none) stop a build, log says what is
// built.
func (p processFlags) builds(ctx context.Context, log io.Writer) fuzz.BuildOptions {
	return fuzz.BuildOptions{Context: ctx, Stop: p.stop, Log: log, Timeout: p.buildTimeout}
}

// options are the flags as fuzz.ProcessOptions.
func (p processFlags) options() fuzz.ProcessOptions {
	return fuzz.ProcessOptions{MaxAnswer: int(p.maxAnswer), StartTimeout: p.startTimeout}
}
