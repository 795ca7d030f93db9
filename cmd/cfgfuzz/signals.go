// signals.go defines how a campaign command stops on SIGINT, SIGTERM or
// SIGHUP: the first one cancels the campaign's context with the signal as
// its cause, so the graphs in flight finish, every side is closed through
// the normal teardown, the log is synced and the reports say the campaign
// was interrupted; the command then exits 128 + the signal's number (130,
// 143, 129). A second signal ends the process at once: files being
// replaced are left as they are (tidy.Freeze: reports being renamed into
// place are renamed first, so they are all old or all new, and none is
// begun after), the line it prints says whether the reports are written,
// every structurizer server and what it started is killed (fuzz.StopServers,
// which also keeps a worker from starting a server it lost meanwhile), so
// none is left behind, the temporary files, a pictures directory made for
// reports not written and the directory's lock are removed (tidy.Clean),
// then the process exits 128 + that signal's number. A revision's build
// that the first signal stopped finishes removing what it made first
// (stopBuilds, through the command's fuzz.BuildStop, which main makes and
// hands to both the handler and the command's build options).
// compare's first signal cuts the structurizer requests in flight instead
// of waiting for them (fuzz.Config.CutOnStop, compareStop).
// The handler stays installed after the first signal, so a signal the
// shell started cfgfuzz ignoring (a background job's SIGINT) still counts;
// a SIGHUP it was started ignoring (nohup) stays ignored
// (campaignStopSignals).

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
)

// stopSignals are the signals that stop a campaign.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// heardStopSignals are the stop signals a command that is not a campaign
// listens for: those it was not started ignoring, which stay ignored
// (listening would undo the ignoring: os/signal.Notify).
func heardStopSignals() []os.Signal {
	var heard []os.Signal
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			heard = append(heard, s)
		}
	}
	return heard
}

// campaignStopSignals are the stop signals that run, compare, minimize,
// regress and merge listen for (onStopSignals, main.go ownStop;
// endStopSignals): SIGINT
// and SIGTERM always, so that a shell script's background job, which its
// shell starts ignoring SIGINT, stops on one as in the foreground, and
// SIGHUP unless the command was started ignoring it, which only a user's
// choice does: `nohup cfgfuzz run ...` outlives its terminal.
func campaignStopSignals() []os.Signal {
	heard := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		heard = append(heard, syscall.SIGHUP)
	}
	return heard
}

// endStopSignals are the stop signals that killServersOnStop listens for
// in the command name: merge's are a campaign's (campaignStopSignals), as
// it is the end of a sharded campaign's night, commonly a script's
// background job, which must stop on SIGINT as run does; the others' are
// those they were not started ignoring (heardStopSignals).
func endStopSignals(name string) []os.Signal {
	if name == "merge" {
		return campaignStopSignals()
	}
	return heardStopSignals()
}

// interrupt is a context cancelled by the first stop signal.
type interrupt struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ch     chan os.Signal
	got    chan os.Signal // the signal received, buffered, at most one
	done   chan struct{}
	// reports is the directory the command writes its reports into
	// (reportsIn), for the second signal's line; unset, the line is
	// stopWords.second.
	reports atomic.Value // string
	// says, when set (sayWith), says what the second signal's line says
	// in parentheses instead of stopWords.second, from what the command
	// has done when the signal comes.
	says atomic.Value // func() string
	// before, until the command's work proper starts (started), makes the
	// first signal's line say stopWords.before instead of first: what
	// stops is the setup, a revision's build.
	before atomic.Bool
	// minimizing, once the command minimizes its findings (minimizes),
	// makes the first signal's line say stopWords.minimizing: no graph is
	// in flight then.
	minimizing atomic.Bool
	// printing is held while the command prints what says counts
	// (printed), and from says's words to the end by the handler: the line
	// does not say "not printed" of what the command prints meanwhile.
	printing sync.Mutex
	// builds is what the command's builds carry (BuildOptions.Stop): a
	// second signal stops them, if the first did not, and waits for them
	// to remove what they made. nil: none is waited for.
	builds *fuzz.BuildStop
}

// signalError is the cause of an interrupted campaign's context.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return signalName(e.sig) }

// stopWords are what a command's stop lines say happens after the first
// signal and after a second one; written is the second one's words once
// the reports are written (interrupt.reportsIn).
type stopWords struct{ first, second, written, before, minimizing string }

