// resume_minimized.go: a resume of a campaign whose every graph was
// judged before (a retried CI step) keeps the minimized graphs its last
// report holds instead of searching for them again: the same graphs, the
// same settings and the same cfgfuzz (resume refuses another) give the same
// findings on the same first graphs, and a search that reached its
// fixpoint gives the same graph again. A search that stopped at a limit,
// did not reproduce, was skipped or failed is run again.

package fuzz

import (
	"encoding/json"
	"slices"
)

// earlierMinimized is the findings of dir's report.json whose search
// reached its fixpoint; nil when there is no readable report (one past
// MaxReportFile included: its findings are minimized again).
func earlierMinimized(dir string) []Finding {
	b, err := readReportFile(dir)
	if err != nil {
		return nil
	}
	var rep Report
	if json.Unmarshal(b, &rep) != nil {
		return nil
	}
	return slices.DeleteFunc(rep.Findings, func(f Finding) bool { return !minimizedWhole(&f) })
}

// minimizedWhole says whether f's minimized graph is the end of a whole
// search: verified, at its fixpoint, neither skipped nor failed, on a
// baseline that answered its graph as in the campaign.
func minimizedWhole(f *Finding) bool {
	return f.Minimized != "" && f.MinimizeStopped == "" && f.NotReproduced == "" && f.MinimizeError == "" &&
		f.MinimizeSkipped == "" && f.Flaky == "" && f.BaselineFlaky == "" && f.BaselineChanged == ""
}

// keepMinimized gives each finding of rep not minimized yet the minimized
// graph of the earlier finding of its signature and strategy whose graph
// it was minimized from is rep's finding's too.
func keepMinimized(rep *Report, earlier []Finding) {
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if f.Minimized != "" {
			continue
		}
		for j := range earlier {
			e := &earlier[j]
			if e.Signature == f.Signature && e.Strategy == f.Strategy && e.Subject().Graph == f.Subject().Graph &&
				slices.Equal(e.Subject().Weights, f.Subject().Weights) {
				f.Minimized, f.MinimizedWeights = e.Minimized, e.MinimizedWeights
				f.notShrunk = shrinkReason(e)
				break
			}
		}
	}
}
