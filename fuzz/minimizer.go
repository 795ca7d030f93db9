// minimizer.go defines the campaign's minimizer hook (Config.Minimize)
// and what a finding records when the minimizer cannot reproduce it, or
// sees it only in some of its judgements.

package fuzz

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Minimizer shrinks graph g, which failed with signature sig on the
// strategy given ("" the campaign's) and which the campaign's baseline
// answered as baseline (the finding's record, Subject: the zero value
// where the campaign ran no baseline), and returns the minimized graph,
// with a *corpus.StoppedEarly error beside it when a limit ended the
// search (Finding.MinimizeStopped); a nil graph and a nil error when there
// is none to keep (the search was interrupted), an error when the graph
// could not be minimized: a *corpus.NotFailingError when, judged again, g
// does not fail with sig (Finding.NotReproduced), a
// *corpus.BaselineFailsError when the baseline fails it too
// (Finding.BaselineFlaky; a graph the baseline refuses or does not
// serve is minimized, as the campaign counts its failure new). A
// *corpus.Flaky error, beside a
// graph or not, says judgements of one graph disagreed (Finding.Flaky),
// and a *corpus.BaselineChanged error that the baseline's answer on g
// differs from the campaign's (Finding.BaselineChanged).
type Minimizer func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error)

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
// (the current side's answer).
func notReproduced(err error) string {
	var nf *corpus.NotFailingError
	if !errors.As(err, &nf) {
		return ""
	}
	return "judged again by the minimizer, " + nf.What()
}

// baselineFlaky is Finding.BaselineFlaky for the minimizer's error err,
// "" unless it is a *corpus.BaselineFailsError: for the finding's graph,
// the campaign's answer on it as the error names it (passed, refused,
// did not serve), else "did not fail".
func baselineFlaky(err error) string {
	var bf *corpus.BaselineFailsError
	if !errors.As(err, &bf) {
		return ""
	}
	if bf.Minimized {
		return "judged again by the minimizer, the baseline fails its minimized graph (" + bf.Got + "), though it did not fail it during the search"
	}
	campaign := "did not fail it"
	switch c := bf.Campaign; {
	case !c.Known || c.Failed():
	case c.Signature == "":
		campaign = "passed it"
	case c.Signature == corpus.SigUnsupported:
		campaign = "did not serve it (" + c.Signature + ")"
	default:
		campaign = "refused it (" + c.Signature + ")"
	}
	return "judged again by the minimizer, the baseline fails it too (" + bf.Got + "), though it " + campaign + " in the campaign"
}

// baselineChanged is Finding.BaselineChanged for the minimizer's error
// err, "" unless it holds a *corpus.BaselineChanged.
func baselineChanged(err error) string {
	var bc *corpus.BaselineChanged
	if !errors.As(err, &bc) {
		return ""
	}
	return bc.What()
}