// campaignStop is run's and compare's.
var campaignStop = stopWords{
	first:   "the graphs in flight finish, then the report; a second signal ends at once",
	second:  "killing the structurizer servers and ending now (the report is not written; --resume continues the campaign)",
	written: "killing the structurizer servers and ending now (the report is already written)",
	before:  "no graph has run yet: the setup in progress, such as a revision's build, stops, and the command ends",
	minimizing: "every graph is judged: the minimization stops once the judgement in progress ends, then the report, " +
		"without minimized graphs (--resume minimizes them); a second signal ends at once",
}

// compareStop is compare's: its first signal cuts the structurizer
// requests in flight (fuzz.Config.CutOnStop) instead of waiting for them.
var compareStop = func() stopWords {
	w := campaignStop
	w.first = "the structurizer requests in flight are cut, their processes killed and their graphs left for --resume, then the report; a second signal ends at once"
	return w
}()

// campaignStage, when set, is told of each stage run's and compare's
// campaign reaches (fuzz.Config.Stage) with the context the first stop
// signal cancels: the tests' seam for a signal at an exact point.
var campaignStage func(stage string, ctx context.Context)

// onStopSignals starts watching for the stop signals; name, words and log
// are for the lines saying the command is stopping, builds (nil: none)
// what the command's builds carry, for the second signal to wait for
// (interrupt.builds).
func onStopSignals(name string, words stopWords, log io.Writer, builds *fuzz.BuildStop) *interrupt {
	in := &interrupt{ch: make(chan os.Signal, 1), got: make(chan os.Signal, 1), done: make(chan struct{}), builds: builds}
	in.ctx, in.cancel = context.WithCancelCause(context.Background())
	signal.Notify(in.ch, campaignStopSignals()...)
	go func() {
		select {
		case s := <-in.ch:
			in.got <- s
			first := words.first
			switch {
			case in.before.Load() && words.before != "":
				first = words.before
			case in.minimizing.Load() && words.minimizing != "":
				first = words.minimizing
			}
			fmt.Fprintf(log, "cfgfuzz %s: %s: stopping (%s)\n", name, signalName(s), first)
			in.cancel(signalError{s})
		case <-in.done:
			return
		}
		select {
		case s := <-in.ch:
			end := newStopEnd(s) // main, should the command return meanwhile, waits for the cleanup below
			tidy.Freeze()        // from here on the reports are written or they are not
			in.printing.Lock()
			said := words.second
			if dir, ok := in.reports.Load().(string); ok && words.written != "" && fuzz.ReportsWritten(dir) {
				said = words.written
			}
			if says, ok := in.says.Load().(func() string); ok {
				said = "killing the structurizer servers and ending now (" + says() + ")"
			}
			fmt.Fprintf(log, "cfgfuzz %s: %s again: %s\n", name, signalName(s), said)
			stopBuilds(in.builds, name, s, in.ch, log, buildStopWait) // a build the first signal stopped finishes its cleanup; a third signal ends the wait
			endProcess()
			end.exit(os.Exit)
		case <-in.done:
		}
	}()
	return in
}

// setup has the first signal's line say stopWords.before until started.
func (in *interrupt) setup() { in.before.Store(true) }

// started has the first signal's line say stopWords.first.
func (in *interrupt) started() { in.before.Store(false) }

// minimizes has the first signal's line say stopWords.minimizing while
// on is true.
func (in *interrupt) minimizes(on bool) { in.minimizing.Store(on) }

// reportsIn tells the handler the directory the command writes its
// reports into: a second signal then says whether they are written.
func (in *interrupt) reportsIn(dir string) { in.reports.Store(dir) }

// sayWith has the second signal's line say, in parentheses, what says
// returns when the signal comes, after tidy.Freeze (a file written
// through package tidy is then in place or it is not) and with printing
// held (what printed prints is then printed or it is not).
func (in *interrupt) sayWith(says func() string) { in.says.Store(says) }

// printed runs print, which prints what the second signal's line counts
// (regress's summary), so that the line comes before it or after it.
func (in *interrupt) printed(print func()) {
	in.printing.Lock()
	defer in.printing.Unlock()
	print()
}

