// progress_test.go: the progress line counts distinct graphs, outcomes
// and failure signatures (new / known / ignored against a state) as the
// summary does, shows the time left under a time budget, and each
// finding's minimization prints a line as it starts.
package fuzz

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// lockedBuffer is a bytes.Buffer the workers may write concurrently.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestProgressSignaturesAndTimeLeft(t *testing.T) {
	var w bytes.Buffer
	p := newProgress(&w, false, time.Hour, 0)
	st := &State{Store: []StoredSignature{{Signature: "exec:old", Outcome: OutInvalid, FirstSeen: "2026-03-01"}}, Triage: map[string]TriageEntry{}}
	p.class = st.classShowing("2026-03-02")
	p.deadline = time.Now().Add(50 * time.Second)
	for _, r := range []Record{
		{Current: SideResult{Outcome: OutOK}},
		{Current: SideResult{Outcome: OutInvalid, Signature: "exec:old"}},
		{Current: SideResult{Outcome: OutInvalid, Signature: "exec:new"}},
		{Current: SideResult{Outcome: OutInvalid, Signature: "exec:new"}},
		{Current: SideResult{Outcome: OutInvalid, Signature: "exec:new"}, Strategy: "dispatch"},
		{Current: SideResult{Outcome: OutRefused, Signature: "refused:x"}},
	} {
		p.count(&r, false)
	}
	line := p.line()
	for _, want := range []string{"6 distinct graphs", "signatures: new 2 known 1 ignored 0"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	if m := regexp.MustCompile(`, (\d+)s left`).FindStringSubmatch(line); m == nil || m[1] < "45" || m[1] > "50" {
		t.Errorf("progress line %q: want about 50s left", line)
	}
	p.class = nil
	if line := p.line(); !strings.Contains(line, "signatures 3") || strings.Contains(line, "known") {
		t.Errorf("without a state the line %q should count 3 signatures, none known", line)
	}
}

// lastProgressLine is the last plain progress line in out.
func lastProgressLine(t *testing.T, out string) string {
	t.Helper()
	var last string
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, "cfgfuzz: ") && strings.Contains(l, "distinct graphs/s") {
			last = strings.TrimSpace(l)
		}
	}
	if last == "" {
		t.Fatalf("no progress line in:\n%s", out)
	}
	return last
}

// progressCount is the number after name in a progress line, -1 if none.
func progressCount(line, re string) int {
	m := regexp.MustCompile(re).FindStringSubmatch(line)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// checkProgressAgrees checks the final progress line's counts against the
// report the summary prints.
func checkProgressAgrees(t *testing.T, line string, rep *Report) {
	t.Helper()
	check := func(what, re string, want int) {
		t.Helper()
		if got := progressCount(line, re); got != want {
			t.Errorf("progress %s %d, the summary %d:\n%s", what, got, want, line)
		}
	}
	check("distinct graphs", `^cfgfuzz: (\d+) distinct graphs`, rep.Graphs)
	for _, o := range Outcomes {
		check(o, `[ ,]`+o+` (\d+)\b`, rep.Outcomes[o])
	}
	check("skipped", ` skipped (\d+)\b`, rep.Skipped)
	if rep.State == nil {
		return
	}
	check("seen", ` seen (\d+)\b`, rep.State.Seen)
	for _, c := range []string{ClassNew, ClassKnown, ClassIgnored} {
		check("signatures "+c, `signatures:.* `+c+` (\d+)\b`, rep.State.Classes[c])
	}
}

// TestProgressCountsTimeoutsApart: graphs that time out count as timeout
// in the progress line, as in the summary, not as invalid.
func TestProgressCountsTimeoutsApart(t *testing.T) {
	c := testConfig(t, 40)
	var w lockedBuffer
	c.Progress, c.ProgressEvery = &w, time.Hour
	c.Current = SideFactory{Describe: "times out on four blocks", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len() == 4 {
				return Answer{Outcome: OutTimeout, Reason: "stand-in"}
			}
			return structureLocal(g, opt)
		}}, nil
	}}
	rep := mustRun(t, c).Report
	if rep.Outcomes[OutTimeout] == 0 {
		t.Fatalf("outcomes %v: the test needs a timeout", rep.Outcomes)
	}
	checkProgressAgrees(t, lastProgressLine(t, w.String()), rep)
}

