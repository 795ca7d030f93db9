// guidereport.go defines a guided campaign's part of the report: the
// number of distinct behaviour features its graphs showed, how many graphs
// were mutants, and the features found over time (the curve report.html
// draws as an inline SVG plot of features against graphs). It is computed
// from the records alone, in index order, like the rest of the report.

package fuzz

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// curvePoints bounds the curve's samples.
const curvePoints = 64

// GuidedSummary is a guided campaign's features and mutants.
type GuidedSummary struct {
	Features int     `json:"features"` // distinct features over all graphs
	Mutants  int     `json:"mutants"`  // distinct graphs that were mutants
	Mutate   float64 `json:"mutate"`   // the share asked for
	// Keep is the corpus's admission, Settings.CorpusKeep: "" novelty,
	// KeepRandom the control.
	Keep string `json:"keep,omitempty"`
	// Curve is the features found over time: [graphs, features] after
	// that many distinct graphs (in index order, repeats skipped), at
	// most 64 points, the last one all of them.
	Curve [][2]int `json:"curve"`
	// Corpus says what the campaign did with its corpus; nil in a report
	// that does not know (merged without its guided settings).
	Corpus *CorpusNote `json:"corpus,omitempty"`
	// Found splits the Features into those new tonight and those the
	// corpus the campaign read already showed; nil in a report that does
	// not know that corpus (a merge without its corpus directory).
	Found *FoundFeatures `json:"found,omitempty"`
}

// FeatureNamesMax bounds the names a FoundFeatures lists of each kind, so
// that a report stays small whatever the features.
const FeatureNamesMax = 64

// FoundFeatures is the features a guided campaign's graphs showed, split
// by whether the corpus it read showed them already.
type FoundFeatures struct {
	New      int      `json:"new"`       // features the corpus read did not show
	NewNames []string `json:"new_names"` // the first FeatureNamesMax of those, sorted
	// Known counts the features the corpus read showed already (its
	// entries' features, whichever structurizer found them), KnownNames
	// the first FeatureNamesMax of those, sorted.
	Known      int      `json:"known"`
	KnownNames []string `json:"known_names"`
}

// splitFeatures fills g.Found: the features recs (every record of the
// campaign) showed, judged against the corpus start (nil: empty) the
// campaign read. recs are the records guidedSummary counted, so the
// lists hold g.Features names in all, in any order of recs.
func (g *GuidedSummary) splitFeatures(start *Corpus, recs []Record) {
	found := map[string]bool{}
	for k := range recs {
		if !recs[k].Seen && !recs[k].Skipped {
			for _, f := range recs[k].Features {
				found[f] = true
			}
		}
	}
	names := slices.Sorted(maps.Keys(found))
	s := &FoundFeatures{NewNames: []string{}, KnownNames: []string{}}
	for _, f := range names {
		if start != nil && start.seen[f] {
			s.Known++
			if len(s.KnownNames) < FeatureNamesMax {
				s.KnownNames = append(s.KnownNames, f)
			}
		} else {
			s.New++
			if len(s.NewNames) < FeatureNamesMax {
				s.NewNames = append(s.NewNames, f)
			}
		}
	}
	g.Found = s
}

// Summary is the split's phrase: "3 new tonight (a, b, c), 20 already in
// the corpus", naming at most the first 8 new ones, their control
// characters escaped (PrintableLine: a pass feature is text the
// structurizer wrote).
func (f *FoundFeatures) Summary() string { return f.summary(PrintableLine) }

// summary is Summary with each feature's name written as name writes it
// (report.md's escapes it as Markdown: mdCell).
func (f *FoundFeatures) summary(name func(string) string) string {
	const named = 8
	s := fmt.Sprintf("%d new tonight", f.New)
	if f.New > 0 {
		list := f.NewNames[:min(len(f.NewNames), named)]
		names := make([]string, len(list))
		for i, n := range list {
			names[i] = name(n)
		}
		s += " (" + strings.Join(names, ", ")
		if f.New > len(list) {
			s += fmt.Sprintf(", +%d more", f.New-len(list))
		}
		s += ")"
	}
	return s + fmt.Sprintf(", %d already in the corpus read", f.Known)
}

