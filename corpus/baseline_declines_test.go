// baseline_declines_test.go: a baseline's decline (a refusal, or a graph
// it does not serve) is no failure, as the campaign classes it: an
// original graph the baseline declines is minimized, taking candidates the
// baseline passes or declines; where it passes the original, a candidate
// it declines is not taken, and counted; a decline of the result judged
// again leaves it verified.
package corpus

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// decliningFrom is a baseline that declines, answering decline, every
// graph of at least n blocks and passes the others.
func decliningFrom(n int, decline string) Predicate {
	return func(g *cfg.Graph) (string, error) {
		if g.Len() >= n {
			return decline, nil
		}
		return "", nil
	}
}

// decliningBelow is a baseline that declines every graph of fewer than n
// blocks and passes the others.
func decliningBelow(n int, decline string) Predicate {
	return func(g *cfg.Graph) (string, error) {
		if g.Len() < n {
			return decline, nil
		}
		return "", nil
	}
}

func TestMinimizeBaselineDeclinesTheOriginal(t *testing.T) {
	for _, decline := range []string{SigRefused, SigUnsupported} {
		t.Run(decline, func(t *testing.T) {
			g := randomGraph(7, 30)
			if sig, _ := fakeBugs(g); sig != "fake:A" {
				t.Fatalf("setup: %v gives %q", g, sig)
			}
			res, err := Minimize(g, fakeBugs, Options{Signature: "fake:A", Baseline: decliningFrom(4, decline)})
			var bf *BaselineFailsError
			if errors.As(err, &bf) {
				t.Fatalf("a graph the baseline declines (%s) is a BaselineFailsError: %v", decline, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.BaselineDeclines != decline || res.BaselineFails != "" || !res.Verified {
				t.Errorf("declines %q, fails %q, verified %v; want the baseline's %s recorded, no failure, verified", res.BaselineDeclines, res.BaselineFails, res.Verified, decline)
			}
			if res.After.Blocks > 3 {
				t.Errorf("minimized to %v (%d blocks): the candidates the baseline passes (fewer than 4 blocks) or declines were all to be taken", res.Graph, res.After.Blocks)
			}
			if note := BaselineNote(res); !strings.Contains(note, "("+decline+"), which is no failure") {
				t.Errorf("note %q does not say the baseline's %s is no failure", note, decline)
			}
		})
	}
}

func TestMinimizeBaselinePassesTheOriginalDeclinesCandidates(t *testing.T) {
	for _, decline := range []string{SigRefused, SigUnsupported} {
		t.Run(decline, func(t *testing.T) {
			g := randomGraph(7, 30)
			res, err := Minimize(g, fakeBugs, Options{Signature: "fake:A", Baseline: decliningBelow(6, decline)})
			if err != nil {
				t.Fatal(err)
			}
			if res.After.Blocks < 6 || !res.Verified || res.BaselineDeclines != "" {
				t.Errorf("minimized to %v (%d blocks), verified %v, declines %q: want a graph of at least 6 blocks, which the baseline passes, verified",
					res.Graph, res.After.Blocks, res.Verified, res.BaselineDeclines)
			}
			if res.BaselineDeclined == 0 {
				t.Errorf("no candidate counted as declined by the baseline")
			}
			if note := BaselineNote(res); !strings.Contains(note, "not taken: the baseline declines them") {
				t.Errorf("note %q does not say why the candidates were not taken", note)
			}
		})
	}
}

// TestMinimizeBaselineDeclinesTheResult: a baseline that passed every
// graph the search judged and declines the result judged again does not
// fail it: the result stays verified, with no BaselineFails.
func TestMinimizeBaselineDeclinesTheResult(t *testing.T) {
	g := randomGraph(7, 30)
	seen := map[string]bool{}
	again := func(c *cfg.Graph) (string, error) { // refuses a graph the second time it sees it
		k := cfg.FormatCompact(c)
		if seen[k] {
			return SigRefused, nil
		}
		seen[k] = true
		return "", nil
	}
	res, err := Minimize(g, fakeBugs, Options{Signature: "fake:A", Baseline: again})
	if err != nil {
		t.Fatal(err)
	}
	if !seen[cfg.FormatCompact(res.Graph)] || res.After.Blocks >= res.Before.Blocks {
		t.Fatalf("setup: the result %v was not judged on the baseline, or not minimized", res.Graph)
	}
	if !res.Verified || res.BaselineFails != "" {
		t.Errorf("verified %v, baseline fails %q: a refusal of the result is no failure", res.Verified, res.BaselineFails)
	}
}

// A refusal is a decline of the baseline, but no decline of a refusal:
// minimizing a graph the structurizer under test refuses (check and
// minimize count structurize:refused on it), a baseline that refuses it
// too fails it as it does, not new; nor is a candidate it refuses taken,
// nor a result it refuses verified.
func TestMinimizeBaselineRefusesARefusal(t *testing.T) {
	refusing := func(g *cfg.Graph) (string, error) {
		if g.Len() >= 3 {
			return SigRefused, nil
		}
		return "", nil
	}
	g := randomGraph(7, 12)
	_, err := Minimize(g, refusing, Options{Baseline: refusing})
	var bf *BaselineFailsError
	if !errors.As(err, &bf) || bf.Got != SigRefused {
		t.Fatalf("both sides refuse the graph: %v; want a BaselineFailsError of %s (not a new failure)", err, SigRefused)
	}
	// The baseline passes the original, refuses the smaller candidates:
	// they fail on it as on the structurizer, so none is taken.
	res, err := Minimize(g, refusing, Options{Baseline: decliningBelow(g.Len(), SigRefused)})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Blocks != g.Len() || res.BaselineDeclined != 0 {
		t.Errorf("minimized to %d blocks of %d, %d candidates counted declined; want none taken (the baseline fails them as the structurizer does), none counted as a decline", res.After.Blocks, g.Len(), res.BaselineDeclined)
	}
}
