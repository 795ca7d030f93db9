// night.go ties the state directory (state.go) into a campaign: the
// settings it adds (the night's date, the digest of the state read), the
// re-runs of the kept graphs at the start, the graphs skipped as seen on
// an earlier night, and the night's updated state at the end: written to
// OUT/state always, and committed into the state directory by an
// unsharded run (the shards of a night leave that to `cfgfuzz merge`).
// Minimization on a shard is deferred to the merge, so that a signature
// several shards find is minimized once, on the whole night's first graph.

package fuzz

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MinimizationDeferred is Report.Minimization on a shard.
const MinimizationDeferred = "deferred to merge"

// validateState checks the state settings: a night's date with a state,
// and on --resume the same state as the campaign started with
// (CheckResumeState). A fresh night takes the state's digest and the
// exhaustive walk's next position.
func (c *Config) validateState() error {
	if err := c.CheckResumeState(); err != nil || c.State == nil {
		return err
	}
	if _, err := time.Parse(time.DateOnly, c.Night); err != nil {
		return fmt.Errorf("night %q: want a date YYYY-MM-DD", c.Night)
	}
	if c.Shard.N <= 1 { // the night commits into the state directory
		if err := c.State.CheckWritable(c.Notes); err != nil {
			return err
		}
	}
	if c.StateDigest == "" { // a fresh night (a resume checked this when it started)
		if err := c.State.CheckNight(c.Night, c.Current.Describe, c.StateNewStructurizer); err != nil {
			return err
		}
		c.StateDigest = c.State.Digest
		c.ExhaustiveFrom = c.State.ExhaustiveNext // go on where the last night stopped
	}
	return nil
}

// CheckResumeState refuses to resume a night on another state than the
// one it started from: without the state (c.State nil) when it ran with
// one, on a state another night has committed to since (its digest
// differs), and a finished night, which has nothing to resume. It needs
// only the recorded settings and the state, so a resume calls it before
// its sides are built; Run calls it again.
func (c *Config) CheckResumeState() error {
	if c.State == nil {
		if c.finishedNight() {
			return c.nothingToResume()
		}
		if c.Night != "" || c.StateDigest != "" {
			again := "give --state again"
			if dir := recordedStateDir(c.Dir); dir != "" {
				again = "give --state " + quotedPath(dir) + " again (the directory it read)"
			}
			return fmt.Errorf("the campaign was run with --state (night %s): %s", c.Night, again)
		}
		return nil
	}
	switch {
	case c.StateDigest == "" || c.StateDigest == c.State.Digest:
	case c.finishedNight():
		return c.nothingToResume()
	default:
		return fmt.Errorf("state %s changed since the campaign started (digest %s, campaign read %s): a night committed its update since, this campaign's own once it finished or a later one, and a campaign resumes only on the state it started from: start a new night (another --out, or --force)", c.State.Dir, c.State.Digest, c.StateDigest)
	}
	return nil
}

// stateDir is the state directory the campaign reads ("" none).
func (c *Config) stateDir() string {
	if c.State == nil {
		return ""
	}
	return c.State.Dir
}

// finishedNight says whether c resumes a whole night, unsharded, that
// finished: its report is whole, and its end committed the night (or
// found another night's commit).
func (c *Config) finishedNight() bool {
	return c.Resume && c.Night != "" && c.Shard.N <= 1 && finishedReport(c.Dir)
}

// nothingToResume is the refusal of a finished night's resume.
func (c *Config) nothingToResume() error {
	return fmt.Errorf("the campaign in %s is night %s of a --state directory, finished: its end committed the night (or found another night's commit), so it has nothing to resume; start a new night (another --out, or --force)", c.Dir, c.Night)
}

// reruns re-runs this shard's kept graphs, or on --resume reads the
// re-runs the interrupted run wrote.
func (c *Config) reruns() ([]Rerun, error) {
	if c.State == nil {
		return nil, nil
	}
	if c.Resume {
		if _, err := os.Stat(filepath.Join(c.Dir, RerunFile)); err == nil {
			return ReadReruns(c.State, c.Dir)
		}
	}
	rs, err := c.runReruns(c.State)
	if err != nil {
		return nil, err
	}
	return rs, WriteReruns(c.Dir, rs)
}

