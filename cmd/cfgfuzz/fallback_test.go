// fallback_test.go: bugs planted behind the structured strategy's
// self-check, and in the dispatch layout, through the structurizer's
// test-only hooks (not --inject, whose faults skip the self-check), are
// found by the default campaign, as `cfgfuzz run --graphs 200` sets it up
// through its own flags, with the in-process structurizer: a pass whose
// output the self-check rejects gives structurize:fallback findings (the
// fallback check), minimized to the same signature; a dispatch layout bug
// is found on the dispatch share. The minimizer's predicate on a protocol
// side keeps a fallback's signature too, and the share's flags hold their
// rules.
package main

import (
	"context"
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// plantedGraphs is the campaign size the planted bugs must be found in.
const plantedGraphs = 200

// defaultCampaign is `cfgfuzz run --graphs N --workers 2 ARGS...` as the
// command sets it up, with the current side the in-process structurizer
// under hooks, and no escalation to a child process (this test binary is
// not cfgfuzz).
func defaultCampaign(t *testing.T, graphs int, hooks *structurizer.Hooks, args ...string) fuzz.Config {
	t.Helper()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f campaignFlags
	f.define(fs, false)
	args = append([]string{"--graphs", strconv.Itoa(graphs), "--workers", "2", "--progress", "none", "--out", t.TempDir()}, args...)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	c, err := f.config(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.Settings.Current != fuzz.SpecSelf {
		t.Fatalf("current side %q, want self", c.Settings.Current)
	}
	c.Current = fuzz.SideFactory{Describe: "in-process", New: func() (fuzz.Side, error) {
		return &fuzz.InProcess{Fn: hookedStructurizer(hooks)}, nil
	}}
	c.Escalate = fuzz.SideFactory{}
	return c
}

// hookedStructurizer answers as the in-process side does, with the hooks
// set.
func hookedStructurizer(hooks *structurizer.Hooks) func(g *cfg.Graph, opt proto.Options) fuzz.Answer {
	return func(g *cfg.Graph, opt proto.Options) fuzz.Answer {
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: opt.Strategy, Inject: opt.Inject, Hooks: hooks})
		if err != nil {
			if r, ok := err.(*structurizer.Refusal); ok {
				return fuzz.Answer{Outcome: proto.Refused, Reason: r.Reason}
			}
			return fuzz.Answer{Outcome: proto.Error, Reason: err.Error()}
		}
		return fuzz.Answer{Outcome: proto.OK, Stats: &res.Stats, Func: res.Func}
	}
}

// dropSelectionMerges is a selections pass that forgets every selection
// merge: the self-check rejects the function wherever a conditional or a
// switch needed one.
var dropSelectionMerges = &structurizer.Hooks{AfterPass: func(pass string, f *structurizer.Func) {
	if pass != "selections" {
		return
	}
	for i := range f.Blocks {
		if f.Blocks[i].Merge.Kind == structurizer.SelectionMerge {
			f.Blocks[i].Merge = structurizer.Merge{}
		}
	}
}}

