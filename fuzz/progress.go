// progress.go shows a campaign's progress: a progressbar/v3 bar on a
// terminal (the caller detects it: the library does not), or a plain line
// every few seconds for CI logs. Both count as the summary does: distinct
// graphs checked (not those skipped as repeats or, with a state, as
// checked on an earlier night, which are counted apart), the current
// side's outcomes, divergent graphs, and the failure signatures found,
// with a state classed new / known / ignored as the summary classes them
// (classify.go); then the rate in distinct graphs per second and the ETA
// under a graph budget or the time left under a time budget.
// MinimizeFindings (report.go) announces each finding's minimization.

package fuzz

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

type progress struct {
	mu        sync.Mutex
	w         io.Writer
	bar       *progressbar.ProgressBar
	every     time.Duration
	last      time.Time
	start     time.Time
	total     int
	done      int // distinct graphs checked, including replayed
	fresh     int // distinct graphs checked by this run
	indices   int // indices this run handled: checked, skipped or seen
	skipped   int // repeats skipped (distinct.go), including replayed
	seen      int // graphs skipped as checked on an earlier night (the state's filter)
	counts    map[string]int
	divergent int
	compared  bool // a baseline runs: the line counts the divergent graphs
	// sigs tallies the failure signatures seen (the report's findings
	// key: signature and strategy).
	sigs map[findingKey]*progressSig
	// class, set with a state, classes a signature showing tonight as the
	// summary does (State.classShowing).
	class    func(sig, strategy string, baselineShares bool) string
	deadline time.Time // the time budget's end; zero without one
	finished bool      // no graph is in flight any more (finish)
	stopping bool      // the campaign stops early (stopEarly)
	// halting: the campaign was stopped (halt): the graphs in flight
	// finish, or with cut their structurizer requests are cut
	// (Config.CutOnStop), and no ETA is given.
	halting, cut bool
	// inFlight names the graphs in flight (flights.describe), which the
	// line adds once none has finished for stallAfter; nil: never.
	inFlight func() string
	// moved is when a graph this run judged last finished.
	moved time.Time
}

// stallAfter is how long the line waits for a graph to finish before it
// names the graphs in flight.
const stallAfter = 10 * time.Second

// redrawEvery is how often the collector's ticker redraws the terminal's
// bar (heartbeat), so that its clock runs while no graph finishes and a
// count the bar's 200 ms throttle left undrawn shows within a quarter of a
// second.
const redrawEvery = 250 * time.Millisecond

// progressSig is what the campaign has shown of one signature so far.
type progressSig struct {
	graphs    int  // campaign graphs failing with it
	newGraphs int  // of those, the ones the baseline does not share (Record.isNew)
	rerun     bool // a re-run of a kept graph showed it
	// rejudged: its stored minimized graph, re-run tonight, gave a
	// verdict other than this signature (classify.go's rejudge).
	rejudged bool
}

// baselineShares is ClassifyState's test for a signature the baseline
// fails the same way on.
func (s *progressSig) baselineShares() bool { return s.graphs > 0 && s.newGraphs == 0 && !s.rerun }