// TestProgressDivergentOnlyWithABaseline: the progress line counts
// divergent graphs when a baseline runs, and says nothing of them when
// none does (there is nothing to diverge from).
func TestProgressDivergentOnlyWithABaseline(t *testing.T) {
	for _, compared := range []bool{false, true} {
		c := testConfig(t, 20)
		var w lockedBuffer
		c.Progress, c.ProgressEvery = &w, time.Hour
		if compared {
			c.Baseline = InProcessFactory()
		}
		mustRun(t, c)
		line := lastProgressLine(t, w.String())
		if got := strings.Contains(line, " divergent "); got != compared {
			t.Errorf("baseline %v: the line counts divergent graphs: %v, want %v\n%s", compared, got, compared, line)
		}
	}
}

// TestProgressAgreesOnRegressionNight: on a night where a signature the
// state has fixed shows again (new, though the triage file says known),
// over graphs part of which an earlier night checked, the progress line
// classes the signatures and counts the distinct graphs as the summary.
func TestProgressAgreesOnRegressionNight(t *testing.T) {
	state := t.TempDir()
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	night(t, state, "2026-03-01", 1, 40, swap)
	night(t, state, "2026-03-02", 2, 40, func(c *Config) { c.Current = panicsOnFour() })
	if err := os.WriteFile(filepath.Join(state, StateTriageFile), []byte("known "+swapSig+" tracked upstream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var w lockedBuffer
	rep := night(t, state, "2026-03-03", 1, 60, func(c *Config) {
		swap(c)
		c.Progress, c.ProgressEvery = &w, time.Hour
	})
	if got := classesOf(rep); got[swapSig] != ClassNew || rep.State.Seen == 0 {
		t.Fatalf("classes %v, %d seen: the test needs %s regressed and graphs seen", got, rep.State.Seen, swapSig)
	}
	checkProgressAgrees(t, lastProgressLine(t, w.String()), rep)
}

// TestProgressAgreesOnFixedNight: on the night after a fault is removed,
// the signatures its re-runs no longer show are fixed, though the triage
// file marks one known, and the progress line classes none of them new,
// known or ignored, as the summary.
func TestProgressAgreesOnFixedNight(t *testing.T) {
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 40, func(c *Config) {
		c.Inject = []string{"swap-arms"}
		c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil }
	})
	if err := os.WriteFile(filepath.Join(state, StateTriageFile), []byte("known "+swapSig+" tracked upstream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var w lockedBuffer
	rep := night(t, state, "2026-03-02", 2, 40, func(c *Config) { c.Progress, c.ProgressEvery = &w, time.Hour })
	if rep.State.Classes[ClassFixed] == 0 {
		t.Fatalf("classes %v: the test needs a fixed signature", rep.State.Classes)
	}
	checkProgressAgrees(t, lastProgressLine(t, w.String()), rep)
}

func TestCampaignProgressShowsMinimization(t *testing.T) {
	c := testConfig(t, 60)
	var w lockedBuffer
	c.Progress, c.ProgressEvery, c.Inject = &w, time.Nanosecond, []string{"swap-arms"}
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		time.Sleep(5 * time.Millisecond)
		return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
	}
	o := mustRun(t, c)
	out := w.String()
	if len(o.Report.Findings) == 0 {
		t.Fatalf("no findings under swap-arms; the test needs one\n%s", out)
	}
	for _, f := range o.Report.Findings {
		if f.Minimized == "" {
			continue
		}
		re := regexp.MustCompile(`minimizing \d of \d: ` + regexp.QuoteMeta(f.Signature) + `[^\n]*, \d+ blocks\.\.\.\n`)
		if !re.MatchString(out) {
			t.Errorf("no line announcing the minimization of %s in:\n%s", f.Signature, out)
		}
	}
	if !strings.Contains(out, "signatures ") {
		t.Errorf("the progress lines count no signatures:\n%s", out)
	}
}

func TestCampaignProgressTimeLeft(t *testing.T) {
	c := testConfig(t, 0)
	var w lockedBuffer
	c.Duration, c.Progress, c.ProgressEvery = Duration(300*time.Millisecond), &w, time.Nanosecond
	mustRun(t, c)
	if out := w.String(); !strings.Contains(out, "s left") {
		t.Errorf("a campaign under --duration shows no time left:\n%s", out)
	}
}

// TestProgressWhileNoGraphFinishes: a plain line comes every interval even
// while a graph's checks hold the only worker.
func TestProgressWhileNoGraphFinishes(t *testing.T) {
	c := testConfig(t, 2)
	var w lockedBuffer
	c.Workers, c.Progress, c.ProgressEvery = 1, &w, 50*time.Millisecond
	slow := InProcessFactory()
	c.Current = SideFactory{Describe: slow.Describe, New: func() (Side, error) {
		s, err := slow.New()
		return sleepySide{s}, err
	}}
	mustRun(t, c)
	if n := strings.Count(w.String(), "distinct graphs/s"); n < 5 {
		t.Errorf("%d progress lines over two graphs of 200 ms, want a line every 50 ms:\n%s", n, w.String())
	}
}

// sleepySide takes 200 ms over its first answer on each graph.
type sleepySide struct{ Side }

func (s sleepySide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if g.Len() > 1 {
		time.Sleep(200 * time.Millisecond)
	}
	return s.Side.Structurize(g, opt, limit)
}

// TestProgressETACountsSeenGraphs: the ETA goes by the indices handled per
// second, seen graphs included, not by the distinct graphs checked: 10
// checked and 40 seen in 10 s leave 50 indices for 10 s more.
func TestProgressETACountsSeenGraphs(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, time.Hour, 100)
	p.start = time.Now().Add(-10 * time.Second)
	for i := range 50 {
		r := Record{Index: i, Seen: i%5 != 0, Current: SideResult{Outcome: OutOK}}
		if r.Seen {
			r.Current = SideResult{}
		}
		p.count(&r, false)
	}
	line := p.line()
	_, after, _ := strings.Cut(line, "ETA ")
	text, _, _ := strings.Cut(after, ",")
	eta, err := time.ParseDuration(text)
	if err != nil || eta < 9*time.Second || eta > 12*time.Second {
		t.Errorf("progress line %q: ETA %v (%v), want about 10s", line, eta, err)
	}
}