func TestDefaultCampaignReportsAPassBugAsFallbacks(t *testing.T) {
	c := defaultCampaign(t, plantedGraphs, dropSelectionMerges)
	ropt := corpus.RunnerOptions{Structurizer: structurizer.Options{Hooks: dropSelectionMerges}, Checks: c.Settings.Checks,
		Oracle: corpus.CampaignOracle(corpus.Judging{Walks: c.Settings.Walks, Seed: c.Settings.Seed})}
	hook, err := corpus.MinimizeHook(corpus.HookOptions{Runner: ropt})
	if err != nil {
		t.Fatal(err)
	}
	c.Minimize = func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		if strategy != "" {
			return nil, nil // the dispatch share has no selections pass
		}
		return hook(g, sig, baseline)
	}
	out, err := fuzz.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	t.Logf("%d graphs, outcomes %v, %d fallbacks, findings %d", rep.Graphs, rep.Outcomes, rep.Fallbacks, len(rep.Findings))
	var fallbacks int
	for _, f := range rep.Findings {
		t.Logf("  %s (%s): %d graphs, minimized %q", f.Signature, f.Strategy, f.Count, f.Minimized)
		if !strings.HasPrefix(f.Signature, "structurize:fallback:selfcheck:R") {
			continue
		}
		fallbacks += f.Count
		if f.Minimized == "" {
			t.Errorf("%s: not minimized", f.Signature)
			continue
		}
		g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		run, err := corpus.NewRunner(ropt)
		if err != nil {
			t.Fatal(err)
		}
		if o := run.Run(g); o.Signature != f.Signature {
			t.Errorf("%s: the minimized graph %s fails with %q", f.Signature, f.Minimized, o.Signature)
		}
	}
	if fallbacks == 0 || rep.NewFindings == 0 {
		t.Fatalf("no structurize:fallback:selfcheck finding in %d graphs", rep.Graphs)
	}
	if rep.Fallbacks < fallbacks {
		t.Errorf("report counts %d fallbacks, fewer than the %d graphs of fallback findings", rep.Fallbacks, fallbacks)
	}
	rows := 0
	for _, r := range rep.Streams {
		rows += r.Fallbacks
	}
	if rows != rep.Fallbacks {
		t.Errorf("streams count %d fallbacks, the summary %d", rows, rep.Fallbacks)
	}
	if !strings.Contains(summaryLines(rep), "fallbacks "+strconv.Itoa(rep.Fallbacks)) {
		t.Errorf("summary lacks the fallback count:\n%s", summaryLines(rep))
	}
}

func TestAllowFallbacksCountsWithoutAFinding(t *testing.T) {
	c := defaultCampaign(t, plantedGraphs, dropSelectionMerges, "--allow-fallbacks")
	out, err := fuzz.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	if rep.Fallbacks == 0 {
		t.Fatal("no fallback counted")
	}
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Signature, "structurize:fallback") {
			t.Errorf("--allow-fallbacks still reports %s", f.Signature)
		}
	}
}

// swapDispatchArms is a dispatch layout whose conditionals store their
// arms' program counters the wrong way round.
var swapDispatchArms = &structurizer.Hooks{Dispatch: func(f *structurizer.Func) {
	for i := range f.Blocks {
		for j := range f.Blocks[i].Stores {
			if pc := f.Blocks[i].Stores[j].PerChoice; len(pc) == 2 {
				pc[0], pc[1] = pc[1], pc[0]
			}
		}
	}
}}

func TestDefaultCampaignFindsADispatchLayoutBug(t *testing.T) {
	c := defaultCampaign(t, plantedGraphs, swapDispatchArms)
	if c.Settings.DispatchEvery == 0 {
		t.Fatal("the default campaign has no dispatch share")
	}
	out, err := fuzz.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	rep := out.Report
	t.Logf("%d graphs, %d on the dispatch share, outcomes %v", rep.Graphs, rep.Strategies[fuzz.DispatchStrategy], rep.Outcomes)
	found := 0
	for _, f := range rep.Findings {
		t.Logf("  %s (%s): %d graphs; replay: %s", f.Signature, f.Strategy, f.Count, f.Replay)
		if f.Strategy == fuzz.DispatchStrategy && f.New > 0 {
			found += f.Count
			if !strings.Contains(f.Replay, "--strategy dispatch") {
				t.Errorf("replay %q does not run the dispatch strategy", f.Replay)
			}
		}
	}
	if found == 0 {
		t.Fatalf("the dispatch layout bug was not found in %d graphs", rep.Graphs)
	}
	if want := "; dispatch share " + strconv.Itoa(rep.Strategies[fuzz.DispatchStrategy]); !strings.Contains(summaryLines(rep), want) {
		t.Errorf("summary lacks %q:\n%s", want, summaryLines(rep))
	}
}

