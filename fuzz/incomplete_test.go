// incomplete_test.go: a campaign whose context is cancelled before its
// budget is spent reports itself incomplete (the cause as the reason, the
// resume command), one whose time budget runs out does not, and a merge of
// an incomplete shard set is refused unless partial.
package fuzz

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestCancelledCampaignIsIncomplete(t *testing.T) {
	c := testConfig(t, 100000)
	c.Source = testSource{Delay: time.Millisecond}
	ctx, cancel := context.WithCancelCause(context.Background())
	c.Context, c.ResumeCommand = ctx, "cfgfuzz run --resume "+c.Dir
	time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("SIGINT")) })
	o := mustRun(t, c)
	in := o.Report.Incomplete
	if in == nil || in.Reason != "interrupted (SIGINT)" || in.Done != o.Report.Graphs+o.Report.Skipped || in.Planned != 100000 || in.Resume != c.ResumeCommand {
		t.Fatalf("incomplete %+v, %d graphs", in, o.Report.Graphs)
	}
	if s := in.Summary(); !strings.Contains(s, " of 100,000 graph indices; resume with: cfgfuzz run --resume ") {
		t.Errorf("summary %q", s)
	}
	if !strings.Contains(Markdown(o.Report), in.Summary()) || !strings.Contains(HTML(o.Report), "resume with: cfgfuzz run --resume") {
		t.Errorf("report.md or report.html does not say the campaign is incomplete")
	}
}

func TestSpentTimeBudgetIsComplete(t *testing.T) {
	c := testConfig(t, 0)
	c.Duration = Duration(300 * time.Millisecond)
	if o := mustRun(t, c); o.Report.Incomplete != nil || o.Report.Graphs == 0 {
		t.Errorf("%d graphs, incomplete %+v", o.Report.Graphs, o.Report.Incomplete)
	}
}

func TestMergeOfMissingShard(t *testing.T) {
	c := testConfig(t, 40)
	c.Shard = Shard{I: 0, N: 2}
	mustRun(t, c)
	if _, err := Merge([]string{c.Dir}); err == nil || !strings.Contains(err.Error(), "missing shards 1/2") {
		t.Errorf("merge of one of two shards: %v", err)
	}
	rep, err := MergeWith([]string{c.Dir}, MergeOptions{Partial: true})
	if err != nil || rep.Incomplete == nil || strings.Join(rep.Incomplete.MissingShards, ",") != "1/2" || rep.Incomplete.Done != 20 || rep.Incomplete.Planned != 40 {
		t.Errorf("partial merge: %v, %+v", err, rep)
	}
}

// TestMergeSaysWhatDiffers: shards of different campaigns are refused
// naming the settings that differ, and a shard given twice is named.
func TestMergeSaysWhatDiffers(t *testing.T) {
	a, b := testConfig(t, 40), testConfig(t, 40)
	a.Shard, b.Shard = Shard{I: 0, N: 2}, Shard{I: 1, N: 2}
	b.Seed = a.Seed + 1
	mustRun(t, a)
	mustRun(t, b)
	want := fmt.Sprintf("seed %d against %d", b.Seed, a.Seed)
	if _, err := Merge([]string{a.Dir, b.Dir}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("shards of two seeds: %v, want an error saying %q", err, want)
	}
	if _, err := Merge([]string{a.Dir, a.Dir + "/"}); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a shard given twice: %v, want an error saying so", err)
	}
}

// TestStoppedWithNothingToMinimize: a stop that reaches a campaign after
// its last graph, when no new finding is left to minimize, leaves it
// complete: every graph was judged and nothing was cut short.
func TestStoppedWithNothingToMinimize(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	c := testConfig(t, 40)
	c.Context, c.ResumeCommand = ctx, "cfgfuzz run --resume DIR"
	calls := 0
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		return g, nil
	}
	c.Stage = func(s string) {
		if s == StageGraphsDone {
			cancel(errors.New("SIGTERM"))
		}
	}
	rep := mustRun(t, c).Report
	if len(rep.Findings) != 0 || calls != 0 {
		t.Fatalf("a clean campaign has %d findings, %d minimizations", len(rep.Findings), calls)
	}
	if rep.Incomplete != nil {
		t.Errorf("stopped with nothing to minimize: incomplete %+v", rep.Incomplete)
	}
	if rep.Graphs+rep.Skipped != 40 {
		t.Errorf("the report covers %d of 40 graphs", rep.Graphs+rep.Skipped)
	}
}

// TestStoppedWhileMinimizing: a campaign stopped while it minimizes
// minimizes nothing more, announces none of the others, keeps no partly
// minimized graph, and is incomplete; its resume minimizes every new
// finding.
func TestStoppedWhileMinimizing(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	c := testConfig(t, 40)
	var log strings.Builder
	c.Inject, c.Context, c.ResumeCommand, c.Progress = []string{"swap-arms", "drop-merge"}, ctx, "cfgfuzz run --resume DIR", &log
	c.Strategy = "" // structured: drop-merge fails some graphs, swap-arms others
	calls := 0
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		cancel(errors.New("SIGINT"))
		return g, nil
	}
	rep := mustRun(t, c).Report
	if len(rep.Findings) < 2 {
		t.Fatalf("%d findings, want two or more to minimize", len(rep.Findings))
	}
	if !strings.Contains(log.String(), "minimizing 1 of ") || strings.Contains(log.String(), "minimizing 2 of ") {
		t.Errorf("the progress announces a minimization after the stop:\n%s", log.String())
	}
	in := rep.Incomplete
	if calls != 1 || in == nil || in.Reason != "interrupted (SIGINT) while minimizing" || in.Resume != c.ResumeCommand {
		t.Fatalf("stopped while minimizing: %d minimizations, incomplete %+v", calls, in)
	}
	for _, f := range rep.Findings {
		if f.Minimized != "" {
			t.Errorf("%s kept the interrupted minimization's graph %s", f.Signature, f.Minimized)
		}
	}
	c.Context, c.Resume, calls = context.Background(), true, 0
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		return g, nil
	}
	rep = mustRun(t, c).Report
	if rep.Incomplete != nil || calls != len(rep.Findings) {
		t.Errorf("resumed: incomplete %+v, %d minimizations for %d findings", rep.Incomplete, calls, len(rep.Findings))
	}
}