// TestProgressBarCountsDistinctGraphs: the bar, which counts indices
// toward the budget, describes the distinct graphs checked and their rate,
// as the plain line and the summary count them.
func TestProgressBarCountsDistinctGraphs(t *testing.T) {
	c := testConfig(t, 40)
	var w lockedBuffer
	c.Progress, c.Terminal = &w, true
	mustRun(t, c)
	// The bar is throttled: its first frame at least is drawn.
	if !regexp.MustCompile(`\r\d+ distinct graphs, [0-9.,]+/s; ok \d+ `).MatchString(w.String()) {
		t.Errorf("the bar does not describe the distinct graphs and their rate:\n%q", w.String())
	}
}

// TestProgressBarDrawnAtOnceAndRedrawnWhileIdle: under a terminal the bar
// is drawn when the campaign starts, before any graph is counted (servers
// may take seconds to start), its clock started then; and the collector
// redraws it while no graph finishes, its clock running, though the plain
// line's interval is 10 s.
func TestProgressBarDrawnAtOnceAndRedrawnWhileIdle(t *testing.T) {
	out, _, stop := barCollector(t, func(out *lockedBuffer) {
		if n := strings.Count(out.String(), "(0/20"); n != 1 {
			t.Fatalf("the bar drawn %d times before any graph is counted, want once: %q", n, out.String())
		}
	})
	time.Sleep(2300 * time.Millisecond)
	stop()
	frames := out.String()
	if n := strings.Count(frames, "(0/20"); n < 3 {
		t.Errorf("the bar drawn %d times over 2.3 s with no graph finished, want 3 or more: %q", n, frames)
	}
	if !strings.Contains(frames, "[2s:") {
		t.Errorf("the bar's clock does not show 2 s after 2.3 s: %q", frames)
	}
}

// TestProgressBarShowsAThrottledCount: a graph counted within the bar's
// 200 ms throttle of its last frame is not drawn then; the collector's
// next redraw shows it, a quarter of a second later at most, though no
// other graph finishes.
func TestProgressBarShowsAThrottledCount(t *testing.T) {
	out, p, stop := barCollector(t, nil)
	p.count(&Record{Index: 0, Current: SideResult{Outcome: OutOK}}, false) // just after the first frame: throttled
	time.Sleep(600 * time.Millisecond)
	frames := out.String()
	stop()
	if !strings.Contains(frames, "(1/20") {
		t.Errorf("600 ms after a graph was counted the bar still shows no index done: %q", frames)
	}
}

// barCollector starts a 20-graph campaign's terminal bar, calls drawn (if
// not nil) on its frames so far, and runs a collector that is given no
// record until stop, which waits for it to end.
func barCollector(t *testing.T, drawn func(*lockedBuffer)) (out *lockedBuffer, p *progress, stop func()) {
	c := testConfig(t, 20)
	out = &lockedBuffer{}
	c.Progress, c.Terminal, c.ProgressEvery = out, true, 10*time.Second
	p = c.campaignProgress(&indexSet{}, nil, newRecordSet(&c.Settings, false))
	if drawn != nil {
		drawn(out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	co := collector{c: &Config{Context: ctx}, prog: p, fly: newFlights(time.Minute, false, time.Second, time.Second)}
	results := make(chan Record)
	done := make(chan struct{})
	go func() { co.collect(results, nil); close(done) }()
	return out, p, func() {
		close(results)
		<-done
		cancel()
	}
}
