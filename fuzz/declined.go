// declined.go: what the current side declined and why. A structurizer
// refuses a graph (a typed refusal, or one the emitter cannot encode) or
// answers that it does not support it, with a reason; the outcome counts
// say how many, and this says which reasons, so that a structurizer's
// author sees where its coverage stops (1,303 graphs refused for
// "irreducible control flow", 883 for "loop with several exits"). Each
// reason is normalized by the signatures' table (oracle.NormalizeReason:
// numbers, ids and graphs in it read alike), counted, and kept with its
// lowest-index graph, the one its replay reproduces. The tally does not
// depend on the order records come in, so workers, resumes and merged
// shards give the same; past maxDeclinedReasons distinct reasons (a
// structurizer whose reasons name what normalization does not read) it
// keeps none, and says so.

package fuzz

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// maxDeclinedReasons bounds the distinct reasons a report lists.
const maxDeclinedReasons = 1024

// Declined is report.json's "declined": the current side's refused and
// unsupported graphs by reason, the most frequent first.
type Declined struct {
	Reasons []DeclinedReason `json:"reasons,omitempty"`
	// TooMany says that the reasons were more than maxDeclinedReasons
	// distinct ones, and so none is listed.
	TooMany bool `json:"too_many,omitempty"`
}

// DeclinedReason is one reason and the graphs the current side declined
// with it.
type DeclinedReason struct {
	Outcome string `json:"outcome"` // refused or unsupported
	// Reason is the reason as every graph of the group gave it (cfgfuzz's
	// own "more than 6 blocks" for a declared max_blocks), or normalized
	// where their texts differ ("graph of N blocks"), up to
	// declinedShownLimit bytes where the group agrees that far, else as
	// far as its normalized key (oracle.ReasonLimit); "(none given)" for
	// an empty one.
	Reason string `json:"reason"`
	Graphs int    `json:"graphs"`
	// First is the lowest-index graph declined with it, Replay the
	// command that prints it and runs `cfgfuzz check` on it.
	First  Example `json:"first"`
	Replay string  `json:"replay,omitempty"`

	// given and long are the first graph's reason as given and
	// normalized, up to declinedShownLimit; mixed and mixedLong say that
	// a graph of the group differs from them.
	given, long      string
	mixed, mixedLong bool
}

// declinedKey identifies a reason.
type declinedKey struct{ outcome, reason string }

// declinedTally gathers a campaign's declined graphs by reason. The zero
// value is empty.
type declinedTally struct {
	byKey   map[declinedKey]*DeclinedReason
	tooMany bool
}

// declinedReason is the normalized reason a result declined with
// outcome gives (declinedText), cut as a signature is: the key that
// groups the graphs.
func declinedReason(outcome, detail string) string {
	return declinedText(outcome, oracle.NormalizeReason(detail))
}

// declinedShownLimit is how much of a declined reason a report shows
// where every graph of its group agrees that far (DeclinedReason.Reason).
const declinedShownLimit = 200

// declinedGiven is the reason as the result gave it, and declinedLong
// the normalized one, each up to declinedShownLimit (declinedText).
func declinedGiven(outcome, detail string) string {
	return declinedText(outcome, oracle.ClipReason(detail, declinedShownLimit))
}

func declinedLong(outcome, detail string) string {
	return declinedText(outcome, oracle.NormalizeReasonUpTo(detail, declinedShownLimit))
}

// declinedText is reason r without a leading "OUTCOME: " that repeats
// the outcome (an unsupported answer's "unsupported: switches"), its
// control and formatting characters escaped (PrintableLine): the same
// text in report.json as on a terminal.
func declinedText(outcome, r string) string {
	r = strings.TrimSpace(strings.TrimPrefix(PrintableLine(r), outcome+":"))
	if r == "" {
		return "(none given)"
	}
	return r
}

// add takes record r: a graph the current side refused or declared
// unsupported counts for its reason.
func (t *declinedTally) add(s *Settings, r *Record) {
	out := r.Current.Outcome
	if out != OutRefused && out != OutUnsupported || r.Skipped || r.Seen || t.tooMany {
		return
	}
	k := declinedKey{out, declinedReason(out, r.Current.Detail)}
	d := t.byKey[k]
	if d == nil {
		if len(t.byKey) == maxDeclinedReasons {
			t.byKey, t.tooMany = nil, true
			return
		}
		if t.byKey == nil {
			t.byKey = map[declinedKey]*DeclinedReason{}
		}
		d = &DeclinedReason{Outcome: out, Reason: k.reason, First: exampleOf(s, r, "")}
		t.byKey[k] = d
	}
	given, long := declinedGiven(out, r.Current.Detail), declinedLong(out, r.Current.Detail)
	if d.Graphs == 0 {
		d.given, d.long = given, long
	}
	d.mixed = d.mixed || given != d.given
	d.mixedLong = d.mixedLong || long != d.long
	d.Graphs++
	if r.Index < d.First.Index {
		d.First = exampleOf(s, r, "")
	}
}

