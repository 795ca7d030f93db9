// campaignbaseline.go: the baseline's answer on a finding's graph in the
// campaign that found it (Options.CampaignBaseline), and what the
// minimizer says when its own judgement of that graph on the baseline
// differs from it: the baseline's answers depend on chance, and whether
// the finding is new is uncertain.

package corpus

import "fmt"

// BaselineAnswer is a baseline's answer on one graph as a campaign
// recorded it. The zero value is unknown: no campaign judged the graph.
type BaselineAnswer struct {
	// Known says the campaign judged the graph on the baseline.
	Known bool
	// Signature is the answer as Options.Baseline gives it: "" a pass,
	// SigRefused or SigUnsupported a decline (Declined), any other a
	// failure's signature.
	Signature string
}

// Failed reports whether the answer is a failure: neither a pass nor a
// decline.
func (a BaselineAnswer) Failed() bool { return a.Signature != "" && !Declined(a.Signature) }

// BaselineChanged is the error MinimizeHook returns, beside its result
// or beside the error that kept it from one, when the baseline's
// judgement of the finding's graph before the search differs from its
// answer on that graph in the campaign (Options.CampaignBaseline): it
// passed the graph there and declined it here, say. The baseline's
// answers then depend on chance, and whether the finding is new is
// uncertain. The search judged by the minimizer's answer.
type BaselineChanged struct {
	// Campaign and Minimizer are the two answers, as Options.Baseline
	// gives them: "" a pass, a decline's signature (Declined), or a
	// failure's.
	Campaign, Minimizer string
}

func (e *BaselineChanged) Error() string { return e.What() }

// What is what the two answers were, worded for a report: "the baseline
// passed this graph in the campaign and refused it (structurize:refused)
// when the minimizer judged it: its answers depend on chance, so whether
// this finding is new is uncertain".
func (e *BaselineChanged) What() string {
	return fmt.Sprintf("the baseline %s in the campaign and %s when the minimizer judged it: its answers depend on chance, so whether this finding is new is uncertain",
		answered(e.Campaign, "this graph"), answered(e.Minimizer, "it"))
}

// baselineChangedOf is the *BaselineChanged of a search whose baseline's
// answer on the original graph (a pass, or Result.BaselineDeclines)
// differs from the campaign's (Result.CampaignBaseline); nil when they
// agree, or the campaign's is unknown.
func baselineChangedOf(res *Result) *BaselineChanged {
	c := res.CampaignBaseline
	if !c.Known || c.Signature == res.BaselineDeclines {
		return nil
	}
	return &BaselineChanged{Campaign: c.Signature, Minimizer: res.BaselineDeclines}
}

// baselineChangedError is baselineChangedOf as an error, nil (no
// *BaselineChanged in it) when there is none.
func baselineChangedError(res *Result) error {
	if c := baselineChangedOf(res); c != nil {
		return c
	}
	return nil
}

// answered words a baseline's answer sig on a graph, obj: "passed it",
// "refused it (structurize:refused)", "did not serve it
// (structurize:unsupported)", "failed it (SIGNATURE)".
func answered(sig, obj string) string {
	switch sig {
	case "":
		return "passed " + obj
	case SigRefused:
		return "refused " + obj + " (" + sig + ")"
	case SigUnsupported:
		return "did not serve " + obj + " (" + sig + ")"
	}
	return "failed " + obj + " (" + sig + ")"
}
