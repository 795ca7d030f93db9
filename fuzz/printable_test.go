package fuzz

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é, 日本\n\tnext":          "plain text, é, 日本\n\tnext",
		"\x1b[2Jred\x07":                     `\x1b[2Jred\x07`,
		"a\rb\x00c\x7f\u009bd":               `a\rb\x00c\x7f\u009bd`,
		"bad \xff utf-8":                     "bad \xff utf-8",
		"admin\u202e\u2066 // x\u2069\ufeff": `admin\u202e\u2066 // x\u2069\ufeff`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := PrintableLine("a\nb\tc\x1b"); got != `a\nb\tc\x1b` {
		t.Errorf("PrintableLine = %q", got)
	}
}

// hostile is text a structurizer controls: HTML, Markdown that would end
// a table cell, a code span or a fenced block, control characters, and
// newlines followed by a forged line.
const hostile = "<img src=x onerror=alert(1)> a|b \\| `t` ``` *em* [l](javascript:x) &amp; \x1b[31m\r\n```\n# forged <b>x</b>\n"

// A report whose every outside text is hostile renders in report.md as
// that text, escaped: no raw HTML, no control character, every table row
// with its own cells, and the replay block closed only by its own fence.
func TestMarkdownEscapesOutsideText(t *testing.T) {
	rep := &Report{
		Settings: Settings{Current: "cmd:./s `x` " + hostile, Baseline: "cmd:./b|" + hostile},
		Declared: map[string]*proto.HelloAnswer{"current": {Name: hostile}},
		Findings: []Finding{{Signature: "structurize:error:" + PrintableLine(hostile), Count: 1, New: 1,
			Replay: "cfgfuzz check --structurizer " + ShellQuote("cmd:"+hostile), NotReproduced: "it fails with " + hostile,
			First: Example{Graph: "{{}}", Detail: hostile}}},
		HarnessErrors: []Example{{Graph: "{{}}", Detail: hostile}},
		// A feature name holds what the structurizer wrote in passes_used.
		Guided: &GuidedSummary{Features: 1, Found: &FoundFeatures{New: 1, NewNames: []string{"pass:" + passFeature(hostile)}, KnownNames: []string{}}},
		State: &StateReport{Night: "2026-12-01", Signatures: []SignatureState{{Signature: "x|" + hostile, Class: ClassKnown, Reason: "triage: " + hostile}},
			Unmatched: []TriageNote{{Line: 3, Signature: hostile}}},
	}
	md := Markdown(rep)
	if strings.ContainsAny(md, "\x1b\r") {
		t.Errorf("report.md holds a control character")
	}
	var inFence string
	for _, line := range strings.Split(md, "\n") {
		switch {
		case inFence != "":
			if l := strings.TrimSpace(line); strings.Trim(l, "`") == "" && len(l) >= len(inFence) && line != inFence {
				t.Errorf("a line of the replay block closes it: %q", line)
			}
			if line == inFence {
				inFence = ""
			}
		case strings.HasPrefix(line, "```"):
			inFence = strings.TrimSuffix(line, "sh")
		default:
			for _, bad := range []string{"<img", "<b>", "](javascript"} {
				if strings.Contains(withoutCodeSpans(line), bad) {
					t.Errorf("report.md's line holds %q outside code: %s", bad, line)
				}
			}
			if strings.HasPrefix(line, "# forged") {
				t.Errorf("report.md has a forged heading")
			}
		}
		switch {
		case strings.HasPrefix(line, "| structurize:error:"):
			if n := len(mdRowCells(line)); n != 7 {
				t.Errorf("findings row has %d cells, want 7: %s", n, line)
			}
		case strings.HasPrefix(line, "| known |"):
			cells := mdRowCells(line)
			want := strings.TrimSpace("x|" + Printable(strings.NewReplacer("\r\n", " ", "\n", " ").Replace(hostile)))
			if len(cells) != 10 || cells[1] != want {
				t.Errorf("state row has %d cells (want 10), signature %q: %s", len(cells), cells[1], line)
			}
		}
	}
	if inFence != "" {
		t.Errorf("the replay block is not closed")
	}
	page := HTML(rep)
	if strings.Contains(page, "<img") || strings.Contains(page, "<b>") {
		t.Errorf("report.html holds the hostile text's HTML")
	}
}

// withoutCodeSpans is line without its code spans (a run of backticks to
// the next run of the same length) and backslash escapes, whose text
// Markdown shows as written.
func withoutCodeSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '\\' && i+1 < len(line) {
			i += 2
			continue
		}
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		run := 0
		for i+run < len(line) && line[i+run] == '`' {
			run++
		}
		fence := line[i : i+run]
		end := -1
		for j := i + run; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			k := j
			for k < len(line) && line[k] == '`' {
				k++
			}
			if k-j == run {
				end = k
				break
			}
			j = k
		}
		if end < 0 {
			b.WriteString(fence)
			i += run
			continue
		}
		i = end
	}
	return b.String()
}
