// incomplete.go defines how a report says it covers less than its
// campaign: a campaign interrupted (Config.Context cancelled before the
// budget was spent) or a merge of an incomplete shard set (--partial). An
// incomplete report names what is missing and, when it can be completed,
// the command that completes it; report.md, report.html and the CLI's last
// line say so, and the CLI exits non-zero. A time budget that runs out is
// a complete campaign. A complete campaign may still hold graphs whose
// verdicts are incomplete (a check that could not judge a module:
// Report.Unchecked), which report.md and report.html state beside it.

package fuzz

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Incomplete is why a report covers less than its campaign.
type Incomplete struct {
	// Reason: "interrupted (SIGINT)", "partial merge", ...
	Reason string `json:"reason"`
	// Done is the number of graph indices with a record (skipped repeats
	// included); Planned the number the budget holds (0 under a time
	// budget).
	Done    int `json:"done"`
	Planned int `json:"planned,omitempty"`
	// Resume is a shell command that completes the campaign, "" none.
	Resume string `json:"resume,omitempty"`
	// MissingShards and Problems are a partial merge's absent shards
	// ("i/n") and its shards' defects (a torn log, an interrupted run).
	MissingShards []string `json:"missing_shards,omitempty"`
	Problems      []string `json:"problems,omitempty"`
}

// Summary is the one-line statement of a report's incompleteness.
func (in *Incomplete) Summary() string {
	s := "incomplete: " + in.Reason + " at " + in.coverage()
	if in.Resume != "" {
		s += "; resume with: " + in.Resume
	}
	return s
}

// coverage is "552 of 20,000 graph indices" and what is missing: Done
// counts the indices with a record, repeats skipped and graphs seen on
// earlier nights among them, so it is no count of distinct graphs.
func (in *Incomplete) coverage() string {
	var b strings.Builder
	b.WriteString(thousands(in.Done))
	if in.Planned > 0 {
		b.WriteString(" of " + thousands(in.Planned))
	}
	b.WriteString(" graph indices")
	if len(in.MissingShards) > 0 {
		b.WriteString("; missing shards " + strings.Join(in.MissingShards, ", "))
	}
	if len(in.Problems) > 0 {
		b.WriteString("; " + strings.Join(in.Problems, "; "))
	}
	return b.String()
}

// interruption is the Incomplete of a campaign whose context ended before
// its budget did, nil for one that completed.
func (c *Config) interruption(stopped bool, done, planned int) *Incomplete {
	if !stopped || planned > 0 && done >= planned {
		return nil
	}
	reason := "interrupted"
	if cause := context.Cause(c.Context); cause != nil && !errors.Is(cause, context.Canceled) {
		reason += " (" + cause.Error() + ")"
	}
	return &Incomplete{Reason: reason, Done: done, Planned: max(planned, 0), Resume: c.ResumeCommand}
}

// thousands writes n with comma separators: 20,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// incompleteMarkdown is report.md's paragraph for an incomplete report, for
// graphs a check could not judge and for a mixed merge.
func incompleteMarkdown(rep *Report) string {
	var b strings.Builder
	if rep.Incomplete != nil {
		fmt.Fprintf(&b, "**This report is %s.**\n\n", mdCell(rep.Incomplete.Summary()))
		b.WriteString(stoppedEarlyMarkdown(rep))
	}
	if u := rep.UncheckedSummary(); u != "" {
		fmt.Fprintf(&b, "**%s.**\n\n", mdCell(u))
	}
	if m := rep.Mixed; m != nil {
		fmt.Fprintf(&b, "**%s: %s.**\n\n", m.Headline(), mdCell(m.Summary()))
	}
	return b.String()
}

// UncheckedSummary says on how many graphs which checks could not judge
// the module (Report.Unchecked), with the first graph and why: "" when
// every check judged every module. Those graphs' verdicts are incomplete;
// a campaign with such graphs and nothing new exits 2.
func (rep *Report) UncheckedSummary() string {
	if rep.UncheckedGraphs() == 0 {
		return ""
	}
	side := func(m map[string]int) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%s on %s", k, Plural(m[k], "graph")))
		}
		return strings.Join(parts, ", ")
	}
	var b strings.Builder
	b.WriteString("incomplete verdicts: not judged")
	if len(rep.Unchecked) > 0 {
		fmt.Fprintf(&b, " %s", side(rep.Unchecked))
		if rep.BaselineUnchecked != nil {
			b.WriteString(" (current side)")
		}
	}
	if len(rep.BaselineUnchecked) > 0 {
		if len(rep.Unchecked) > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s (baseline)", side(rep.BaselineUnchecked))
	}
	if e := rep.UncheckedFirst; e != nil {
		fmt.Fprintf(&b, "; the first, graph %d (seed %d, %s): %s", e.Index, e.Seed, e.Stream, cmp.Or(e.Detail, e.Current))
	}
	fmt.Fprintf(&b, "; to leave those checks out: --checks %s", uncheckedOut(rep.Unchecked, rep.BaselineUnchecked))
	return b.String()
}

// uncheckedOut is LeaveOut of the keys of the unchecked counts.
func uncheckedOut(counts ...map[string]int) string {
	var keys []string
	for _, m := range counts {
		keys = slices.AppendSeq(keys, maps.Keys(m))
	}
	return LeaveOut(keys)
}

// LeaveOut is the --checks value that leaves out the checks that unchecked
// keys name ("filler", "growth" of "growth:clones"): "-filler,-growth".
func LeaveOut(keys []string) string {
	var out []string
	for _, k := range keys {
		name, _, _ := strings.Cut(k, ":")
		out = append(out, "-"+name)
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), ",")
}
