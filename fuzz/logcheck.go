// logcheck.go: a resume takes a logged record's verdict only for the graph
// its index has. A record names its graph (its seed, its compact notation
// and weights, a guided campaign's mutant, the strategy it ran, a failing
// program's text), and the checksums say only that a line was sealed for
// these settings, not that the campaign wrote it: anyone can seal one
// (checksum.go). So the resume generates each logged index's graph again,
// as the coordinator generates it, and refuses, naming the file, the line
// and what differs, a record whose graph is not its index's: its verdict
// would be another graph's, and a verdict is never copied from one graph
// to another, nor guessed. A skipped record's graph must repeat its
// same_as index's (the same canonical hash on the same strategy), and an
// index whose generation failed must be logged as that failure. The
// index's range, its shard and its stream are checkRecord's
// (checksum.go), an index logged twice checkAgain's (journal.go).
//
// A guided campaign's mutant depends on the corpus its batch started from
// (guide.go): its records, and its skipped records (whose same_as may be a
// mutant), are checked once the log is read, in index order, growing the
// corpus from the logged records batch by batch as the campaign grew it.
// A log a campaign writes holds every index of a batch before any of the
// next batch's (the coordinator hands out the next batch once the last
// one's records are in the log), so a record of a batch whose earlier
// batches the log lacks an index of is refused too: its mutant cannot be
// known.

package fuzz

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// logCheck holds a resumed campaign's logged records against the graphs
// its settings give their indices.
type logCheck struct {
	set   *Settings
	src   Source
	start *Corpus // a guided campaign's corpus at its start
	// later is the lines of the records of a guided campaign whose
	// graph depends on the corpus, by index: finish checks them.
	later map[int]int
}

func newLogCheck(c *Config) *logCheck {
	return &logCheck{set: &c.Settings, src: c.Source, start: c.Corpus, later: map[int]int{}}
}

// check holds record r, at line of the log, against its index's graph,
// or leaves it to finish (a guided campaign's record whose graph depends
// on the corpus).
func (v *logCheck) check(r *Record, line int) error {
	if v.set.Guided && (r.Skipped || v.mayMutate(r.Index)) {
		v.later[r.Index] = line
		return nil
	}
	j := makeJob(v.src, v.set, nil, r.Index)
	return v.holds(r, &j, func(k int) job { return makeJob(v.src, v.set, nil, k) }, nil)
}

// mayMutate says whether a guided campaign's guide may trade index i's
// fresh graph for a mutant (guide.mutant's draw).
func (v *logCheck) mayMutate(i int) bool {
	return v.set.Mutate > 0 && unit(shareHash(v.set.Seed^saltMutant, i)) < v.set.Mutate
}

// finish checks the records check left for later, given every record of
// the log (a guided campaign's record set keeps them all), which it sorts
// by index; path names the log in the errors.
func (v *logCheck) finish(path string, recs []Record) error {
	if len(v.later) == 0 {
		return nil
	}
	slices.SortFunc(recs, func(a, b Record) int { return cmp.Compare(a.Index, b.Index) })
	g := newGuide(v.set, v.start)
	logged := func(i int) *Record {
		if at, ok := indexAt(recs, i); ok {
			return &recs[at]
		}
		return nil
	}
	for k := range recs {
		r := &recs[k]
		line, ok := v.later[r.Index]
		if !ok {
			continue
		}
		if err := v.growTo(g, recs, r.Index); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		j := makeJob(v.src, v.set, g, r.Index)
		if err := v.holds(r, &j, func(i int) job { return makeJob(v.src, v.set, g, i) }, logged); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
	}
	return nil
}

// growTo grows g's corpus, as the campaign grew it, from the records of
// recs (sorted by index) of the batches below graph index i's, which the
// log must hold whole.
func (v *logCheck) growTo(g *guide, recs []Record, i int) error {
	b := v.set.CorpusBatch
	if b <= 0 || g.merged >= i/b*b {
		return nil
	}
	end := i / b * b
	from, _ := indexAt(recs, g.merged)
	hi, _ := indexAt(recs, end)
	if hi != end {
		lacks := hi // the first index below end the log lacks
		for k := range hi {
			if recs[k].Index != k {
				lacks = k
				break
			}
		}
		from := lacks / b * b
		return fmt.Errorf("graph index %d is of the batch from %d, but the log lacks an index below %d (it holds %d of them, index %d the first it lacks): a campaign logs a batch only once every earlier one is logged, and the corpus its mutants drew on is not known; delete the lines of every index from %d on (the batch of index %d) and --resume judges them again", i, end, end, hi, lacks, from, lacks)
	}
	g.mergeBelow(end, recs[from:hi])
	return nil
}

