// errorstop.go: a campaign whose first graphs all went unanswered stops
// early rather than spend its budget on a structurizer that tests nothing:
// harness errors (no verdict: the structurizer did not start, a request it
// could not serve, a check that could not run), and graphs the current
// side crashed on or did not answer in time (a program that exits at once,
// or writes a banner where the protocol wants an answer, crashes on every
// graph; a night's state would class that signature known from the second
// night on and exit 0). The decision looks at the first ErrorStopGraphs
// graphs this run judges, in index order, whatever the number of workers:
// one of them answered (any other outcome: a module, a refusal, a panic
// reported) and the campaign never stops this way. A server that does not
// start costs each graph the call limit and the start-up allowance
// (handshake.go), 40 s by default, so the first UnstartedStopGraphs
// graphs in that order whose servers all answered nothing, not even the
// protocol's hello (Answer.NotStarted), stop the campaign sooner, as the
// selftest gives up after as many silent starts. The report is incomplete
// (Report.Incomplete, reason StoppedEarly or StoppedUnstarted; the graphs'
// errors are its harness_errors), and the CLI exits 2.

package fuzz

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// ErrorStopGraphs is the number of graphs a run judges before it gives up
// on a structurizer that answered none of them: the first this many graphs
// this run handles (skipped repeats and graphs seen on an earlier night
// left out), in index order.
const ErrorStopGraphs = 8

// UnstartedStopGraphs is the number of graphs, the first this run handles
// in index order, whose servers all did not start (SideResult.NotStarted)
// that stop a run before ErrorStopGraphs: the selftest's unstartedAfter.
const UnstartedStopGraphs = unstartedAfter

// errorStop watches a run's records, in index order, until its first
// ErrorStopGraphs judged graphs are known: all harness errors, it stops.
type errorStop struct {
	mine    func(i int) bool // whether this run handles index i
	limit   int              // the last index + 1 this run may handle; <= 0 none
	at      int              // the next index in order whose record is awaited
	pending map[int]*Record  // records that came before at's
	errors  int              // harness errors among the graphs taken in order
	settled bool             // decided: an answer came, or the stop
	// unstarted watches the graphs taken for servers that did not start
	// (notStarted).
	unstarted UnstartedStop
	stopped   bool
	reason    string // the stop's: StoppedEarly or StoppedUnstarted
}

// newErrorStop watches the indices of c's shard that done does not hold.
func newErrorStop(c *Config, done *indexSet) *errorStop {
	e := &errorStop{mine: func(i int) bool { return c.Shard.has(i) && !done.has(i) }, limit: c.Graphs, pending: map[int]*Record{}}
	e.at = e.next(0)
	return e
}

// next is the first index from i this run handles, -1 past the budget.
func (e *errorStop) next(i int) int {
	for ; e.limit <= 0 || i < e.limit; i++ {
		if e.mine(i) {
			return i
		}
	}
	return -1
}

// add takes one record of this run and reports whether the campaign is
// to stop now (once: later calls report false).
func (e *errorStop) add(r *Record) bool {
	if e.settled {
		return false
	}
	e.pending[r.Index] = r
	for e.at >= 0 && !e.settled {
		p, ok := e.pending[e.at]
		if !ok {
			break
		}
		delete(e.pending, e.at)
		e.take(p)
		e.at = e.next(e.at + 1)
	}
	if e.settled {
		e.pending = nil
	}
	return e.stopped
}

// take judges the next record in index order.
func (e *errorStop) take(r *Record) {
	switch {
	case r.Skipped || r.Seen:
	case !r.unanswered():
		e.settled = true
	default:
		e.errors++
		switch {
		case e.unstarted.Add(r.notStarted()):
			e.settled, e.stopped, e.reason = true, true, StoppedUnstarted
		case e.errors >= ErrorStopGraphs:
			e.settled, e.stopped, e.reason = true, true, StoppedEarly
		}
	}
}

// UnstartedStop is the rule by which a run gives up on a structurizer
// whose servers do not start, shared by a campaign (errorStop) and the
// commands that judge graphs one after another (check, regress): the
// first UnstartedStopGraphs graphs it takes, in order, all answered by a
// server that said nothing, not even the protocol's hello, within the
// call limit and its start-up allowance (Answer.NotStarted, a
// NotStartedError), stop the run, since every graph left would wait as
// long; any other graph among them (an answer, a crash, a refusal)
// settles it, and the run never stops this way. The zero value is ready.
type UnstartedStop struct {
	unstarted int
	settled   bool
}

// Add takes the next graph in order, notStarted whether its server did not
// start, and reports whether the run is to stop now (once: later calls
// report false).
func (u *UnstartedStop) Add(notStarted bool) bool {
	if u.settled {
		return false
	}
	if !notStarted {
		u.settled = true
		return false
	}
	u.unstarted++
	u.settled = u.unstarted >= UnstartedStopGraphs
	return u.settled
}

