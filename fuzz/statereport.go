// statereport.go renders a report's state section (classify.go) for
// report.md and report.html: a sentence with the class counts, the
// filter's size and false-positive rate, and a table of every signature
// with its class, why, tonight's graphs, the re-runs of the stored graphs
// and its dates.

package fuzz

import (
	"fmt"
	"math"
	"strings"
)

// stateProse is the section's sentence.
func stateProse(rep *Report) string {
	s := rep.State
	var b strings.Builder
	fmt.Fprintf(&b, "Night %s against the state %s: ", s.Night, s.Digest)
	for i, c := range SignatureClasses {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", s.Classes[c], c)
	}
	fmt.Fprintf(&b, " (signatures). %s; %s skipped as %s (the filter held about %d graphs, an estimate from its bits, a false-positive rate of %.2g).",
		s.RerunsPhrase(), Plural(s.Seen, "graph"), s.SeenWhere(), s.FilterGraphs, s.FilterFalsePositive)
	if s.FilterRestarted > 0 {
		b.WriteString(" " + FilterRestartNote(s.FilterRestarted) + ".")
	}
	if s.FilterMissing {
		b.WriteString(" " + FilterMissingNote + ".")
	}
	if s.Empty {
		b.WriteString(" " + upperFirst(EmptyNote("", s.DirMissing)) + ".")
	}
	switch {
	case s.NewSignatures() > 0:
	case rep.Incomplete != nil || s.NotCommitted != "":
		b.WriteString(" Nothing new so far, but the night is not recorded whole.")
	default:
		b.WriteString(" Nothing new: the night passes.")
	}
	if s.NotCommitted != "" {
		b.WriteString(" Not committed: " + s.NotCommitted + ".")
	}
	if s.Concurrent != "" {
		b.WriteString(" Warning at the start: " + s.Concurrent + ".")
	}
	if n := s.BuildNote(); n != "" {
		b.WriteString(" " + upperFirst(n) + ".")
	}
	if n := s.BaselineNote(); n != "" {
		b.WriteString(" " + upperFirst(n) + ".")
	}
	b.WriteString("\n")
	return b.String()
}

// FilterRestartNote says that the state's filter was started afresh
// (StateReport.FilterRestarted).
// A filter with every bit set (Bloom.Count: math.MaxUint64, as a damaged
// file can give) is named as saturated rather than by that count.
func FilterRestartNote(n uint64) string {
	held := fmt.Sprintf("held about %d graphs", n)
	if n == math.MaxUint64 {
		held = "had every bit set (saturated)"
	}
	return fmt.Sprintf("%s %s, past a %g%% false-positive rate (%.2g), so it was started afresh: tonight skipped nothing as seen, and the night's filter holds tonight's graphs only",
		StateSeenFile, held, 100*BloomRestartAt, BloomFalsePositive(n))
}

// FilterMissingNote says that the state's filter was missing, though
// findings.json named it, and a new one was started
// (StateReport.FilterMissing).
const FilterMissingNote = StateSeenFile + " was missing, though " + StateFindingsFile + " names the filter written with it (seen_sha256), so a new filter was started: tonight skipped nothing as seen, and the night's filter holds tonight's graphs only"

// stateTable writes the signatures' table in Markdown: tonight's campaign
// graphs failing with each, its own kept graphs re-run, the re-runs that
// showed it (of any signature's kept or minimized graphs: not a share of
// its own), and its minimized graph's verdict.
func stateTable(b *strings.Builder, rep *Report) {
	b.WriteString("| class | signature | strategy | tonight | its kept graphs re-run | re-runs showing it | its minimized graph | why | first seen | last seen |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range rep.State.Signatures {
		st := s.Strategy
		if st == "" {
			st = "default"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %d | %s | %s | %s | %s |\n", s.Class, mdCell(s.Signature), st, s.Tonight,
			s.RerunGraphs, s.RerunShowing, mdCell(dash(s.Minimized)), mdCell(s.Reason), dash(s.FirstSeen), dash(s.LastSeen))
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// stateMarkdown is the section in report.md ("" without a state).
func stateMarkdown(rep *Report) string {
	if rep.State == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Signatures against the state\n\n")
	b.WriteString(stateProse(rep))
	if len(rep.State.Signatures) > 0 {
		b.WriteString("\n")
		stateTable(&b, rep)
	}
	if len(rep.State.Unmatched) > 0 {
		b.WriteString("\n")
		for _, n := range rep.State.Unmatched {
			fmt.Fprintf(&b, "- %s\n", mdCell(n.String()))
		}
	}
	return b.String()
}

// stateHTML is the section in report.html ("" without a state).
func stateHTML(rep *Report) string {
	if rep.State == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<h2>Signatures against the state</h2><p>%s</p>", htmlText(stateProse(rep)))
	if len(rep.State.Signatures) > 0 {
		b.WriteString(mdTableHTML(func(sb *strings.Builder) { stateTable(sb, rep) }))
	}
	for _, n := range rep.State.Unmatched {
		fmt.Fprintf(&b, "<p>%s</p>", htmlText(n.String()))
	}
	return b.String()
}