// indexAt is the position in recs, sorted by index, of graph index i, or
// of the first index above it, and whether recs holds i.
func indexAt(recs []Record, i int) (int, bool) {
	return slices.BinarySearchFunc(recs, i, func(x Record, i int) int { return cmp.Compare(x.Index, i) })
}

// holds says how record r is not the record of job j, its index's graph
// as the campaign generates it (nil when it is). regen generates another
// index's graph, for a skipped record's same_as; logged, when not nil, is
// that index's logged record, whose graph stands for it (checked itself).
func (v *logCheck) holds(r *Record, j *job, regen func(int) job, logged func(int) *Record) error {
	s := v.set
	want := Record{Seed: j.it.Seed, Mutant: j.mutant}
	switch {
	case j.err != nil:
		if fail := generateFailure(j.err); r.Skipped || r.Seen || r.Current.Outcome != fail.Outcome || r.Current.Signature != fail.Signature {
			return fmt.Errorf("graph index %d is not the graph the campaign's settings give it: the index's graph cannot be generated (%s), and the record is not that failure: the record is another graph's (an edited log); delete the line and --resume judges the index again", r.Index, firstLine(j.err.Error()))
		}
	case r.Skipped:
		if err := v.repeats(r, j, regen, logged); err != nil {
			return err
		}
	default:
		want.Graph, want.Weights = cfg.FormatCompact(j.it.Graph), j.it.Graph.WeightList()
		if !r.Seen {
			if st := s.GraphStrategy(r.Index); st != s.Strategy {
				want.Strategy = st
			}
			if isFailure(r.Current.Outcome) {
				want.Program = j.it.Program
			}
		}
	}
	if what := recordDiff(r, &want); what != "" {
		return fmt.Errorf("graph index %d is not the graph the campaign's settings give it: %s: the record is another graph's (an edited log, or lines of another campaign sealed for this one); delete the line and --resume judges the index again", r.Index, what)
	}
	return nil
}

// repeats says how skipped record r does not repeat its same_as index's
// graph (the same canonical hash on the same strategy), nil when it does.
func (v *logCheck) repeats(r *Record, j *job, regen func(int) job, logged func(int) *Record) error {
	s := v.set
	if s.gpuSampled(r.Index) {
		return fmt.Errorf("graph index %d is skipped, but the gpu check samples it, and a sampled index is never skipped", r.Index)
	}
	var same *cfg.Graph
	if logged != nil {
		if l := logged(r.SameAs); l != nil && !l.Skipped && l.Graph != "" {
			same, _ = recordGraph(l)
		}
	}
	if same == nil {
		if sj := regen(r.SameAs); sj.err == nil {
			same = sj.it.Graph
		}
	}
	if same == nil || GraphHash(same, s.GraphStrategy(r.SameAs)) != GraphHash(j.it.Graph, s.GraphStrategy(r.Index)) {
		return fmt.Errorf("graph index %d is skipped as a repeat of graph index %d, but its graph does not repeat that one's: the record is another graph's (an edited log); delete the line and --resume judges the index again", r.Index, r.SameAs)
	}
	return nil
}

// recordDiff names the first field of the graph that logged record r has
// other than want's, "" when none does.
func recordDiff(r, want *Record) string {
	field := func(name string, got, wanted any) string {
		return fmt.Sprintf("its %s is %s, the index's is %s", name, clipSetting(fmt.Sprint(got)), clipSetting(fmt.Sprint(wanted)))
	}
	switch {
	case r.Seed != want.Seed:
		return field("seed", r.Seed, want.Seed)
	case r.Mutant != want.Mutant:
		return field("mutant", quoted(r.Mutant), quoted(want.Mutant))
	case r.Graph != want.Graph:
		return field("graph", quoted(r.Graph), quoted(want.Graph))
	case !slices.Equal(r.Weights, want.Weights):
		return field("weights", r.Weights, want.Weights)
	case r.Strategy != want.Strategy:
		return field("strategy", quoted(r.Strategy), quoted(want.Strategy))
	case r.Program != want.Program:
		return field("program", quoted(r.Program), quoted(want.Program))
	}
	return ""
}

// quoted is s in Go's quotes, "none" for "".
func quoted(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}
