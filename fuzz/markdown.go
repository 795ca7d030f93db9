// markdown.go renders a report as Markdown for people: a summary in the
// prose of the field's write-ups, outcome counts per generator and weight
// setting, the divergence table against the baseline, and the findings
// with their replay commands.

package fuzz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/shown"
)

// reportTitle heads report.md and report.html: a comparison of two
// sides (a baseline given: compare, run --baseline) or a campaign.
func reportTitle(rep *Report) string {
	if rep.Settings.Baseline != "" {
		return "cfgfuzz comparison"
	}
	return "cfgfuzz campaign"
}

// Markdown renders rep: its heading and the campaign's settings, the
// summary, the outcomes, the divergences from a baseline, the night's
// state, the findings with their replays, the declined graphs, the
// harness errors and the throughput, in that order.
func Markdown(rep *Report) string {
	var b strings.Builder
	headingMarkdown(&b, rep)
	b.WriteString(summaryProse(rep))
	if rep.Guided != nil {
		b.WriteString("\n" + guidedProse(rep.Guided, mdCell) + "\n")
	}
	b.WriteString("\n## Outcomes per generator and weight setting\n\n")
	outcomeTable(&b, rep)
	divergencesMarkdown(&b, rep)
	b.WriteString(stateMarkdown(rep))
	findingsMarkdown(&b, rep)
	b.WriteString(declinedMarkdown(rep))
	harnessMarkdown(&b, rep)
	throughputMarkdown(&b, rep)
	return b.String()
}

// headingMarkdown writes the report's title and its campaign line (seed,
// graphs, shard, sides, strategies, faults planted), then the
// provenance, why the campaign is incomplete, and what each side
// declared.
func headingMarkdown(b *strings.Builder, rep *Report) {
	s := &rep.Settings
	fmt.Fprintf(b, "# %s\n\n", reportTitle(rep))
	fmt.Fprintf(b, "Seed %d, %s (%s skipped)", s.Seed, Plural(rep.Graphs, "distinct graph"), Plural(rep.Skipped, "repeat"))
	if s.Shard.N > 0 {
		fmt.Fprintf(b, " (shard %s)", s.Shard)
	}
	fmt.Fprintf(b, ", current side %s%s (%s)", mdCell(rep.Sides.Named("current", ", ")), mdCode(s.Current), mdDescribe(s.Current, rep.Declared["current"]))
	if s.Strategy != "" {
		fmt.Fprintf(b, ", strategy %s", s.Strategy)
	}
	if len(s.Inject) > 0 {
		fmt.Fprintf(b, ", faults planted: %s", strings.Join(s.Inject, ", "))
	}
	if s.Registers > 0 {
		fmt.Fprintf(b, ", register file of %d (`--registers %d`)", s.Registers, s.Registers)
	}
	if s.Baseline != "" {
		fmt.Fprintf(b, ", baseline %s%s (%s)", mdCell(rep.Sides.Named("baseline", ", ")), mdCode(s.Baseline), mdDescribe(s.Baseline, rep.Declared["baseline"]))
		if s.BaselineStrategy != "" {
			fmt.Fprintf(b, " on strategy %s", s.BaselineStrategy)
		}
	}
	if between := rep.Sides.Between(); between != "" {
		fmt.Fprintf(b, "; %s", between)
	}
	fmt.Fprintf(b, ".\n\n")
	if rep.Provenance != nil {
		b.WriteString(mdCell(rep.Provenance.Line()) + "\n\n")
	}
	b.WriteString(incompleteMarkdown(rep))
	for _, side := range []string{"current", "baseline"} {
		if h := rep.Declared[side]; h != nil {
			b.WriteString(mdCell(declaredLine(side, h, namedBySpec(sideSpec(s, side), h))) + "\n\n")
		}
	}
}

