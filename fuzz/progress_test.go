// progress_test.go: the progress line counts distinct graphs and failure
// signatures (new / known against a state), shows the time left under a
// time budget, and each finding's minimization prints a line as it starts.
package fuzz

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

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
	p.known = func(sig, strategy string) bool { return sig == "exec:old" }
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
	for _, want := range []string{"6 distinct graphs", "signatures 2 new 1 known"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	if m := regexp.MustCompile(`, (\d+)s left`).FindStringSubmatch(line); m == nil || m[1] < "45" || m[1] > "50" {
		t.Errorf("progress line %q: want about 50s left", line)
	}
	p.known = nil
	if line := p.line(); !strings.Contains(line, "signatures 3") || strings.Contains(line, "known") {
		t.Errorf("without a state the line %q should count 3 signatures, none known", line)
	}
}

func TestCampaignProgressShowsMinimization(t *testing.T) {
	c := testConfig(t, 60)
	var w lockedBuffer
	c.Progress, c.ProgressEvery, c.Inject = &w, time.Nanosecond, []string{"swap-arms"}
	c.Minimize = func(g *cfg.Graph, sig, strategy string) *cfg.Graph {
		time.Sleep(5 * time.Millisecond)
		return cfg.FromSuccs([][]int{{0, 1}, {}})
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
