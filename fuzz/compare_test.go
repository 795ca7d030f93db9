// compare_test.go: each side of a comparison is judged by its own
// structurizer. Against a clean side, a side that makes the same modules
// but misbehaves only when a check depends on it (meta's re-runs:
// determinism, renumbering, idempotence; growth's time) is found on
// whichever side it runs: newly invalid as the current side, a fix as the
// baseline. A shared verdict would hide every one of them (same modules).
package fuzz

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// rerunSide is a side that answers a graph's first structurization as the
// tree does and misbehaves in one way that only a check depending on the
// side can see.
type rerunSide struct {
	misbehave string // nondeterministic, renumbering, idempotence, slow
	prev      *cfg.Graph
	step      int // 1: prev was asked again (meta's determinism re-run)
}

// answer follows the calls of one graph's judgement: the graph, the same
// graph again (determinism), a renumbered copy of the same size
// (renumbering), the module's own CFG (idempotence).
func (r *rerunSide) answer(g *cfg.Graph, opt proto.Options) Answer {
	wrong := opt
	wrong.Strategy = "dispatch" // another module of the same graph
	switch {
	case r.prev != nil && g.Equal(r.prev):
		r.step = 1
		if r.misbehave == "nondeterministic" {
			return structureLocal(g, wrong)
		}
	case r.step == 1 && g.Len() == r.prev.Len():
		r.step = 2
		if r.misbehave == "renumbering" {
			return structureLocal(g, wrong)
		}
	default:
		r.prev, r.step = g.Clone(), 0
	}
	switch r.misbehave {
	case "idempotence":
		if g.Len() >= 8 { // larger than any test graph: only re-runs on modules' CFGs get here
			panic("eight blocks or more")
		}
	case "slow":
		time.Sleep(20 * time.Millisecond)
	}
	return structureLocal(g, opt)
}

func rerunFactory(misbehave string) SideFactory {
	return SideFactory{Describe: "misbehaving: " + misbehave, New: func() (Side, error) {
		r := &rerunSide{misbehave: misbehave}
		return &InProcess{Fn: r.answer}, nil
	}}
}

func TestEachSideIsJudgedByItsOwnStructurizer(t *testing.T) {
	cases := []struct{ misbehave, sig string }{
		{"nondeterministic", "meta:nondeterministic"},
		{"renumbering", "meta:renumbering-not-isomorphic"},
		{"idempotence", "meta:rerun-failed:panic:fuzz.(*rerunSide).answer: eight blocks or more"},
		{"slow", "growth:time"},
	}
	for _, tc := range cases {
		for _, dir := range []string{"current", "baseline"} {
			t.Run(tc.misbehave+"/"+dir, func(t *testing.T) {
				c := testConfig(t, 24)
				c.Strategy = "" // the default strategy, which claims idempotence
				c.Oracle.Growth.TimeLimit = 15 * time.Millisecond
				bad := rerunFactory(tc.misbehave)
				if dir == "current" {
					c.Current, c.Baseline = bad, InProcessFactory()
				} else {
					c.Baseline = bad
				}
				o := mustRun(t, c)
				d := o.Report.Divergences
				recs := readRecords(t, c.Dir)
				got := 0
				for _, r := range recs {
					bad, good := r.Current, *r.Baseline
					if dir == "baseline" {
						bad, good = good, bad
					}
					if bad.Signature == tc.sig {
						got++
						if good.Outcome != OutOK || good.Hash != bad.Hash {
							t.Errorf("graph %d: the clean side %s (module %s against %s)", r.Index, good.Outcome, good.Hash, bad.Hash)
						}
					}
				}
				if got == 0 {
					t.Fatalf("no %s on the misbehaving %s side; classes %v", tc.sig, dir, d.Classes)
				}
				if dir == "current" && (d.Classes[ClassNewlyInvalid] < got || o.Report.NewFindings < got) {
					t.Errorf("%d graphs %s, but newly invalid %d, new findings %d", got, tc.sig, d.Classes[ClassNewlyInvalid], o.Report.NewFindings)
				}
				if dir == "baseline" && (d.Classes[ClassInvalidFixed] < got || d.BaselineFindings < got || o.Report.NewFindings != 0) {
					t.Errorf("%d baseline graphs %s, but invalid fixed %d, baseline findings %d, new %d", got, tc.sig, d.Classes[ClassInvalidFixed], d.BaselineFindings, o.Report.NewFindings)
				}
				t.Logf("%d of %d graphs %s on the %s side; classes %v", got, len(recs), tc.sig, dir, d.Classes)
			})
		}
	}
}

// TestIdenticalSidesShareModuleChecks: two clean sides give no divergence,
// the default strategy and every check included.
func TestIdenticalSidesShareModuleChecks(t *testing.T) {
	c := testConfig(t, 40)
	c.Strategy = ""
	c.Baseline = InProcessFactory()
	o := mustRun(t, c)
	if d := o.Report.Divergences; d.Classes[ClassSame] != 40 || o.Report.NewFindings != 0 {
		t.Errorf("classes %v, %d new findings; want 40 same", d.Classes, o.Report.NewFindings)
	}
}