// divergencesMarkdown writes, with a baseline, the section of the
// divergences: the table of classes, the first divergent graphs and the
// sides' module sizes; nothing without one.
func divergencesMarkdown(b *strings.Builder, rep *Report) {
	d := rep.Divergences
	if d == nil {
		return
	}
	b.WriteString("\n## Divergences from the baseline\n\n")
	divergenceTable(b, rep)
	if len(d.Examples) > 0 {
		b.WriteString("\nFirst divergent graphs:\n\n| class | generator | seed | graph | current | baseline |\n|---|---|---|---|---|---|\n")
		for _, e := range d.Examples {
			fmt.Fprintf(b, "| %s | %s | %d | `%s` | %s | %s |\n", e.Class, e.Stream, e.Seed, e.Graph, mdCell(e.Current), mdCell(e.Baseline))
		}
	}
	if d.Size != nil {
		sizeMarkdown(b, d.Size)
	}
}

// findingsMarkdown writes the section of the findings: how the
// minimization went, the notes on reproduction and the minimization
// budget, the table of findings and their replays (replayMarkdown).
func findingsMarkdown(b *strings.Builder, rep *Report) {
	b.WriteString("\n## Findings\n\n")
	if rep.Minimization != "" {
		fmt.Fprintf(b, "Minimization %s.\n\n", rep.Minimization)
	}
	if note := ReproductionNote(rep); note != "" {
		fmt.Fprintf(b, "**%s.**\n\n", mdCell(upperFirst(note)))
	}
	if note := BudgetNote(rep); note != "" {
		fmt.Fprintf(b, "**%s.**\n\n", mdCell(upperFirst(note)))
	}
	if note := NoBisectNote(rep); note != "" {
		fmt.Fprintf(b, "%s.\n\n", mdCell(upperFirst(note)))
	}
	if len(rep.Findings) == 0 {
		b.WriteString("None.\n")
		return
	}
	fmt.Fprintf(b, "| signature | strategy | graphs | %s | first graph | generator | seed |\n|---|---|---|---|---|---|---|\n", findingNewHeader(rep))
	for _, f := range rep.Findings {
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %d |\n", mdCell(f.Signature), findingStrategy(rep, &f), f.Count, findingNewCell(rep, &f), subjectCell(&f), f.Subject().Stream, f.Subject().Seed)
	}
	replay := replayMarkdown(rep)
	fence := mdFence(replay)
	fmt.Fprintf(b, "\nReplay:\n\n%ssh\n%s%s\n", fence, replay, fence)
}

// replayMarkdown is the shell script of the findings' replays: each
// finding's signature, its first new graph, its replay and its minimized
// graph's, and, as comments, what its minimization and replays found.
func replayMarkdown(rep *Report) string {
	var replay strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&replay, "# %s\n", PrintableLine(f.Signature))
		if f.FirstNew != nil {
			fmt.Fprintf(&replay, "# %s: %s\n", FirstNewNote(&f), f.FirstNew.Graph)
		}
		fmt.Fprintf(&replay, "%s\n", Printable(f.Replay))
		if f.Bisect != "" {
			fmt.Fprintf(&replay, "# %s:\n%s\n", bisectWhat(rep.Sides), Printable(f.Bisect))
		}
		if f.Minimized != "" {
			fmt.Fprintf(&replay, "# minimized: %s\n%s\n", f.Minimized, Printable(MinimizedReplay(&rep.Settings, &f)))
			if f.MinimizeStopped != "" {
				fmt.Fprintf(&replay, "# %s\n", MinimizeStoppedNote(f.MinimizeStopped))
			}
		}
		for _, n := range []struct{ text, line string }{
			{f.NotMinimized, "# not minimized: %s\n"},
			{f.NotReproduced, "# not reproduced: %s (this replay may pass)\n"},
			{f.Flaky, "# flaky: %s (these replays may pass; `cfgfuzz check --repeat 5` judges a graph five times)\n"},
			{f.MinimizeError, "# the minimizer could not judge: %s\n"},
			{f.BaselineFlaky, "# baseline flaky: %s (perhaps not new)\n"},
			{f.BaselineChanged, "# baseline changed: %s\n"},
		} {
			if n.text != "" {
				fmt.Fprintf(&replay, n.line, PrintableLine(n.text))
			}
		}
	}
	return replay.String()
}

