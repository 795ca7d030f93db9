// minimized.go defines whether each finding of a report is minimized
// (Finding.IsMinimized) and, when it is not, why (Finding.NotMinimized),
// for every kind of finding and every way a campaign or a merge ends: a
// minimizer that found no smaller graph, one that gave none, and one that
// did not run. WriteReports sets both, so every report a run, a resume or
// a merge writes carries them.

package fuzz

import (
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

// noteMinimized sets every finding's IsMinimized and NotMinimized.
func noteMinimized(rep *Report) {
	for i := range rep.Findings {
		f := &rep.Findings[i]
		f.NotMinimized = notMinimizedWhy(rep, f)
		f.IsMinimized = f.NotMinimized == ""
	}
}

// notMinimizedWhy is why f is not minimized, "" when it is: its
// minimized graph is smaller than its graph.
func notMinimizedWhy(rep *Report, f *Finding) string {
	if f.Minimized != "" {
		return notSmaller(f)
	}
	class := ""
	if rep.State != nil {
		class = rep.State.class(f.Signature, f.Strategy)
	}
	switch {
	case f.MinimizeSkipped != "":
		return "the campaign's minimization budget (--minimize-budget) was spent on the findings before it"
	case f.NotReproduced != "":
		return "judged again by the minimizer, its graph did not fail with the signature (not_reproduced)"
	case f.BaselineFlaky != "":
		return "judged again by the minimizer, the baseline failed it too (baseline_flaky)"
	case f.Flaky != "":
		return "its minimized graph failed with the signature in none of its judgements (flaky)"
	case f.MinimizeError != "":
		return "the minimizer could not judge it (minimize_error)"
	case class != "" && !minimizedTonight(class):
		return "a signature classed " + class + ": only new and known signatures are minimized"
	case f.New == 0 && strings.HasPrefix(f.First.Baseline, OutError):
		return "not new (the baseline fails its graphs or has no verdict on them: its first graph is a harness error there): only new findings are minimized"
	case f.New == 0:
		return "not new (the baseline fails its graphs too): only new findings are minimized"
	case rep.Unminimized != "":
		return rep.Unminimized
	case rep.Minimization != "":
		return "minimization " + rep.Minimization + " (a shard)"
	case rep.Incomplete != nil:
		return "the campaign is incomplete (" + rep.Incomplete.Reason + "): its resume minimizes it"
	}
	return "no minimizer ran on it"
}

// notSmaller is why f's minimized graph is no smaller than its graph,
// "" when it is smaller.
func notSmaller(f *Finding) string {
	m, err := f.MinimizedGraph()
	if err != nil {
		return "its minimized graph does not read back: " + err.Error()
	}
	g, err := graphOf(f.Subject())
	if err != nil {
		return "its graph does not read back: " + err.Error()
	}
	if corpus.SizeOf(m).Less(corpus.SizeOf(g)) {
		return ""
	}
	if f.notShrunk != "" {
		return f.notShrunk
	}
	return "its minimized graph is no smaller than its graph: the minimizer found no smaller graph that fails so"
}

// MinimizeOff is Report.Unminimized for a run or merge without a
// minimizer.
const MinimizeOff = "minimization is off (--minimize=false)"

// shrinkReason is the minimizer's word on f's minimized graph as a report
// read back gives it: NotMinimized when f has a minimized graph that is
// no smaller than its graph, "" otherwise.
func shrinkReason(f *Finding) string {
	if f.Minimized == "" || f.IsMinimized {
		return ""
	}
	return f.NotMinimized
}

// UnminimizedNote is the summary's word on the findings not minimized,
// "" when every finding is: one line when they all are, for one reason
// (minimization off, deferred to a merge), else none (each finding's own
// line says it: UnminimizedLine).
func UnminimizedNote(rep *Report) string {
	why, ok := sharedReason(rep)
	if !ok {
		return ""
	}
	return "not minimized, " + allOf(len(rep.Findings)) + ": " + why
}

// UnminimizedLine is the summary's word on finding f beside it: "not
// minimized: WHY", "" when f is minimized, when UnminimizedNote says it
// for every finding, or when its minimize_skipped line says it already.
func UnminimizedLine(rep *Report, f *Finding) string {
	if f.NotMinimized == "" || budgetUnminimized(f) {
		return ""
	}
	if _, ok := sharedReason(rep); ok {
		return ""
	}
	return "not minimized: " + f.NotMinimized
}

// budgetUnminimized says f was left unminimized by the minimization
// budget, which the summary's own lines say (BudgetNote, MinimizeSkipped).
func budgetUnminimized(f *Finding) bool {
	return f.Minimized == "" && f.MinimizeSkipped != ""
}

// sharedReason is the reason every finding of rep is not minimized for,
// when there are several findings and they share one the summary does
// not say already.
func sharedReason(rep *Report) (string, bool) {
	if len(rep.Findings) < 2 || budgetUnminimized(&rep.Findings[0]) {
		return "", false
	}
	why := rep.Findings[0].NotMinimized
	for i := range rep.Findings {
		if f := &rep.Findings[i]; why == "" || f.NotMinimized != why {
			return "", false
		}
	}
	return why, true
}

// allOf words n findings as a whole: "both signatures", "all 3 signatures".
func allOf(n int) string {
	if n == 2 {
		return "both signatures"
	}
	return strings.Join([]string{"all", Plural(n, "signature")}, " ")
}