func newProgress(w io.Writer, terminal bool, every time.Duration, total int) *progress {
	p := &progress{w: w, total: total, start: time.Now(), last: time.Now(), moved: time.Now(), every: every, counts: map[string]int{}, sigs: map[findingKey]*progressSig{}}
	if p.every <= 0 {
		p.every = 10 * time.Second
	}
	if w != nil && terminal {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("indices"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(24),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// draw draws the terminal's bar, described, when the campaign starts: its
// servers may take seconds to start, and the bar's clock starts at its
// first frame (a resume's replayed counts drew it already).
func (p *progress) draw() {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Describe(p.describe())
}

// tick is how often the collector calls heartbeat: every, or under the
// terminal's bar redrawEvery when that is sooner.
func (p *progress) tick() time.Duration {
	if p.bar != nil {
		return min(p.every, redrawEvery)
	}
	return p.every
}

// describe is the bar's description: the distinct graphs, their rate and
// the counts.
func (p *progress) describe() string {
	rate := float64(p.fresh) / time.Since(p.start).Seconds()
	return fmt.Sprintf("%d distinct graphs, %s/s; %s", p.done, Rate(rate), p.summary())
}

// count accounts for one record; replayed ones come from the log.
func (p *progress) count(r *Record, replayed bool) { p.countN(r, 1, replayed, true) }

// countN counts n records like r (a replayed set's counts: n of one kind),
// and r's signature when whole (a record standing for counts has none:
// countSignatures gives them).
func (p *progress) countN(r *Record, n int, replayed, whole bool) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !replayed {
		p.indices += n
		p.moved = time.Now()
	}
	if r.Skipped || r.Seen {
		if r.Skipped {
			p.skipped += n
		} else {
			p.seen += n
		}
		if p.bar != nil {
			p.bar.Add(n)
		}
		return
	}
	p.done += n
	if !replayed {
		p.fresh += n
	}
	p.counts[r.Current.Outcome] += n
	if whole {
		p.countSignature(r)
	}
	if r.Class != "" && r.Class != ClassSame {
		p.divergent += n
	}
	if p.bar != nil {
		// The bar counts indices (its total is the budget's); the
		// description counts the distinct graphs and their rate.
		p.bar.Describe(p.describe())
		p.bar.Add(n)
		return
	}
	if !replayed && time.Since(p.last) >= p.every {
		p.last = time.Now()
		fmt.Fprintln(p.w, p.line())
	}
}

// sig is the tally of signature sig on strategy, made on first use.
func (p *progress) sig(sig, strategy string) *progressSig {
	k := findingKey{sig, strategy}
	if p.sigs[k] == nil {
		p.sigs[k] = &progressSig{}
	}
	return p.sigs[k]
}

// countSignature notes a failing record's signature (the report's
// findings key: signature and strategy).
func (p *progress) countSignature(r *Record) {
	if !isFailure(r.Current.Outcome) {
		return
	}
	s := p.sig(r.Current.Signature, r.Strategy)
	s.graphs++
	if r.isNew() {
		s.newGraphs++
	}
}

// countSignatures notes graphs failing with finding k's signature, fresh
// of them new (a replayed set's folded failures).
func (p *progress) countSignatures(k findingKey, graphs, fresh int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sig(k.sig, k.strategy)
	s.graphs += graphs
	s.newGraphs += fresh
}

// reruns notes the signatures the night's re-runs of kept graphs showed:
// the summary classes them too.
func (p *progress) reruns(rs []Rerun) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range rs {
		if r.Minimized {
			if v := minimizedVerdict(&r); v != MinimizedShows && v != MinimizedError {
				p.sig(r.Signature, r.Strategy).rejudged = true
			}
		}
		if isFailure(r.Result.Outcome) {
			p.sig(r.Result.Signature, r.Strategy).rerun = true
		}
	}
}

// summary is the counts: the current side's outcomes as the summary lists
// them, divergent graphs (with a baseline), the skips, and the signatures (with a state, by
// the class the summary gives them).
func (p *progress) summary() string {
	var b strings.Builder
	for i, o := range Outcomes {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s %d", o, p.counts[o])
	}
	if p.compared {
		fmt.Fprintf(&b, " divergent %d", p.divergent)
	}
	fmt.Fprintf(&b, " skipped %d", p.skipped)
	if p.class == nil {
		n := 0
		for _, s := range p.sigs {
			if s.graphs > 0 {
				n++
			}
		}
		fmt.Fprintf(&b, ", signatures %d", n)
		return b.String()
	}
	fmt.Fprintf(&b, " seen %d, signatures:", p.seen)
	classes := map[string]int{}
	for k, s := range p.sigs {
		if s.graphs == 0 && !s.rerun {
			continue // noted by a re-run that did not show it tonight
		}
		c := p.class(k.sig, k.strategy, s.baselineShares())
		if c == ClassKnown && s.rejudged && s.graphs > 0 {
			c = ClassNew // as classify.go's rejudge
		}
		classes[c]++
	}
	for _, c := range []string{ClassNew, ClassKnown, ClassIgnored} {
		fmt.Fprintf(&b, " %s %d", c, classes[c])
	}
	return b.String()
}

// line is the plain progress line: distinct graphs checked (of the
// indices planned under a graph budget, skips included), counts, the rate
// in distinct graphs per second, the graphs in flight once none has
// finished for stallAfter (from the stop on, always, and then no ETA),
// and the ETA under a budget (none once a
// time budget has run out: no more graphs start): the indices
// left at the rate this run handles indices, so that a night whose graphs
// are mostly seen before (skipped at once) is not forecast at the rate of
// the graphs it checks.
func (p *progress) line() (s string) {
	el := time.Since(p.start)
	rate := float64(p.fresh) / el.Seconds()
	s = fmt.Sprintf("cfgfuzz: %d distinct graphs", p.done)
	handled := p.done + p.skipped + p.seen
	if p.total > 0 {
		s += fmt.Sprintf(" (%d/%d indices)", handled, p.total)
	}
	s += fmt.Sprintf(" %s, %s distinct graphs/s, %s", p.summary(), Rate(rate), el.Round(time.Second))
	switch {
	case p.stopping && p.finished:
		return s + ", stopped early"
	case p.stopping:
		return s + ", stopped early: the graphs in flight finish" + p.flying(0)
	case p.halting && p.finished:
		return s + ", stopped"
	case p.halting && p.cut:
		return s + ", stopping: the graphs in flight are cut" + p.flying(0)
	case p.halting:
		return s + ", stopping: the graphs in flight finish" + p.flying(0)
	}
	defer func() { s += p.flying(stallAfter) }()
	spent := !p.deadline.IsZero() && !time.Now().Before(p.deadline)
	if perIndex := float64(p.indices) / el.Seconds(); p.total > 0 && perIndex > 0 && !spent {
		left := p.total - handled
		s += fmt.Sprintf(", ETA %s", (time.Duration(float64(left)/perIndex) * time.Second).Round(time.Second))
	}
	if !p.deadline.IsZero() {
		// Past the budget no graph starts, but those in flight finish.
		switch left := time.Until(p.deadline); {
		case left > 0:
			s += fmt.Sprintf(", %s left", left.Round(time.Second))
		case p.finished:
			s += ", time budget spent"
		default:
			s += fmt.Sprintf(", time budget spent %s ago: the graphs in flight finish", (-left).Round(time.Second))
		}
	}
	return s
}

// flying is "; in flight: " and the graphs in flight when no graph has
// finished for stalled (0: whenever some are in flight), "" otherwise.
func (p *progress) flying(stalled time.Duration) string {
	if p.inFlight == nil || p.finished || time.Since(p.moved) < stalled {
		return ""
	}
	if d := p.inFlight(); d != "" {
		return "; in flight: " + d
	}
	return ""
}

// halt says, once the campaign is stopped (its context cancelled: the
// first stop signal), which graphs and checks the stop waits for (with
// cut, Config.CutOnStop: whose structurizer requests it cuts) and that a
// second signal ends at once; the lines after it say it stops.
func (p *progress) halt(fly *flights, cut bool) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.halting, p.cut = true, cut
	if p.bar != nil {
		p.bar.Clear()
	}
	if n := fly.count(); n > 0 && cut {
		fmt.Fprintf(p.w, "cfgfuzz: stopping: cutting the structurizer requests of %s in flight (their processes killed, the graphs left for --resume; a check already running ends first, within its check limit): %s; a second stop signal ends at once (without the report; --resume continues the campaign)\n", Plural(n, "graph"), fly.describe())
	} else if n > 0 {
		fmt.Fprintf(p.w, "cfgfuzz: stopping: waiting for %s in flight, each until it is judged or its check limit ends it (then it has no verdict), or at once when its structurizer process is still starting (it has written nothing yet: killed, the graph left for --resume): %s; a second stop signal ends at once (without the report; --resume continues the campaign)\n", Plural(n, "graph"), fly.describe())
	}
}

