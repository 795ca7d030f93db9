// baselinechanged_test.go: the minimizer is told the campaign's baseline
// answer on each finding's graph, and a *corpus.BaselineChanged beside
// its graph becomes the finding's baseline_changed, in every report and
// the reproduction count, carried by a merge and minimized again by a
// resume.
package fuzz

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestMinimizerToldTheCampaignBaseline(t *testing.T) {
	changed := &corpus.BaselineChanged{Campaign: "", Minimizer: corpus.SigRefused}
	c := testConfig(t, 30)
	c.Inject, c.Baseline = []string{"swap-arms"}, InProcessFactory()
	var told []corpus.BaselineAnswer
	c.Minimize = func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		told = append(told, baseline)
		return cfg.FromSuccs([][]int{{0, 1}, {}}), changed
	}
	rep := mustRun(t, c).Report
	if len(rep.Findings) == 0 || len(told) != len(rep.Findings) {
		t.Fatalf("%d findings, %d minimized", len(rep.Findings), len(told))
	}
	for i, f := range rep.Findings {
		if f.Subject().Baseline != OutOK || told[i] != (corpus.BaselineAnswer{Known: true}) {
			t.Errorf("%s: the campaign's baseline answered %q, the minimizer was told %+v; want a pass told", f.Signature, f.Subject().Baseline, told[i])
		}
		if f.BaselineChanged != changed.What() || f.MinimizeError != "" || f.Minimized == "" {
			t.Errorf("%s: baseline_changed %q, minimize_error %q, minimized %q; want %q beside the minimized graph", f.Signature, f.BaselineChanged, f.MinimizeError, f.Minimized, changed.What())
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"report.md": Markdown(rep), "report.html": HTML(rep), "report.json": string(b)} {
		if !strings.Contains(text, "the campaign and refused it (structurize:refused) when the minimizer judged it") {
			t.Errorf("%s does not say the baseline's answer changed", name)
		}
	}
	if note := ReproductionNote(rep); !strings.Contains(note, "whose graph the baseline answered otherwise than in the campaign") {
		t.Errorf("reproduction note %q does not count them", note)
	}
	if earlier := earlierMinimized(c.Dir); len(earlier) != 0 {
		t.Errorf("a resume keeps %d minimized graphs the baseline's changed answer stood beside; want them minimized again", len(earlier))
	}
	merged, _, _, err := MergeNight([]string{c.Dir}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range merged.Findings {
		if f.Minimized == "" || f.BaselineChanged != changed.What() {
			t.Errorf("merged %s: minimized %q, baseline_changed %q; want the shard's both", f.Signature, f.Minimized, f.BaselineChanged)
		}
	}
}
