// html.go renders a report as one self-contained HTML page: a summary
// (status, sides, duration, graphs), the findings (each with an anchor, its
// signature, graph count, minimized graph, a replay command for the
// minimized graph that runs as printed, its pictures and links into the
// findings store), the divergences side by side (compare.go's
// divergenceHTML), the state section, the harness errors, and last,
// collapsed, the table per generator. Pictures come from package draw
// (pictures.go names them).

package fuzz

import (
	"cmp"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/shown"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

const pageStyle = `body{font-family:sans-serif;max-width:1200px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}code,pre{background:#f4f4f4;padding:2px 4px}pre{overflow-x:auto}
.pics{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}.pics figure{margin:0}figcaption{font-size:90%}
.summary th{text-align:left;background:#f4f4f4}.summary td{text-align:left}
.finding,.divergence{border-top:2px solid #999;margin-top:2em}.incomplete{color:#a00}
.side{flex:1;min-width:300px}.diff .del{background:#fdd}.diff .add{background:#dfd}.diff .skip{color:#888}`

// HTML renders rep.
func HTML(rep *Report) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><meta charset=\"utf-8\"><title>" + reportTitle(rep) + "</title><style>" + pageStyle + "</style></head><body>")
	b.WriteString("<h1>" + reportTitle(rep) + "</h1>")
	summaryHTML(&b, rep)
	b.WriteString(provenanceHTML(rep))
	fmt.Fprintf(&b, "<p>%s</p>", htmlText(summaryProse(rep)))
	findingsHTML(&b, rep)
	if g := rep.Guided; g != nil {
		fmt.Fprintf(&b, "<h2>Behaviour features found</h2><p>%s</p>%s", htmlText(guidedProse(g, PrintableLine)), featureSVG(g))
	}
	if rep.Divergences != nil {
		divergenceHTML(&b, rep)
	}
	b.WriteString(stateHTML(rep))
	b.WriteString(declinedHTML(rep))
	harnessErrorsHTML(&b, rep)
	b.WriteString("<details><summary><h2 style=\"display:inline\">Outcomes per generator and weight setting</h2></summary>")
	b.WriteString(mdTableHTML(func(sb *strings.Builder) { outcomeTable(sb, rep) }))
	b.WriteString("</details></body></html>\n")
	return b.String()
}

