// sizes.go: what a comparison of two structurizers says of their output's
// size, beside the divergence classes: on the graphs both sides
// structured validly, the blocks and words of each side's modules, as the
// modules say them (SideResult.ModuleBlocks and ModuleWords: the growth
// check's measure), so a revision that makes its output larger shows in
// the report whatever either side declares in its stats. The totals and
// counts add up in any order, and the examples are the graphs that gained
// or lost the most blocks under a total order, so shards merge and
// workers finish in any order to the same report.

package fuzz

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// SizeDiff compares the sides' module sizes on the graphs both structured
// validly (outcome ok on both sides, both sizes measured).
type SizeDiff struct {
	Graphs int `json:"graphs"`
	// Unmeasured counts the graphs both sides structured validly that
	// Graphs leaves out because a side's record has no size: a record
	// written by a cfgfuzz that did not measure modules (shards of
	// several builds merged with MergeOptions.Mixed), or a module the
	// measure could not read. The totals and the limit's verdict are on
	// the others only.
	Unmeasured int `json:"unmeasured,omitempty"`
	// Larger and Smaller count the graphs whose current module has more
	// (fewer) blocks than the baseline's, or as many blocks and more
	// (fewer) words; the others are the same size.
	Larger  int `json:"larger"`
	Smaller int `json:"smaller"`
	// The totals over those graphs.
	BaselineBlocks int64 `json:"baseline_blocks"`
	CurrentBlocks  int64 `json:"current_blocks"`
	BaselineWords  int64 `json:"baseline_words"`
	CurrentWords   int64 `json:"current_words"`
	// Grew and Shrank are the graphs that gained (lost) the most blocks,
	// then words, lowest index first among equals: sizeExamples of each.
	Grew   []SizeExample `json:"grew"`
	Shrank []SizeExample `json:"shrank"`
	// Limit is the campaign's Settings.MaxGrowth, and OverLimit says the
	// current side's blocks exceed the baseline's by more than it (a
	// failure of the campaign); absent without a limit.
	Limit     *float64 `json:"limit,omitempty"`
	OverLimit bool     `json:"over_limit,omitempty"`
	// Share is the dispatch share's graphs (Settings.DispatchEvery: both
	// sides ran the dispatch strategy on them), counted apart so that the
	// totals above, and the limit, are the campaign's strategy's alone;
	// nil in a campaign without a share.
	Share *ShareSizes `json:"dispatch_share,omitempty"`
}

// ShareSizes are the sides' module sizes on the dispatch share's graphs
// both structured validly with both sizes measured.
type ShareSizes struct {
	Graphs         int   `json:"graphs"`
	BaselineBlocks int64 `json:"baseline_blocks"`
	CurrentBlocks  int64 `json:"current_blocks"`
	BaselineWords  int64 `json:"baseline_words"`
	CurrentWords   int64 `json:"current_words"`
}

// shareNote is what the line and the prose say of the share's graphs: ""
// without a share or with none of its graphs measured.
func (d *SizeDiff) shareNote() string {
	sh := d.Share
	if sh == nil || sh.Graphs == 0 {
		return ""
	}
	return fmt.Sprintf("the dispatch share's %s apart: blocks %s against %s (%s), words %s against %s (%s)",
		Plural(sh.Graphs, "graph"), thousands64(sh.CurrentBlocks), thousands64(sh.BaselineBlocks), change(sh.CurrentBlocks, sh.BaselineBlocks),
		thousands64(sh.CurrentWords), thousands64(sh.BaselineWords), change(sh.CurrentWords, sh.BaselineWords))
}

// judge holds the totals against limit (a percent of the baseline's
// blocks; nil none). With no graph compared nothing is over it; growth of
// exactly limit percent is within it.
func (d *SizeDiff) judge(limit *float64) {
	d.Limit, d.OverLimit = nil, false
	if limit == nil {
		return
	}
	l := *limit
	d.Limit = &l
	d.OverLimit = d.Graphs > 0 && overLimit(d.CurrentBlocks-d.BaselineBlocks, d.BaselineBlocks, l)
}

// overLimit reports whether growth blocks over base blocks are more than
// pct percent of base. The growth's side is exact (a count of blocks
// times 100); the limit's is one rounded product, and a relative margin
// far below one block keeps a limit float64 cannot hold exactly from
// failing a growth of exactly pct percent (in float64, 100*(1+15/100) is
// 114.99999999999999, below 115 blocks).
func overLimit(growth, base int64, pct float64) bool {
	allowed := pct * float64(base)
	return float64(growth)*100 > allowed+allowed*1e-12
}

