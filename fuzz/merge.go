// merge.go defines Merge, which combines the campaign directories of shards
// (or of any runs of one campaign) into one report: the union of their
// records, computed exactly as the whole run's report is, with the
// minimized graphs the shards' own reports hold; and MergeNight, which
// goes on as the end of an unsharded run does: it classes the signatures
// against the state the shards read (their re-runs unioned), minimizes the
// new findings the shards deferred (once each, on the whole night's first
// new graph), and computes the night's updated state and the guided corpus
// the whole night would have grown (mergedCorpus).

package fuzz

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
)

// MergeNight merges the shard directories as MergeWith does, then classes,
// minimizes and updates the state as opt says. The update is nil without
// a state; the corpus is the guided night's grown corpus to write into
// opt.CorpusDir, nil when there is none to write (the report's
// Guided.Corpus says why).
func MergeNight(dirs []string, opt MergeOptions) (*Report, *StateUpdate, *Corpus, error) {
	rep, recs, err := mergeWith(dirs, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	var seen *Bloom
	if opt.State == nil && rep.Settings.StateDigest != "" {
		return nil, nil, nil, fmt.Errorf("the shards ran with a state directory (night %s): merge with --state DIR, or the night is not recorded", rep.Settings.Night)
	}
	if st := opt.State; st != nil {
		switch s := &rep.Settings; {
		case s.StateDigest == "":
			return nil, nil, nil, fmt.Errorf("%s: the shards ran without --state", dirs[0])
		case s.StateDigest != st.Digest && st.LatestNight() == s.Night:
			return nil, nil, nil, fmt.Errorf("state %s changed since the shards read it (digest %s, shards read %s): it holds night %s already, which a merge of these shards (this one run before?) or another run of that night committed; merging again would count the night twice. The committed night's report is in the --out of whatever committed it, an earlier merge of its shards (merge --out M) or an unsharded run of that night (run --out OUT): the state does not record which, but that directory's state/%s is the same file as %s", st.Dir, st.Digest, s.StateDigest, s.Night, StateFindingsFile, filepath.Join(st.Dir, StateFindingsFile))
		case s.StateDigest != st.Digest:
			return nil, nil, nil, fmt.Errorf("state %s changed since the shards read it (digest %s, shards read %s): another night committed to it since; these shards' night can no longer be recorded", st.Dir, st.Digest, s.StateDigest)
		}
		reruns, err := ReadReruns(st, dirs...)
		if err != nil {
			return nil, nil, nil, err
		}
		rep.State = ClassifyState(st, rep, reruns)
		rep.State.noteBuild(st, rep.Settings.Current, nightBuild(&rep.Settings, recordedSideFiles(dirs[0]).Current, opt.Writer))
		fillStateMinimized(rep, st)
		seen = NewBloom()
		for _, dir := range dirs {
			b, err := ReadStateUpdate(dir)
			if err != nil && rep.Incomplete != nil {
				continue // a shard that did not finish: a partial night's update is never committed
			}
			if err != nil {
				return nil, nil, nil, err
			}
			seen.Or(b)
		}
	}
	grown, err := mergedCorpus(opt.CorpusDir, rep, recs)
	if err != nil {
		return nil, nil, nil, err
	}
	if opt.Prepare != nil {
		if err := opt.Prepare(); err != nil {
			return nil, nil, nil, err
		}
	}
	if opt.Minimize != nil {
		MinimizeFindings(rep, opt.Minimize, opt.Log, nil)
	} else {
		rep.Unminimized = MinimizeOff
	}
	if opt.State == nil {
		return rep, nil, grown, nil
	}
	up := NextState(opt.State, rep, seen)
	return rep, &up, grown, nil
}

// mergedCorpus is the corpus a guided night leaves in dir, the corpus
// directory its shards read (merge --corpus, else the state's corpus/),
// when its shards are merged: the corpus the shards started from (dir's:
// the shards' settings name its digest, and a dir holding another is an
// error naming both) grown by every record in index order, which is what
// the whole night run unsharded and frozen (shards run frozen) grows at
// its end. It fills the report's Guided.Corpus (without dir, what the
// night added only when the shards started from an empty corpus). nil
// when there is nothing to write: not a guided night, no dir, an
// incomplete or mixed merge.
func mergedCorpus(dir string, rep *Report, recs []Record) (*Corpus, error) {
	if !rep.Settings.Guided {
		return nil, nil
	}
	why := ""
	switch {
	case dir == "":
		why = CorpusNoDir
	case rep.Incomplete != nil:
		why = CorpusPartial
	case rep.Mixed != nil:
		why = CorpusMixed
	}
	start := &Corpus{}
	if dir != "" {
		var err error
		if start, err = LoadCorpus(dir); err != nil {
			return nil, err
		}
	}
	if d := start.Digest(); d != rep.Settings.Corpus {
		if dir == "" { // the start corpus is not known: nor is what the night added
			rep.Guided.Corpus = &CorpusNote{Read: digestEntries(rep.Settings.Corpus), NotWritten: why}
			return nil, nil
		}
		return nil, fmt.Errorf("corpus %s holds %q, but the shards started from %q: give --corpus DIR, the corpus directory the shards read (their --corpus, or --state DIR's corpus/), as it was when they read it", dir, d, rep.Settings.Corpus)
	}
	g := newGuide(&rep.Settings, start)
	g.mergeBelow(-1, recs)
	rep.Guided.Corpus = newCorpusNote(start, g.corpus, rep.Settings.Current, rep.Settings.CorpusKeep, dir, why)
	rep.Guided.splitFeatures(start, recs)
	if why != "" {
		return nil, nil
	}
	return g.corpus, nil
}

// digestEntries is the entry count a Corpus.Digest names (0 when it
// names none).
func digestEntries(digest string) int {
	var n int
	fmt.Sscanf(digest, "%d entries", &n)
	return n
}

// Merge is MergeWith under the zero options: an incomplete shard set is
// an error.
func Merge(dirs []string) (*Report, error) { return MergeWith(dirs, MergeOptions{}) }

// MergeWith reads the shard directories and returns the combined report.
// The shards must share every setting but the shard; the merged report has
// none. An incomplete set (shardset.go) is an error naming what is missing
// unless opt.Partial, when the report's Incomplete names it.
func MergeWith(dirs []string, opt MergeOptions) (*Report, error) {
	rep, recs, err := mergeWith(dirs, opt)
	if err == nil {
		_, err = mergedCorpus(opt.CorpusDir, rep, recs)
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// mergeWith is MergeWith, also returning the merged records a report
// shows in full (every record of a guided campaign: recordSet).
func mergeWith(dirs []string, opt MergeOptions) (*Report, []Record, error) {
	if len(dirs) == 0 {
		return nil, nil, fmt.Errorf("no directories to merge")
	}
	if err := distinctDirs(dirs); err != nil {
		return nil, nil, err
	}
	shards, err := inspectShards(dirs)
	if err != nil {
		return nil, nil, err
	}
	mixed := mixedWriters(shards, writerOr(opt.Writer))
	if mixed != nil && !opt.Mixed {
		return nil, nil, &MixedError{mixed}
	}
	var base Settings
	covered := &indexSet{}
	var rs *recordSet
	var tp Throughput
	top := -1 // the highest index covered
	minimized := map[minKey]*Finding{}
	for k, st := range shards {
		dir := st.dir
		s := st.settings
		s.Shard = Shard{}
		if k == 0 {
			base = s
			rs = newRecordSet(&base, false)
		} else if !reflect.DeepEqual(normalizeForMerge(s), normalizeForMerge(base)) {
			return nil, nil, fmt.Errorf("%s: campaign settings differ from %s's: %s", dir, dirs[0], settingsDiff(normalizeForMerge(s), normalizeForMerge(base)))
		}
		if _, err := EachRecord(dir, func(r Record) {
			if covered.add(r.Index) {
				top = max(top, r.Index)
				rs.add(r)
				if mixed != nil {
					mixed.Shards[k].count(&r)
				}
			}
		}); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", dir, err)
		}
		for i, f := range st.report.Findings {
			if f.Minimized != "" {
				if _, err := f.MinimizedGraph(); err != nil {
					return nil, nil, fmt.Errorf("%s: findings[%d] (%s): minimized: %v", filepath.Join(dir, "report.json"), i, TriageSignature(f.Signature), err)
				}
				minimized[minKey{f.Signature, f.Subject().Index}] = &st.report.Findings[i]
			}
		}
		tp.addShard(st.report.Throughput)
	}
	in := mergeIncomplete(shards, covered, rs.total)
	if in != nil && !opt.Partial {
		return nil, nil, fmt.Errorf("incomplete shard set: %s (merge it anyway with --partial)", in.coverage())
	}
	rep := rs.report(base)
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if m := minimized[minKey{f.Signature, f.Subject().Index}]; m != nil {
			f.Minimized, f.MinimizedWeights, f.MinimizeStopped = m.Minimized, m.MinimizedWeights, m.MinimizeStopped
			f.notShrunk, f.BaselineChanged = shrinkReason(m), m.BaselineChanged
		}
	}
	tp.Shards = len(dirs)
	tp.fill()
	rep.Throughput = tp
	rep.Declared = mergeDeclared(shards)
	rep.Checks = mergeChecks(shards)
	rep.Incomplete = in
	if base.Duration > 0 {
		rep.TimeBudgetNote = budgetGapsNote(covered, rs.total, top)
	}
	if mixed != nil {
		for k, st := range shards {
			if st.report.Checks != nil && !slices.Equal(st.report.Checks, rep.Checks) {
				mixed.Shards[k].Checks = st.report.Checks
			}
		}
	}
	rep.Mixed = mixed
	rep.Provenance = NewProvenance(&rep.Settings, writerOr(opt.Writer), time.Now())
	return rep, rs.kept, nil
}

// distinctDirs is an error naming a directory dirs give twice, by any
// path to it.
func distinctDirs(dirs []string) error {
	given := map[string]string{}
	for _, dir := range dirs {
		key := filepath.Clean(dir)
		if abs, err := filepath.Abs(dir); err == nil {
			key = abs
		}
		if first, ok := given[key]; ok {
			return fmt.Errorf("%s is given twice (as %s and %s)", key, first, dir)
		}
		given[key] = dir
	}
	return nil
}

// addShard adds a shard's throughput t to a merge's tp: its counts,
// workers and the sides' answer times summed, its wall time the longest
// shard's (shards run side by side).
func (tp *Throughput) addShard(t Throughput) {
	tp.Graphs += t.Graphs
	tp.Skipped += t.Skipped
	tp.Resumed += t.Resumed
	tp.Seconds = max(tp.Seconds, t.Seconds)
	tp.Workers += t.Workers
	tp.CurrentSeconds += t.CurrentSeconds
	tp.BaselineSeconds += t.BaselineSeconds
	tp.CurrentMetaSeconds += t.CurrentMetaSeconds
	tp.BaselineMetaSeconds += t.BaselineMetaSeconds
}

// inspectShards reads every directory of a merge (inspectShard), before
// any record is merged: the writers decide whether the merge may go on.
func inspectShards(dirs []string) ([]*shardState, error) {
	var shards []*shardState
	for _, dir := range dirs {
		st, err := inspectShard(dir)
		if err != nil {
			return nil, err
		}
		shards = append(shards, st)
	}
	return shards, nil
}

// mergeChecks are the checks every shard's graphs ran: those its
// reports all name, in the first's order (nil when a report names none).
func mergeChecks(shards []*shardState) []string {
	var checks []string
	for i, st := range shards {
		if st.report.Checks == nil {
			return nil
		}
		if i == 0 {
			checks = slices.Clone(st.report.Checks)
			continue
		}
		checks = slices.DeleteFunc(checks, func(c string) bool { return !slices.Contains(st.report.Checks, c) })
	}
	return checks
}

// mergeDeclared is what the shards' sides declared: per side, the
// declaration of the lowest shard that has one, as a whole run keeps the
// first a worker notes.
func mergeDeclared(shards []*shardState) Declarations {
	byShard := slices.Clone(shards)
	slices.SortStableFunc(byShard, func(a, b *shardState) int { return a.settings.Shard.I - b.settings.Shard.I })
	var d Declarations
	for _, st := range byShard {
		for side, h := range st.report.Declared {
			if h == nil {
				continue
			}
			if d == nil {
				d = Declarations{}
			}
			if d[side] == nil {
				d[side] = h
			}
		}
	}
	return d
}

// normalizeForMerge clears what may differ between shards of one campaign.
func normalizeForMerge(s Settings) Settings {
	s.Shard = Shard{}
	s.CurrentRef, s.BaselineRef = "", "" // names of the same commits, which the specs hold
	return s
}

// minKey finds a shard's minimized graph: the whole run minimizes a
// signature's lowest-index new graph (Finding.Subject), and so did the
// shard that holds it.
type minKey struct {
	sig   string
	index int
}

// settingsDiff names the settings that differ between a and b, as their
// JSON fields: "seed 2 against 1".
func settingsDiff(a, b Settings) string {
	fields := func(s Settings) map[string]json.RawMessage {
		m := map[string]json.RawMessage{}
		raw, _ := json.Marshal(s)
		json.Unmarshal(raw, &m)
		return m
	}
	fa, fb := fields(a), fields(b)
	var keys []string
	for k := range fa {
		keys = append(keys, k)
	}
	for k := range fb {
		if _, ok := fa[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		va, vb := string(fa[k]), string(fb[k])
		if va == vb {
			continue
		}
		if va == "" {
			va = "unset"
		}
		if vb == "" {
			vb = "unset"
		}
		diffs = append(diffs, fmt.Sprintf("%s %s against %s", k, clipSetting(va), clipSetting(vb)))
	}
	if len(diffs) == 0 {
		return "(a field JSON does not show)"
	}
	return strings.Join(diffs, ", ")
}

// clipSetting shortens a long setting's JSON for a message.
func clipSetting(v string) string {
	if len(v) > 80 {
		return v[:77] + "..."
	}
	return v
}