// CorpusNote is what a guided campaign, or the merge of its shards, did
// with its corpus.
type CorpusNote struct {
	Read int `json:"read"` // entries of the corpus it started from
	// Added is the entries its graphs added; nil when a merge does not
	// know (no corpus directory, a start corpus not empty).
	Added *int `json:"added,omitempty"`
	// Replaced is how many of those took the place of a redundant entry
	// of a full corpus (of its oldest, Oldest), and NotKept the graphs with
	// a new feature that a full corpus had no redundant entry for
	// (MaxCorpus); absent when 0.
	Replaced int `json:"replaced,omitempty"`
	// Oldest says a full corpus dropped its oldest entries, not redundant
	// ones: it was kept at random (KeepRandom).
	Oldest  bool `json:"oldest,omitempty"`
	NotKept int  `json:"not_kept,omitempty"`
	// Written is the directory the grown corpus is written back to; ""
	// when it is not, NotWritten saying why (one of the Corpus* reasons).
	Written    string `json:"written,omitempty"`
	NotWritten string `json:"not_written,omitempty"`
	// Foreign describes the start corpus's entries that another
	// structurizer found (Corpus.Foreign); absent when none did.
	Foreign []string `json:"foreign,omitempty"`
}

// Why a guided campaign's grown corpus is not written back
// (CorpusNote.NotWritten).
const (
	CorpusNoDir             = "no corpus directory (--corpus DIR, or --state DIR's corpus/)"
	CorpusShard             = "a shard: cfgfuzz merge writes the night's corpus"
	CorpusInterrupted       = "interrupted: its --resume starts from the corpus it read"
	CorpusPartial           = "a partial merge"
	CorpusMixed             = "a merge of shards of several cfgfuzz or structurizer builds"
	CorpusStateNotCommitted = "the night's state update was not committed (another night committed first)"
	CorpusStateNotSaved     = "the night's state update could not be written: the merge run again writes it, with the state"
	CorpusUnminimized       = "the new findings are not minimized: a merge that minimizes them writes it, with the state"
)

// MarkCorpusNotWritten records in rep that its grown corpus, which it
// names as written, could not be written (err: a full disk, a quota), so
// that the reports, written again, do not say it was.
func MarkCorpusNotWritten(rep *Report, err error) {
	if g := rep.Guided; g != nil && g.Corpus != nil && g.Corpus.Written != "" {
		g.Corpus.Written, g.Corpus.NotWritten = "", "the write failed: "+err.Error()
	}
}

// newCorpusNote is the note of a campaign that started from start (nil:
// empty) and ended with end, on the current side current, its corpus
// kept as keep says (Settings.CorpusKeep) and written to dir unless why
// says why not.
func newCorpusNote(start, end *Corpus, current, keep, dir, why string) *CorpusNote {
	if start == nil {
		start = &Corpus{}
	}
	n := &CorpusNote{Read: len(start.Entries), Foreign: start.Foreign(current), NotWritten: why}
	if end != nil {
		added := newEntries(start, end)
		n.Added = &added
		n.Replaced = added - (len(end.Entries) - len(start.Entries))
		n.Oldest = n.Replaced > 0 && keep == KeepRandom
		n.NotKept = end.NotKept
	}
	if why == "" {
		n.Written = dir
	}
	return n
}

// Summary is the note's sentence: "corpus: read 12 entries, added 3;
// written back to DIR" (or "not written: WHY").
func (n *CorpusNote) Summary() string {
	s := "corpus: read " + entries(n.Read)
	if n.Added != nil {
		s += fmt.Sprintf(", added %d", *n.Added)
	}
	if n.Replaced > 0 {
		dropped := "redundant"
		if n.Oldest {
			dropped = "the oldest"
		}
		s += fmt.Sprintf(" (%d in place of %s entries: the corpus is full, %d entries)", n.Replaced, dropped, MaxCorpus)
	}
	if n.NotKept > 0 {
		s += fmt.Sprintf(", %d graphs with a new feature not kept (full, and every entry shows a feature no other does)", n.NotKept)
	}
	s += "; "
	if n.Written != "" {
		s += "written back to " + n.Written
	} else {
		s += "not written: " + n.NotWritten
	}
	if len(n.Foreign) > 0 {
		s += "; of another structurizer: " + strings.Join(n.Foreign, ", ")
	}
	return s
}

