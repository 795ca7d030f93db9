// minimizer.go defines the campaign's minimizer hook (Config.Minimize)
// and what a finding records when the minimizer cannot reproduce it, or
// sees it only in some of its judgements.

package fuzz

import (
	"errors"
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Minimizer shrinks graph g, which failed with signature sig on the
// strategy given ("" the campaign's), and returns the minimized graph,
// with a *corpus.StoppedEarly error beside it when a limit ended the
// search (Finding.MinimizeStopped); a nil graph and a nil error when there
// is none to keep (the search was interrupted), an error when the graph
// could not be minimized: a *corpus.NotFailingError when, judged again, g
// does not fail with sig, a *corpus.BaselineFailsError when the baseline
// fails it too (Finding.NotReproduced). A *corpus.Flaky error, beside a
// graph or not, says judgements of one graph disagreed (Finding.Flaky).
type Minimizer func(g *cfg.Graph, sig, strategy string) (*cfg.Graph, error)

// stoppedBy is Finding.MinimizeStopped for the minimizer's error err: the
// limit that ended its search, "" none.
func stoppedBy(err error) string {
	var se *corpus.StoppedEarly
	if !errors.As(err, &se) {
		return ""
	}
	return se.Limit
}

// notReproduced is Finding.NotReproduced for the minimizer's error err,
// "" unless it is a *corpus.NotFailingError
// or a *corpus.BaselineFailsError.
func notReproduced(err error) string {
	var nf *corpus.NotFailingError
	if errors.As(err, &nf) {
		return "judged again by the minimizer, " + nf.What()
	}
	var bf *corpus.BaselineFailsError
	if errors.As(err, &bf) {
		return "judged again by the minimizer, the baseline fails it too (" + bf.Got + "), so it is not new"
	}
	return ""
}

// flakyNote is Finding.Flaky for the minimizer's error err, "" unless it
// holds a *corpus.Flaky.
func flakyNote(err error) string {
	var fl *corpus.Flaky
	if !errors.As(err, &fl) {
		return ""
	}
	return fl.What()
}

// ReproductionNote is one sentence on the findings the minimizer saw fail
// in only some of its judgements (Finding.Flaky) or in none
// (Finding.NotReproduced), and what that means for their replays and for
// the report's determinism; "" when there are none.
func ReproductionNote(rep *Report) string {
	flaky, not := 0, 0
	for i := range rep.Findings {
		switch f := &rep.Findings[i]; {
		case f.Flaky != "":
			flaky++
		case f.NotReproduced != "":
			not++
		}
	}
	if flaky+not == 0 {
		return ""
	}
	return fmt.Sprintf("%d flaky and %d not reproduced of the %s when the minimizer judged them again: their replays may pass, and as the structurizer's answers depend on chance or on the requests before them, the same campaign run again may report other graphs",
		flaky, not, Plural(len(rep.Findings), "signature"))
}

// upperFirst is s with its first letter upper case (s begins with ASCII).
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