// summaryHTML is the table the page opens with.
func summaryHTML(b *strings.Builder, rep *Report) {
	s := &rep.Settings
	row := func(k, v string) { fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>", k, v) }
	b.WriteString(`<table class="summary">`)
	row("status", statusHTML(rep))
	row("findings", htmlText(findingCounts(rep)))
	row("current side", htmlText(rep.Sides.Named("current", ", "))+sideHTML(s.Current, rep.Declared["current"]))
	if s.Baseline != "" {
		row("baseline side", htmlText(rep.Sides.Named("baseline", ", "))+sideHTML(s.Baseline, rep.Declared["baseline"]))
	}
	if between := rep.Sides.Between(); between != "" {
		row("between the sides", htmlText(between))
	}
	if rep.State != nil && rep.State.Night != "" {
		row("night", htmlText(rep.State.Night))
	}
	row("duration", htmlText(durationText(rep.Throughput.Seconds)))
	if a := AnswerTimes(rep.Throughput); a != "" {
		row("answers", htmlText(a))
	}
	if h := MetaHint(rep.Throughput); h != "" {
		row("hint", htmlText(strings.TrimPrefix(h, "hint: ")))
	}
	row("graphs", htmlText(graphCounts(rep)))
	row("campaign", htmlText(campaignText(s)))
	b.WriteString("</table>")
}

// statusHTML says whether the report is complete, and how many graphs
// have no verdict (harness errors) on either side.
func statusHTML(rep *Report) string {
	st := statusText(rep)
	if u := rep.UncheckedSummary(); u != "" {
		st += `<br><strong class="incomplete">` + htmlText(u) + `</strong>`
	}
	if m := rep.Mixed; m != nil {
		st += `<br><strong class="incomplete">` + htmlText(m.Headline()+": "+m.Summary()) + `</strong>`
	}
	return st
}

// statusText is statusHTML but for the unchecked graphs.
func statusText(rep *Report) string {
	if in := rep.Incomplete; in != nil {
		return `<strong class="incomplete">` + htmlText(in.Summary()) + `</strong>`
	}
	cur, base := rep.Outcomes[OutError], rep.BaselineOutcomes[OutError]
	if cur == 0 && base == 0 {
		return "complete"
	}
	var t string
	if rep.BaselineOutcomes != nil {
		t = fmt.Sprintf("complete, but %s no verdict on the current side and %d on the baseline", HaveGraphs(cur), base)
	} else {
		t = fmt.Sprintf("complete, but %s no verdict", HaveGraphs(cur))
	}
	return `<strong class="incomplete">` + htmlText(t) + ` (harness errors, below)</strong>`
}

// haveGraphs is "1 graph has" or "N graphs have".
// HaveGraphs is "1 graph has" or "N graphs have".
func HaveGraphs(n int) string {
	if n == 1 {
		return "1 graph has"
	}
	return fmt.Sprintf("%d graphs have", n)
}

// harnessErrorsHTML lists the first graphs without a verdict, as report.md
// does.
func harnessErrorsHTML(b *strings.Builder, rep *Report) {
	if len(rep.HarnessErrors) == 0 {
		return
	}
	b.WriteString("<h2>Harness errors (not findings)</h2>")
	for _, hint := range []string{InjectRefusedHint(rep), CheckLimitAdvice(rep)} {
		if hint != "" {
			fmt.Fprintf(b, "<p>%s.</p>", htmlText(hint))
		}
	}
	b.WriteString("<ul>")
	for _, e := range rep.HarnessErrors {
		fmt.Fprintf(b, "<li>%s seed %d <code>%s</code>: %s", htmlText(e.Stream.String()), e.Seed, htmlText(e.Graph), htmlText(shown.Text(e.Detail)))
		if e.Replay != "" {
			fmt.Fprintf(b, "<br>replay: <code>%s</code>", htmlText(e.Replay))
		}
		b.WriteString("</li>")
	}
	b.WriteString("</ul>")
}

// findingCounts is the signatures found, by state class when the state
// classed them, else new against the baseline.
func findingCounts(rep *Report) string {
	n := len(rep.Findings)
	if st := rep.State; st != nil {
		// new, known and ignored showed tonight; fixed and unverified are
		// the state's signatures that did not
		return fmt.Sprintf("%s tonight: %d new, %d known, %d ignored; of the state's others, %d fixed, %d unverified",
			Plural(n, "signature"), st.Classes[ClassNew], st.Classes[ClassKnown], st.Classes[ClassIgnored], st.Classes[ClassFixed], st.Classes[ClassUnverified]) + reproductionSuffix(rep)
	}
	return fmt.Sprintf("%s (%s whose failure is new)", Plural(n, "signature"), Plural(rep.NewFindings, "graph")) + reproductionSuffix(rep)
}

// reproductionSuffix is "; " and ReproductionNote, then "; " and
// BudgetNote, then "; " and NoBisectNote, "" without any.
func reproductionSuffix(rep *Report) string {
	s := ""
	for _, note := range []string{ReproductionNote(rep), BudgetNote(rep), NoBisectNote(rep)} {
		if note != "" {
			s += "; " + note
		}
	}
	return s
}

func sideHTML(spec string, h *proto.HelloAnswer) string {
	return "<code>" + htmlText(cmp.Or(spec, "self")) + "</code>: " + htmlText(DescribeSide(cmp.Or(spec, "self"), h))
}

func durationText(sec float64) string {
	if sec <= 0 {
		return "not measured"
	}
	return time.Duration(sec * float64(time.Second)).Round(time.Millisecond).String()
}

func graphCounts(rep *Report) string {
	t := fmt.Sprintf("%d distinct graphs run, %d skipped as repeats", rep.Graphs, rep.Skipped)
	if rep.Seen > 0 {
		t += fmt.Sprintf(", %d skipped as %s", rep.Seen, rep.State.SeenWhere())
	}
	return t
}

func campaignText(s *Settings) string {
	t := fmt.Sprintf("seed %d, strategy %s", s.Seed, cmp.Or(s.Strategy, "default"))
	if s.BaselineStrategy != "" {
		t += ", the baseline's " + s.BaselineStrategy
	}
	if len(s.Inject) > 0 {
		t += ", faults " + strings.Join(s.Inject, ",")
	}
	if s.Registers > 0 {
		t += fmt.Sprintf(", register file of %d (--registers %d)", s.Registers, s.Registers)
	}
	return t
}

// findingsHTML is the findings section: an index, then one block each.
func findingsHTML(b *strings.Builder, rep *Report) {
	fmt.Fprintf(b, "<h2>Findings (%s)</h2>", Plural(len(rep.Findings), "signature"))
	if len(rep.Findings) == 0 {
		b.WriteString("<p>No findings.</p>")
		return
	}
	b.WriteString("<ul>")
	for i := range rep.Findings {
		f := &rep.Findings[i]
		on := ""
		if f.Strategy != "" {
			on = " (strategy " + f.Strategy + ")"
		}
		fmt.Fprintf(b, `<li><a href="#%s">%s</a>%s: %s</li>`, findingAnchor(f), htmlText(f.Signature), htmlText(on), Plural(f.Count, "graph"))
	}
	b.WriteString("</ul>")
	for i := range rep.Findings {
		findingHTML(b, rep, &rep.Findings[i])
	}
}

func findingHTML(b *strings.Builder, rep *Report, f *Finding) {
	e := &f.First
	on := ""
	if f.Strategy != "" {
		on = " (strategy " + f.Strategy + ")"
	}
	a := findingAnchor(f)
	fmt.Fprintf(b, `<div class="finding" id="%s"><h3><a href="#%s">%s</a>%s</h3><p>%s, %s. First: %s, seed %d, graph <code>%s</code>.</p>`,
		a, a, htmlText(f.Signature), htmlText(on), Plural(f.Count, "graph"), htmlText(findingNewPhrase(rep, f)), htmlText(e.Stream.String()), e.Seed, htmlText(e.Graph))
	if e.Detail != "" {
		fmt.Fprintf(b, "<pre>%s</pre>", htmlText(shown.Text(e.Detail)))
	}
	if n := f.FirstNew; n != nil {
		fmt.Fprintf(b, "<p>%s: %s, seed %d, graph <code>%s</code>.</p>", htmlText(upperFirst(FirstNewNote(f))), htmlText(n.Stream.String()), n.Seed, htmlText(n.Graph))
		if n.Detail != "" {
			fmt.Fprintf(b, "<pre>%s</pre>", htmlText(shown.Text(n.Detail)))
		}
	}
	if f.Minimized != "" {
		fmt.Fprintf(b, "<p>Minimized: <code>%s</code></p><p>Replay the minimized graph:</p><pre>%s</pre>",
			htmlText(f.Minimized), htmlText(MinimizedReplay(&rep.Settings, f)))
		if f.MinimizeStopped != "" {
			fmt.Fprintf(b, `<p class="incomplete">%s</p>`, htmlText(MinimizeStoppedNote(f.MinimizeStopped)))
		}
	}
	if f.NotMinimized != "" {
		fmt.Fprintf(b, `<p class="incomplete"><strong>Not minimized</strong>: %s.</p>`, htmlText(f.NotMinimized))
	}
	if f.NotReproduced != "" {
		fmt.Fprintf(b, "<p><strong>Not reproduced</strong>: %s, so the replay below may pass. %s.</p>", htmlText(f.NotReproduced), htmlText(upperFirst(AnswerCause(f.Signature))))
	}
	if f.Flaky != "" {
		fmt.Fprintf(b, "<p><strong>Flaky</strong>: %s, so the replays may pass. %s.</p>", htmlText(f.Flaky), htmlText(upperFirst(AnswerCause(f.Signature))))
	}
	if f.MinimizeError != "" {
		fmt.Fprintf(b, `<p class="incomplete"><strong>Minimizer could not judge</strong>: %s.</p>`, htmlText(f.MinimizeError))
	}
	if f.BaselineFlaky != "" {
		fmt.Fprintf(b, "<p><strong>Baseline flaky</strong>: %s, so the failure may not be new. The baseline's answer depends on chance, or on the requests before it.</p>", htmlText(f.BaselineFlaky))
	}
	if f.BaselineChanged != "" {
		fmt.Fprintf(b, "<p><strong>Baseline changed</strong>: %s.</p>", htmlText(upperFirst(f.BaselineChanged)))
	}
	if f.Bisect != "" {
		fmt.Fprintf(b, "<p>%s:</p><pre>%s</pre>", htmlText(upperFirst(bisectWhat(rep.Sides))), htmlText(f.Bisect))
	}
	if f.Replay != "" {
		fmt.Fprintf(b, "<p>Replay %s as found:</p><pre>%s</pre>", htmlText(f.SubjectName()), htmlText(f.Replay))
	}
	if p := f.Subject().Program; p != "" {
		fmt.Fprintf(b, "<details><summary>program</summary><pre>%s</pre></details>", htmlText(p))
	}
	storeLinksHTML(b, f)
	picturesHTML(b, findingPictures(f))
	b.WriteString("</div>")
}

// MinimizeStoppedNote says of a minimized graph whose search the limit
// stopped (Finding.MinimizeStopped) that it is not the fixpoint.
func MinimizeStoppedNote(limit string) string {
	note := "the minimizer's search was stopped by its " + limit + " before its fixpoint: cfgfuzz minimize shrinks it further"
	if strings.HasPrefix(limit, "time limit") {
		note += "; a time limit's result depends on the machine, so another run of this campaign may report another graph"
	}
	return note
}

// MinimizedReplay is a shell command that judges f's minimized graph as
// the campaign judged its graphs: the graph piped into `cfgfuzz check`, in
// compact notation, or in line notation when it has weights ("" when f
// was not minimized).
func MinimizedReplay(s *Settings, f *Finding) string {
	if f.Minimized == "" {
		return ""
	}
	print := "echo " + ShellQuote(f.Minimized)
	if len(f.MinimizedWeights) > 0 {
		if g, err := f.MinimizedGraph(); err == nil {
			print = "printf '%s' " + ShellQuote(cfg.FormatLines(g))
		}
	}
	return print + " | " + checkCommand(s, cmp.Or(f.Strategy, s.Strategy), f.Signature)
}

// storeLinksHTML links the finding's entry of the findings store, when
// WriteReports found it beside the report.
func storeLinksHTML(b *strings.Builder, f *Finding) {
	if f.stored == "" {
		return
	}
	b.WriteString("<p>Findings store: ")
	for i, l := range storeFiles(f) {
		if i > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(b, `<a href="%s">%s</a>`, htmlText(f.stored+"/"+l), htmlText(l))
	}
	b.WriteString("</p>")
}

// mdTableHTML converts a Markdown table written by fill to an HTML table.
func mdTableHTML(fill func(*strings.Builder)) string {
	var sb strings.Builder
	fill(&sb)
	var b strings.Builder
	b.WriteString("<table>")
	for k, line := range strings.Split(strings.TrimSpace(sb.String()), "\n") {
		if k == 1 {
			continue
		}
		tag := "td"
		if k == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range mdRowCells(line) {
			fmt.Fprintf(&b, "<%s>%s</%s>", tag, htmlText(c), tag)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

// mdRowCells is the cells of a row of a Markdown table as mdCell wrote
// them: split at the | that are not backslash-escaped, escapes undone, and
// a cell in bold (**all**) without its asterisks.
func mdRowCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	var cells []string
	bold := func(raw string) string {
		raw = strings.TrimSpace(raw)
		if len(raw) > 4 && strings.HasPrefix(raw, "**") && strings.HasSuffix(raw, "**") {
			return raw[2 : len(raw)-2]
		}
		return raw
	}
	var raw strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			raw.WriteString(line[i : i+2])
			i++
		case line[i] == '|':
			cells = append(cells, mdUnescape(bold(raw.String())))
			raw.Reset()
		default:
			raw.WriteByte(line[i])
		}
	}
	if t := strings.TrimSpace(raw.String()); t != "" {
		cells = append(cells, mdUnescape(bold(t)))
	}
	return cells
}

// mdUnescape undoes mdCell's backslash escapes.
func mdUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(mdSpecial, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// provenanceHTML is the report's provenance line (which build, when, on
// which host and sides) as a paragraph; "" without provenance.
func provenanceHTML(rep *Report) string {
	if rep.Provenance == nil {
		return ""
	}
	return `<p class="provenance">` + htmlText(rep.Provenance.Line()) + "</p>"
}

// htmlText is text for report.html, element content or an attribute's
// value: control characters written as visible escapes (Printable), so
// the page is as safe to print on a terminal as report.md, then escaped
// as HTML.
func htmlText(s string) string { return html.EscapeString(Printable(s)) }
