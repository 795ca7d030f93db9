// minimizer.go defines the campaign's minimizer hook (Config.Minimize)
// and what a finding records when the minimizer cannot reproduce it.

package fuzz

import (
	"errors"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Minimizer shrinks graph g, which failed with signature sig on the
// strategy given ("" the campaign's), and returns the minimized graph,
// with a *corpus.StoppedEarly error beside it when a limit ended the
// search (Finding.MinimizeStopped); a nil graph and a nil error when there
// is none to keep (the search was stopped or its result did not fail
// again), an error when the graph could not be minimized: a
// *corpus.NotFailingError when, judged again, g does not fail with sig.
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
// "" unless it is a *corpus.NotFailingError.
func notReproduced(err error) string {
	var nf *corpus.NotFailingError
	if !errors.As(err, &nf) {
		return ""
	}
	return "judged again by the minimizer, " + nf.What()
}