// saveState writes the night's updated state into OUT/state and, for an
// unsharded run that covered its budget, into the state directory (an
// interrupted night leaves the directory as it read it, for its resume).
func (c *Config) saveState(rep *Report, seen *Bloom) error {
	up := NextState(c.State, rep, seen)
	if err := WriteStateUpdate(filepath.Join(c.Dir, StateUpdateDir), up); err != nil {
		return err
	}
	if c.Shard.N > 1 || rep.Incomplete != nil { // the resume commits the night
		return nil
	}
	if err := CommitState(c.State, up, c.Notes); err != nil {
		return fmt.Errorf("%w; the night's update is in %s", err, filepath.Join(c.Dir, StateUpdateDir))
	}
	return nil
}

// MarkNotCommitted records in rep that a whole night's update was not
// committed to the state directory: note says why and where the update
// is (NotCommittedNote, NotSavedNote). A guided night's grown corpus goes
// with the state: rep no longer names it written (corpusWhy says why),
// and the caller does not write it.
func MarkNotCommitted(rep *Report, note, corpusWhy string) {
	rep.State.NotCommitted = note
	if g := rep.Guided; g != nil && g.Corpus != nil && g.Corpus.NotWritten == "" {
		g.Corpus.Written, g.Corpus.NotWritten = "", corpusWhy
	}
}

// seenBefore reports whether graph index i's graph is in the state's
// filter under the strategy it runs.
func (w *worker) seenBefore(i int, g *cfg.Graph) bool {
	if w.seen == nil {
		return false
	}
	return w.seen.Has(seenKey(w.set, w.set.GraphStrategy(i), GraphFingerprint(g)))
}

// fillStateMinimized gives the findings of stored signatures the store's
// minimized graph, marked Finding.MinimizedStored: they are not minimized
// again. A signature whose stored minimized graph no longer shows it
// (rep.State: changed), or that regressed tonight (the store had it
// fixed), gets none, and loses it where a shard's report gave it one: it
// is minimized again, on tonight's first graph (its first new one when
// the baseline fails the first: Finding.Subject).
func fillStateMinimized(rep *Report, st *State) {
	for i := range rep.Findings {
		f := &rep.Findings[i]
		e := st.lookup(f.Signature, f.Strategy)
		switch {
		case e == nil:
		case rep.State != nil && rep.State.minimizeAgain(f.Signature, f.Strategy):
			if f.Minimized == e.Minimized && slices.Equal(f.MinimizedWeights, e.MinimizedWeights) {
				f.Minimized, f.MinimizedWeights, f.MinimizeStopped = "", nil, ""
			}
		case f.Minimized == "":
			f.Minimized, f.MinimizedWeights, f.MinimizeStopped = e.Minimized, e.MinimizedWeights, e.MinimizeStopped
			f.MinimizedStored = e.Minimized != ""
		case f.Minimized == e.Minimized && slices.Equal(f.MinimizedWeights, e.MinimizedWeights):
			f.MinimizedStored = true // a shard's report gave it the store's
		}
	}
}

// minimizeAgain says whether a stored signature showing tonight is
// minimized again rather than given the store's minimized graph: it is
// not the defect the store knows (SignatureState.changed), or it
// regressed tonight (SignatureState.regressed).
func (s *StateReport) minimizeAgain(sig, strategy string) bool {
	for _, c := range s.Signatures {
		if c.Signature == sig && c.Strategy == strategy {
			return c.changed || c.regressed
		}
	}
	return false
}

// class is a signature's class tonight ("" when not classed).
func (s *StateReport) class(sig, strategy string) string {
	for _, c := range s.Signatures {
		if c.Signature == sig && c.Strategy == strategy {
			return c.Class
		}
	}
	return ""
}