// heartbeat prints the plain line when none was printed for p.every:
// graphs whose checks run long still show the campaign alive. Under the
// terminal's bar it redraws the bar (its clock and rate), and prints a
// line only while no graph has finished for stallAfter: the graphs in
// flight, above the bar.
func (p *progress) heartbeat() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) >= p.every {
		switch {
		case p.bar == nil:
			p.last = time.Now()
			fmt.Fprintln(p.w, p.line())
		case !p.halting && !p.stopping:
			if fly := p.flying(stallAfter); fly != "" {
				p.last = time.Now()
				p.bar.Clear()
				fmt.Fprintf(p.w, "cfgfuzz: no graph finished for %s%s\n", time.Since(p.moved).Round(time.Second), fly)
			}
		}
	}
	if p.bar != nil && !p.finished {
		p.bar.Describe(p.describe()) // redraws it, unless drawn in the last 200 ms
	}
}

// stopEarly says on its own line why the campaign hands out no more
// graphs (errorstop.go); the lines after it say it stops.
func (p *progress) stopEarly(why string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopping = true
	if p.bar != nil {
		p.bar.Clear()
	}
	fmt.Fprintf(p.w, "cfgfuzz: %s\n", why)
}

func (p *progress) finish() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
	}
	p.finished = true
	fmt.Fprintln(p.w, p.line())
}

// Rate is a rate in distinct graphs per second as the progress line, the
// summary and report.md print it: whole numbers from 10 up, one decimal
// from 1, and two significant digits below, so that a structurizer slower
// than a graph a second shows its rate rather than 0.
func Rate(r float64) string {
	switch {
	case r >= 9.95:
		return fmt.Sprintf("%.0f", r)
	case r >= 0.995:
		return fmt.Sprintf("%.1f", r)
	case r <= 0:
		return "0"
	}
	return fmt.Sprintf("%.2g", r)
}
