// sizes_test.go: a comparison's report says how the sides' output sizes
// compare, from the modules themselves: this tree's structurizer against
// the Go example adapter's dispatch loop, a real external process that
// declares stats of its own.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestCompareReportsSizes: against the dispatch adapter, this tree's
// modules are smaller on the whole and on most graphs; report.json's
// size section validates, its examples' block and word counts are what
// `check --json` measures on each side for the same graph (module_blocks,
// module_words), and report.md and report.html show the section, their
// summaries the change.
func TestCompareReportsSizes(t *testing.T) {
	adapter := buildGoAdapter(t, t.TempDir())
	dir := filepath.Join(t.TempDir(), "cmp")
	code, out, stderr := runCmd([]string{"compare", "--baseline-structurizer", "cmd:" + adapter, "--current", "self",
		"--graphs", "120", "--dispatch-every", "0", "--out", dir, "--progress", "none"}, "")
	if code != exitOK {
		t.Fatalf("compare: exit %d\n%s%s", code, out, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(raw); err != nil {
		t.Errorf("report.json does not validate: %v", err)
	}
	rep := readReportJSON(t, dir)
	d := rep.Divergences.Size
	if d == nil || d.Graphs < 100 || d.CurrentBlocks >= d.BaselineBlocks || d.Smaller <= d.Larger || len(d.Shrank) == 0 {
		t.Fatalf("size section %+v: want most of 120 graphs compared, this tree's modules smaller than a dispatch loop's", d)
	}
	t.Logf("%d graphs: blocks %d against %d, words %d against %d; larger %d, smaller %d", d.Graphs, d.CurrentBlocks, d.BaselineBlocks, d.CurrentWords, d.BaselineWords, d.Larger, d.Smaller)
	measured := func(graph string, args ...string) (blocks, words int) {
		t.Helper()
		code, out, stderr := runCmd(append([]string{"check", "--json", "--checks", "growth"}, args...), graph+"\n")
		var rec struct {
			Blocks int `json:"module_blocks"`
			Words  int `json:"module_words"`
		}
		if err := json.Unmarshal([]byte(out), &rec); code != exitOK || err != nil || rec.Blocks == 0 || rec.Words == 0 {
			t.Fatalf("check %v of %s: exit %d, no module size (%v)\n%s%s", args, graph, code, err, out, stderr)
		}
		return rec.Blocks, rec.Words
	}
	for _, e := range append(d.Shrank, d.Grew...) {
		items, err := cfg.Parse("example", []byte(e.Graph), cfg.Limits{})
		if err != nil || len(items) != 1 {
			t.Fatalf("graph %d %s: %v", e.Index, e.Graph, err)
		}
		g := items[0].Graph
		g.Weights = e.Weights // weights decide what this tree clones
		lines := cfg.FormatLines(g)
		cur, curWords := measured(lines)
		base, baseWords := measured(lines, "--structurizer", "cmd:"+adapter)
		if cur != e.CurrentBlocks || base != e.BaselineBlocks || curWords != e.CurrentWords || baseWords != e.BaselineWords {
			t.Errorf("graph %d %s: the report says %d blocks against %d, %d words against %d; check --json measures %d against %d, %d against %d",
				e.Index, e.Graph, e.CurrentBlocks, e.BaselineBlocks, e.CurrentWords, e.BaselineWords, cur, base, curWords, baseWords)
		}
	}
	// The report's commands for the first graph that lost blocks, run as
	// printed, measure it as the report says on each side.
	e := d.Shrank[0]
	for _, c := range []struct {
		cmd  string
		want int
	}{{e.Replay, e.CurrentBlocks}, {e.BaselineReplay, e.BaselineBlocks}} {
		code, out := shellReplay(t, t.TempDir(), c.cmd)
		if code != exitOK || !strings.Contains(out, fmt.Sprintf(`"module_blocks":%d,`, c.want)) {
			t.Errorf("%s: exit %d, want 0 and module_blocks %d\n%s", c.cmd, code, c.want, out)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"report.md": string(md), "report.html": string(page)} {
		if !strings.Contains(text, "Output size") || !strings.Contains(text, "Most blocks lost") || !strings.Contains(text, thousandsOf(d.BaselineBlocks)+" (") {
			t.Errorf("%s lacks the size section or its figures", name)
		}
		// The summary at the top says it too, for a reader who stops there.
		pct := func(cur, base int64) string { return fmt.Sprintf("%+.1f%%", 100*float64(cur-base)/float64(base)) }
		summary := fmt.Sprintf("graphs both structured validly its modules have %s blocks and %s words", pct(d.CurrentBlocks, d.BaselineBlocks), pct(d.CurrentWords, d.BaselineWords))
		if i, j := strings.Index(text, summary), strings.Index(text, "Output size"); i < 0 || i > j {
			t.Errorf("%s: the summary does not say %q before the size section", name, summary)
		}
	}
}

// thousandsOf writes n with comma separators, as the reports do.
func thousandsOf(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestMaxGrowthFailsTheComparison: with the dispatch adapter as the
// current side and this tree's structurizer as the baseline on program
// graphs (where the loop costs about a third more blocks), --max-growth
// below that growth fails the comparison (exit 1, said on the console and
// in report.json and report.md), above it passes; without a baseline, or
// with a value that is no percentage, the flag is a usage error.
func TestMaxGrowthFailsTheComparison(t *testing.T) {
	adapter := buildGoAdapter(t, t.TempDir())
	compare := func(limit string) (int, string, string, *fuzz.Report) {
		dir := filepath.Join(t.TempDir(), "cmp")
		code, out, stderr := runCmd([]string{"compare", "--baseline-structurizer", "self", "--structurizer", "cmd:" + adapter,
			"--kinds", "program", "--graphs", "60", "--max-growth", limit, "--out", dir, "--progress", "none"}, "")
		if code == exitUsage {
			t.Fatalf("compare --max-growth %s: exit 2\n%s%s", limit, out, stderr)
		}
		if err := schema.Validate([]byte(readFile(t, filepath.Join(dir, "report.json")))); err != nil {
			t.Errorf("report.json does not validate: %v", err)
		}
		if md := readFile(t, filepath.Join(dir, "report.md")); !strings.Contains(md, "limit of +") {
			t.Errorf("report.md does not say how the size stands against the limit")
		}
		return code, out, stderr, readReportJSON(t, dir)
	}
	code, out, stderr, rep := compare("10")
	d := rep.Divergences.Size
	growth := 100 * (float64(d.CurrentBlocks)/float64(d.BaselineBlocks) - 1)
	t.Logf("%d graphs: blocks %d against %d (%+.1f%%)", d.Graphs, d.CurrentBlocks, d.BaselineBlocks, growth)
	if growth <= 10 || growth >= 90 {
		t.Fatalf("the dispatch adapter grows program graphs by %.1f%%: the test wants 10-90%%", growth)
	}
	if code != exitFail || !d.OverLimit || d.Limit == nil || *d.Limit != 10 || !strings.Contains(stderr, "over the limit of +10.0%") ||
		!strings.Contains(out, "over the limit") || rep.NewFindings != 0 {
		t.Errorf("--max-growth 10: exit %d, size %+v, want 1 with the size over the limit and no finding\n%s%s", code, d, out, stderr)
	}
	code, out, stderr, rep = compare("90%")
	if d := rep.Divergences.Size; code != exitOK || d.OverLimit || !strings.Contains(out, "within the limit of +90.0%") {
		t.Errorf("--max-growth 90%%: exit %d, size %+v, want 0 within the limit\n%s%s", code, d, out, stderr)
	}
	for _, args := range [][]string{
		{"run", "--graphs", "5", "--max-growth", "5"},
		{"compare", "--baseline-structurizer", "self", "--current", "self", "--graphs", "5", "--max-growth", "-1"},
		{"compare", "--baseline-structurizer", "self", "--current", "self", "--graphs", "5", "--max-growth", "lots"},
	} {
		args = append(args, "--out", filepath.Join(t.TempDir(), "x"), "--progress", "none")
		if code, out, stderr := runCmd(args, ""); code != exitUsage || !strings.Contains(stderr, "max-growth") {
			t.Errorf("%v: exit %d, want 2 naming --max-growth\n%s%s", args, code, out, stderr)
		}
	}
}
