// flaky_test.go tests the minimizer on a predicate whose judgements
// depend on chance: the original graph and the result are judged
// Options.Rejudge times and the tallies say when they disagree.

package corpus

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// flakyBugs is fakeBugs whose failures show with probability rate, drawn
// from rng: a structurizer whose answers depend on chance.
func flakyBugs(rng *rand.Rand, rate float64) Predicate {
	return func(g *cfg.Graph) (string, error) {
		sig, err := fakeBugs(g)
		if sig != "" && rng.Float64() >= rate {
			return "", err
		}
		return sig, err
	}
}

// scripted is a predicate that gives the signatures of script in turn,
// whatever the graph, then fakeBugs' verdicts.
func scripted(script ...string) Predicate {
	return func(g *cfg.Graph) (string, error) {
		if len(script) == 0 {
			return fakeBugs(g)
		}
		sig := script[0]
		script = script[1:]
		return sig, nil
	}
}

// TestMinimizeRejudgesTheOriginal: the original graph is judged
// Options.Rejudge times; judgements that disagree show in
// Result.Original, and a graph none of whose judgements fails as asked
// is a NotFailingError counting them.
func TestMinimizeRejudgesTheOriginal(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	res, err := Minimize(g, scripted("fake:B", "", "fake:B"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Tally{Failed: 2, Judged: DefaultRejudge}); res.Original != want || !res.Original.Mixed() {
		t.Errorf("original judged %v, want %v, mixed", res.Original, want)
	}
	if !res.Verified || res.Confirmed != (Tally{Failed: DefaultRejudge, Judged: DefaultRejudge}) || res.Confirmed.Mixed() {
		t.Errorf("result verified %v, confirmed %v; want every judgement failing", res.Verified, res.Confirmed)
	}
	_, err = Minimize(g, scripted("", "fake:A", ""), Options{Signature: "fake:B", Rejudge: 3})
	var nf *NotFailingError
	if !errors.As(err, &nf) || nf.Judged != 3 || nf.Got != "" || nf.What() != "it passes (the first of 3 judgements, none failing with the signature)" {
		t.Errorf("a graph that never fails as asked: %v (%+v), want a NotFailingError judged 3 times", err, nf)
	}
	// Without a signature asked, the first failing judgement names it.
	res, err = Minimize(g, scripted("", "fake:A", "fake:B"), Options{})
	if err != nil || res.Signature != "fake:A" || res.Original != (Tally{Failed: 1, Judged: 3}) {
		t.Errorf("target from the first failing judgement: %v, %+v", err, res)
	}
}

// TestMinimizeFlakyPredicate: on a predicate whose failures show half
// the time, the minimizer keeps the signature (it never adopts another),
// and the tallies count what the rejudgements saw: with 25 judgements of
// each, both disagree.
func TestMinimizeFlakyPredicate(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	res, err := Minimize(g, flakyBugs(rng, 0.5), Options{Signature: "fake:B", Rejudge: 25})
	if err != nil {
		t.Fatal(err)
	}
	if res.Signature != "fake:B" {
		t.Fatalf("drifted to %q", res.Signature)
	}
	if got, _ := fakeBugs(res.Graph); got != "fake:B" {
		t.Errorf("result %v gives %q without chance, want fake:B", res.Graph, got)
	}
	// Each tally is 25 fair coin flips: all alike has odds 2^-24.
	if !res.Original.Mixed() || !res.Confirmed.Mixed() || res.Verified {
		t.Errorf("original %v, result %v, verified %v: want both mixed, not verified", res.Original, res.Confirmed, res.Verified)
	}
}

// TestMinimizeBaselineFailsTheOriginal: in baseline mode an original
// graph the baseline fails too is a BaselineFailsError naming its
// signature.
func TestMinimizeBaselineFailsTheOriginal(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 0}, {}})
	_, err := Minimize(g, fakeBugs, Options{Baseline: func(*cfg.Graph) (string, error) { return "fake:old", nil }})
	var bf *BaselineFailsError
	if !errors.As(err, &bf) || bf.Got != "fake:old" {
		t.Errorf("error %v, want a BaselineFailsError with fake:old", err)
	}
}

