// promises_test.go: the module convention's size promises hold for every
// side: records carry the words a module copies, and a structurizer
// process (testdata/thinstruct) whose modules drop filler or copy past the
// clone budget gives filler:short and growth:clones findings.
package fuzz

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// cloningSource gives one graph on which the structured strategy copies
// 64 words (4 return blocks of weight 16).
type cloningSource struct{ testSource }

func (cloningSource) Item(Stream, uint64, int) (Item, error) {
	g, err := cfg.ParseCompact("{{8, 5}, {}, {4, 4, 8}, {10, 7, 4, 6}, {}, {4, 8, 7}, {11, 0, 4, 2}, {5, 7, 8, 7}, {8, 0, 9, 4}, {4, 3}, {0, 2}, {4}}", cfg.Limits{})
	if err != nil {
		return Item{}, err
	}
	copy(g.Weights, []int{16, 16, 0, 0, 16, 16, 16, 40, 40, 16, 0, 16})
	return Item{Graph: g, Seed: 1}, nil
}

func TestRecordsCarryCopiedWords(t *testing.T) {
	c := testConfig(t, 2)
	c.Source, c.Strategy = cloningSource{}, "structured"
	mustRun(t, c)
	recs, _, err := ReadRecords(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Skipped { // the source's one graph again
			continue
		}
		if r.Current.Outcome != OutOK || r.Current.CopiedWords != 64 || r.Current.Clones < 4 {
			t.Errorf("record %d: %+v, want ok with 64 copied words", r.Index, r.Current)
		}
	}
}

// TestExternalModulesAreHeldToFillerAndBudget: a structurizer process
// whose modules drop the filler of small blocks, or copy past the clone
// budget, gives filler:short and growth:clones findings; one that declares
// copies lighter than it makes (protocol v2) gives growth:clone-weight; the
// same process keeping its promises gives none.
func TestExternalModulesAreHeldToFillerAndBudget(t *testing.T) {
	bin := buildCmd(t, "./testdata/thinstruct")
	for _, c := range []struct {
		args []string
		src  Source
		sig  string
	}{
		{nil, cloningSource{}, ""},
		{[]string{"-drop-filler"}, testSource{}, "filler:short"},
		{[]string{"-clone-budget", "1000"}, cloningSource{}, "growth:clones"},
		{[]string{"-max-clone-words", "16"}, cloningSource{}, ""},
		{[]string{"-max-clone-words", "8"}, cloningSource{}, "growth:clone-weight"},
		// The append helper inlined, as a compiler leaves it: the
		// same findings.
		{[]string{"-inline"}, cloningSource{}, ""},
		{[]string{"-inline", "-drop-filler"}, testSource{}, "filler:short"},
		{[]string{"-inline", "-clone-budget", "1000"}, cloningSource{}, "growth:clones"},
	} {
		cfg := testConfig(t, 20)
		cfg.Source, cfg.Strategy = c.src, "structured"
		cfg.Current = ProcessFactory("thinstruct", append([]string{bin}, c.args...), "")
		rep := mustRun(t, cfg).Report
		var sigs []string
		for _, f := range rep.Findings {
			sigs = append(sigs, f.Signature)
		}
		switch {
		case c.sig == "" && len(sigs) > 0:
			t.Errorf("%v: findings %v, want none", c.args, sigs)
		case c.sig != "" && (len(sigs) != 1 || sigs[0] != c.sig):
			t.Errorf("%v: findings %v, want %s", c.args, sigs, c.sig)
		}
		if rep.Unchecked != nil || rep.UncheckedFirst != nil {
			t.Errorf("%v: unchecked %v, want none", c.args, rep.Unchecked)
		}
		t.Logf("%v: outcomes %v, findings %v", c.args, rep.Outcomes, sigs)
	}
}

// TestUnreadAppendsAreCounted: a structurizer process whose modules append
// computed ids, which neither filler nor growth's clone budget reads,
// drops filler and copies past the budget: the campaign finds nothing, and
// its report counts every graph as not judged by those checks, with the
// first graph and why; records carry it, and no copied words.
func TestUnreadAppendsAreCounted(t *testing.T) {
	bin := buildCmd(t, "./testdata/thinstruct")
	cfg := testConfig(t, 20)
	cfg.Source, cfg.Strategy = cloningSource{}, "structured"
	cfg.Current = ProcessFactory("thinstruct", []string{bin, "-computed-ids", "-drop-filler", "-clone-budget", "1000"}, "")
	rep := mustRun(t, cfg).Report
	if len(rep.Findings) != 0 || rep.Outcomes[OutOK] != rep.Graphs || rep.Graphs == 0 {
		t.Fatalf("findings %v, outcomes %v: want every graph ok", rep.Findings, rep.Outcomes)
	}
	if rep.Unchecked["filler"] != rep.Graphs || rep.Unchecked["growth:clones"] != rep.Graphs || len(rep.Unchecked) != 2 {
		t.Errorf("unchecked %v, want filler and growth:clones on all %d graphs", rep.Unchecked, rep.Graphs)
	}
	if e := rep.UncheckedFirst; e == nil || e.Index != 0 || !strings.Contains(e.Detail, "not judged") {
		t.Errorf("unchecked_first %+v, want graph 0 with why", e)
	}
	if u := rep.UncheckedSummary(); !strings.Contains(u, "filler on 1 graph") || !strings.Contains(Markdown(rep), u) {
		t.Errorf("summary %q, want it in report.md too", u)
	}
	recs, _, err := ReadRecords(cfg.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if !r.Skipped && (!slices.Equal(r.Current.Unchecked, []string{"filler", "growth:clones"}) || r.Current.CopiedWords != 0) {
			t.Errorf("record %d: %+v, want unchecked filler and growth:clones, no copied words", r.Index, r.Current)
		}
	}
}