// harnessMarkdown writes the section of the harness errors (not
// findings), one line each with its replay under it, after what to do
// about them where that is known; nothing without any.
func harnessMarkdown(b *strings.Builder, rep *Report) {
	if len(rep.HarnessErrors) == 0 {
		return
	}
	b.WriteString("\n## Harness errors (not findings)\n\n")
	if hint := InjectRefusedHint(rep); hint != "" {
		b.WriteString(mdCell(hint) + ".\n\n")
	}
	if a := CheckLimitAdvice(rep); a != "" {
		b.WriteString(mdCell(a) + ".\n\n")
	}
	for _, e := range rep.HarnessErrors {
		fmt.Fprintf(b, "- %s seed %d %s: %s\n", e.Stream, e.Seed, mdCode(e.Graph), mdCell(shown.Text(e.Detail)))
		if e.Replay != "" {
			fmt.Fprintf(b, "  replay: %s\n", mdCode(e.Replay))
		}
	}
}

// throughputMarkdown writes the section of the throughput: the distinct
// graphs run, in how long and on how many workers, the graphs replayed
// from the log, the shards merged, the sides' answer times, the time
// budget's note and the hint on meta's re-runs.
func throughputMarkdown(b *strings.Builder, rep *Report) {
	t := rep.Throughput
	fmt.Fprintf(b, "\n## Throughput\n\n%d distinct graphs in %.1f s (%s distinct graphs/s) on %s, %d repeats skipped", t.Graphs, t.Seconds, Rate(t.GraphsPerSec), Plural(t.Workers, "worker"), t.Skipped)
	if t.Resumed > 0 {
		fmt.Fprintf(b, "; %d graph indices replayed from the log, skipped repeats included", t.Resumed)
	}
	if t.Shards > 0 {
		fmt.Fprintf(b, "; %d shards merged", t.Shards)
	}
	b.WriteString(".")
	if a := AnswerTimes(t); a != "" {
		b.WriteString(" " + a)
	}
	if n := rep.TimeBudgetNote; n != "" {
		b.WriteString(" Note: " + n + ".")
	}
	b.WriteString("\n")
	if h := MetaHint(t); h != "" {
		b.WriteString("\n" + h + ".\n")
	}
}

// LeakedSummary says, in a sentence, how many graphs' answers left
// processes running (Report.Leaked); "" when none did.
func LeakedSummary(rep *Report) string {
	if rep.Leaked == 0 && rep.BaselineLeaked == 0 {
		return ""
	}
	base := ""
	if rep.Settings.Baseline != "" {
		base = fmt.Sprintf(" (the baseline's on %d)", rep.BaselineLeaked)
	}
	return fmt.Sprintf("The answers to %s%s left processes running: each is a finding (%s), and the server was ended with every process it had (PROTOCOL.md, \"Descendants\").",
		Plural(rep.Leaked, "graph"), base, LeakSignature)
}

// findingStrategy names the strategy a finding's graphs ran.
func findingStrategy(rep *Report, f *Finding) string {
	switch {
	case f.Strategy != "":
		return f.Strategy + " (share)"
	case rep.Settings.Strategy != "":
		return rep.Settings.Strategy
	}
	return "default"
}

