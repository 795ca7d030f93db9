// classify.go classes every signature of a night against the state it
// read (STATE.md): new, known, ignored, fixed, or unverified, and says
// why. ClassifyState is a pure function of the state, the report's
// findings and the re-runs of the kept graphs, so one campaign and the
// merge of its shards class alike.

package fuzz

import (
	"cmp"
	"fmt"
	"slices"
)

// Signature classes of a night with a state directory.
const (
	// ClassNew: it showed tonight and neither the store nor the triage
	// file knows it (the store's entry first seen on this night, by an
	// earlier run of it, does not count), or the store had it fixed (a
	// regression, even when the triage file says known), and the
	// baseline does not share it.
	// The only class that fails a night.
	ClassNew = "new"
	// ClassKnown: it showed tonight and the store or the triage file
	// (known) has it, or the baseline fails the same way on all its graphs.
	ClassKnown = "known"
	// ClassIgnored: it showed tonight and the triage file ignores it.
	ClassIgnored = "ignored"
	// ClassFixed: the store has it, it did not show tonight, and every
	// kept graph of it was re-run and none showed it.
	ClassFixed = "fixed"
	// ClassUnverified: the store has it, it did not show tonight, but a
	// re-run of its kept graphs gave no verdict (a harness error) or not
	// all were re-run (a shard's share): neither fixed nor seen.
	ClassUnverified = "unverified"
)

// SignatureClasses lists the classes in report order.
var SignatureClasses = []string{ClassNew, ClassKnown, ClassIgnored, ClassFixed, ClassUnverified}

// StateReport is the report's state section (with --state).
type StateReport struct {
	Night    string `json:"night"`
	Revision string `json:"revision"` // the current side's spec
	Digest   string `json:"digest"`   // of the state read
	// Build is the build of the structurizer tonight's current side ran
	// (nightBuild), which the state records for the next night;
	// PreviousBuild and PreviousNight are the build the state recorded
	// for its last night and that night, present when that night ran the
	// same current side on another build (noteBuild).
	Build         string `json:"build,omitempty"`
	PreviousBuild string `json:"previous_build,omitempty"`
	PreviousNight string `json:"previous_night,omitempty"`
	// BaselineLastGood is the state's last good night, present when the
	// campaign's baseline is its revision and that night classed
	// signatures known: the baseline fails with those, so the
	// comparison cannot show them as new (BaselineNote).
	BaselineLastGood *GoodNight `json:"baseline_last_good,omitempty"`
	// Classes counts the signatures per class.
	Classes    map[string]int   `json:"classes"`
	Signatures []SignatureState `json:"signatures"`
	// Seen counts the graphs skipped because the state's filter holds
	// them (checked on an earlier night, or a false positive).
	Seen int `json:"seen"`
	// RepeatedNight says the state was last written by this same night
	// (the night run again): the graphs skipped as seen were mostly
	// checked by its earlier run.
	RepeatedNight bool `json:"repeated_night,omitempty"`
	// FilterGraphs is the number of graphs the filter held when read (an
	// estimate from its bits, Bloom.Count) and FilterFalsePositive the
	// chance it then held a graph never checked.
	FilterGraphs        uint64  `json:"filter_graphs"`
	FilterFalsePositive float64 `json:"filter_false_positive"`
	// FilterRestarted is the number of graphs the filter held when it was
	// read past BloomRestartAt and started afresh (State.SeenRestarted).
	FilterRestarted uint64 `json:"filter_restarted,omitempty"`
	// FilterMissing says findings.json named its filter (seen_sha256) but
	// seen.bloom was missing, so a new one was started (State.SeenMissing,
	// FilterMissingNote); false otherwise.
	FilterMissing bool `json:"filter_missing,omitempty"`
	// Empty says the state held no findings.json when the night read it
	// (State.Empty: a first night, or a cache that did not restore it):
	// every signature is new but those the triage file names (EmptyNote);
	// DirMissing that the directory did not exist (State.Absent).
	Empty      bool `json:"empty,omitempty"`
	DirMissing bool `json:"dir_missing,omitempty"`
	// Reruns is the number of kept graphs re-run, MinimizedReruns of
	// minimized graphs.
	Reruns          int `json:"reruns"`
	MinimizedReruns int `json:"minimized_reruns,omitempty"`
	// Unmatched are the triage file's lines whose signature neither the
	// store nor tonight holds (a typo, or a signature with a space left
	// unquoted), in line order.
	Unmatched []TriageNote `json:"triage_unmatched,omitempty"`
	// NotCommitted, when set, says why a whole night's update was not
	// committed to the state directory: another night committed to it
	// after this one read it (NotCommittedNote), or a merge's commit
	// could not be written (NotSavedNote). "" for a night that committed,
	// and for one that commits nothing by design (a shard, an interrupted
	// or partial night: the report says so otherwise).
	NotCommitted string `json:"not_committed,omitempty"`
	// Concurrent, when set, says that another process that commits to
	// the state directory (a night, a merge) was running when this night
	// started (StateUseNote): the later of the two to commit is refused.
	Concurrent string `json:"concurrent,omitempty"`
}

