// merge.go defines Merge, which combines the campaign directories of shards
// (or of any runs of one campaign) into one report: the union of their
// records, computed exactly as the whole run's report is, with the
// minimized graphs the shards' own reports hold; and MergeNight, which
// goes on as the end of an unsharded run does: it classes the signatures
// against the state the shards read (their re-runs unioned), minimizes the
// new findings the shards deferred (once each, on the whole night's first
// graph), and computes the night's updated state.
package fuzz

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// MergeOptions is what MergeNight adds to Merge. The zero value merges
// the reports only.
type MergeOptions struct {
	// State is the state directory the shards read (--state); nil merges
	// without one.
	State *State
	// Minimize minimizes the merged report's new findings not minimized
	// yet (a shard defers them: Report.Minimization), as Config.Minimize.
	Minimize func(g *cfg.Graph, sig, strategy string) *cfg.Graph
}

// MergeNight merges the shard directories as Merge does, then classes,
// minimizes and updates the state as opt says. The update is nil without
// a state.
func MergeNight(dirs []string, opt MergeOptions) (*Report, *StateUpdate, error) {
	rep, err := Merge(dirs)
	if err != nil {
		return nil, nil, err
	}
	var seen *Bloom
	if opt.State == nil && rep.Settings.StateDigest != "" {
		return nil, nil, fmt.Errorf("the shards ran with a state directory (night %s): merge with --state DIR, or the night is not recorded", rep.Settings.Night)
	}
	if st := opt.State; st != nil {
		switch s := &rep.Settings; {
		case s.StateDigest == "":
			return nil, nil, fmt.Errorf("%s: the shards ran without --state", dirs[0])
		case s.StateDigest != st.Digest:
			return nil, nil, fmt.Errorf("state %s changed since the shards read it (digest %s, shards read %s)", st.Dir, st.Digest, s.StateDigest)
		}
		reruns, err := ReadReruns(dirs...)
		if err != nil {
			return nil, nil, err
		}
		rep.State = ClassifyState(st, rep, reruns)
		fillStateMinimized(rep, st)
		seen = NewBloom()
		for _, dir := range dirs {
			b, err := ReadStateUpdate(dir)
			if err != nil {
				return nil, nil, err
			}
			seen.Or(b)
		}
	}
	if opt.Minimize != nil {
		MinimizeFindings(rep, opt.Minimize)
	}
	if opt.State == nil {
		return rep, nil, nil
	}
	up := NextState(opt.State, rep, seen)
	return rep, &up, nil
}

// Merge reads the shard directories and returns the combined report. The
// shards must share every setting but the shard; the merged report has none.
func Merge(dirs []string) (*Report, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no directories to merge")
	}
	var base Settings
	seen := map[int]bool{}
	var all []Record
	var tp Throughput
	minimized := map[minKey]string{}
	for k, dir := range dirs {
		s, err := LoadSettings(dir)
		if err != nil {
			return nil, err
		}
		s.Shard = Shard{}
		if k == 0 {
			base = s
		} else if !reflect.DeepEqual(normalizeForMerge(s), normalizeForMerge(base)) {
			return nil, fmt.Errorf("%s: campaign settings differ from %s's", dir, dirs[0])
		}
		recs, _, err := ReadRecords(dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		for _, r := range recs {
			if !seen[r.Index] {
				seen[r.Index] = true
				all = append(all, r)
			}
		}
		shardReport := readShardReport(dir)
		for _, f := range shardReport.Findings {
			if f.Minimized != "" {
				minimized[minKey{f.Signature, f.First.Index}] = f.Minimized
			}
		}
		t := shardReport.Throughput
		tp.Graphs += t.Graphs + t.Resumed
		tp.Seconds = max(tp.Seconds, t.Seconds)
		tp.Workers += t.Workers
	}
	rep := BuildReport(base, all)
	for i := range rep.Findings {
		f := &rep.Findings[i]
		f.Minimized = minimized[minKey{f.Signature, f.First.Index}]
	}
	tp.Shards = len(dirs)
	tp.fill()
	rep.Throughput = tp
	return rep, nil
}

// normalizeForMerge clears what may differ between shards of one campaign.
func normalizeForMerge(s Settings) Settings {
	s.Shard = Shard{}
	return s
}

// minKey finds a shard's minimized graph: the whole run minimizes the
// lowest-index graph of a signature, and so did the shard that holds it.
type minKey struct {
	sig   string
	index int
}

// readShardReport reads a shard's report.json for what the log does not
// hold: its throughput and its minimized graphs. A missing report (a shard
// killed before the end) gives zero values.
func readShardReport(dir string) Report {
	var r Report
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err == nil {
		json.Unmarshal(b, &r)
	}
	return r
}