// limitSentence is limitNote as a sentence of prose.
func (d *SizeDiff) limitSentence() string {
	n := d.limitNote()
	return strings.ToUpper(n[:1]) + n[1:] + "."
}

// SizeOverLimit reports whether the report's current side grew past the
// campaign's --max-growth.
func (rep *Report) SizeOverLimit() bool {
	return rep.Divergences != nil && rep.Divergences.Size != nil && rep.Divergences.Size.OverLimit
}

// limitNote is what the size prose and line say of the limit: "" without
// one.
func (d *SizeDiff) limitNote() string {
	switch {
	case d.Limit == nil:
		return ""
	case d.OverLimit:
		return fmt.Sprintf("blocks over the limit of %s (--max-growth): the campaign fails", limitText(*d.Limit))
	case d.Graphs == 0:
		return fmt.Sprintf("no sizes for the limit of %s (--max-growth) to judge", limitText(*d.Limit))
	}
	return fmt.Sprintf("blocks within the limit of %s (--max-growth)", limitText(*d.Limit))
}

// limitText is a limit as the reports say it: "+5.0%", or with every
// digit given when one decimal would round it ("+0.04%", not "+0.0%").
func limitText(l float64) string {
	l += 0 // -0 reads as 0
	text := fmt.Sprintf("%+.1f", l)
	if v, err := strconv.ParseFloat(text, 64); err != nil || v != l {
		text = "+" + strconv.FormatFloat(l, 'f', -1, 64)
	}
	return text + "%"
}

// SizeExample is one graph of SizeDiff's examples with both sides' sizes
// and, in a written report, the commands that measure it on each side.
type SizeExample struct {
	Example
	BaselineBlocks int `json:"baseline_blocks"`
	CurrentBlocks  int `json:"current_blocks"`
	BaselineWords  int `json:"baseline_words"`
	CurrentWords   int `json:"current_words"`
	// Replay and BaselineReplay print the graph and judge it with `check
	// --json` on the current side and on the baseline (module_blocks,
	// module_words); "" before the report is written.
	Replay         string `json:"replay,omitempty"`
	BaselineReplay string `json:"baseline_replay,omitempty"`
}

// fillReplays sets the examples' commands for a campaign under settings s
// whose graphs come from src: the current side's as a finding's replay,
// the baseline's with the baseline as the structurizer and no fault
// planted (faults go to the current side only).
func (d *SizeDiff) fillReplays(src Source, s *Settings) {
	base := *s
	base.Current, base.Inject, base.Strategy = s.Baseline, nil, cmp.Or(s.BaselineStrategy, s.Strategy)
	for _, list := range [][]SizeExample{d.Grew, d.Shrank} {
		for i := range list {
			e := &list[i]
			e.Replay = replayCommand(src, s, &e.Example, "") + " --json"
			e.BaselineReplay = replayCommand(src, &base, &e.Example, "") + " --json"
		}
	}
}

// sizeExamples is how many graphs SizeDiff keeps of each direction.
const sizeExamples = 5

// newSizeDiff is the empty comparison of a campaign under settings s, its
// example lists empty (not null) in report.json, with the share's sizes
// apart when s has a dispatch share.
func newSizeDiff(s *Settings) *SizeDiff {
	d := &SizeDiff{Grew: []SizeExample{}, Shrank: []SizeExample{}}
	if s.DispatchEvery > 0 {
		d.Share = &ShareSizes{}
	}
	return d
}

// add takes record r of a campaign under settings s: a graph both sides
// structured validly, with both sizes measured, counts; one without a
// size counts as unmeasured; any other record does not.
func (d *SizeDiff) add(s *Settings, r *Record) {
	b := r.Baseline
	if r.Skipped || r.Seen || b == nil || r.Current.Outcome != OutOK || b.Outcome != OutOK {
		return
	}
	if r.Current.ModuleBlocks == 0 || b.ModuleBlocks == 0 {
		d.Unmeasured++
		return
	}
	c := &r.Current
	if r.Strategy != "" && d.Share != nil { // a dispatch share's graph
		sh := d.Share
		sh.Graphs++
		sh.BaselineBlocks += int64(b.ModuleBlocks)
		sh.CurrentBlocks += int64(c.ModuleBlocks)
		sh.BaselineWords += int64(b.ModuleWords)
		sh.CurrentWords += int64(c.ModuleWords)
		return
	}
	d.Graphs++
	d.BaselineBlocks += int64(b.ModuleBlocks)
	d.CurrentBlocks += int64(c.ModuleBlocks)
	d.BaselineWords += int64(b.ModuleWords)
	d.CurrentWords += int64(c.ModuleWords)
	dir := cmp.Or(cmp.Compare(c.ModuleBlocks, b.ModuleBlocks), cmp.Compare(c.ModuleWords, b.ModuleWords))
	if dir == 0 {
		return
	}
	e := SizeExample{Example: exampleOf(s, r, ""), BaselineBlocks: b.ModuleBlocks, CurrentBlocks: c.ModuleBlocks, BaselineWords: b.ModuleWords, CurrentWords: c.ModuleWords}
	if dir > 0 {
		d.Larger++
		d.Grew = keepFirst(d.Grew, e, func(x, y *SizeExample) int { return x.before(y, 1) })
	} else {
		d.Smaller++
		d.Shrank = keepFirst(d.Shrank, e, func(x, y *SizeExample) int { return x.before(y, -1) })
	}
}