// TestMinimizeRejudgeErrorIsNoVerdict: a judgement of the result that
// could not be made (a fresh side that did not start) counts as neither
// failing nor passing: the result is not verified, not flaky, and the hook
// says what kept it from judging, with the graph when another judgement
// reproduced it and without when none did.
func TestMinimizeRejudgeErrorIsNoVerdict(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	broken := errors.New("fresh side did not start")
	fresh := func(*cfg.Graph) (string, error) { return "", broken }
	res, err := Minimize(g, fakeBugs, Options{Signature: "fake:B", Fresh: fakeBugs})
	if err != nil || !res.Verified || res.RejudgeErr != nil {
		t.Fatalf("a fresh side that judges: verified %v, rejudge error %v, %v", res.Verified, res.RejudgeErr, err)
	}
	// The original's judgements after the first run on fresh too: its
	// harness error stops the search.
	if _, err := Minimize(g, fakeBugs, Options{Signature: "fake:B", Fresh: fresh}); err == nil || !errors.Is(err, broken) {
		t.Fatalf("an original judged on a broken fresh side: %v, want its error", err)
	}
	calls := 0
	failing := func(*cfg.Graph) (string, error) { // the original's two, then the result's
		calls++
		if calls <= 2 {
			return "fake:B", nil
		}
		return "", broken
	}
	res, err = Minimize(g, fakeBugs, Options{Signature: "fake:B", Fresh: failing})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verified || !errors.Is(res.RejudgeErr, broken) || res.Confirmed != (Tally{Failed: 1, Judged: 1}) {
		t.Errorf("verified %v, rejudge error %v, confirmed %v; want not verified, the error, 1 of 1", res.Verified, res.RejudgeErr, res.Confirmed)
	}
	if fl := flakyOf(res); fl != nil {
		t.Errorf("a judgement that could not be made reads as flaky: %v", fl)
	}
	if e := rejudgeError(res); e == nil || !errors.Is(e, broken) || !strings.Contains(e.Error(), "judging the minimized graph again") {
		t.Errorf("hook error %v", e)
	}
}

// TestHookBaselineFailsTheResult: a baseline that passed every graph the
// search accepted and fails the minimized graph judged again is a
// BaselineFailsError about the minimized graph, not about the original,
// which the baseline passed.
func TestHookBaselineFailsTheResult(t *testing.T) {
	g := compact(t, "{{1, 2}, {3}, {3}, {4, 1}, {}}")
	seen := map[string]bool{}
	again := func(c *cfg.Graph) (string, error) { // fails a graph the second time it sees it
		k := cfg.FormatCompact(c)
		if seen[k] {
			return "fake:old", nil
		}
		seen[k] = true
		return "", nil
	}
	hook, err := MinimizeHook(HookOptions{Runner: RunnerOptions{Structurizer: structurizer.Options{Inject: []string{"swap-arms"}}},
		Minimize: Options{Baseline: again}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := hook(g, "exec:trace-mismatch", BaselineAnswer{})
	var bf *BaselineFailsError
	if m != nil || !errors.As(err, &bf) || bf.Got != "fake:old" || !bf.Minimized {
		t.Fatalf("%v, %v (%+v): want no graph and a BaselineFailsError about the minimized graph", m, err, bf)
	}
	if !strings.Contains(err.Error(), "minimized graph") {
		t.Errorf("error %q does not say it is the minimized graph the baseline fails", err)
	}
	if _, err := Minimize(g, fakeBugs, Options{Baseline: func(*cfg.Graph) (string, error) { return "fake:old", nil }}); !errors.As(err, &bf) || bf.Minimized {
		t.Errorf("the original failing on the baseline: %v (%+v), want a BaselineFailsError about the original", err, bf)
	}
}