// readRecords reads dir's results log, sorted by index.
func readRecords(t *testing.T, dir string) []Record {
	t.Helper()
	recs, _, err := ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b Record) int { return a.Index - b.Index })
	return recs
}

// TestThroughputTimesEachSidesAnswers: a comparison's throughput holds
// how long each side took to answer, and to answer meta's re-runs, all
// above zero, and report.md says so with the ratio of the first answers;
// a campaign of one side holds no baseline's time, and one without meta
// no re-runs' time.
func TestThroughputTimesEachSidesAnswers(t *testing.T) {
	c := testConfig(t, 30)
	c.Baseline = InProcessFactory()
	tp := mustRun(t, c).Report.Throughput
	if tp.CurrentSeconds <= 0 || tp.BaselineSeconds <= 0 || tp.CurrentMetaSeconds <= 0 || tp.BaselineMetaSeconds <= 0 {
		t.Errorf("a comparison's throughput %+v, want both sides' answer and re-run times", tp)
	}
	if a := AnswerTimes(tp); !strings.Contains(a, "the current side's first answers took") || !strings.Contains(a, "meta's re-runs of them in") {
		t.Errorf("AnswerTimes %q, want the ratio of the sides' times and meta's re-runs", a)
	}
	one := mustRun(t, testConfig(t, 30)).Report.Throughput
	if one.CurrentSeconds <= 0 || one.CurrentMetaSeconds <= 0 || one.BaselineSeconds != 0 || one.BaselineMetaSeconds != 0 {
		t.Errorf("one side's throughput %+v, want its own answer and re-run times and no baseline's", one)
	}
	noMeta := testConfig(t, 30)
	noMeta.Checks = oracle.ResolveChecks("-meta")
	if tp := mustRun(t, noMeta).Report.Throughput; tp.CurrentSeconds <= 0 || tp.CurrentMetaSeconds != 0 {
		t.Errorf("--checks -meta: throughput %+v, want answer times and no re-runs' time", tp)
	}
}

// TestMetaHint: the hint naming --checks -meta comes when the
// structurizers' time is most of the campaign's on its workers, meta's
// re-runs are most of that and a graph costs them 100 ms or more, and not
// otherwise.
func TestMetaHint(t *testing.T) {
	slow := Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 10, CurrentMetaSeconds: 15}
	cases := []struct {
		name string
		tp   Throughput
		want bool
	}{
		{"slow structurizer, meta most of it", slow, true},
		{"compared, meta most of both sides'", Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 5, BaselineSeconds: 5, CurrentMetaSeconds: 8, BaselineMetaSeconds: 8}, true},
		{"meta less than the first answers", Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 15, CurrentMetaSeconds: 10}, false},
		{"structurizer a small part of the campaign", Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 2, CurrentMetaSeconds: 5}, false},
		{"no re-runs (--checks -meta)", Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 27}, false},
		{"no graphs", Throughput{Seconds: 14, Workers: 2}, false},
		// a fast structurizer behind the protocol: 2,983 graphs, 8.1 s of its time in a 6.8 s campaign
		{"fast structurizer, meta most of it", Throughput{Graphs: 2983, Seconds: 6.8, Workers: 2, CurrentSeconds: 2.07, CurrentMetaSeconds: 6.03}, false},
	}
	for _, c := range cases {
		h := MetaHint(c.tp)
		if got := strings.Contains(h, "--checks -meta"); got != c.want {
			t.Errorf("%s: MetaHint(%+v) = %q, want a hint: %v", c.name, c.tp, h, c.want)
		}
	}
	if h := MetaHint(slow); !strings.Contains(h, "60% of the structurizer's time (15.00 of 25.00 s)") || !strings.Contains(h, "metamorphic checks") {
		t.Errorf("MetaHint %q, want meta's share and what skipping it gives up", h)
	}
	rep := &Report{Throughput: slow}
	var b strings.Builder
	throughputMarkdown(&b, rep)
	if !strings.Contains(b.String(), "\nhint: meta's re-runs took 60%") {
		t.Errorf("report.md's throughput lacks the hint:\n%s", b.String())
	}
}

// TestRerunOutcomeNote: the note comes for a meta re-run that timed out,
// crashed or panicked, not for another meta failure or a first run's.
func TestRerunOutcomeNote(t *testing.T) {
	for sig, want := range map[string]string{
		"meta:rerun-failed:timeout":        "meta's re-run timed out on these graphs",
		"meta:rerun-failed:crash:exit 2":   "meta's re-run crashed on these graphs, whose first answers came back with a module: the outcomes count them invalid, not crash",
		"meta:rerun-failed:panic:too many": "meta's re-run panicked on these graphs",
		"meta:rerun-failed:refused":        "",
		"meta:rerun-failed":                "",
		"meta:nondeterministic":            "",
		"structurize:timeout":              "",
		"meta:rerun-failed:timeoutish:x":   "",
	} {
		n := RerunOutcomeNote(sig)
		if want == "" && n != "" || want != "" && !strings.Contains(n, want) {
			t.Errorf("RerunOutcomeNote(%q) = %q, want %q", sig, n, want)
		}
	}
}
