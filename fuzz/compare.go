// compare.go renders a compare report's divergences for report.html: the
// class table, then each kept example side by side: the graph, the
// baseline's function and the current one's as pictures, both verdicts,
// and a line diff of the two modules' disassemblies.

package fuzz

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/internal/shown"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// divergenceHTML is the divergences section.
func divergenceHTML(b *strings.Builder, rep *Report) {
	d := rep.Divergences
	b.WriteString("<h2>Divergences from the baseline</h2>")
	b.WriteString(mdTableHTML(func(sb *strings.Builder) { divergenceTable(sb, rep) }))
	if d.Size != nil {
		sizeHTML(b, d.Size)
	}
	if len(d.Examples) == 0 {
		return
	}
	shown := shownDivergences(d.Examples)
	fmt.Fprintf(b, "<p>The first %d graphs of each class side by side (report.json keeps up to %d of each):</p><ul>", sideBySide, maxExamples)
	for _, e := range shown {
		fmt.Fprintf(b, `<li><a href="#%s">%s, graph %d</a></li>`, divergenceAnchor(e), htmlText(e.Class), e.Index)
	}
	b.WriteString("</ul>")
	for _, e := range shown {
		divergenceExampleHTML(b, e)
	}
}

// sideBySide is how many examples of each class the page draws.
const sideBySide = 5

// shownDivergences are the first sideBySide examples of each class.
func shownDivergences(ex []Example) []*Example {
	per := map[string]int{}
	var out []*Example
	for i := range ex {
		if per[ex[i].Class] < sideBySide {
			per[ex[i].Class]++
			out = append(out, &ex[i])
		}
	}
	return out
}

func divergenceExampleHTML(b *strings.Builder, e *Example) {
	a := divergenceAnchor(e)
	fmt.Fprintf(b, `<div class="divergence" id="%s"><h3><a href="#%s">%s: graph %d</a></h3>`, a, a, htmlText(e.Class), e.Index)
	fmt.Fprintf(b, "<p>%s, seed %d, graph <code>%s</code></p>", htmlText(e.Stream.String()), e.Seed, htmlText(e.Graph))
	fmt.Fprintf(b, "<table><tr><th>baseline verdict</th><td>%s</td></tr><tr><th>current verdict</th><td>%s</td></tr></table>",
		htmlText(e.Baseline), htmlText(e.Current))
	if e.Detail != "" {
		fmt.Fprintf(b, "<pre>%s</pre>", htmlText(shown.Text(e.Detail)))
	}
	picturesHTML(b, divergencePictures(e))
	base, cur := shown.Listing(disassembly(e.BaselineModule)), shown.Listing(disassembly(e.CurrentModule))
	if base != "" || cur != "" {
		b.WriteString("<details open><summary>disassembly diff (baseline −, current +; 3 lines of context)</summary>")
		b.WriteString(diffHTML(Hunks(LineDiff(base, cur), 3)))
		b.WriteString("</details>")
	}
	b.WriteString("</div>")
}

// disassembly is a module's text, "" when there is none or it does not
// decode.
func disassembly(module []byte) string {
	if module == nil {
		return ""
	}
	text, err := oracle.Disassemble(module)
	if err != nil {
		return ""
	}
	return text
}

// DiffLine is one line of a line diff: Op is ' ' (both), '-' (only the
// first text) or '+' (only the second).
type DiffLine struct {
	Op   byte
	Text string
}

// LineDiff is a longest-common-subsequence line diff of a and b. Texts
// over 4000 lines each are compared as wholly different (the table would
// be too large).
func LineDiff(a, b string) []DiffLine {
	x, y := splitLines(a), splitLines(b)
	if len(x) > 4000 || len(y) > 4000 {
		return wholeDiff(x, y)
	}
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out = append(out, DiffLine{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, DiffLine{'-', x[i]})
			i++
		default:
			out = append(out, DiffLine{'+', y[j]})
			j++
		}
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func wholeDiff(x, y []string) []DiffLine {
	var out []DiffLine
	for _, l := range x {
		out = append(out, DiffLine{'-', l})
	}
	for _, l := range y {
		out = append(out, DiffLine{'+', l})
	}
	return out
}

// Hunks keeps the changed lines of d with context unchanged lines around
// them; a line with Op '@' stands for the unchanged lines left out.
func Hunks(d []DiffLine, context int) []DiffLine {
	keep := make([]bool, len(d))
	for i, l := range d {
		if l.Op != ' ' {
			for j := max(0, i-context); j <= min(len(d)-1, i+context); j++ {
				keep[j] = true
			}
		}
	}
	var out []DiffLine
	for i := 0; i < len(d); {
		if keep[i] {
			out = append(out, d[i])
			i++
			continue
		}
		j := i
		for j < len(d) && !keep[j] {
			j++
		}
		out = append(out, DiffLine{'@', fmt.Sprintf("%d unchanged lines", j-i)})
		i = j
	}
	return out
}

// diffHTML shows a diff with its changed lines marked.
func diffHTML(d []DiffLine) string {
	var b strings.Builder
	b.WriteString(`<pre class="diff">`)
	for _, l := range d {
		cls := ""
		switch l.Op {
		case '-':
			cls = ` class="del"`
		case '+':
			cls = ` class="add"`
		case '@':
			cls = ` class="skip"`
		}
		fmt.Fprintf(&b, "<span%s>%c %s</span>\n", cls, l.Op, htmlText(l.Text))
	}
	b.WriteString("</pre>")
	return b.String()
}
