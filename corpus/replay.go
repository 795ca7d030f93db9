// replay.go: replaying a directory of regression files (regress.go) on any
// structurizer, the engine of `cfgfuzz regress` and of the suite `go test
// ./corpus` replays. Each file gives one or two cases:
//
//	clean          the graph under the file's strategy, no fault planted:
//	               it must pass every check (expect: pass, the default) or
//	               fail with the file's signature (expect: fail)
//	fault:NAMES    for a file found under planted faults, on a structurizer
//	               that plants them (this tree's): it must fail with the
//	               file's signature, so the suite would catch the bug coming
//	               back; on the dispatch strategy only, since another
//	               strategy's layout may move so the fault no longer reaches
//	               the graph (then the case is skipped as stale)
//
// The Runner of each case comes from the caller (ReplayOptions.Runner), so
// the same replay judges this tree's structurizer in process or an
// external one through its side.

package corpus

import (
	"fmt"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// Replay case statuses.
const (
	CasePass  = "pass"
	CaseFail  = "fail"  // the case did not give what the file expects
	CaseError = "error" // the case could not be judged (a harness error)
	CaseSkip  = "skip"  // not run here (a fault this structurizer cannot plant, a stale fault case)
)

// ReplayOptions configures Replay. Runner is required.
type ReplayOptions struct {
	// Runner returns the runner judging r under the strategy and planted
	// faults given (faults nil for the clean case).
	Runner func(r *Regression, strategy string, faults []string) (*Runner, error)
	// PlantsFaults says whether the structurizer under test plants
	// cfgfuzz's faults (this tree's does); false skips the fault cases.
	PlantsFaults func(r *Regression) bool
	// OnCase, when set, is given each case as soon as it is judged, so
	// that a caller shows it while the next one runs.
	OnCase func(ReplayCase)
	// Stop, when set, is asked before each file: true ends the replay
	// there, the cases judged so far returned.
	Stop func() bool
}

// ReplayCase is the result of one case of one file.
type ReplayCase struct {
	Regression *Regression
	Case       string // "clean" or "fault:NAMES"
	Want       string // "pass" or the signature it must fail with
	Got        string // "pass", the signature it failed with, or the harness error
	// Detail is the failing check's own words on a failure (what check
	// prints after the signature: the walk that differs, the rule broken,
	// a refusal's reason), "" otherwise.
	Detail string
	Status string // one of the Case* statuses
	// Unchecked lists what of the checks of a case that passed could not
	// judge the module (oracle.Unchecked): the case's verdict is
	// incomplete.
	Unchecked []string
	// Err is the harness error of an error case (Got is its text): the
	// runner's, or the structurizer's (Outcome.Err); nil otherwise.
	Err     error
	Elapsed time.Duration
}

// Replay runs every case of every file, in order, until Stop says so.
func Replay(rs []*Regression, opt ReplayOptions) []ReplayCase {
	var out []ReplayCase
	add := func(c ReplayCase) {
		out = append(out, c)
		if opt.OnCase != nil {
			opt.OnCase(c)
		}
	}
	for _, r := range rs {
		if opt.Stop != nil && opt.Stop() {
			break
		}
		add(replayClean(r, opt))
		if fs := r.Header.Faults(); len(fs) > 0 {
			add(replayFault(r, fs, opt))
		}
	}
	return out
}

// replayClean judges the graph with no fault planted.
func replayClean(r *Regression, opt ReplayOptions) ReplayCase {
	c := ReplayCase{Regression: r, Case: "clean", Want: CasePass}
	expectFail := r.Header.Expect == ExpectFail
	if expectFail {
		c.Want = r.Header.Signature
	}
	o, err := judgeCase(r, r.Header.Strategy, nil, opt, &c)
	switch {
	case err != nil:
		c.Status, c.Got, c.Err = CaseError, err.Error(), err
	case o.Unsupported != "":
		// Not sent, so not judged: no pass, as check counts it.
		c.Status, c.Got, c.Detail = CaseFail, SigUnsupported, o.Unsupported
	case !o.Failed():
		c.Got = CasePass
		c.Status = pick(expectFail, CaseFail, CasePass)
		c.Unchecked = oracle.Unchecked(o.Verdicts)
	default:
		c.Got, c.Detail = o.Signature, failedDetail(o)
		c.Status = pick(expectFail && o.Signature == r.Header.Signature, CasePass, CaseFail)
	}
	return c
}

// failedDetail is the detail of o's failing verdict, "" when none.
func failedDetail(o Outcome) string {
	if v := oracle.Failed(o.Verdicts); v != nil {
		return v.Detail
	}
	return ""
}

// replayFault judges the graph with the file's faults planted.
func replayFault(r *Regression, faults []string, opt ReplayOptions) ReplayCase {
	c := ReplayCase{Regression: r, Case: "fault:" + strings.Join(faults, ","), Want: r.Header.Signature}
	if opt.PlantsFaults == nil || !opt.PlantsFaults(r) {
		c.Status, c.Got = CaseSkip, "the structurizer under test does not plant cfgfuzz's faults"
		return c
	}
	o, err := judgeCase(r, r.Header.Strategy, faults, opt, &c)
	switch {
	case err != nil:
		c.Status, c.Got, c.Err = CaseError, err.Error(), err
	case o.Signature == r.Header.Signature:
		c.Status, c.Got = CasePass, o.Signature
	case r.Header.Strategy == "dispatch":
		c.Status, c.Got, c.Detail = CaseFail, pick(o.Failed(), o.Signature, CasePass), failedDetail(o)
	default:
		c.Status, c.Got = CaseSkip, fmt.Sprintf("stale: gives %q under its fault; re-minimize it from a fresh hunt", pick(o.Failed(), o.Signature, CasePass))
	}
	return c
}

// judgeCase runs one case, timed; a harness error is returned.
func judgeCase(r *Regression, strategy string, faults []string, opt ReplayOptions, c *ReplayCase) (Outcome, error) {
	start := time.Now()
	defer func() { c.Elapsed = time.Since(start) }()
	run, err := opt.Runner(r, strategy, faults)
	if err != nil {
		return Outcome{}, err
	}
	o := run.Run(r.Graph)
	return o, o.Err
}

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}