// TestDispatchShareFlags: the share is on by default for cfgfuzz's own
// structurizer on its default strategy, whether named or not, and never
// for another project's structurizer or an explicit strategy.
func TestDispatchShareFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int // -1: a usage error
	}{
		{nil, fuzz.DefaultDispatchEvery},
		{[]string{"--dispatch-every", "3"}, 3},
		{[]string{"--dispatch-every", "0"}, 0},
		{[]string{"--isolate"}, fuzz.DefaultDispatchEvery},
		// Named as the default is named, the same campaign.
		{[]string{"--structurizer", "self"}, fuzz.DefaultDispatchEvery},
		{[]string{"--structurizer", "isolated"}, fuzz.DefaultDispatchEvery},
		{[]string{"--strategy", "structured"}, 0},
		{[]string{"--structurizer", "cat"}, 0}, // any command that runs
		{[]string{"--structurizer", "cat", "--dispatch-every", "4"}, -1},
		{[]string{"--strategy", "dispatch", "--dispatch-every", "4"}, -1},
		{[]string{"--dispatch-every", "-1"}, -1},
	} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		var f campaignFlags
		f.define(fs, false)
		if err := fs.Parse(append([]string{"--graphs", "10", "--out", t.TempDir()}, c.args...)); err != nil {
			t.Fatal(err)
		}
		f.set = map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
		conf, err := f.config(context.Background(), io.Discard)
		switch {
		case c.want < 0 && err == nil:
			t.Errorf("%v: no error, share %d", c.args, conf.Settings.DispatchEvery)
		case c.want >= 0 && err != nil:
			t.Errorf("%v: %v", c.args, err)
		case c.want >= 0 && conf.Settings.DispatchEvery != c.want:
			t.Errorf("%v: share %d, want %d", c.args, conf.Settings.DispatchEvery, c.want)
		}
	}
}

// TestSidePredicateKeepsAFallbackSignature: the minimizer's predicate on a
// protocol side (testdata/fallbackstruct, which reports a fallback on
// graphs of 3 or more blocks) gives the campaign's fallback signature and
// minimizes to it.
func TestSidePredicateKeepsAFallbackSignature(t *testing.T) {
	bin := builtProgram(t, "../../fuzz/testdata/fallbackstruct")
	pred, err := sidePredicate(fuzz.ProcessFactory("fallbackstruct", []string{bin}, ""), proto.Options{}, corpus.RunnerOptions{}, fuzz.DefaultTimeout)
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3, 4}, {4}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "structurize:fallback:shapes:no layout for N blocks"
	if sig, err := pred(g); sig != want || err != nil {
		t.Fatalf("predicate: %q, %v; want %q", sig, err, want)
	}
	res, err := corpus.Minimize(g, pred, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || res.Signature != want || res.After.Blocks != 3 {
		t.Errorf("minimized to %v (%d blocks, %q, verified %v); want 3 blocks with %q", res.Graph, res.After.Blocks, res.Signature, res.Verified, want)
	}
}

// TestCheckReportsAFallback: `cfgfuzz check`'s judgement of one graph
// (checkOne) fails a fallback with its signature, and passes it without
// the fallback check (--allow-fallbacks).
func TestCheckReportsAFallback(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {2, 3}, {1, 3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	it := sourced{Item: cfg.Item{Graph: g, Line: 1, Col: 1}, File: "test"}
	seam := fuzz.SideStructurizer(&fuzz.InProcess{Fn: hookedStructurizer(dropSelectionMerges)}, proto.Options{}, fuzz.DefaultTimeout)
	for _, allow := range []bool{false, true} {
		orc, err := oracle.New(oracle.Options{Checks: resolveChecks("", allow)})
		if err != nil {
			t.Skip(err)
		}
		rec := checkOne(it, seam, "structured", orc, DefaultCheckTimeout)
		switch {
		case rec.Stats == nil || rec.Stats.Fallbacks != 1:
			t.Fatalf("allow %v: stats %+v, want a fallback", allow, rec.Stats)
		case !allow && (rec.Outcome != outcomeFail || !strings.HasPrefix(rec.Reason, "structurize:fallback:selfcheck:R")):
			t.Errorf("a fallback: %s %q, want a structurize:fallback:selfcheck failure", rec.Outcome, rec.Reason)
		case allow && rec.Outcome != outcomeOK:
			t.Errorf("--allow-fallbacks: %s %q, want ok", rec.Outcome, rec.Reason)
		}
	}
}
