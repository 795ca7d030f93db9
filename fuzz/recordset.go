// recordset.go: a campaign's records as its report reads them. A report
// draws examples only from records that fail, break the harness, diverge
// from the baseline or feed the guided corpus; every other record (a
// graph that passed, a skipped or already-seen graph) adds only to counts,
// which do not depend on the order records come in. A recordSet keeps the
// first kind in full and the second as counts, and of the first kind only
// the few a report shows of each finding, harness errors and divergence
// class (compact), so a campaign's memory grows with the kinds of
// findings, not with its graphs: the results log on disk
// keeps every record, and a night of tens of millions of graphs holds a
// few counts per stream in memory. A resume reads the killed run's log
// into a recordSet record by record (EachRecord), and so does a merge
// each shard's.
//
// The report built from a recordSet is the one every record gives, each
// through Report.add in index order (report.go counts both through one
// function, count), which TestRecordSetReportsAsAllRecords checks on
// random records of every outcome, class and stream.

package fuzz

import (
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/gen"
)

// splitNonEmpty is strings.Split of a comma list, nil for "".
func splitNonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// countKey is what a count-only record adds to a report: the fields of
// Report.count.
type countKey struct {
	stream        int
	skipped, seen bool
	outcome       string
	fallback, gpu bool
	baseFallback  bool
	strategy      string
	base          bool // a baseline side ran
	baseOutcome   string
	class         string
	identical     bool // both sides structured to the same module
	// unchecked and baseUnchecked are the sides' SideResult.Unchecked,
	// joined by commas.
	unchecked, baseUnchecked string
	// leaked and baseLeaked: the sides' answers left processes running.
	leaked, baseLeaked bool
}

// keyOf is record r's countKey.
func keyOf(r *Record) countKey {
	k := countKey{stream: r.Stream, skipped: r.Skipped, seen: r.Seen, outcome: r.Current.Outcome,
		fallback: r.Current.Fallbacks > 0, gpu: r.Current.GPU, strategy: r.Strategy, unchecked: strings.Join(r.Current.Unchecked, ","),
		leaked: r.Current.Signature == LeakSignature}
	if b := r.Baseline; b != nil {
		k.base, k.baseOutcome, k.class = true, b.Outcome, r.Class
		k.baseFallback = b.Fallbacks > 0
		k.baseLeaked = b.Signature == LeakSignature
		k.baseUnchecked = strings.Join(b.Unchecked, ",")
		k.identical = r.Current.Outcome == OutOK && r.Current.Hash == b.Hash
	}
	return k
}

// countOnly reports whether record r adds only counts to a report: it
// passed (or was skipped or seen), on both sides alike, and its campaign
// keeps no corpus.
func countOnly(s *Settings, r *Record) bool {
	switch {
	case s.Guided:
		return false // guided summaries and the corpus read every record
	case r.Seen || r.Skipped:
		return true
	case isFailure(r.Current.Outcome) || r.Current.Outcome == OutError:
		return false
	case len(r.Current.Unchecked) > 0 || r.Baseline != nil && len(r.Baseline.Unchecked) > 0:
		return false // the report shows the first such graph
	case r.Baseline != nil:
		return r.Class == ClassSame && r.Baseline.Outcome != OutError
	}
	return true
}

// recordSet holds a campaign's records: those a report shows in full, the
// others as counts. The zero value is not ready: use newRecordSet.
type recordSet struct {
	s      *Settings
	kept   []Record
	counts map[countKey]int
	// folded are the failures compact took out of kept: their findings'
	// counts (their other counts are in counts).
	folded map[findingKey]foldedFinding
	// compactAt is the length of kept that sets off the next compact.
	compactAt int
	total     int
	// exhaustive is one past the furthest step of the exhaustive
	// generator's walk among the records (exhaustiveStep): the walk's
	// start plus it is the report's ExhaustiveNext; 0 with none.
	exhaustive uint64
	// seen, when not nil, gathers the filter keys of every record
	// (recordSeenKey): what a night adds to the state's filter.
	seen *Bloom
	// sizes compares the sides' module sizes over every record (with a
	// baseline; nil without).
	sizes *SizeDiff
	// declined tallies the current side's declined graphs by reason.
	declined declinedTally
}

// foldedFinding is what failures folded out of a recordSet add to their
// finding: graphs, and of them new ones.
type foldedFinding struct{ graphs, fresh int }

// compactFirst is the length of kept that sets off the first compact; each
// compact sets the next at twice what it keeps, or this, so that compacts
// cost O(1) a record.
const compactFirst = 1 << 12

// newRecordSet makes an empty set for campaign settings s; withSeen
// gathers the records' filter keys too.
func newRecordSet(s *Settings, withSeen bool) *recordSet {
	rs := &recordSet{s: s, counts: map[countKey]int{}, folded: map[findingKey]foldedFinding{}, compactAt: compactFirst}
	if withSeen {
		rs.seen = NewBloom()
	}
	if s.Baseline != "" {
		rs.sizes = newSizeDiff(s)
	}
	return rs
}

// add takes record r (each index once).
func (rs *recordSet) add(r Record) {
	rs.total++
	if k, ok := exhaustiveStep(rs.s, &r); ok && k+1 > rs.exhaustive {
		rs.exhaustive = k + 1
	}
	if rs.seen != nil {
		if k, ok := recordSeenKey(rs.s, &r); ok {
			rs.seen.Add(k)
		}
	}
	if rs.sizes != nil {
		rs.sizes.add(rs.s, &r)
	}
	rs.declined.add(rs.s, &r)
	if countOnly(rs.s, &r) {
		rs.counts[keyOf(&r)]++
		return
	}
	rs.kept = append(rs.kept, r)
	if len(rs.kept) >= rs.compactAt && !rs.s.Guided {
		rs.compact()
	}
}

