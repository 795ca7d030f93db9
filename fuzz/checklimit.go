// checklimit.go bounds one side's checks of one graph in a campaign
// (Settings.CheckTimeout), as `cfgfuzz check --check-timeout` bounds a
// graph's: a module that makes a check run without end (spirv-val on a
// function of a million route variables, say) gives the graph the outcome
// error, without a verdict, and the campaign goes on. The abandoned checks
// keep the oracle and the side they were using; the worker takes new ones,
// and the abandoned side is closed when its checks end (or with the
// process). At most two abandoned checks run at once in a process: a
// worker that would leave a third waits for one to end, four check limits
// at most. A panic in the checks is the outcome error too. The checks run
// on a goroutine the worker keeps from graph to graph (checkRunner), so
// its stack, grown by the first graphs, stays grown; an abandoned one
// ends once its checks do, and the next graph starts another.

package fuzz

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// abandonedChecks holds a token for each abandoned check still running: a
// worker that abandons one more than it holds waits for one to end, so
// the memory they keep stays bounded (a validator call cannot be
// stopped, only waited for).
var abandonedChecks = make(chan struct{}, 2)

// abandonWait is how many check limits a worker waits for an abandoned
// check to end before it goes on anyway (a check that never ends must not
// stop the campaign).
const abandonWait = 4

// takeToken takes a token of abandonedChecks, waiting at most wait; it
// says whether it got one.
func takeToken(wait time.Duration) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case abandonedChecks <- struct{}{}:
		return true
	case <-t.C:
		return false
	}
}

// checked is the oracle's answer on one side's module: its verdicts and
// what it lends the other side; detail says why there is none.
type checked struct {
	verdicts []oracle.Verdict
	mine     *oracle.Shared
	detail   string
	gpu      bool // the gpu check ran (the graph is one GPUEvery samples)
}

// checkWithin runs the checks of sub (every check, the slow ones retimed,
// the gpu check when this graph has it) within the campaign's check
// limit; ok is false when they did not finish in time or panicked.
func (w *worker) checkWithin(sub *oracle.Subject, shared *oracle.Shared, side Side, opt proto.Options, g *cfg.Graph) (ck checked, ok bool) {
	orc, gpuOrc, gpuNow, timeout := w.orc, w.gpuOrc, w.gpuNow, w.timeout
	run := func() (ck checked) {
		defer func() {
			if p := recover(); p != nil {
				ck = checked{detail: fmt.Sprintf("checks: panicked: %v", p)}
			}
		}()
		vs := orc.CheckShared(sub, shared)
		vs = oracle.RetimeSlow(orc, sub, shared, vs, func() time.Duration {
			start := time.Now()
			side.Structurize(g.Clone(), opt, timeout)
			return time.Since(start)
		})
		ck.mine = oracle.Share(sub, vs)
		if gpuNow {
			vs = append(vs, gpuOrc.Check(sub)...)
			ck.gpu = true
		}
		ck.verdicts = vs
		return ck
	}
	limit := w.checkLimit
	var mu sync.Mutex
	finished, abandoned := false, false
	done := make(chan checked, 1)
	held := make(chan bool, 1) // whether the worker took a token for it
	if w.checks == nil {
		w.checks = newCheckRunner()
	}
	w.checks <- func() {
		res := run()
		mu.Lock()
		finished = true
		gone := abandoned
		mu.Unlock()
		if gone {
			side.Close()
			if <-held {
				<-abandonedChecks
			}
			return
		}
		done <- res
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case ck = <-done:
	case <-t.C:
		// The check running at the limit, read before the abandoning
		// below, which may wait long enough for the abandoned checks to
		// move on to another.
		running := oracle.StillRunning(orc, gpuOrc)
		mu.Lock()
		if !finished {
			abandoned = true
		}
		mu.Unlock()
		if abandoned {
			w.checks.stop() // its goroutine ends with these checks
			w.checks = nil
			w.abandon(side)
			held <- takeToken(abandonWait * limit)
			return checked{detail: fmt.Sprintf("%s %v (--check-timeout)%s", CheckLimitDetail, limit, running)}, false
		}
		ck = <-done
	}
	return ck, ck.detail == ""
}

// abandon gives the worker a new oracle and a new side for the one whose
// checks it left running.
func (w *worker) abandon(side Side) {
	if orc, err := oracle.New(w.orcOpt); err == nil {
		w.orc = orc
	}
	if w.gpuOrc != nil {
		gopt := w.orcOpt
		gopt.Checks = []string{"gpu"}
		if orc, err := oracle.New(gopt); err == nil {
			w.gpuOrc = orc
		}
	}
	for k := range w.oneBlock {
		if k.side == side {
			delete(w.oneBlock, k)
		}
	}
	switch side {
	case w.cur:
		if s, err := w.curNew(); err == nil {
			w.cur = s
		}
	case w.base:
		if s, err := w.baseNew(); err == nil {
			w.base = s
		}
	}
}

// checkRunner is a goroutine that runs the checks it is sent, one graph's
// after another, until stop.
type checkRunner chan func()

// newCheckRunner starts a checkRunner. Its channel holds one graph's
// checks, so sending them never waits for the goroutine to take them: the
// worker's limit starts at once, as with a goroutine started per graph.
func newCheckRunner() checkRunner {
	r := make(checkRunner, 1)
	go func() {
		for f := range r {
			f()
		}
	}()
	return r
}

// stop ends the runner once the checks it runs, if any, return.
func (r checkRunner) stop() { close(r) }

// CheckLimitDetail begins the detail of a graph whose checks ran past the
// check limit: the structurizer answered, the oracle gave no verdict. The
// detail ends naming the check left running (oracle.StillRunning), as
// corpus.Runner's and minimize's do: "checks: no verdict within 2m0s
// (--check-timeout): gpu still running", short enough that its signature
// (oracle.HarnessSignature, cut at oracle.ReasonLimit) keeps the name.
const CheckLimitDetail = "checks: no verdict within"

// CheckLimitAdvice says what to do about the harness errors of rep whose
// checks ran past the check limit (CheckLimitDetail): give them more time
// with --check-timeout, or, where the gpu check was the one running, run
// it on fewer graphs (a larger --gpu-every); a graph of hundreds of
// blocks on a CPU driver of a loaded machine can take minutes. "" when
// no harness error listed is one.
func CheckLimitAdvice(rep *Report) string {
	n, gpu := 0, false
	for _, e := range rep.HarnessErrors {
		if strings.Contains(e.Detail, CheckLimitDetail) {
			n++
			gpu = gpu || strings.Contains(e.Detail, "gpu")
		}
	}
	if n == 0 {
		return ""
	}
	limit := time.Duration(rep.Settings.CheckTimeout)
	if limit <= 0 {
		limit = DefaultCheckTimeout
	}
	advice := fmt.Sprintf("the checks of %s ran past their limit (--check-timeout %v) without a verdict: a larger --check-timeout gives them the time they need", Plural(n, "graph")+" listed", limit)
	if gpu && rep.Settings.GPUEvery > 0 {
		advice += fmt.Sprintf(", or a larger --gpu-every than %d runs the gpu check, the one still running, on fewer graphs (a graph of hundreds of blocks on lavapipe takes minutes on a loaded machine)", rep.Settings.GPUEvery)
	}
	return advice
}