// NotCommittedNote is StateReport.NotCommitted for the night night whose
// state directory dir another campaign committed to after this one read
// it, leaving it on the night now (CommittedNight; "" not known); its
// update was written into update instead. What a later night makes of
// this night's signatures depends on what was committed: the same night
// (another merge of its shards, the night run again) records its own
// signatures, all of this one's when it ran the same graphs; another
// night recorded only its own.
func NotCommittedNote(dir, update, night, now string) string {
	switch {
	case now == night:
		return fmt.Sprintf("another run of this night, %s (another merge of its shards, or the night run again), committed to %s after this one read it, so this one's update was not committed (it is in %s, unused): the state records that run of the night, and a later night knows the signatures it recorded (all of this one's, when it ran the same graphs: a merge of the same shards)", night, dir, update)
	case now != "":
		return fmt.Sprintf("another night, %s, committed to %s after this one read it, so this night's update was not committed (it is in %s, unused): the state moved on without it, and a later night checks this night's graphs again and finds its new signatures new, but those night %s recorded", now, dir, update, now)
	}
	return fmt.Sprintf("%s changed after this night read it (another campaign committed there, or its findings.json was removed), so this night's update was not committed (it is in %s, unused): a later night checks this night's graphs again and finds its new signatures new, but those the state then records", dir, update)
}

// NotSavedNote is StateReport.NotCommitted for a merge whose commit into
// the state directory dir could not be written (err: a full disk, a
// quota, the directory's lock held), which left dir as it was; its update
// was written into update, and again is the command that runs the merge
// again.
func NotSavedNote(dir, update string, err error, again string) string {
	return fmt.Sprintf("the night's update could not be written into %s (%v), which is left as it was, so this night is not committed (its update is in %s, unused): once that is fixed, run the same merge again (%s), which replaces this one's output and commits the night", dir, err, update, again)
}

// SignatureState is one signature's class tonight.
type SignatureState struct {
	Signature string `json:"signature"`
	Strategy  string `json:"strategy,omitempty"`
	Outcome   string `json:"outcome"`
	Class     string `json:"class"`
	Reason    string `json:"reason"`
	// Tonight counts the campaign's graphs failing with it.
	Tonight int `json:"tonight"`
	// RerunGraphs kept graphs of it were re-run; RerunShowing of all the
	// re-runs showed it (its own kept or minimized graphs, or another
	// signature's: a new signature can show on another's kept graph).
	RerunGraphs  int    `json:"rerun_graphs"`
	RerunShowing int    `json:"rerun_showing"`
	FirstSeen    string `json:"first_seen,omitempty"`
	LastSeen     string `json:"last_seen,omitempty"`
	Revision     string `json:"revision,omitempty"` // where it was last seen before tonight
	// Minimized is the verdict its stored minimized graph gave when
	// re-run tonight: "shows" (it failed with this signature), "passes"
	// (it did not fail), the signature it failed with instead, or "error"
	// (no verdict); absent when the store holds no minimized graph of it
	// or it was not re-run here (another shard re-ran it).
	Minimized string `json:"minimized_rerun,omitempty"`
	// rerunShowing are the re-run kept graphs that showed it, for the
	// store.
	rerunShowing []KeptGraph
	// changed says it is not the defect the store knows: its stored
	// minimized graph no longer shows it while tonight's campaign graphs
	// do. It is minimized again, on tonight's first graph (its first new
	// one when the baseline fails the first: Finding.Subject), and the
	// store's entry starts afresh from tonight (NextState).
	changed bool
	// regressed says the store had it fixed and it showed again tonight
	// (class new, "regressed: fixed since DATE"): what shows tonight may
	// be another graph than the one the store minimized when it was
	// first seen, so it is minimized again, on tonight's first graph
	// (Finding.Subject), into the night's findings store, and its
	// minimized graph replaces the store's (NextState).
	regressed bool
}

// Verdicts of a stored minimized graph re-run (SignatureState.Minimized),
// but for the signature it failed with instead.
const (
	MinimizedShows  = "shows"
	MinimizedPasses = "passes"
	MinimizedError  = "error"
)

