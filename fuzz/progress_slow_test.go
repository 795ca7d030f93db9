// progress_slow_test.go: a slow structurizer's rate (under one distinct
// graph a second) is shown as it is, not rounded to 0, in the progress
// line and in every place that prints the rate.
package fuzz

import (
	"strings"
	"testing"
	"time"
)

func TestProgressLineSlowRate(t *testing.T) {
	p := newProgress(nil, false, time.Second, 100)
	p.start = time.Now().Add(-10 * time.Second)
	p.done, p.fresh, p.indices = 3, 3, 3
	if l := p.line(); !strings.Contains(l, ", 0.3 distinct graphs/s,") {
		t.Errorf("3 graphs in 10 s: %s", l)
	}
	for _, c := range []struct {
		rate float64
		want string
	}{{0, "0"}, {0.004, "0.004"}, {0.0123, "0.012"}, {0.25, "0.25"}, {1.34, "1.3"}, {9.96, "10"}, {12.4, "12"}, {1070.2, "1070"}} {
		if got := Rate(c.rate); got != c.want {
			t.Errorf("Rate(%v) = %s, want %s", c.rate, got, c.want)
		}
	}
}

// TestProgressLinePastTimeBudget: once the time budget has run out, the
// graphs in flight still finish (a slow structurizer's take a while):
// the line says so rather than "0s left" over and over, and the last line,
// when they have finished, says the budget is spent.
func TestProgressLinePastTimeBudget(t *testing.T) {
	p := newProgress(nil, false, time.Second, 0)
	p.start = time.Now().Add(-45 * time.Second)
	p.deadline = time.Now().Add(-25 * time.Second)
	if l := p.line(); !strings.HasSuffix(l, ", time budget spent 25s ago: the graphs in flight finish") {
		t.Errorf("past the budget: %s", l)
	}
	p.finished = true
	if l := p.line(); !strings.HasSuffix(l, ", time budget spent") {
		t.Errorf("the last line: %s", l)
	}
	p.deadline = time.Now().Add(10 * time.Second)
	if l := p.line(); !strings.HasSuffix(l, ", 10s left") {
		t.Errorf("within the budget: %s", l)
	}
	// Under a graph budget too, a time budget that has run out leaves no
	// ETA: no more graphs start.
	p = newProgress(nil, false, time.Second, 100)
	p.start, p.deadline = time.Now().Add(-7*time.Second), time.Now().Add(-time.Second)
	p.done, p.fresh, p.indices = 10, 10, 10
	if l := p.line(); strings.Contains(l, "ETA") {
		t.Errorf("graphs in flight past the time budget: %s", l)
	}
	p.finished = true
	if l := p.line(); strings.Contains(l, "ETA") || !strings.HasSuffix(l, ", time budget spent") {
		t.Errorf("the last line of a campaign the time budget ended at 10 of 100 graphs: %s", l)
	}
}