// notStarted says whether a side's server of the record answered nothing,
// not even the protocol's hello, within its start-up allowance.
func (r *Record) notStarted() bool {
	return r.Current.NotStarted || r.Baseline != nil && r.Baseline.NotStarted
}

// harnessError says whether the record is a graph without a verdict: an
// error outcome on either side.
func (r *Record) harnessError() bool {
	return r.Current.Outcome == OutError || r.Baseline != nil && r.Baseline.Outcome == OutError
}

// unanswered says whether the record is a graph the structurizer under
// test gave no answer on: a harness error on either side, or the current
// side's crash or timeout, but for an answer that left processes running
// (LeakSignature: it answered).
func (r *Record) unanswered() bool {
	cur := &r.Current
	return r.harnessError() || cur.Outcome == OutTimeout || cur.Outcome == OutCrash && cur.Signature != LeakSignature
}

// StoppedEarly is the reason of a run that stopped early: Incomplete.Reason.
var StoppedEarly = fmt.Sprintf("stopped early (the first %d graphs got no answer: harness errors, crashes or timeouts, not one verdict on a structurizer's answer)", ErrorStopGraphs)

// StoppedUnstarted is the reason of a run that stopped early on servers
// that did not start: Incomplete.Reason.
var StoppedUnstarted = fmt.Sprintf("stopped early (the servers of the first %d graphs answered nothing, not even the protocol's hello, within --timeout and --start-timeout: every graph would wait as long)", UnstartedStopGraphs)

// IsStoppedEarly says whether reason is an early stop's (StoppedEarly or
// StoppedUnstarted).
func IsStoppedEarly(reason string) bool {
	return reason == StoppedEarly || reason == StoppedUnstarted
}

// incomplete is the report's Incomplete for a run that stopped early, nil
// for one that did not or whose graphs in flight were its budget's last.
// It gives no resume command: a resume keeps these graphs' errors, so the
// campaign is better started again (--force) once the structurizer
// answers.
func (e *errorStop) incomplete(done, planned int) *Incomplete {
	if e == nil || !e.stopped || planned > 0 && done >= planned {
		return nil
	}
	return &Incomplete{Reason: e.reason, Done: done, Planned: max(planned, 0)}
}

// stoppedEarlyMarkdown is report.md's advice under a report that stopped
// early, "" for any other: the selftest of the side whose error is listed
// first, the baseline's when that error is the baseline's alone.
func stoppedEarlyMarkdown(rep *Report) string {
	if rep.Incomplete == nil || !IsStoppedEarly(rep.Incomplete.Reason) {
		return ""
	}
	if hint := InjectRefusedHint(rep); hint != "" {
		return mdCell(hint) + ".\n\n"
	}
	spec, who := rep.Settings.Current, "the structurizer"
	if len(rep.HarnessErrors) > 0 && harnessSide(&rep.Settings, &rep.HarnessErrors[0]) != &rep.Settings {
		spec, who = rep.Settings.Baseline, "the baseline's structurizer"
	}
	return fmt.Sprintf("%s shows whether %s serves the protocol, and how it fails; once it does, start the campaign again (--force: a --resume keeps these graphs' results). The first graphs' errors are under Harness errors, their crashes and timeouts under Findings.\n\n",
		mdCode("cfgfuzz selftest --structurizer "+ShellQuote(spec)), who)
}

// InjectRefusedHint is, for a campaign that planted faults (--inject) in a
// structurizer other than cfgfuzz's own (a cmd: or repo: current side)
// whose first harness error is that side's request error, why every graph
// went unanswered, the structurizer's own words first: it rejects requests
// that carry faults, which only structurizers implementing them can plant
// (PROTOCOL.md, options.inject). "" otherwise.
func InjectRefusedHint(rep *Report) string {
	s := &rep.Settings
	if len(s.Inject) == 0 || len(rep.HarnessErrors) == 0 {
		return ""
	}
	if spec, err := ParseSpec(s.Current); err != nil || spec.Kind != SpecCmd && spec.Kind != SpecRepo {
		return ""
	}
	e := rep.HarnessErrors[0]
	_, reason, ok := strings.Cut(e.Detail, proto.RequestError)
	if !ok || !strings.HasPrefix(e.Current, OutError) {
		return ""
	}
	return fmt.Sprintf("%q is the structurizer's answer to requests that carry planted faults (--inject %s; the first graph %d): --inject plants faults only in structurizers that implement them (cfgfuzz's own; fuzz/PROTOCOL.md, options.inject), and this one rejects the requests instead; run it without --inject",
		proto.RequestError+reason, strings.Join(s.Inject, ","), e.Index)
}