// tally is what tonight showed of one signature.
type tally struct {
	sig                                    SignatureState
	allShared                              bool // the baseline shares every campaign graph of it
	rerunGraphs, rerunShowing, rerunErrors int
	shows                                  string // what of tonight's campaign graphs shows it (tonightShows)
	minimized                              *Rerun // the re-run of its stored minimized graph
}

// ClassifyState classes rep's findings and the state's signatures.
func ClassifyState(st *State, rep *Report, reruns []Rerun) *StateReport {
	out := &StateReport{Night: rep.Settings.Night, Revision: stateRevision(&rep.Settings, rep.Declared), Digest: st.Digest, Classes: zeroCounts(SignatureClasses),
		Signatures: []SignatureState{}, FilterGraphs: st.Seen.Count(), FilterFalsePositive: BloomFalsePositive(st.Seen.Count()),
		FilterRestarted: st.SeenRestarted, FilterMissing: st.SeenMissing,
		Empty: st.Empty, DirMissing: st.Absent}
	out.noteBaseline(st, rep.Settings.Baseline)
	ts := map[findingKey]*tally{}
	get := func(sig, strategy, outcome string) *tally {
		k := findingKey{sig, strategy}
		if ts[k] == nil {
			ts[k] = &tally{sig: SignatureState{Signature: sig, Strategy: strategy, Outcome: outcome}, allShared: true}
		}
		return ts[k]
	}
	for _, f := range rep.Findings {
		t := get(f.Signature, f.Strategy, f.Outcome)
		t.sig.Tonight = f.Count
		t.allShared = f.New == 0
		t.shows = tonightShows(&f)
	}
	for _, e := range st.Store {
		get(e.Signature, e.Strategy, e.Outcome)
	}
	for i, r := range reruns {
		own := get(r.Signature, r.Strategy, "")
		if r.Minimized {
			out.MinimizedReruns++
			own.minimized = &reruns[i]
			own.sig.Minimized = minimizedVerdict(&r)
		} else {
			out.Reruns++
			own.rerunGraphs++
		}
		switch {
		case noVerdict(r.Result.Outcome):
			if !r.Minimized {
				own.rerunErrors++
			}
		case isFailure(r.Result.Outcome):
			shown := []string{r.Result.Signature}
			if r.Signature != r.Result.Signature && r.Result.fails(r.Signature) {
				shown = append(shown, r.Signature) // its own, under another check's failure
			}
			for _, sig := range shown {
				t := get(sig, r.Strategy, r.Result.Outcome)
				t.rerunShowing++
				if !r.Minimized { // a minimized graph is kept as such
					t.sig.rerunShowing = append(t.sig.rerunShowing, r.Graph)
				}
			}
		}
	}
	known := map[string]bool{}
	for k, t := range ts {
		known[k.sig] = true
		t.sig.RerunGraphs, t.sig.RerunShowing = t.rerunGraphs, t.rerunShowing
		classify(&t.sig, t, out.Night, st.lookup(k.sig, k.strategy), st.Triage)
		out.Classes[t.sig.Class]++
		out.Signatures = append(out.Signatures, t.sig)
	}
	slices.SortFunc(out.Signatures, func(a, b SignatureState) int {
		return cmp.Or(cmp.Compare(a.Signature, b.Signature), cmp.Compare(a.Strategy, b.Strategy))
	})
	out.Seen = rep.Seen
	out.RepeatedNight = st.LatestNight() == out.Night
	out.Unmatched = unmatchedTriage(st.Triage, known)
	return out
}

// minimizedVerdict is what the re-run of a stored minimized graph gave
// (SignatureState.Minimized).
func minimizedVerdict(r *Rerun) string {
	switch {
	case noVerdict(r.Result.Outcome):
		return MinimizedError
	case !isFailure(r.Result.Outcome):
		return MinimizedPasses
	case r.Result.fails(r.Signature): // under another check's failure too
		return MinimizedShows
	}
	return r.Result.Signature
}

// noVerdict says a re-run's outcome judged nothing: a harness error, a
// graph the structurizer declared it does not serve (unsupported: it was
// never structurized) or one it refused (no module came back): neither
// can show that a bug is gone.
func noVerdict(outcome string) bool {
	return outcome == OutError || outcome == OutUnsupported || outcome == OutRefused
}