// summaryProse says in a few sentences what the campaign found, and how
// the output's size changed when comparing.
func summaryProse(rep *Report) string {
	var b strings.Builder
	o := rep.Outcomes
	fmt.Fprintf(&b, "The current side structures %d of %d graphs validly; ", o[OutOK], rep.Graphs)
	if fb := rep.FallbackOnly(); fb > 0 {
		fmt.Fprintf(&b, "%d more give valid modules but fall back to the dispatch loop (findings of the fallback check alone, outcome invalid in report.json; --allow-fallbacks allows them); ", fb)
		fmt.Fprintf(&b, "%d are invalid otherwise", o[OutInvalid]-fb)
	} else {
		fmt.Fprintf(&b, "%d are invalid", o[OutInvalid])
	}
	fmt.Fprintf(&b, ", %d refused, %d panic, %d time out, %d crash", o[OutRefused], o[OutPanic], o[OutTimeout], o[OutCrash])
	if o[OutError] > 0 {
		fmt.Fprintf(&b, " (and %d harness errors, not findings)", o[OutError])
	}
	if o[OutUnsupported] > 0 {
		fmt.Fprintf(&b, "; %d use what the structurizer declared it does not serve (unsupported, not sent)", o[OutUnsupported])
	}
	if n := rep.dispatchShare(); n > 0 {
		fmt.Fprintf(&b, "; %d of the graphs ran the dispatch strategy (the dispatch share)", n)
	}
	fmt.Fprintf(&b, "; it falls back to the dispatch loop on %d", rep.Fallbacks)
	if rep.Settings.Baseline != "" {
		fmt.Fprintf(&b, " (the baseline on %d)", rep.BaselineFallbacks)
	}
	if rep.Fallbacks > 0 && rep.fallbacksAllowed() {
		b.WriteString(", allowed: the fallback check is off")
	}
	b.WriteString(".")
	if s := LeakedSummary(rep); s != "" {
		b.WriteString(" " + s)
	}
	switch {
	case len(rep.Checks) > 0 && rep.Outcomes[OutOK]+rep.Outcomes[OutInvalid] == 0:
		fmt.Fprintf(&b, " No module came back, so none ran the checks %s.", strings.Join(rep.Checks, ", "))
	case len(rep.Checks) > 0:
		fmt.Fprintf(&b, " Every module ran the checks %s%s.", strings.Join(rep.Checks, ", "), walksPhrase(&rep.Settings, rep.Checks))
	}
	if s := &rep.Settings; s.GPUEvery > 0 {
		device := s.GPUDevice
		if device == "" {
			device = "cpu"
		}
		fmt.Fprintf(&b, " The gpu check (Vulkan device %s) judged %d of the modules too: it samples the graphs whose index is a multiple of %d.", device, rep.GPUChecked, s.GPUEvery)
	}
	if s := RegistersSummary(&rep.Settings); s != "" {
		b.WriteString(" " + s)
	}
	if d := rep.Divergences; d != nil {
		fmt.Fprintf(&b, " The baseline structures %d and the output is identical on %s; of its %d failures (refusals included) %d now structure; %s.",
			d.BaselineStructured, identicalPhrase(d), d.BaselineFailures, d.NowStructured, invalidPhrase(d.NewlyInvalid))
		if n := d.Classes[ClassChanged]; n > 0 {
			fmt.Fprintf(&b, " Of the %s whose output changed (output-changed), %d %s invalid on both sides, with different modules.", Plural(n, "graph"), d.BothInvalid, isAre(d.BothInvalid, "is", "are"))
		}
		if z := d.Size; z != nil && z.Graphs > 0 {
			fmt.Fprintf(&b, " On the %s graphs both structured validly its modules have %s blocks and %s words against the baseline's (larger on %s graphs, smaller on %s; Output size, below).",
				thousands(z.Graphs), change(z.CurrentBlocks, z.BaselineBlocks), change(z.CurrentWords, z.BaselineWords), thousands(z.Larger), thousands(z.Smaller))
		}
		if z := d.Size; z != nil && z.Unmeasured > 0 {
			fmt.Fprintf(&b, " %s both structured validly %s no measured size (Output size, below).", Plural(z.Unmeasured, "graph"), isAre(z.Unmeasured, "has", "have"))
		}
		if z := d.Size; z != nil && z.Limit != nil {
			b.WriteString(" " + z.limitSentence())
		}
	}
	fmt.Fprintf(&b, " %s.\n", newPhrase(rep))
	return b.String()
}

func identicalPhrase(d *Divergences) string {
	if d.IdenticalOnThose == d.BaselineStructured {
		return "all of them"
	}
	return fmt.Sprintf("%d of them", d.IdenticalOnThose)
}