// newEntries counts end's entries that start does not hold (by graph,
// index and seed): what a campaign added, some in place of others.
func newEntries(start, end *Corpus) int {
	type key struct {
		graph string
		index int
		seed  uint64
	}
	had := map[key]bool{}
	for _, e := range start.Entries {
		had[key{e.Graph, e.Index, e.Seed}] = true
	}
	n := 0
	for _, e := range end.Entries {
		if !had[key{e.Graph, e.Index, e.Seed}] {
			n++
		}
	}
	return n
}

// entries is "1 entry" or "N entries".
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// guidedSummary computes the summary over recs sorted by index. Graphs
// skipped as repeats of an earlier index's graph (Record.Skipped) or as
// checked on an earlier night (Record.Seen) were not judged and showed
// nothing: the curve counts the distinct graphs run, as the report's
// graphs count does.
func guidedSummary(s Settings, recs []Record) *GuidedSummary {
	g := &GuidedSummary{Mutate: s.Mutate, Keep: s.CorpusKeep, Curve: [][2]int{}}
	judged := make([]*Record, 0, len(recs))
	for k := range recs {
		if !recs[k].Seen && !recs[k].Skipped {
			judged = append(judged, &recs[k])
		}
	}
	seen := map[string]bool{}
	step := max(1, (len(judged)+curvePoints-1)/curvePoints)
	for k, r := range judged {
		if r.Mutant != "" {
			g.Mutants++
		}
		for _, f := range r.Features {
			seen[f] = true
		}
		if (k+1)%step == 0 || k == len(judged)-1 {
			g.Curve = append(g.Curve, [2]int{k + 1, len(seen)})
		}
	}
	g.Features = len(seen)
	return g
}

// featureSVG plots the curve: features (y) against graphs (x).
func featureSVG(g *GuidedSummary) string {
	const w, h, pad = 480.0, 200.0, 36.0
	if len(g.Curve) == 0 {
		return ""
	}
	last := g.Curve[len(g.Curve)-1]
	xmax, ymax := float64(max(last[0], 1)), float64(max(g.Features, 1))
	var pts []string
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", pad, h-pad))
	for _, p := range g.Curve {
		x := pad + float64(p[0])/xmax*(w-2*pad)
		y := h - pad - float64(p[1])/ymax*(h-2*pad)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" class="curve">`, w, h)
	fmt.Fprintf(&b, `<line class="e" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/><line class="e" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/>`,
		pad, h-pad, w-pad, h-pad, pad, h-pad, pad, pad)
	fmt.Fprintf(&b, `<polyline class="e" points="%s"/>`, strings.Join(pts, " "))
	fmt.Fprintf(&b, `<text class="l" x="%.0f" y="%.0f">%d graphs</text><text class="l" x="2" y="%.0f">%d</text><text class="l" x="2" y="%.0f">features</text>`,
		w-pad-40, h-pad+14, last[0], pad+3, g.Features, pad-12)
	b.WriteString("</svg>")
	return b.String()
}

// guidedProse is the summary's sentences for report.md and report.html,
// the features' names written as name writes them (mdCell for report.md,
// whose prose is not escaped as a whole; report.html escapes it whole).
func guidedProse(g *GuidedSummary, name func(string) string) string {
	s := fmt.Sprintf("Guided generation: %s found over %s (%d mutants at a share of %g: none until the corpus holds a graph, from an empty corpus the first batch of --corpus-batch indices, and a large fresh graph of 10 blocks or more is kept alone).",
		Plural(g.Features, "distinct behaviour feature"), Plural(lastGraphs(g), "distinct graph"), g.Mutants, g.Mutate)
	if g.Found != nil {
		s += " Of those features, " + g.Found.summary(name) + "."
	}
	if g.Corpus != nil {
		s += " " + strings.ToUpper(g.Corpus.Summary()[:1]) + g.Corpus.Summary()[1:] + "."
	}
	if g.Keep == KeepRandom {
		s += " " + keptAtRandom + "."
	}
	return s
}

// keptAtRandom is what the reports say of a corpus kept at random.
const keptAtRandom = "The corpus admitted graphs at random (--corpus-keep random, a control for measurements): in each batch as many as novelty would have, whatever their features"

// KeepNote is the summary line's note on the corpus's admission: "" for
// novelty.
func (g *GuidedSummary) KeepNote() string {
	if g.Keep != KeepRandom {
		return ""
	}
	return "corpus kept at random (--corpus-keep random: a control)"
}

func lastGraphs(g *GuidedSummary) int {
	if len(g.Curve) == 0 {
		return 0
	}
	return g.Curve[len(g.Curve)-1][0]
}