// classify sets one signature's class and reason on the given night.
func classify(s *SignatureState, t *tally, night string, stored *StoredSignature, triage map[string]TriageEntry) {
	kept := 0 // the graphs the state keeps for it (re-runs are only ever of those)
	minimized := false
	if stored != nil {
		s.FirstSeen, s.LastSeen, s.Revision = stored.FirstSeen, stored.LastSeen, stored.Revision
		if s.Outcome == "" {
			s.Outcome = stored.Outcome
		}
		kept = len(stored.Graphs)
		minimized = stored.Minimized != ""
	}
	showed := s.Tonight > 0 || t.rerunShowing > 0
	minJudged := t.minimized != nil && s.Minimized != MinimizedError
	switch {
	case !showed && t.rerunGraphs > 0 && t.rerunGraphs == kept && t.rerunErrors == 0 && minimized && !minJudged:
		why := "was not re-run here (another shard re-ran it)"
		if t.minimized != nil {
			why = "re-ran without a verdict"
		}
		s.Class, s.Reason = ClassUnverified, fmt.Sprintf("not seen tonight; none of its %s showed it, but its minimized graph %s", Plural(t.rerunGraphs, "kept graph"), why)
	case !showed && t.rerunGraphs > 0 && t.rerunGraphs == kept && t.rerunErrors == 0:
		s.Class, s.Reason = ClassFixed, fmt.Sprintf("none of its %s showed it", Plural(t.rerunGraphs, "kept graph"))
		if minimized {
			s.Reason += ", nor its minimized graph " + stored.Minimized
		}
		if stored.Fixed != "" {
			s.Reason += "; fixed since " + stored.Fixed
		}
	case !showed && t.rerunGraphs == 0 && t.minimized == nil:
		s.Class, s.Reason = ClassUnverified, "not seen tonight; none of its kept graphs was re-run here"
	case !showed && t.rerunGraphs == 0 && !minJudged:
		s.Class, s.Reason = ClassUnverified, "not seen tonight; none of its kept graphs was re-run here, and its minimized graph re-ran without a verdict"
	case !showed && t.rerunGraphs == 0:
		s.Class, s.Reason = ClassUnverified, fmt.Sprintf("not seen tonight; its minimized graph re-run here, not showing it, but none of its %s (another shard re-ran them)", Plural(kept, "kept graph"))
	case !showed && t.rerunErrors == 0:
		s.Class, s.Reason = ClassUnverified, fmt.Sprintf("not seen tonight; %s (another shard re-ran the rest)", partialReruns(t, kept, minJudged))
	case !showed:
		s.Class, s.Reason = ClassUnverified, fmt.Sprintf("not seen tonight; %d of its %s re-ran without a verdict", t.rerunErrors, Plural(t.rerunGraphs, "kept graph"))
		if t.minimized != nil && !minJudged {
			s.Reason += ", and its minimized graph too"
		}
	default:
		s.Class, s.Reason = showingClass(s.Signature, night, s.Tonight > 0 && t.allShared && t.rerunShowing == 0, stored, triage)
		s.regressed = s.Class == ClassNew && stored != nil && stored.Fixed != ""
		if s.Tonight > 0 && minJudged && s.Minimized != MinimizedShows {
			rejudge(s, t, stored)
		}
	}
}

// partialReruns says what a shard re-ran of a signature when it re-ran
// some of its kept graphs, none showing it: "1 of its 3 kept graphs re-run
// here, none showing it", naming its minimized graph too when the shard
// re-ran that (with or without a verdict).
func partialReruns(t *tally, kept int, minJudged bool) string {
	switch {
	case t.minimized == nil:
		return fmt.Sprintf("%d of its %d kept graphs re-run here, none showing it", t.rerunGraphs, kept)
	case minJudged:
		return fmt.Sprintf("%d of its %d kept graphs and its minimized graph re-run here, none showing it", t.rerunGraphs, kept)
	}
	return fmt.Sprintf("%d of its %d kept graphs re-run here, none showing it, and its minimized graph without a verdict", t.rerunGraphs, kept)
}

// rejudge re-classes a stored signature that tonight's campaign graphs
// show but whose stored minimized graph, re-run tonight, does not: the
// signature is generic (oracle/SIGNATURES.md), and what shows it tonight
// is not the defect the store knows. A known signature is then new (it
// fails the night, and is minimized on the graph the note names:
// tonightShows); an ignored one stays ignored, with the note; a
// regression stays new, with the note.
func rejudge(s *SignatureState, t *tally, stored *StoredSignature) {
	verdict := "passes tonight"
	if s.Minimized != MinimizedPasses {
		verdict = "fails tonight with " + TriageSignature(s.Minimized) + ", not with it"
	}
	note := fmt.Sprintf("its recorded graph %s %s; %s", stored.Minimized, verdict, t.shows)
	switch s.Class {
	case ClassKnown:
		s.Class, s.Reason = ClassNew, "not the defect the store knows: "+note+" (was known: "+s.Reason+")"
		s.changed = true
	case ClassNew:
		s.Reason += "; " + note
		s.changed = true
	default:
		s.Reason += "; " + note + ": another defect may share the signature"
	}
}

