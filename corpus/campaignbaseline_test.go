// campaignbaseline_test.go: a baseline whose answer on a finding's graph
// differs between the campaign (Options.CampaignBaseline) and the
// minimizer's judgement of it is said to depend on chance, the finding's
// newness uncertain: in BaselineNote, in the hook's *BaselineChanged
// error and log line, and in a BaselineFailsError; an unknown or
// agreeing campaign answer says nothing of it.
package corpus

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var campaignPassed = BaselineAnswer{Known: true}

// TestHookBaselinePassedInTheCampaignDeclinesWhenMinimizing: the
// campaign's baseline passed the graph, the minimizer's declines it. The
// search still judges by the minimizer's answer (it takes candidates the
// baseline declines), and the hook's error beside the minimized graph,
// its log line and BaselineNote say the baseline passed the graph in the
// campaign and declined it when minimizing, so whether the finding is
// new is uncertain.
func TestHookBaselinePassedInTheCampaignDeclinesWhenMinimizing(t *testing.T) {
	for _, decline := range []string{SigRefused, SigUnsupported} {
		t.Run(decline, func(t *testing.T) {
			g := randomGraph(7, 30)
			if sig, _ := fakeBugs(g); sig != "fake:A" {
				t.Fatalf("setup: %v gives %q", g, sig)
			}
			var log bytes.Buffer
			hook, err := MinimizeHook(HookOptions{Predicate: fakeBugs, Minimize: Options{Baseline: decliningFrom(4, decline)}, Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			m, err := hook(g, "fake:A", campaignPassed)
			if m == nil || m.Len() > 3 {
				t.Fatalf("minimized to %v (%v): want a graph of at most 3 blocks, the search taking candidates the baseline declines", m, err)
			}
			declined := "refused it (" + decline + ")"
			if decline == SigUnsupported {
				declined = "did not serve it (" + decline + ")"
			}
			want := "the baseline passed this graph in the campaign and " + declined + " when the minimizer judged it: its answers depend on chance, so whether this finding is new is uncertain"
			var bc *BaselineChanged
			if !errors.As(err, &bc) || bc.What() != want {
				t.Errorf("hook error %v; want a *BaselineChanged saying %q", err, want)
			}
			if !strings.Contains(log.String(), want) {
				t.Errorf("log %q does not say %q", log.String(), want)
			}
			res, err := Minimize(g, fakeBugs, Options{Signature: "fake:A", Baseline: decliningFrom(4, decline), CampaignBaseline: campaignPassed})
			if err != nil {
				t.Fatal(err)
			}
			note := BaselineNote(res)
			if !strings.HasPrefix(note, want) || strings.Contains(note, "the failure is new") {
				t.Errorf("note %q; want it to open with %q, and not call the failure new", note, want)
			}
		})
	}
}

// TestHookBaselineAnswersAgreeOrUnknown: a campaign answer that is
// unknown (a graph no campaign judged) or the same as the minimizer's
// gives no *BaselineChanged.
func TestHookBaselineAnswersAgreeOrUnknown(t *testing.T) {
	g := randomGraph(7, 30)
	for _, c := range []struct {
		name     string
		base     Predicate
		campaign BaselineAnswer
	}{
		{"unknown, declined", decliningFrom(4, SigRefused), BaselineAnswer{}},
		{"declined both times", decliningFrom(4, SigRefused), BaselineAnswer{Known: true, Signature: SigRefused}},
		{"passed both times", func(*cfg.Graph) (string, error) { return "", nil }, campaignPassed},
	} {
		hook, err := MinimizeHook(HookOptions{Predicate: fakeBugs, Minimize: Options{Baseline: c.base}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := hook(g, "fake:A", c.campaign)
		var bc *BaselineChanged
		if m == nil || errors.As(err, &bc) {
			t.Errorf("%s: %v, %v; want a minimized graph and no *BaselineChanged", c.name, m, err)
		}
	}
}

// TestHookBaselineDeclinedInTheCampaignPassesWhenMinimizing: the other
// way round, the search keeping to candidates the baseline passes.
func TestHookBaselineDeclinedInTheCampaignPassesWhenMinimizing(t *testing.T) {
	g := randomGraph(7, 30)
	hook, err := MinimizeHook(HookOptions{Predicate: fakeBugs, Minimize: Options{Baseline: decliningBelow(6, SigRefused)}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := hook(g, "fake:A", BaselineAnswer{Known: true, Signature: SigRefused})
	want := "the baseline refused this graph (structurize:refused) in the campaign and passed it when the minimizer judged it"
	var bc *BaselineChanged
	if m == nil || m.Len() < 6 || !errors.As(err, &bc) || !strings.HasPrefix(bc.What(), want) {
		t.Errorf("%v, %v; want a graph of at least 6 blocks (the baseline passes them) and a *BaselineChanged saying %q", m, err, want)
	}
}

// TestBaselinePassedInTheCampaignFailsWhenMinimizing: a baseline that
// fails the graph when minimizing, though the campaign's passed it, is a
// BaselineFailsError that names the campaign's pass; with no campaign
// answer, "not a new failure".
func TestBaselinePassedInTheCampaignFailsWhenMinimizing(t *testing.T) {
	g := randomGraph(7, 30)
	failing := func(*cfg.Graph) (string, error) { return "fake:old", nil }
	_, err := Minimize(g, fakeBugs, Options{Baseline: failing, CampaignBaseline: campaignPassed})
	want := "the baseline passed this graph in the campaign and failed it (fake:old) when the minimizer judged it: its answers depend on chance, so whether this finding is new is uncertain"
	var bf *BaselineFailsError
	if !errors.As(err, &bf) || bf.Campaign != campaignPassed || err.Error() != want {
		t.Errorf("%v (%+v); want a BaselineFailsError saying %q", err, bf, want)
	}
	if _, err := Minimize(g, fakeBugs, Options{Baseline: failing}); err == nil || err.Error() != "not a new failure: the baseline fails it too (fake:old)" {
		t.Errorf("no campaign answer: %v", err)
	}
}
