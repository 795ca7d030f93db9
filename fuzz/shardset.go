// shardset.go defines what makes a set of campaign directories a complete
// campaign for Merge: one split (every directory shard i of the same n),
// every shard of it present once, and every shard finished: a results log
// whose last line is whole, a report that is not incomplete, no live
// owner (lock.go), and under a graph budget a record for every graph
// index. What is missing is listed so Merge can refuse the set or, with
// MergeOptions.Partial, say it in the report.

package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// MergeOptions configures MergeWith. The zero value refuses an incomplete
// shard set.
type MergeOptions struct {
	// Partial merges an incomplete shard set; the report's Incomplete
	// names the missing shards and the shards' defects.
	Partial bool
	// State is the state directory the shards read (--state); nil merges
	// without one (MergeNight).
	State *State
	// CorpusDir is the corpus directory a guided night's shards read
	// (merge --corpus, else the state's corpus/; "" none): MergeNight
	// grows the corpus it holds by the night's records (mergedCorpus).
	CorpusDir string
	// Minimize minimizes the merged report's new findings not minimized
	// yet (a shard defers them: Report.Minimization), as Config.Minimize
	// (MergeNight).
	Minimize Minimizer
	// Log, when set, receives a line per finding minimized, with its time;
	// nil prints nothing.
	Log io.Writer
	// Prepare, when set, is called once the merge is known to go on
	// (every refusal made), before anything is minimized or written
	// (MergeNight): the merge's output directory is made ready there. An
	// error it returns ends the merge.
	Prepare func() error
	// Writer is the merging cfgfuzz (the zero value: ThisWriter). Shards
	// another writer wrote are refused (MixedError) unless Mixed, when the
	// report's Mixed names each shard's writer.
	Writer Writer
	Mixed  bool
}

// shardState is what a merge needs to know of one directory.
type shardState struct {
	dir      string
	settings Settings
	writer   Writer    // the cfgfuzz that wrote it (campaign.json)
	sides    SideFiles // the builds of its cmd sides (campaign.json)
	records  int       // records its log holds (each index once)
	report   Report
	problems []string
}

// inspectShard reads a shard directory (its report.json for what the log
// does not hold: throughput, minimized graphs, completeness) and lists its
// defects.
func inspectShard(dir string) (*shardState, error) {
	s, w, err := LoadCampaign(dir)
	if err != nil {
		return nil, err
	}
	st := &shardState{dir: dir, settings: s, writer: w, sides: recordedSideFiles(dir)}
	good, err := EachRecord(dir, func(Record) { st.records++ })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	switch fi, err := os.Stat(filepath.Join(dir, ResultsFile)); {
	case errors.Is(err, os.ErrNotExist):
		st.problem("no results log")
	case err != nil:
		return nil, err
	case fi.Size() > good:
		st.problem("torn results log (%d bytes after the last whole record)", fi.Size()-good)
	}
	switch o, fi, ok, bad := readLock(filepath.Join(dir, LockFile)); {
	case bad != nil:
		return nil, foreignLock(dir, bad)
	case ok && lockLive(o, fi):
		st.problem("in use by process %d on %s", o.pid, o.host)
	}
	b, err := readReportFile(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		st.problem("no report (the shard did not finish)")
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(b, &st.report); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "report.json"), jsonError(b, err))
		}
		if in := st.report.Incomplete; in != nil {
			st.problem("%s", in.Reason)
		}
	}
	if want := shardPlanned(s); want > 0 && st.records < want {
		st.problem("%s of %s graphs", thousands(st.records), thousands(want))
	}
	return st, nil
}

func (st *shardState) problem(format string, args ...any) {
	st.problems = append(st.problems, st.dir+": "+fmt.Sprintf(format, args...))
}

// shardPlanned is the number of graph indices of a shard's budget, 0
// under a time budget.
func shardPlanned(s Settings) int {
	n := 0
	for i := 0; i < s.Graphs; i++ {
		if s.Shard.has(i) {
			n++
		}
	}
	return n
}

// splitOf is a shard's split: n, 1 for an unsharded campaign.
func splitOf(s Shard) (i, n int) {
	if s.N <= 1 {
		return 0, 1
	}
	return s.I, s.N
}

// shardSetGaps lists the shards missing from the set (as "i/n" of the
// first directory's split), the directories of another split, and, under
// a graph budget, the graph indices without a record.
func shardSetGaps(shards []*shardState, covered *indexSet) (missing, problems []string) {
	_, n := splitOf(shards[0].settings.Shard)
	have := make([]string, n) // the directory holding each shard
	for _, st := range shards {
		i, m := splitOf(st.settings.Shard)
		switch {
		case m != n:
			problems = append(problems, fmt.Sprintf("%s: shard %d/%d of another split than %s's (%d shards)", st.dir, i, m, shards[0].dir, n))
		case have[i] != "" && n == 1:
			problems = append(problems, fmt.Sprintf("%s: the same campaign as %s, given again", st.dir, have[i]))
		case have[i] != "":
			problems = append(problems, fmt.Sprintf("%s: shard %d/%d again, as %s (a copy, or a run of it again)", st.dir, i, n, have[i]))
		default:
			have[i] = st.dir
		}
	}
	for i, dir := range have {
		if dir == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if g := shards[0].settings.Graphs; g > 0 {
		lacking := 0
		for i := range g {
			if !covered.has(i) {
				lacking++
			}
		}
		if lacking > 0 {
			problems = append(problems, fmt.Sprintf("%s of %s graph indices have no record", thousands(lacking), thousands(g)))
		}
	}
	return missing, problems
}

// mergeIncomplete is the Incomplete of a merge, nil for a complete set.
func mergeIncomplete(shards []*shardState, covered *indexSet, done int) *Incomplete {
	missing, problems := shardSetGaps(shards, covered)
	for _, st := range shards {
		problems = append(problems, st.problems...)
	}
	if len(missing) == 0 && len(problems) == 0 {
		return nil
	}
	slices.Sort(missing)
	return &Incomplete{Reason: "partial merge", Done: done, Planned: shards[0].settings.Graphs, MissingShards: missing, Problems: problems}
}

// budgetGapsNote is the note of a merge of time-budget shards whose
// budgets ran out at different graph indices ("" when the n indices
// covered, the highest top, are one prefix): each shard handles every
// n-th index until its own time is up, so a shard that judged more
// graphs reaches further than the others, and the indices past where the
// first one stopped are covered only in part.
func budgetGapsNote(covered *indexSet, n, top int) string {
	whole := 0
	for covered.has(whole) {
		whole++
	}
	if whole > top {
		return ""
	}
	return fmt.Sprintf("the shards' time budgets ran out at different graph indices: every index below %s has its graph, and %s of the %s from %s to %s (the rest are the shards' that stopped first); shards given --graphs cover every index of the budget",
		thousands(whole), thousands(n-whole), thousands(top-whole+1), thousands(whole), thousands(top))
}