func invalidPhrase(n int) string {
	switch n {
	case 0:
		return "no new output is invalid"
	case 1:
		return "1 new output is invalid"
	}
	return fmt.Sprintf("%d new outputs are invalid", n)
}

func newPhrase(rep *Report) string {
	if s := rep.State; s != nil {
		return fmt.Sprintf("Against the state, %d of %s are new (%d known, %d ignored, %d fixed, %d unverified: fixed and unverified are the state's signatures that did not show tonight)", s.NewSignatures(), Plural(len(s.Signatures), "signature"),
			s.Classes[ClassKnown], s.Classes[ClassIgnored], s.Classes[ClassFixed], s.Classes[ClassUnverified])
	}
	if rep.NewFindings == 0 {
		return "Nothing new was found"
	}
	n := 0
	for _, f := range rep.Findings {
		if f.New > 0 {
			n++
		}
	}
	return fmt.Sprintf("%s fail in a new way, with %s", Plural(rep.NewFindings, "graph"), Plural(n, "signature"))
}

// Plural is n with word, an s appended unless n is 1: "1 graph",
// "2 graphs".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func outcomeTable(b *strings.Builder, rep *Report) {
	b.WriteString("| generator | weights | graphs | skipped |")
	for _, o := range Outcomes {
		b.WriteString(" " + o + " |")
	}
	b.WriteString(" fallbacks |\n|---|---|---|---|" + strings.Repeat("---|", len(Outcomes)+1) + "\n")
	for _, r := range rep.Streams {
		fmt.Fprintf(b, "| %s | %s | %d | %d |", r.Kind, r.Weights, r.Graphs, r.Skipped)
		for _, o := range Outcomes {
			fmt.Fprintf(b, " %d |", r.Outcomes[o])
		}
		fmt.Fprintf(b, " %d |\n", r.Fallbacks)
	}
	fmt.Fprintf(b, "| **all** | | %d | %d |", rep.Graphs, rep.Skipped)
	for _, o := range Outcomes {
		fmt.Fprintf(b, " %d |", rep.Outcomes[o])
	}
	fmt.Fprintf(b, " %d |\n", rep.Fallbacks)
}

func divergenceTable(b *strings.Builder, rep *Report) {
	b.WriteString("| generator | weights | baseline ok |")
	for _, c := range Classes {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(Classes)) + "\n")
	for _, r := range rep.Streams {
		fmt.Fprintf(b, "| %s | %s | %d |", r.Kind, r.Weights, r.Baseline[OutOK])
		for _, c := range Classes {
			fmt.Fprintf(b, " %d |", r.Divergences[c])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "| **all** | | %d |", rep.BaselineOutcomes[OutOK])
	for _, c := range Classes {
		fmt.Fprintf(b, " %d |", rep.Divergences.Classes[c])
	}
	b.WriteString("\n")
}

// mdDescribe is a side's description (DescribeSide) for report.md's prose:
// a command as a code span, the rest escaped (mdCell).
func mdDescribe(spec string, h *proto.HelloAnswer) string {
	d := DescribeSide(spec, h)
	if sp, err := ParseSpec(spec); err == nil && sp.Kind == SpecCmd {
		if rest, ok := strings.CutPrefix(d, externalHead(sp.Cmd)); ok {
			return "the external structurizer " + mdCode(sp.Cmd) + mdCell(rest)
		}
	}
	return mdCell(d)
}

