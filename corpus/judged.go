// judged.go: how a finding was judged, as the header of its files records
// it beside the structurizer's options: the exec check's walks and their
// seed, the checks, and the limits. A campaign's findings store (graph.cfg,
// min.cfg) and its --save-regressions files write the same, so check,
// minimize, bisect and regress judge either as the campaign did.

package corpus

import (
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// Judged is the judging a graph file's header records beyond its
// structurizer's options, register file, target environment and rules
// reading (Header's Walks, Checks, Timeout, CheckTimeout and GrowthTime). The zero
// value is the defaults: DefaultWalks, the default checks and limits.
type Judged struct {
	// Walks is the exec check's random walks and their seed; nil
	// DefaultWalks.
	Walks *Walks
	// Checks is the checks as a --checks value; "" the defaults. A
	// finding's header records it pinned (PinChecks): the names of the
	// checks that ran; a regression file as changes of the defaults where
	// shorter (cmd/cfgfuzz's regressionChecks).
	Checks string
	// Timeout is the per-graph limit on the structurizer and
	// CheckTimeout the limit on one graph's checks; 0 the defaults.
	Timeout, CheckTimeout time.Duration
	// GrowthTime is the fixed part of the growth check's time limit
	// (--growth-time); 0 the default.
	GrowthTime time.Duration
}

// For is j as a finding of signature sig records it: the per-graph limit
// only where it decides the verdict (TimeoutDecides), as a campaign's
// --timeout suits its night's graphs and machine, and a replay of any
// other finding runs under its own --timeout.
func (j Judged) For(sig string) Judged {
	if !TimeoutDecides(sig) {
		j.Timeout = 0
	}
	return j
}

// TimeoutDecides says whether the per-graph limit decides signature sig:
// structurize:timeout, and meta's re-run of the structurizer past it
// (meta:rerun-failed:timeout).
func TimeoutDecides(sig string) bool {
	return sig == SigTimeout || sig == "meta:"+oracle.SigRerunFailed+":"+strings.TrimPrefix(SigTimeout, "structurize:")
}

// PinChecks is the --checks value v as a header records it: the names of
// the checks it resolves to (oracle.ResolveChecks), in the order they
// run, so the file says which checks judged it whatever the defaults of
// the cfgfuzz that reads it. A value of changes ("-fallback", "+gpu")
// resolves against the defaults of the cfgfuzz that writes it, which
// judged the graph; a check added to the defaults later does not judge
// the file unless asked. "" (no '# checks:', the defaults) for "" and for
// a value that resolves to the default checks.
func PinChecks(v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	checks := oracle.ResolveChecks(v)
	if slices.Equal(checks, oracle.DefaultChecks) {
		return ""
	}
	return strings.Join(checks, ",")
}