// report is the tally as a report's Declined, nil when nothing was
// declined: the reasons by graphs, most first, then by outcome and
// reason.
func (t *declinedTally) report() *Declined {
	if t.tooMany {
		return &Declined{TooMany: true}
	}
	if len(t.byKey) == 0 {
		return nil
	}
	d := &Declined{}
	for _, r := range t.byKey {
		listed := *r // the tally goes on as it was: a report may come midway
		listed.Reason = r.shown()
		d.Reasons = append(d.Reasons, listed)
	}
	slices.SortFunc(d.Reasons, func(a, b DeclinedReason) int {
		return cmp.Or(b.Graphs-a.Graphs, cmp.Compare(a.Outcome, b.Outcome), cmp.Compare(a.Reason, b.Reason))
	})
	return d
}

// shown is the reason as far as every graph of the group agrees: as
// given, else normalized up to declinedShownLimit, else the group's key.
func (d *DeclinedReason) shown() string {
	switch {
	case !d.mixed:
		return d.given
	case !d.mixedLong:
		return d.long
	}
	return d.Reason
}

// declinedShown is how many reasons report.md, report.html and the
// summary list; report.json lists them all.
const (
	declinedShown        = 10
	declinedSummaryShown = 3
)

// declinedTable writes the first reasons' table in Markdown.
func declinedTable(b *strings.Builder, d *Declined) {
	b.WriteString("| outcome | reason | graphs | first graph | generator | seed |\n|---|---|---|---|---|---|\n")
	for _, r := range d.Reasons[:min(len(d.Reasons), declinedShown)] {
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %d |\n", r.Outcome, mdCell(r.Reason), r.Graphs, mdCode(r.First.Graph), r.First.Stream, r.First.Seed)
	}
}

// declinedProse says how many graphs were declined for how many reasons,
// and what the table leaves out.
func declinedProse(rep *Report) string {
	d := rep.Declined
	if d.TooMany {
		return fmt.Sprintf("The current side refused %d graphs and declared %d unsupported, for more than %d distinct reasons (after normalization): none is listed.",
			rep.Outcomes[OutRefused], rep.Outcomes[OutUnsupported], maxDeclinedReasons)
	}
	s := fmt.Sprintf("The current side refused %d graphs and declared %d unsupported, for %s: these are not findings, but they are where its coverage stops.",
		rep.Outcomes[OutRefused], rep.Outcomes[OutUnsupported], Plural(len(d.Reasons), "reason"))
	if n := len(d.Reasons) - declinedShown; n > 0 {
		s += fmt.Sprintf(" The %d most frequent are listed; report.json's declined has all %d, each with its first graph's replay.", declinedShown, len(d.Reasons))
	}
	return s
}

// declinedMarkdown is report.md's section ("" when nothing was declined).
func declinedMarkdown(rep *Report) string {
	d := rep.Declined
	if d == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Declined graphs by reason (not findings)\n\n" + declinedProse(rep) + "\n")
	if len(d.Reasons) == 0 {
		return b.String()
	}
	b.WriteString("\n")
	declinedTable(&b, d)
	var replay strings.Builder
	for _, r := range d.Reasons[:min(len(d.Reasons), declinedShown)] {
		if r.Replay != "" {
			fmt.Fprintf(&replay, "# %s: %s\n%s\n", r.Outcome, PrintableLine(r.Reason), Printable(r.Replay))
		}
	}
	if replay.Len() > 0 {
		fence := mdFence(replay.String())
		fmt.Fprintf(&b, "\nReplay:\n\n%ssh\n%s%s\n", fence, replay.String(), fence)
	}
	return b.String()
}

// declinedHTML is report.html's section ("" when nothing was declined).
func declinedHTML(rep *Report) string {
	d := rep.Declined
	if d == nil {
		return ""
	}
	s := "<h2>Declined graphs by reason (not findings)</h2><p>" + htmlText(declinedProse(rep)) + "</p>"
	if len(d.Reasons) > 0 {
		s += mdTableHTML(func(b *strings.Builder) { declinedTable(b, d) })
	}
	return s
}

// DeclinedSummary is the console's line for the declined graphs ("" when
// none): the most frequent reasons with their counts.
func DeclinedSummary(rep *Report) string {
	d := rep.Declined
	switch {
	case d == nil:
		return ""
	case d.TooMany:
		return fmt.Sprintf("declined: more than %d distinct reasons, none listed", maxDeclinedReasons)
	}
	var parts []string
	for _, r := range d.Reasons[:min(len(d.Reasons), declinedSummaryShown)] {
		parts = append(parts, fmt.Sprintf("%d %s: %s", r.Graphs, r.Outcome, PrintableLine(r.Reason)))
	}
	s := "declined: " + strings.Join(parts, "; ")
	if n := len(d.Reasons) - declinedSummaryShown; n > 0 {
		more := fmt.Sprintf("%d more reasons", n)
		if n == 1 {
			more = "1 more reason"
		}
		s += fmt.Sprintf("; %s in report.json (report.md: the first %d)", more, declinedShown)
	}
	return s
}
