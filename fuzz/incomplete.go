// incomplete.go defines how a report says it covers less than its
// campaign: a campaign interrupted (Config.Context cancelled before the
// budget was spent) or a merge of an incomplete shard set (--partial). An
// incomplete report names what is missing and, when it can be completed,
// the command that completes it; report.md, report.html and the CLI's last
// line say so, and the CLI exits non-zero. A time budget that runs out is
// a complete campaign.

package fuzz

import (
	"context"
	"errors"
	"fmt"
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

// coverage is "552 of 20,000 graphs" and what is missing.
func (in *Incomplete) coverage() string {
	var b strings.Builder
	b.WriteString(thousands(in.Done))
	if in.Planned > 0 {
		b.WriteString(" of " + thousands(in.Planned))
	}
	b.WriteString(" graphs")
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

// incompleteMarkdown is report.md's paragraph for an incomplete report.
func incompleteMarkdown(rep *Report) string {
	if rep.Incomplete == nil {
		return ""
	}
	return fmt.Sprintf("**This report is %s.**\n\n", rep.Incomplete.Summary())
}