// mdCell is text from outside (a signature, a reason, a path) for a
// table cell or a line of prose in report.md: one line (newlines as
// spaces, control characters escaped as fuzz.Printable does), with every
// character Markdown gives a meaning to inline backslash-escaped, so that
// it renders as written: no HTML, link, emphasis or code span, and no
// cell boundary (a backslash before a | is escaped too).
func mdCell(s string) string {
	s = Printable(strings.NewReplacer("\r\n", " ", "\n", " ").Replace(s))
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdSpecial are the characters mdCell escapes.
const mdSpecial = "\\`*_<>[]|&~"

// mdCode is s as a code span of report.md's prose (not of a table cell):
// one line, fenced by a run of backticks longer than any inside it, so
// that a backtick in s cannot end the span.
func mdCode(s string) string {
	s = PrintableLine(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdFence is the fence of a code block that holds text: three backticks,
// or more than the longest run of backticks in it, so that no line of
// text closes the block early.
func mdFence(text string) string {
	return strings.Repeat("`", max(3, longestRun(text, '`')+1))
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// RegistersSummary is the sentence saying that every module carried the
// register file (--registers N, emit/CONVENTION.md); "" without one.
func RegistersSummary(s *Settings) string {
	if s.Registers <= 0 {
		return ""
	}
	return fmt.Sprintf("Every module carried a register file of %d values (--registers %d), whose checksum exec and gpu hold to the walks'.", s.Registers, s.Registers)
}

// walksPhrase says which walks the exec check followed, when it ran
// (oracle.WalkOptions).
func walksPhrase(s *Settings, checks []string) string {
	if !slices.Contains(checks, "exec") {
		return ""
	}
	if s.Walks == 0 {
		return " (exec on the covering walks only)"
	}
	return fmt.Sprintf(" (exec on the covering walks and %d random ones a graph, seed %d)", s.Walks, s.Seed)
}

// subjectCell is a finding's cell in the findings table's "first graph"
// column: its Subject, the graph its replay and minimized graph are of,
// marked "(first new)" when the baseline fails the signature's first graph
// too (the replay's comment says which that is).
func subjectCell(f *Finding) string {
	cell := "`" + f.Subject().Graph + "`"
	if f.FirstNew != nil {
		cell += " (first new)"
	}
	return cell
}

// NewlyFailing is what a finding's "new" graphs are called beside a
// baseline: those the baseline passed, refused or did not serve. The
// summary, report.md and report.html use it, apart from a state's class
// "new" (a signature the earlier nights did not know).
const NewlyFailing = "newly failing against the baseline"

// findingNewHeader heads the findings table's column of what is new:
// without a state, "new" (every failing graph) or, with a baseline, the
// graphs the baseline passed (NewlyFailing); with a state, the
// signature's class, which decides the exit status, and with a baseline
// too those graphs, in parentheses.
func findingNewHeader(rep *Report) string {
	base := rep.Settings.Baseline != ""
	switch {
	case rep.State == nil && base:
		return NewlyFailing
	case rep.State == nil:
		return "new"
	case base:
		return "class (" + NewlyFailing + ")"
	}
	return "class"
}

// findingNewCell is a finding's cell in that column.
func findingNewCell(rep *Report, f *Finding) string {
	switch {
	case rep.State == nil:
		return fmt.Sprint(f.New)
	case rep.Settings.Baseline != "":
		return fmt.Sprintf("%s (%d)", dash(rep.State.class(f.Signature, f.Strategy)), f.New)
	}
	return dash(rep.State.class(f.Signature, f.Strategy))
}

// FindingNewCount is a finding's count of new graphs in words: "3 new"
// without a baseline (every failing graph), "3 newly failing against the
// baseline" with one. The summary's line of the finding and
// findingNewPhrase say it so.
func FindingNewCount(rep *Report, f *Finding) string {
	if rep.Settings.Baseline != "" {
		return fmt.Sprintf("%d %s", f.New, NewlyFailing)
	}
	return fmt.Sprintf("%d new", f.New)
}

// findingNewPhrase says the same in a sentence: "3 new", "3 newly failing
// against the baseline", "class known", "class known, 3 newly failing
// against the baseline".
func findingNewPhrase(rep *Report, f *Finding) string {
	if rep.State == nil {
		return FindingNewCount(rep, f)
	}
	if rep.Settings.Baseline != "" {
		return "class " + dash(rep.State.class(f.Signature, f.Strategy)) + ", " + FindingNewCount(rep, f)
	}
	return "class " + dash(rep.State.class(f.Signature, f.Strategy))
}