// stopEnd is a stop handler ending the process (killServersOnStop's, or
// onStopSignals's on a second signal): the signal it took, and cleaned,
// closed once its cleanup ran, as it exits. main, once the command
// returns, waits for it (waitForStop), so the process does not end before
// the cleanup ran, up to stopCleanupBound: a cleanup stuck past that (a
// kill that never returns) does not keep the process alive for good.
type stopEnd struct {
	sig     os.Signal
	cleaned chan struct{}
}

// stoppedBy is the stopEnd of the handler that took a stop signal to end
// the process, if one did.
var stoppedBy atomic.Pointer[stopEnd]

// newStopEnd is the stopEnd of a handler that took s to end the process,
// made the one main waits for (stoppedBy).
func newStopEnd(s os.Signal) *stopEnd {
	e := &stopEnd{sig: s, cleaned: make(chan struct{})}
	stoppedBy.CompareAndSwap(nil, e)
	return e
}

// exit says the cleanup ran and ends the process through exit (os.Exit)
// with 128 + the signal's number.
func (e *stopEnd) exit(exit func(int)) {
	close(e.cleaned)
	exit(signalStatus(e.sig))
}

// wait returns once the handler's cleanup ran, true, or once bound has
// passed, false; at once on a nil e, true.
func (e *stopEnd) wait(bound time.Duration) bool {
	if e == nil {
		return true
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-e.cleaned:
		return true
	case <-t.C:
		return false
	}
}

// stopCleanupBound bounds how long main waits for a stop handler's
// cleanup (waitForStop): the builds' wait (buildStopWait) and a minute for
// killing the servers and removing the temporary files.
const stopCleanupBound = buildStopWait + time.Minute

// endProcess is what a stop handler does to end the process at once,
// once the builds are stopped: the command's output is dropped from here
// on (ending), every structurizer server and what it started is killed,
// and the temporary files and the locks go (tidy.Clean).
func endProcess() {
	ending.Store(true) // nor says so: what it would write of the graphs after is the kill's doing
	fuzz.StopServers()
	tidy.Clean()
}

// stopNote, when a command sets it (stopSays), is what killServersOnStop
// runs and says on standard error when a stop signal ends the command,
// after tidy.Freeze (a file written through package tidy is then in
// place or it is not): `cfgfuzz NAME: SIGNAL: WORDS`, WORDS what says
// returns.
type stopNote struct {
	name string
	says func() string
}

// stopSays holds the stopNote of the command running (merge's), if any.
var stopSays atomic.Value // stopNote

// stopStatus is code, or 128 + the stop signal's number when a stop
// handler took one to end the process (stoppedBy): the command may have
// ended on the servers' going before the handler exits.
func stopStatus(code int) int {
	if e := stoppedBy.Load(); e != nil {
		return signalStatus(e.sig)
	}
	return code
}

// killServersOnStop has a command without a stop handler of its own
// (every one but run, compare, minimize and regress; name is the
// command's) end on the first stop signal as the
// signal would end it, but with what the command set in stopSays said,
// a revision's build in progress stopped with nothing of it left
// (stopBuilds, through builds, which main hands the command for its
// builds to carry: its directory removed, its worktree unregistered, both
// said on standard error), and every structurizer server and what the servers started killed first (fuzz.StopServers): the signal's default
// action kills the servers alone (their parent-death signal) and leaves
// their children running, and leaves a lock and the temporary files of a
// file being replaced (tidy.Clean removes them). It exits 128 + the
// signal's number. heard are the signals it listens for
// (endStopSignals): but for merge, a signal the command was started
// ignoring (SIGINT and SIGQUIT for a shell script's background job) stays
// ignored.
func killServersOnStop(name string, heard []os.Signal, builds *fuzz.BuildStop) {
	if len(heard) == 0 {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, heard...)
	h := stopEnder{name: name, builds: builds, log: os.Stderr, wait: buildStopWait, freeze: tidy.Freeze, end: endProcess, exit: os.Exit}
	go func() {
		s := <-ch
		h.stop(newStopEnd(s), ch) // stoppedBy before the servers go: a command that fails on their going exits as stopped
	}()
}

// stopEnder is killServersOnStop's handler: name is the command's, builds
// what its builds carry, log where it says what it does, wait the bound on
// the builds' cleanup (buildStopWait), freeze tidy.Freeze, end what ends
// the process once the builds are stopped (endProcess), exit os.Exit.
// Tests stand in for them.
type stopEnder struct {
	name   string
	builds buildStopper
	log    io.Writer
	wait   time.Duration
	freeze func()
	end    func()
	exit   func(int)
}