// tonightShows names the campaign graph a re-judged signature is
// minimized on and its store entry starts from (Finding.Subject):
// tonight's first failing graph, or, when the baseline fails that one
// too, the first the baseline passed.
func tonightShows(f *Finding) string {
	if f.FirstNew != nil {
		return "tonight's first failing graph the baseline did not fail is " + f.FirstNew.Graph
	}
	return "tonight's first failing graph is " + f.First.Graph
}

// regressedReason is "regressed: fixed since DATE" for a signature the
// store had fixed (or an earlier run of this night found come back), ""
// for any other.
func regressedReason(stored *StoredSignature, night string) string {
	switch {
	case stored == nil:
		return ""
	case stored.Fixed != "":
		return "regressed: fixed since " + stored.Fixed
	case stored.Regressed != nil && stored.Regressed.Night == night:
		return "regressed: fixed since " + stored.Regressed.FixedSince + " (recorded by an earlier run of this night)"
	}
	return ""
}

// showingClass is the class and reason of a signature that showed tonight
// (in the campaign's graphs or the re-runs of kept graphs): new, known or
// ignored. baselineShares says the baseline fails the same way on every
// campaign graph of it and no re-run showed it. A store entry first seen
// on this very night (an earlier run of the night recorded it) makes it
// no more known than it was on that run: the night run again gives its
// verdict again. The summary (classify) and the progress line
// (progress.go) both class by it.
func showingClass(sig, night string, baselineShares bool, stored *StoredSignature, triage map[string]TriageEntry) (class, reason string) {
	tr, triaged := triage[sig]
	regressed := regressedReason(stored, night)
	switch {
	case triaged && tr.Status == TriageIgnored && regressed != "":
		// ignored all the same, but the report says it came back: the
		// store records it seen tonight, and so known on later nights
		return ClassIgnored, "triage: " + tr.Reason + "; " + regressed
	case triaged && tr.Status == TriageIgnored:
		return ClassIgnored, "triage: " + tr.Reason
	case regressed != "":
		reason = regressed
		if triaged {
			reason += fmt.Sprintf(" (%s:%d says known: %s)", StateTriageFile, tr.Line, tr.Reason)
		}
		return ClassNew, reason
	case triaged:
		return ClassKnown, "triage: " + tr.Reason
	case stored != nil && stored.FirstSeen == night && baselineShares:
		return ClassKnown, "the baseline fails the same way"
	case stored != nil && stored.FirstSeen == night:
		return ClassNew, FirstSeenThisNight
	case stored != nil:
		return ClassKnown, "seen since " + stored.FirstSeen
	case baselineShares:
		return ClassKnown, "the baseline fails the same way"
	}
	return ClassNew, "first seen tonight"
}

// FirstSeenThisNight is the reason of a signature new on a night run
// again: the store holds it from an earlier run of the same night.
const FirstSeenThisNight = "first seen tonight (recorded by an earlier run of this night)"

// classShowing classes a signature showing on the given night on strategy
// against the state (new, known or ignored); baselineShares as in
// showingClass.
func (st *State) classShowing(night string) func(sig, strategy string, baselineShares bool) string {
	return func(sig, strategy string, baselineShares bool) string {
		class, _ := showingClass(sig, night, baselineShares, st.lookup(sig, strategy), st.Triage)
		return class
	}
}

// SeenWhere says where the graphs skipped as seen were checked: on an
// earlier night, or, on a night run again, by its earlier run too.
func (s *StateReport) SeenWhere() string {
	if s != nil && s.RepeatedNight {
		return "checked by an earlier run of this night (or on an earlier night)"
	}
	return "checked on an earlier night"
}

// NewSignatures is the number of signatures classed new (with a state),
// the one thing that fails a night.
func (s *StateReport) NewSignatures() int { return s.Classes[ClassNew] }

// RerunsPhrase says what the night re-ran: "N kept graphs re-run", with
// the minimized graphs when there were any.
func (s *StateReport) RerunsPhrase() string {
	if s.MinimizedReruns == 0 {
		return Plural(s.Reruns, "kept graph") + " re-run"
	}
	return Plural(s.Reruns, "kept graph") + " and " + Plural(s.MinimizedReruns, "minimized graph") + " re-run"
}