// campaignBaseline is the campaign's baseline's answer on e as the
// minimizer takes it (Minimizer): unknown without a baseline; a pass;
// a decline (corpus.SigRefused, corpus.SigUnsupported); else a failure
// with its signature (its outcome where it has none).
func campaignBaseline(e *Example) corpus.BaselineAnswer {
	outcome, sig, _ := strings.Cut(e.Baseline, ": ")
	switch outcome {
	case "":
		return corpus.BaselineAnswer{}
	case OutOK:
		sig = ""
	case OutRefused:
		sig = corpus.SigRefused
	case OutUnsupported:
		sig = corpus.SigUnsupported
	default:
		sig = cmp.Or(sig, outcome)
	}
	return corpus.BaselineAnswer{Known: true, Signature: sig}
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

// AnswerCause says why a structurizer's answers to one graph can differ
// from one judgement to the next, for a finding of signature sig, as the
// notes beside a not reproduced or flaky finding word it: for a signature
// of the structurizer's time (structurize:timeout, growth:time,
// meta:rerun-failed:timeout) the machine's load, since a campaign judges
// graphs on all its workers at once and the minimizer one at a time after
// them; for any other, the requests the structurizer served before, or
// chance.
func AnswerCause(sig string) string {
	if timingSignature(sig) {
		return "the structurizer's time depends on the machine's load: the campaign judged its graphs on every worker at once, the minimizer one at a time after them"
	}
	return "the structurizer's answer depends on the requests before it, or on chance"
}

// RerunOutcomeNote says, for a finding of a meta re-run that timed out,
// crashed or panicked (meta:rerun-failed:timeout, :crash:REASON,
// :panic:REASON), that the graphs' first answers came back with a module
// and the outcomes count the graphs invalid, not under the re-run's
// outcome; "" for any other signature.
func RerunOutcomeNote(sig string) string {
	rest, ok := strings.CutPrefix(sig, "meta:"+oracle.SigRerunFailed+":")
	if !ok {
		return ""
	}
	kind, _, _ := strings.Cut(rest, ":")
	verb := map[string]string{OutTimeout: "timed out", OutCrash: "crashed", OutPanic: "panicked"}[kind]
	if verb == "" {
		return ""
	}
	return fmt.Sprintf("meta's re-run %s on these graphs, whose first answers came back with a module: the outcomes count them invalid, not %s", verb, kind)
}

// timingSignature reports whether sig is a signature of the
// structurizer's time: structurize:timeout, growth:time,
// meta:rerun-failed:timeout.
func timingSignature(sig string) bool {
	switch sig {
	case corpus.SigTimeout, "growth:" + oracle.SigGrowthTime, "meta:rerun-failed:timeout":
		return true
	}
	return false
}

// BudgetSpent is a Minimizer's error for a finding it did not minimize
// because the campaign's total minimization time (--minimize-budget) was
// spent: the finding is kept as found (Finding.MinimizeSkipped).
type BudgetSpent struct {
	Budget time.Duration
}

func (e *BudgetSpent) Error() string {
	return fmt.Sprintf("not minimized: the campaign's minimization budget (%v, --minimize-budget) was spent", e.Budget)
}

// budgetSkipped is Finding.MinimizeSkipped for the minimizer's error err,
// "" unless it is a *BudgetSpent or a *corpus.NotJudged.
func budgetSkipped(err error) string {
	var bs *BudgetSpent
	if errors.As(err, &bs) {
		return bs.Error()
	}
	var nj *corpus.NotJudged
	if errors.As(err, &nj) {
		return nj.What()
	}
	return ""
}

// BudgetNote is one sentence on the new signatures left unminimized
// because the campaign's minimization budget was spent
// (Finding.MinimizeSkipped); "" when there are none.
func BudgetNote(rep *Report) string {
	n, unjudged, budget := 0, 0, ""
	for i := range rep.Findings {
		switch f := &rep.Findings[i]; {
		case f.MinimizeSkipped == "":
		case f.Minimized == "":
			n++
			budget = f.MinimizeSkipped
		default:
			unjudged++
		}
	}
	var parts []string
	if n > 0 {
		parts = append(parts, fmt.Sprintf("%s left unminimized, %s: their graphs are as found, not judged again", Plural(n, "new signature"), strings.TrimPrefix(budget, "not minimized: ")))
	}
	if unjudged > 0 {
		parts = append(parts, fmt.Sprintf("%s minimized but not judged again every time, the minimization budget having run out: whether the minimized graph reproduces is unknown", Plural(unjudged, "new signature")))
	}
	return strings.Join(parts, "; ")
}

// notShrunk is why the minimizer's graph is no smaller than the
// finding's, for its error err (Finding.NotMinimized): "" unless err holds
// a *corpus.NotShrunk.
func notShrunk(err error) string {
	var ns *corpus.NotShrunk
	if !errors.As(err, &ns) {
		return ""
	}
	return ns.What()
}

// minimizeError is Finding.MinimizeError for the minimizer's error err:
// each error err joins that none of stoppedBy, notReproduced, flakyNote,
// baselineFlaky, baselineChanged, budgetSkipped and notShrunk records, ""
// when there is none.
func minimizeError(err error) string {
	var msgs []string
	for _, e := range joinedErrors(err) {
		if stoppedBy(e) == "" && notReproduced(e) == "" && flakyNote(e) == "" && baselineFlaky(e) == "" && baselineChanged(e) == "" && budgetSkipped(e) == "" && notShrunk(e) == "" {
			msgs = append(msgs, e.Error())
		}
	}
	return strings.Join(msgs, "; ")
}

// joinedErrors is the errors err joins (errors.Join), or err alone.
func joinedErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ReproductionNote is one sentence on the findings the minimizer saw fail
// in only some of its judgements (Finding.Flaky) or in none
// (Finding.NotReproduced), or whose graph the baseline failed too
// (Finding.BaselineFlaky) or answered otherwise than in the campaign
// (Finding.BaselineChanged), and what that means for their replays and
// for the report's determinism; "" when there are none.
func ReproductionNote(rep *Report) string {
	flaky, not, base, changed, timing := 0, 0, 0, 0, 0
	for i := range rep.Findings {
		f := &rep.Findings[i]
		switch {
		case f.Flaky != "":
			flaky++
		case f.NotReproduced != "":
			not++
		case f.BaselineFlaky != "":
			base++
		case f.BaselineChanged != "":
			changed++
		}
		if (f.Flaky != "" || f.NotReproduced != "" || f.BaselineFlaky != "") && timingSignature(f.Signature) {
			timing++
		}
	}
	if flaky+not+base+changed == 0 {
		return ""
	}
	var parts []string
	if flaky+not > 0 {
		parts = append(parts, fmt.Sprintf("%d flaky and %d not reproduced of the %s when the minimizer judged them again (their replays may pass)",
			flaky, not, Plural(len(rep.Findings), "signature")))
	}
	if base > 0 {
		parts = append(parts, fmt.Sprintf("%d whose graph the baseline failed when the minimizer judged it there again (perhaps not new)", base))
	}
	if changed > 0 {
		parts = append(parts, fmt.Sprintf("%d whose graph the baseline answered otherwise than in the campaign when the minimizer judged it there again (whether new is uncertain)", changed))
	}
	cause := "as the answers depend on chance or on the requests before them"
	switch timing {
	case 0:
	case flaky + not + base + changed:
		cause = "as the structurizer's time depends on the machine's load"
	default:
		cause = "as the answers depend on chance or on the requests before them (the structurizer's time, on the machine's load)"
	}
	return strings.Join(parts, "; ") + ": " + cause + ", the same campaign run again may report other graphs"
}

// upperFirst is s with its first letter upper case (s begins with ASCII).
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