// stop ends the process on the signal e took: the builds stopped and
// their cleanup waited for (again, a further signal, ends the wait), the
// stop note said, h.end run, then h.exit (e.exit).
func (h stopEnder) stop(e *stopEnd, again <-chan os.Signal) {
	s := e.sig
	h.freeze()                    // files being replaced (merge's reports) stay all old or all new
	h.builds.Stop(signalError{s}) // no build starts between the look below and the exit
	if h.builds.Building() {
		fmt.Fprintf(h.log, "cfgfuzz %s: %s: stopping (%s)\n", h.name, signalName(s), buildStopWords)
		stopBuilds(h.builds, h.name, s, again, h.log, h.wait)
	}
	if n, ok := stopSays.Load().(stopNote); ok && n.says != nil {
		fmt.Fprintf(h.log, "cfgfuzz %s: %s: %s\n", n.name, signalName(s), n.says())
	}
	h.end()
	e.exit(h.exit)
}

// buildStopWords are what the stop line of a command that ends at once
// says when the signal comes during a revision's build.
const buildStopWords = "the build in progress stops, nothing of it is kept, and the command ends"

// buildStopWait bounds how long a stop signal waits for the builds in
// progress to remove what they made (their processes are killed at
// once; what is left is removing the build directory and the worktree's
// registration).
const buildStopWait = 15 * time.Second

// buildStopper is what stopBuilds needs of a command's builds: a
// *fuzz.BuildStop (nil: none), or a stand-in in tests.
type buildStopper interface {
	Stop(cause error)
	Building() bool
	Wait(d time.Duration) bool
}

// stopBuilds stops the builds in progress that carry builds
// (BuildStop.Stop) with the signal s as their cause and waits, up to
// wait (buildStopWait), for each to remove its build directory and unregister
// its worktree: the build says `building REV stopped after ... (nothing
// kept)` on the command's log. A signal on again (nil: none watched) ends
// the wait. A build not gone by then is said on log: the next build
// removes what it left.
func stopBuilds(builds buildStopper, name string, s os.Signal, again <-chan os.Signal, log io.Writer, wait time.Duration) {
	// Stopped first, so that no build starts between the look and the exit.
	builds.Stop(signalError{s})
	if !builds.Building() {
		return
	}
	done := make(chan bool, 1)
	go func() { done <- builds.Wait(wait) }()
	select {
	case ok := <-done:
		if ok {
			return
		}
	case <-again:
	}
	fmt.Fprintf(log, "cfgfuzz %s: a build did not finish stopping: its directory may be left in the build cache, for the next build to remove\n", name)
}

// waitForStop holds a command that returned while a stop signal is
// being handled (its build stopped, say) until the handler's cleanup (the
// builds', the servers', tidy.Clean) ran: the handler then ends the
// process, or main does with the same status (stopStatus). Past
// stopCleanupBound it says so on standard error and returns.
func waitForStop() {
	if !stoppedBy.Load().wait(stopCleanupBound) {
		fmt.Fprintf(os.Stderr, "cfgfuzz: the stop signal's cleanup did not end within %v: ending without it (a structurizer server or a temporary file may be left)\n", stopCleanupBound)
	}
}

// ending is set when the process ends at once on a stop signal, just
// before the structurizer servers are killed: from then on endingGate
// drops what the command writes, which would report the graphs the kill
// left unanswered as crashes of the structurizer, until the signal's
// goroutine exits.
var ending atomic.Bool

// endingGate is the command's standard output or error, dropped once the
// process is ending (ending).
type endingGate struct{ w io.Writer }

func (g endingGate) Write(p []byte) (int, error) {
	if ending.Load() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// signalStatus is 128 + s's number.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

// stop releases the handler.
func (in *interrupt) stop() {
	signal.Stop(in.ch)
	close(in.done)
	in.cancel(nil)
}

// exitStatus is 128 + the number of the signal received, 0 when none was.
func (in *interrupt) exitStatus() int {
	select {
	case s := <-in.got:
		in.got <- s
		return signalStatus(s)
	default:
		return 0
	}
}

// or is exitStatus when a signal was received, code otherwise.
func (in *interrupt) or(code int) int {
	if s := in.exitStatus(); s != 0 {
		return s
	}
	return code
}

// signalName is SIGINT, SIGTERM, SIGHUP.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return strings.ToUpper(s.String())
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
