// html.go renders a report as one self-contained HTML page: the summary,
// the tables, and for every finding its first graph drawn before and after
// structurization (and minimized, when a minimizer ran), with the replay
// command. The pictures are inline SVG from svg.go.
package fuzz

import (
	"fmt"
	"html"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

const pageStyle = `body{font-family:sans-serif;max-width:1200px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}code,pre{background:#f4f4f4;padding:2px 4px}
.pics{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start}.pics figure{margin:0}
svg .e{stroke:#333;fill:none}svg .merge{stroke:#2a7;fill:none;stroke-dasharray:4 3}svg .continue{stroke:#c60;fill:none;stroke-dasharray:2 3}
svg ellipse{fill:#fff;stroke:#333}svg .clone ellipse{fill:#def}svg .synth ellipse{fill:#eee;stroke-dasharray:3 2}svg .heavy ellipse{fill:#fdd}
svg .l{fill:#555;font-size:9px}.finding{border-top:2px solid #999;margin-top:2em}`

// HTML renders rep.
func HTML(rep *Report) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><meta charset=\"utf-8\"><title>cfgfuzz report</title><style>" + pageStyle + "</style></head><body>")
	fmt.Fprintf(&b, "<h1>cfgfuzz campaign, seed %d</h1>", rep.Settings.Seed)
	if in := rep.Incomplete; in != nil {
		fmt.Fprintf(&b, `<p class="incomplete"><strong>This report is %s.</strong></p>`, html.EscapeString(in.Summary()))
	}
	b.WriteString(provenanceHTML(rep))
	fmt.Fprintf(&b, "<p>%s</p>", html.EscapeString(summaryProse(rep)))
	if g := rep.Guided; g != nil {
		fmt.Fprintf(&b, "<h2>Behaviour features found</h2><p>%s</p>%s", html.EscapeString(guidedProse(g)), featureSVG(g))
	}
	b.WriteString("<h2>Outcomes per generator and weight setting</h2>")
	b.WriteString(mdTableHTML(func(sb *strings.Builder) { outcomeTable(sb, rep) }))
	if rep.Divergences != nil {
		b.WriteString("<h2>Divergences from the baseline</h2>")
		b.WriteString(mdTableHTML(func(sb *strings.Builder) { divergenceTable(sb, rep) }))
	}
	b.WriteString(stateHTML(rep))
	fmt.Fprintf(&b, "<h2>Findings (%d signatures)</h2>", len(rep.Findings))
	for i := range rep.Findings {
		findingHTML(&b, &rep.Findings[i])
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

func findingHTML(b *strings.Builder, f *Finding) {
	e := &f.First
	on := ""
	if f.Strategy != "" {
		on = " (strategy " + f.Strategy + ")"
	}
	fmt.Fprintf(b, `<div class="finding"><h3>%s%s</h3><p>%d graphs, %d new. First: %s, seed %d, graph <code>%s</code>.</p>`,
		html.EscapeString(f.Signature), html.EscapeString(on), f.Count, f.New, html.EscapeString(e.Stream.String()), e.Seed, html.EscapeString(e.Graph))
	if e.Detail != "" {
		fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(e.Detail))
	}
	if e.Program != "" {
		fmt.Fprintf(b, "<details><summary>program</summary><pre>%s</pre></details>", html.EscapeString(e.Program))
	}
	fmt.Fprintf(b, "<p>Replay: <code>%s</code></p><div class=\"pics\">", html.EscapeString(f.Replay))
	if g, err := graphOf(e); err == nil {
		fmt.Fprintf(b, "<figure>%s<figcaption>before</figcaption></figure>", graphDrawing(g).SVG())
	}
	if f.Func != nil {
		fmt.Fprintf(b, "<figure>%s<figcaption>after (%s)</figcaption></figure>", funcDrawing(f.Func).SVG(), html.EscapeString(e.Current))
	} else {
		b.WriteString("<figure><p>(no structured function: " + html.EscapeString(e.Current) + ")</p></figure>")
	}
	if f.Minimized != "" {
		if g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{}); err == nil {
			fmt.Fprintf(b, "<figure>%s<figcaption>minimized <code>%s</code></figcaption></figure>", graphDrawing(g).SVG(), html.EscapeString(f.Minimized))
		}
	}
	b.WriteString("</div></div>")
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
		cells := strings.Split(strings.Trim(line, "|"), "|")
		tag := "td"
		if k == 0 {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells {
			c = strings.Trim(strings.TrimSpace(c), "*")
			fmt.Fprintf(&b, "<%s>%s</%s>", tag, html.EscapeString(c), tag)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

// provenanceHTML is the report's provenance line (which build, when, on
// which host and sides) as a paragraph; "" without provenance.
func provenanceHTML(rep *Report) string {
	if rep.Provenance == nil {
		return ""
	}
	return `<p class="provenance">` + html.EscapeString(rep.Provenance.Line()) + "</p>"
}
