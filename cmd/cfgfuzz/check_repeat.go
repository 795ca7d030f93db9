// check_repeat.go: `check --repeat N`, each graph judged N times, every
// judgement after the first on a structurizer side of its own (a new
// process for a cmd: spec). A structurizer whose answers depend on chance,
// or on the requests it served before, shows as judgements that disagree;
// a report's flaky finding is replayed this way. The graph's line is its
// first judgement that did not pass (else its first), with how many of the
// N failed as that one did. A judgement that got no answer (it timed out,
// or its server answered nothing, not even the protocol's hello) ends the
// graph's judgements: the ones left are not run, each of which would wait
// its own limit on a structurizer that stays silent, and the note says
// how many and why; they are never counted as alike.

package main

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

// judgements is a --repeat record's count: of the Judged judgements that
// gave a verdict, Alike ended as the record did; NotRun of the N were not
// run, NotRunReason says why: the judgement that got no answer (silent),
// which ended the graph's judgements.
type judgements struct {
	Alike        int    `json:"alike"`
	Judged       int    `json:"judged"`
	NotRun       int    `json:"not_run,omitempty"`
	NotRunReason string `json:"not_run_reason,omitempty"`
}

func (j judgements) String() string { return fmt.Sprintf("%d of %d", j.Alike, j.Judged) }

// freshSide opens a structurizer side of its own for one judgement: its
// seam and the function that closes it.
type freshSide func() (corpus.StructurizeFunc, func(), error)

// judge is the record of graph it under --repeat: checkOne's when repeat
// is 1 or the first judgement has no verdict (its side is still held).
func (r *checkRun) judge(it sourced) checkRecord {
	rec := checkOne(it, r.seam, r.asked, r.orc, r.limit)
	if r.repeat <= 1 || abandoned(rec) {
		return rec
	}
	recs := []checkRecord{rec}
	why := silent(rec)
	for why == "" && len(recs) < r.repeat {
		seam, done, err := r.fresh()
		if err != nil {
			rec.Outcome, rec.Reason = outcomeError, fmt.Sprintf("--repeat: a structurizer side for judgement %d of %d: %v", len(recs)+1, r.repeat, err)
			return rec
		}
		again := checkOne(it, seam, r.asked, r.orc, r.limit)
		if abandoned(again) {
			return again // its side is still held: the caller stops
		}
		done()
		recs = append(recs, again)
		why = silent(again)
	}
	out := repeated(recs)
	if n := r.repeat - len(recs); n > 0 {
		out.Judgements.NotRun, out.Judgements.NotRunReason = n, fmt.Sprintf("judgement %d %s", len(recs), why)
	}
	out.notStarted = rec.notStarted // the graph's own server, not a fresh one, started or not
	return out
}

// silent is how judgement rec got no answer from the structurizer: it
// timed out (a finding: corpus.TimeoutDecides), or its server answered
// nothing, not even the protocol's hello (fuzz.NotStarted); "" when it
// answered. The judgements after it would each wait as long again on a
// structurizer that stays silent.
func silent(rec checkRecord) string {
	switch {
	case rec.Outcome == outcomeFail && corpus.TimeoutDecides(rec.Reason):
		return "timed out (" + rec.Reason + ")"
	case rec.notStarted:
		return "got no answer to the protocol's hello"
	}
	return ""
}

// abandoned says the judgement has no verdict: its checks ran past
// --check-timeout and still hold the side and the oracle.
func abandoned(rec checkRecord) bool {
	return rec.Outcome == outcomeError && rec.Checks == nil && strings.HasPrefix(rec.Reason, noVerdict)
}

// noVerdict begins the reason of a judgement with no verdict (checkOne).
const noVerdict = "checks: no verdict"

// repeated is the record of judgements recs of one graph: the first that
// did not pass (else the first), with Judgements counting those that
// ended as it did (its outcome and reason) among those that gave a
// verdict.
func repeated(recs []checkRecord) checkRecord {
	pick := recs[0]
	for _, rec := range recs {
		if rec.Outcome != outcomeOK {
			pick = rec
			break
		}
	}
	t := judgements{}
	for _, rec := range recs {
		if rec.Outcome == outcomeError && pick.Outcome != outcomeError {
			continue // no verdict to count
		}
		t.Judged++
		if rec.Outcome == pick.Outcome && rec.Reason == pick.Reason {
			t.Alike++
		}
	}
	pick.Judgements = &t
	return pick
}

// repeatNote is the text line's account of --repeat: how many judgements
// ended as the line says, and whether they disagreed.
func repeatNote(r checkRecord) string {
	t := r.Judgements
	if t == nil {
		return ""
	}
	note := fmt.Sprintf("%s judgements alike", t)
	if t.Alike < t.Judged {
		note = fmt.Sprintf("flaky: %s judgements alike; the structurizer's answers depend on chance or on the requests before them", t)
	}
	if t.NotRun > 0 {
		note += fmt.Sprintf("; %d not run: %s, and each after it would wait its own limit on a structurizer that stays silent", t.NotRun, t.NotRunReason)
	}
	return " [" + note + "]"
}