// before orders examples for a direction (1 grew, -1 shrank): the larger
// change in blocks first, then in words, then the lower index.
func (e *SizeExample) before(o *SizeExample, dir int) int {
	return cmp.Or(
		cmp.Compare(dir*(o.CurrentBlocks-o.BaselineBlocks), dir*(e.CurrentBlocks-e.BaselineBlocks)),
		cmp.Compare(dir*(o.CurrentWords-o.BaselineWords), dir*(e.CurrentWords-e.BaselineWords)),
		cmp.Compare(e.Index, o.Index))
}

// keepFirst inserts e into list, sorted by order, and keeps the first
// sizeExamples.
func keepFirst(list []SizeExample, e SizeExample, order func(x, y *SizeExample) int) []SizeExample {
	at := len(list)
	for at > 0 && order(&e, &list[at-1]) < 0 {
		at--
	}
	if at >= sizeExamples {
		return list
	}
	list = append(list, SizeExample{})
	copy(list[at+1:], list[at:])
	list[at] = e
	if len(list) > sizeExamples {
		list = list[:sizeExamples]
	}
	return list
}

// clone is a copy of d that shares nothing with it.
func (d *SizeDiff) clone() *SizeDiff {
	c := *d
	c.Grew = append([]SizeExample{}, d.Grew...)
	c.Shrank = append([]SizeExample{}, d.Shrank...)
	if d.Share != nil {
		sh := *d.Share
		c.Share = &sh
	}
	return &c
}

// sizeProse is report.md's paragraph on the sizes.
func sizeProse(d *SizeDiff) string {
	text := sizeFacts(d)
	if d.Limit != nil {
		text += d.limitSentence() + "\n"
	}
	return text
}

func sizeFacts(d *SizeDiff) string {
	text := sizeTotals(d) + unmeasuredSentence(d)
	if n := d.shareNote(); n != "" {
		text += "These totals are the campaign's strategy's; " + n + ".\n"
	}
	return text
}

// unmeasuredSentence says how many graphs the sizes leave out for want
// of a measure: "" none.
func unmeasuredSentence(d *SizeDiff) string {
	if d.Unmeasured == 0 {
		return ""
	}
	return fmt.Sprintf("%s both sides structured validly %s no measured size and %s left out of the sizes (records written by a cfgfuzz that did not measure modules, as shards of several builds merged with merge --mixed give, or a module the measure could not read).\n",
		Plural(d.Unmeasured, "graph"), isAre(d.Unmeasured, "has", "have"), isAre(d.Unmeasured, "is", "are"))
}