// compact keeps of kept only the records a report of them shows (the
// lowest indices of each finding, harness errors and divergence class,
// and each finding's lowest-index new graph: Report.add) and folds the others into counts. A record the report does
// not show now it never shows: records taken later can only come before
// it. So a campaign that fails or diverges on most graphs keeps a few of
// each kind, not all of them.
func (rs *recordSet) compact() {
	slices.SortFunc(rs.kept, func(a, b Record) int { return a.Index - b.Index })
	rep := newReport(*rs.s)
	bySig := map[findingKey]int{}
	keep := rs.kept[:0]
	for i := range rs.kept {
		r := rs.kept[i]
		if rep.add(&r, bySig) {
			keep = append(keep, r)
			continue
		}
		rs.counts[keyOf(&r)]++
		if isFailure(r.Current.Outcome) {
			k := findingKey{r.Current.Signature, r.Strategy}
			f := rs.folded[k]
			f.graphs++
			f.fresh += btoi(r.isNew())
			rs.folded[k] = f
		}
	}
	clear(rs.kept[len(keep):]) // let the folded records go
	rs.kept = keep
	rs.compactAt = max(compactFirst, 2*len(keep))
}

// each hands fn every record taken: a kept one with n 1 (whole: true),
// and for each count a record standing for n of them (the fields countKey
// has; whole: false); then hands sig the graphs and new ones of each
// finding its folded failures add to.
func (rs *recordSet) each(fn func(r *Record, n int, whole bool), sig func(k findingKey, graphs, fresh int)) {
	for i := range rs.kept {
		fn(&rs.kept[i], 1, true)
	}
	for k, f := range rs.folded {
		sig(k, f.graphs, f.fresh)
	}
	for k, n := range rs.counts {
		r := Record{Stream: k.stream, Skipped: k.skipped, Seen: k.seen, Strategy: k.strategy, Class: k.class,
			Current: SideResult{Outcome: k.outcome, GPU: k.gpu, Unchecked: splitNonEmpty(k.unchecked)}}
		if k.base {
			r.Baseline = &SideResult{Outcome: k.baseOutcome, Unchecked: splitNonEmpty(k.baseUnchecked)}
		}
		if k.fallback {
			r.Current.Fallbacks = 1
		}
		fn(&r, n, false)
	}
}

// exhaustiveNext is the position a night records for the next night's
// walk, p one past its last (modulo 2^64, as the walk counts): p, or, past
// MaxExhaustiveNext (which a state does not hold), p modulo the growing
// order's length (gen.GrowingCount), the position of the same graph, where
// the walk goes on alike.
func exhaustiveNext(p uint64) uint64 {
	if p > MaxExhaustiveNext {
		return p % gen.GrowingCount()
	}
	return p
}

// report builds the report of the records taken, under settings s (the
// set's, or a merge's, which differ only in the shard).
func (rs *recordSet) report(s Settings) *Report {
	slices.SortFunc(rs.kept, func(a, b Record) int { return a.Index - b.Index })
	rep := newReport(s)
	if s.Night != "" && rs.exhaustive > 0 {
		next := exhaustiveNext(s.exhaustiveStart() + rs.exhaustive)
		rep.ExhaustiveNext = &next
	}
	keys := make([]countKey, 0, len(rs.counts))
	for k := range rs.counts {
		keys = append(keys, k)
	}
	for _, k := range keys { // counts add up in any order
		rep.count(k, rs.counts[k])
	}
	bySig := map[findingKey]int{}
	for i := range rs.kept {
		rep.add(&rs.kept[i], bySig)
	}
	for k, f := range rs.folded { // a folded failure's finding has kept graphs
		rep.countFinding(&rep.Findings[bySig[k]], f.graphs, f.fresh)
	}
	rep.sortFindings()
	rep.Declined = rs.declined.report()
	if s.Guided {
		rep.Guided = guidedSummary(s, rs.kept)
	}
	if rep.Divergences != nil && rs.sizes != nil {
		rep.Divergences.Size = rs.sizes.clone()
		rep.Divergences.Size.judge(s.MaxGrowth)
	}
	return rep
}

// indexSet is a set of graph indices, a bit each: a campaign's indices
// that have a record (a resume's done ones, a merge's covered ones). The
// zero value is empty; a nil set has nothing. Indices from denseIndices
// up (past any campaign's count, but a log's record can claim one: a
// time-budget campaign's indices have no bound) are kept in a map, so
// one such record costs an entry, not a bitset as long as its index.
type indexSet struct {
	bits   []uint64
	sparse map[int]bool
}

// denseIndices is where indexSet stops keeping a bit per index: 2^27
// indices, a 16 MiB bitset.
const denseIndices = 1 << 27

// has reports whether i is in the set.
func (x *indexSet) has(i int) bool {
	if x == nil || i < 0 {
		return false
	}
	if i >= denseIndices {
		return x.sparse[i]
	}
	return i/64 < len(x.bits) && x.bits[i/64]&(1<<(i%64)) != 0
}

// add puts i in the set and reports whether it was new; a negative i is
// never in it.
func (x *indexSet) add(i int) bool {
	if i < 0 || x.has(i) {
		return false
	}
	if i >= denseIndices {
		if x.sparse == nil {
			x.sparse = map[int]bool{}
		}
		x.sparse[i] = true
		return true
	}
	for i/64 >= len(x.bits) {
		x.bits = append(x.bits, 0)
	}
	x.bits[i/64] |= 1 << (i % 64)
	return true
}
