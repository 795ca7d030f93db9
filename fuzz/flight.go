// flight.go keeps what a campaign's workers are doing now: each worker's
// graph in flight (its index, stream and blocks), the side it is judging
// and whether it waits for the structurizer's answer or for the checks,
// with the check running and since when. The progress line names them
// once no graph has finished for a while (a graph of hundreds of blocks
// whose gpu check runs for minutes), and when the campaign's context is
// cancelled (the first stop signal) the collector says which graphs and
// checks the stop waits for.

package fuzz

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// flights is the graphs the workers have in flight.
type flights struct {
	mu  sync.Mutex
	now map[*worker]*flight
	// limit is the campaign's check limit (--check-timeout), which the
	// description of a graph in its checks counts against.
	limit time.Duration
	// sides says the campaign has a baseline: a description then names
	// the side.
	sides bool
	// call and start are the limits on a structurizer call (--timeout)
	// and a new process's start-up allowance (--start-timeout), which
	// bound a graph waiting for an answer and the meta check's re-runs.
	call, startup time.Duration
}

// flight is one worker's graph in flight.
type flight struct {
	index, blocks int
	stream        Stream
	side          string // "current" or "baseline"
	checks        bool   // in the checks, not waiting for the answer
	since         time.Time
	// running are the oracles whose check running the description names
	// (Oracle.Running), nil ones left out.
	running []*oracle.Oracle
}

func newFlights(limit time.Duration, sides bool, call, start time.Duration) *flights {
	return &flights{now: map[*worker]*flight{}, limit: limit, sides: sides, call: call, startup: start}
}

// start notes w's new graph in flight.
func (f *flights) start(w *worker, index int, s Stream, blocks int) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now[w] = &flight{index: index, stream: s, blocks: blocks, side: "current", since: time.Now()}
}

// stage notes that w's graph waits for side's answer (running nil) or
// for its checks, which the oracles running run.
func (f *flights) stage(w *worker, side string, checks bool, running ...*oracle.Oracle) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl := f.now[w]; fl != nil {
		fl.side, fl.checks, fl.since, fl.running = side, checks, time.Now(), running
	}
}

// land notes that w's graph is judged.
func (f *flights) land(w *worker) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.now, w)
}

// count is the number of graphs in flight.
func (f *flights) count() int {
	if f == nil {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.now)
}

// describe names the graphs in flight, lowest index first, each with what
// it waits for and for how long: "graph 32 (reducible/w16, 398 blocks):
// the gpu check, 1m40s of --check-timeout 2m0s"; "" when none is.
func (f *flights) describe() string {
	if f == nil {
		return ""
	}
	f.mu.Lock()
	fls := make([]flight, 0, len(f.now))
	for _, fl := range f.now {
		fls = append(fls, *fl)
	}
	f.mu.Unlock()
	slices.SortFunc(fls, func(a, b flight) int { return cmp.Compare(a.index, b.index) })
	parts := make([]string, len(fls))
	for i, fl := range fls {
		parts[i] = fmt.Sprintf("graph %d (%s, %s): %s", fl.index, fl.stream, Plural(fl.blocks, "block"), f.waitsFor(&fl))
	}
	return strings.Join(parts, "; ")
}

// waitsFor says what fl waits for and since when.
func (f *flights) waitsFor(fl *flight) string {
	took := time.Since(fl.since).Round(time.Second)
	side := ""
	if f.sides {
		side = fmt.Sprintf(" on the %s side", fl.side)
	}
	if !fl.checks {
		return fmt.Sprintf("the structurizer's answer%s, %v (--timeout %v, and --start-timeout %v more while its process has not answered its first request)", side, took, f.call, f.startup)
	}
	var names []string
	for _, o := range fl.running {
		if o == nil {
			continue
		}
		if n := o.Running(); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return checksWait(names, side, took, f.limit, f.call)
}

// checksWait describes a graph in the checks names run (none named: "the
// checks") on side for took of the check limit. The meta check waits for
// the structurizer's re-runs, each bounded by the call limit (--timeout)
// long before the check limit, so its description names that limit too.
func checksWait(names []string, side string, took, limit, call time.Duration) string {
	what := "the checks"
	if len(names) > 0 {
		what = "the " + strings.Join(names, " and ") + " check"
	}
	if slices.Contains(names, "meta") {
		side += fmt.Sprintf(" (the structurizer's re-runs, each within --timeout %v)", call)
	}
	return fmt.Sprintf("%s%s, %v of --check-timeout %v", what, side, took, limit)
}
