// progress.go shows a campaign's progress: a progressbar/v3 bar on a
// terminal (the caller detects it: the library does not), or a plain line
// every few seconds for CI logs. Both show ok / invalid / refused /
// divergent / skipped counts, the failure signatures found (new / known
// against a state directory), the rate in distinct graphs per second and
// the ETA under a graph budget or the time left under a time budget.
// MinimizeFindings (report.go) announces each finding's minimization.
package fuzz

import (
	"fmt"
	"io"
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
	done      int // distinct graphs, including replayed
	fresh     int // distinct graphs run by this run
	skipped   int // repeats skipped (distinct.go), including replayed
	counts    map[string]int
	divergent int
	// sigs holds the failure signatures seen (signature and strategy);
	// known, when set, says which a state directory already holds.
	sigs     map[findingKey]bool
	known    func(sig, strategy string) bool
	newSigs  int
	deadline time.Time // the time budget's end; zero without one
}

func newProgress(w io.Writer, terminal bool, every time.Duration, total int) *progress {
	p := &progress{w: w, total: total, start: time.Now(), last: time.Now(), every: every, counts: map[string]int{}, sigs: map[findingKey]bool{}}
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

// count accounts for one record; replayed ones come from the log.
func (p *progress) count(r *Record, replayed bool) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Skipped {
		p.skipped++
		if p.bar != nil {
			p.bar.Add(1)
		}
		return
	}
	p.done++
	if !replayed {
		p.fresh++
	}
	p.counts[r.Current.Outcome]++
	p.countSignature(r)
	if r.Class != "" && r.Class != ClassSame {
		p.divergent++
	}
	if p.bar != nil {
		p.bar.Describe(p.summary())
		p.bar.Add(1)
		return
	}
	if !replayed && time.Since(p.last) >= p.every {
		p.last = time.Now()
		fmt.Fprintln(p.w, p.line())
	}
}

// countSignature notes a failing record's signature (the report's
// findings key: signature and strategy).
func (p *progress) countSignature(r *Record) {
	if !isFailure(r.Current.Outcome) {
		return
	}
	k := findingKey{r.Current.Signature, r.Strategy}
	if p.sigs[k] {
		return
	}
	p.sigs[k] = true
	if p.known == nil || !p.known(k.sig, k.strategy) {
		p.newSigs++
	}
}

func (p *progress) summary() string {
	s := fmt.Sprintf("ok %d invalid %d refused %d divergent %d skipped %d", p.counts[OutOK], p.counts[OutInvalid]+p.counts[OutPanic]+p.counts[OutTimeout]+p.counts[OutCrash], p.counts[OutRefused], p.divergent, p.skipped)
	if p.known != nil {
		return s + fmt.Sprintf(", signatures %d new %d known", p.newSigs, len(p.sigs)-p.newSigs)
	}
	return s + fmt.Sprintf(", signatures %d", len(p.sigs))
}

// line is the plain progress line: distinct graphs (of the indices
// planned under a graph budget, skips included), counts, the rate in
// distinct graphs per second, and the ETA under a budget.
func (p *progress) line() string {
	el := time.Since(p.start)
	rate := float64(p.fresh) / el.Seconds()
	s := fmt.Sprintf("cfgfuzz: %d distinct graphs", p.done)
	if p.total > 0 {
		s += fmt.Sprintf(" (%d/%d indices)", p.done+p.skipped, p.total)
	}
	s += fmt.Sprintf(" %s, %.0f distinct graphs/s, %s", p.summary(), rate, el.Round(time.Second))
	if p.total > 0 && rate > 0 {
		left := p.total - p.done - p.skipped
		s += fmt.Sprintf(", ETA %s", (time.Duration(float64(left)/rate) * time.Second).Round(time.Second))
	}
	if !p.deadline.IsZero() {
		s += fmt.Sprintf(", %s left", max(time.Until(p.deadline), 0).Round(time.Second))
	}
	return s
}

// heartbeat prints the plain line when none was printed for p.every:
// graphs whose checks run long still show the campaign alive.
func (p *progress) heartbeat() {
	if p.w == nil || p.bar != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) >= p.every {
		p.last = time.Now()
		fmt.Fprintln(p.w, p.line())
	}
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
	fmt.Fprintln(p.w, p.line())
}