// isAre is one when n is 1, else many.
func isAre(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func sizeTotals(d *SizeDiff) string {
	if d.Graphs == 0 {
		return "No graph was structured validly by both sides with both sizes measured: no sizes to compare.\n"
	}
	same := d.Graphs - d.Larger - d.Smaller
	return fmt.Sprintf("On the %s graphs both sides structured validly, the current side's modules have %s blocks against the baseline's %s (%s) and %s words against %s (%s): larger on %s graphs, smaller on %s, the same size on %s. "+
		"Sizes as the modules say them, whatever the structurizers declare: the entry point's blocks, the words less debug information.\n",
		thousands(d.Graphs), thousands64(d.CurrentBlocks), thousands64(d.BaselineBlocks), change(d.CurrentBlocks, d.BaselineBlocks),
		thousands64(d.CurrentWords), thousands64(d.BaselineWords), change(d.CurrentWords, d.BaselineWords),
		thousands(d.Larger), thousands(d.Smaller), thousands(same))
}

// Summary is the console's line on the sizes: "sizes on N graphs: blocks
// C against B (+x%), words ...; larger on L, smaller on S".
func (d *SizeDiff) Summary() string {
	line := d.summary()
	if d.Unmeasured > 0 {
		line += fmt.Sprintf("; %s without a measured size left out", Plural(d.Unmeasured, "graph"))
	}
	if n := d.shareNote(); n != "" {
		line += "; " + n
	}
	if n := d.limitNote(); n != "" {
		line += "; " + n
	}
	return line
}

func (d *SizeDiff) summary() string {
	if d.Graphs == 0 {
		return "sizes: no graph structured validly by both sides with both sizes measured"
	}
	return fmt.Sprintf("sizes on %s graphs both structured: blocks %s against %s (%s), words %s against %s (%s); larger on %s, smaller on %s",
		thousands(d.Graphs), thousands64(d.CurrentBlocks), thousands64(d.BaselineBlocks), change(d.CurrentBlocks, d.BaselineBlocks),
		thousands64(d.CurrentWords), thousands64(d.BaselineWords), change(d.CurrentWords, d.BaselineWords), thousands(d.Larger), thousands(d.Smaller))
}

// sizeTable is the Markdown table of size examples.
func sizeTable(b *strings.Builder, list []SizeExample) {
	b.WriteString("| index | generator | seed | graph | blocks | words |\n|---|---|---|---|---|---|\n")
	for _, e := range list {
		fmt.Fprintf(b, "| %d | %s | %d | %s | %d → %d | %d → %d |\n", e.Index, mdCell(e.Stream.String()), e.Seed, mdCell(e.Graph), e.BaselineBlocks, e.CurrentBlocks, e.BaselineWords, e.CurrentWords)
	}
}

// sizePart is one of the size section's example tables.
type sizePart struct {
	title string
	list  []SizeExample
}

// sizeParts are the example tables that have graphs, gained first.
func sizeParts(d *SizeDiff) []sizePart {
	var parts []sizePart
	for _, p := range []sizePart{{"Most blocks gained", d.Grew}, {"Most blocks lost", d.Shrank}} {
		if len(p.list) > 0 {
			parts = append(parts, p)
		}
	}
	return parts
}

// sizeMarkdown is report.md's size section: the prose, then the graphs
// that gained and lost the most, and the commands that measure them.
func sizeMarkdown(b *strings.Builder, d *SizeDiff) {
	b.WriteString("\n### Output size\n\n" + sizeProse(d))
	for _, p := range sizeParts(d) {
		fmt.Fprintf(b, "\n%s (baseline → current):\n\n", p.title)
		sizeTable(b, p.list)
	}
	if text := sizeReplays(d); text != "" {
		fence := mdFence(text)
		fmt.Fprintf(b, "\nEach graph measured on each side (`module_blocks`, `module_words`):\n\n%ssh\n%s%s\n", fence, text, fence)
	}
}

// sizeReplays lists the examples' commands, a comment line before each.
func sizeReplays(d *SizeDiff) string {
	var b strings.Builder
	for _, p := range sizeParts(d) {
		for _, e := range p.list {
			if e.Replay == "" {
				continue
			}
			fmt.Fprintf(&b, "# graph %d, current (%d blocks)\n%s\n# graph %d, baseline (%d blocks)\n%s\n",
				e.Index, e.CurrentBlocks, Printable(e.Replay), e.Index, e.BaselineBlocks, Printable(e.BaselineReplay))
		}
	}
	return b.String()
}

// sizeHTML is report.html's size section.
func sizeHTML(b *strings.Builder, d *SizeDiff) {
	fmt.Fprintf(b, "<h3>Output size</h3><p>%s</p>", htmlText(sizeProse(d)))
	for _, p := range sizeParts(d) {
		fmt.Fprintf(b, "<p>%s (baseline → current):</p>", p.title)
		b.WriteString(mdTableHTML(func(sb *strings.Builder) { sizeTable(sb, p.list) }))
	}
	if text := sizeReplays(d); text != "" {
		fmt.Fprintf(b, "<p>Each graph measured on each side (<code>module_blocks</code>, <code>module_words</code>):</p><pre>%s</pre>", htmlText(text))
	}
}

// change is cur against base as a signed percentage, "+0.0%" when equal.
func change(cur, base int64) string {
	if base == 0 {
		return "no baseline size"
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(cur-base)/float64(base))
}

// thousands64 is thousands of an int64.
func thousands64(n int64) string { return thousands(int(n)) }
