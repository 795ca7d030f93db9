// fallback_test.go: a structurizer that reports a fallback (stats.fallbacks
// > 0) gives a structurize:fallback finding with the reason its
// passes_used names, the same through protocol v1 (testdata/fallbackstruct)
// as in-process; without the fallback check (--allow-fallbacks) the
// fallbacks are only counted.
package fuzz

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// fallbackAnswer is testdata/fallbackstruct's answer, in-process.
func fallbackAnswer(g *cfg.Graph, opt proto.Options) Answer {
	opt.Strategy = "dispatch"
	a := structureLocal(g, opt)
	if n := g.Len(); a.Outcome == proto.OK && n >= 3 {
		a.Stats.Fallbacks = 1
		a.Stats.PassesUsed = []string{"shapes", fmt.Sprintf("fallback: shapes: no layout for %d blocks: gave up at block %d", n, n-1)}
	}
	return a
}

func TestFallbackFindingSameInProcessAndProcess(t *testing.T) {
	bin := buildCmd(t, "./testdata/fallbackstruct")
	a, b := testConfig(t, 40), testConfig(t, 40)
	a.Current = SideFactory{Describe: "fallbackstruct", New: func() (Side, error) { return &InProcess{Fn: fallbackAnswer}, nil }}
	b.Current = ProcessFactory("fallbackstruct", []string{bin}, "")
	ra, rb := mustRun(t, a).Report, mustRun(t, b).Report
	if ja, jb := reportJSON(t, a.Dir), reportJSON(t, b.Dir); ja != jb {
		t.Errorf("in-process and protocol reports differ:\n%s\n---\n%s", ja, jb)
	}
	var sigs []string
	fallbacks := 0
	for _, f := range ra.Findings {
		sigs = append(sigs, f.Signature)
		if f.Signature == "structurize:fallback:shapes:no layout for N blocks" {
			fallbacks += f.Count
		}
	}
	if fallbacks == 0 || fallbacks != ra.Fallbacks || rb.Fallbacks != ra.Fallbacks {
		t.Errorf("findings %v: %d fallback graphs, reports count %d and %d", sigs, fallbacks, ra.Fallbacks, rb.Fallbacks)
	}

	md := Markdown(ra)
	if !strings.Contains(md, fmt.Sprintf("it falls back to the dispatch loop on %d", ra.Fallbacks)) || !strings.Contains(md, " fallbacks |") {
		t.Errorf("report.md does not count the fallbacks:\n%s", md)
	}
	if !strings.Contains(HTML(ra), "fallbacks") {
		t.Error("report.html does not count the fallbacks")
	}

	c := testConfig(t, 40)
	c.Checks = slices.DeleteFunc(slices.Clone(oracle.DefaultChecks), func(s string) bool { return s == "fallback" })
	c.Current = b.Current
	rc := mustRun(t, c).Report
	if len(rc.Findings) != 0 || rc.Fallbacks != ra.Fallbacks {
		t.Errorf("without the fallback check: findings %v, %d fallbacks (want none and %d)", rc.Findings, rc.Fallbacks, ra.Fallbacks)
	}
}

func TestInfoOfCarriesTheFallback(t *testing.T) {
	st := &structurizer.Stats{Fallbacks: 1, PassesUsed: []string{"fallback: layout: R6: at block 3"}}
	info := InfoOf(Answer{Outcome: proto.OK, Stats: st}, proto.Options{}, 0)
	if info.Fallbacks != 1 || !slices.Equal(info.Passes, st.PassesUsed) {
		t.Errorf("info %+v lacks the fallback of %+v", info, st)
	}
}

// TestFallbacksWordedApartFromInvalid: report.md and the summary's note
// count the graphs invalid only for falling back as valid modules that
// fell back, not as invalid ones; with the fallback check off they say
// the fallbacks were allowed.
func TestFallbacksWordedApartFromInvalid(t *testing.T) {
	c := testConfig(t, 40)
	c.Current = SideFactory{Describe: "fallbackstruct", New: func() (Side, error) { return &InProcess{Fn: fallbackAnswer}, nil }}
	rep := mustRun(t, c).Report
	fb, invalid := rep.FallbackOnly(), rep.Outcomes[OutInvalid]
	if fb == 0 || fb != rep.Fallbacks {
		t.Fatalf("%d graphs invalid only for a fallback, %d fallbacks, %d invalid: want every fallback counted", fb, rep.Fallbacks, invalid)
	}
	md := Markdown(rep)
	for _, want := range []string{
		fmt.Sprintf("%d more give valid modules but fall back to the dispatch loop", fb),
		fmt.Sprintf("; %d are invalid otherwise,", invalid-fb),
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, fmt.Sprintf("; %d are invalid,", invalid)) {
		t.Errorf("report.md calls the %d fallbacks invalid:\n%s", fb, md)
	}
	if note := FallbackNote(rep); !strings.Contains(note, fmt.Sprintf("%d of the invalid: valid modules that fell back", fb)) {
		t.Errorf("summary note %q", note)
	}

	c = testConfig(t, 40)
	c.Checks = slices.DeleteFunc(slices.Clone(oracle.DefaultChecks), func(s string) bool { return s == "fallback" })
	c.Current = SideFactory{Describe: "fallbackstruct", New: func() (Side, error) { return &InProcess{Fn: fallbackAnswer}, nil }}
	rep = mustRun(t, c).Report
	if md := Markdown(rep); !strings.Contains(md, fmt.Sprintf("it falls back to the dispatch loop on %d, allowed: the fallback check is off", rep.Fallbacks)) {
		t.Errorf("without the fallback check, report.md does not say the fallbacks were allowed:\n%s", md)
	}
	if note := FallbackNote(rep); note != " (allowed: the fallback check is off)" {
		t.Errorf("without the fallback check, summary note %q", note)
	}
}
