// html_test.go checks report.html's structure: the summary first, the
// findings with anchors and pictures, the divergences side by side with
// both verdicts, both sides' pictures and a disassembly diff, the table
// per generator last and collapsed, and a Graphviz file for every picture.
package fuzz

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestHTMLReportStructure(t *testing.T) {
	c := testConfig(t, 60)
	c.Inject = []string{"swap-arms"}
	c.Baseline = SideFactory{Describe: "in-process (clean)", New: InProcessFactory().New}
	o := mustRun(t, c)
	if len(o.Report.Findings) == 0 || o.Report.Divergences == nil || len(o.Report.Divergences.Examples) == 0 {
		t.Fatalf("the campaign found nothing to show: %+v", o.Report.Divergences)
	}
	b, err := os.ReadFile(filepath.Join(c.Dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	order := []string{`<table class="summary">`, "<th>status</th><td>complete</td>", "<th>baseline side</th>",
		"<h2>Findings (", "<h2>Divergences from the baseline</h2>", "<details><summary><h2 style=\"display:inline\">Outcomes per generator"}
	at := -1
	for _, s := range order {
		i := strings.Index(page, s)
		if i < 0 || i < at {
			t.Fatalf("%q missing or out of order (at %d, after %d)", s, i, at)
		}
		at = i
	}
	if last := page[at:]; !strings.Contains(last, "<th>generator</th>") || strings.Contains(last, `class="finding"`) || strings.Contains(last, `class="divergence"`) {
		t.Error("the per-generator table is not alone in the last, collapsed section")
	}
	for i := range o.Report.Findings {
		f := &o.Report.Findings[i]
		a := findingAnchor(f)
		if !strings.Contains(page, `id="`+a+`"`) || !strings.Contains(page, `href="#`+a+`"`) {
			t.Errorf("finding %s has no anchor %s linked from the index", f.Signature, a)
		}
	}
	e := &o.Report.Divergences.Examples[0]
	if e.BaselineModule == nil || e.CurrentModule == nil {
		t.Fatalf("the first divergence kept no modules")
	}
	block := page[strings.Index(page, `id="`+divergenceAnchor(e)+`"`):]
	block = block[:strings.Index(block[1:], `<div class="divergence"`)+1]
	for _, want := range []string{"<th>baseline verdict</th><td>" + e.Baseline, "<th>current verdict</th><td>" + e.Current,
		"baseline: " + e.Baseline, "current: " + e.Current, `class="diff"`, `class="del"`, `class="add"`} {
		if !strings.Contains(block, want) {
			t.Errorf("divergence %d lacks %q", e.Index, want)
		}
	}
	if n := strings.Count(block, "<svg"); n != 3 {
		t.Errorf("divergence %d has %d pictures, want the graph and both sides'", e.Index, n)
	}
	links := regexp.MustCompile(`href="(pictures/[^"]+\.dot)"`).FindAllStringSubmatch(page, -1)
	if len(links) == 0 || len(links) != strings.Count(page, "<figure><svg") {
		t.Errorf("%d Graphviz links for %d pictures", len(links), strings.Count(page, "<figure><svg"))
	}
	for _, l := range links {
		if d, err := os.ReadFile(filepath.Join(c.Dir, l[1])); err != nil || !strings.HasPrefix(string(d), "digraph") {
			t.Errorf("%s: %v %.40q", l[1], err, d)
		}
	}
}

// An interrupted campaign's summary says so in its status row.
func TestHTMLStatusIncomplete(t *testing.T) {
	rep := &Report{Incomplete: &Incomplete{Reason: "interrupted"}, Outcomes: zeroCounts(Outcomes)}
	if h := HTML(rep); !strings.Contains(h, `<th>status</th><td><strong class="incomplete">incomplete: `) {
		t.Errorf("status row: %s", h[:min(len(h), 2000)])
	}
}

func TestMinimizedReplay(t *testing.T) {
	s := &Settings{Seed: 1, Walks: 16, Strategy: "structured", Inject: []string{"swap-arms"}}
	f := &Finding{Signature: "exec:trace-mismatch", Strategy: "dispatch", Minimized: "{{0, 1}, {}}"}
	if got, want := MinimizedReplay(s, f), `echo '{{0, 1}, {}}' | cfgfuzz check --strategy dispatch --inject swap-arms`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := MinimizedReplay(s, &Finding{}); got != "" {
		t.Errorf("a finding not minimized has a replay %q", got)
	}
}

func TestLineDiffAndHunks(t *testing.T) {
	d := LineDiff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nX\ne\nf\ng\nh\n")
	var ops strings.Builder
	for _, l := range d {
		ops.WriteByte(l.Op)
	}
	if ops.String() != "   -+    " {
		t.Errorf("ops %q", ops.String())
	}
	h := Hunks(d, 1)
	if len(h) != 6 || h[0].Op != '@' || h[0].Text != "2 unchanged lines" || h[2].Text != "d" || h[3].Text != "X" || h[5].Op != '@' {
		t.Errorf("hunks %+v", h)
	}
}

func TestHTMLStatusSaysIncompleteOnce(t *testing.T) {
	rep := &Report{Incomplete: &Incomplete{Reason: "interrupted (SIGINT)", Done: 49, Planned: 300}, Outcomes: zeroCounts(Outcomes)}
	if h := HTML(rep); strings.Contains(h, "incomplete: incomplete") || !strings.Contains(h, "incomplete: interrupted (SIGINT) at 49 of 300 graph indices") {
		t.Errorf("status row: %s", h[:min(len(h), 2000)])
	}
}

func TestHTMLSaysWhichGraphsHaveNoVerdict(t *testing.T) {
	rep := &Report{Outcomes: zeroCounts(Outcomes), BaselineOutcomes: zeroCounts(Outcomes)}
	rep.Outcomes[OutOK], rep.Outcomes[OutError], rep.BaselineOutcomes[OutError] = 27, 3, 1
	rep.HarnessErrors = []Example{{Index: 4, Seed: 9, Graph: "{{1}, {}}", Current: "error", Detail: "checks: no verdict within 2ms (--check-timeout): exec still running"}}
	h := HTML(rep)
	if !strings.Contains(h, "<th>status</th><td><strong class=\"incomplete\">complete, but 3 graphs have no verdict on the current side and 1 on the baseline") {
		t.Errorf("the status row does not say that graphs have no verdict: %s", h[:min(len(h), 2000)])
	}
	if !strings.Contains(h, "Harness errors") || !strings.Contains(h, "no verdict within 2ms (--check-timeout): exec still running") {
		t.Errorf("the page does not list the harness errors: %s", h)
	}
}

func TestReplayOfGPUFindingRunsGPU(t *testing.T) {
	f := &Finding{Signature: "gpu:trace-mismatch", Minimized: "{{1}, {}}"}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Walks: 16, Seed: 1, GPUEvery: 1, Registers: 8}, `echo '{{1}, {}}' | cfgfuzz check --registers 8 --checks +gpu`},
		{Settings{Walks: 16, Seed: 1, GPUEvery: 1, GPUDevice: "any"}, `echo '{{1}, {}}' | cfgfuzz check --checks +gpu --gpu-device any`},
		{Settings{Walks: 16, Seed: 1, Checks: []string{"+gpu"}, GPUDevice: "any"}, `echo '{{1}, {}}' | cfgfuzz check --checks +gpu --gpu-device any`},
		{Settings{Walks: 16, Seed: 1, Checks: []string{"exec", "gpu"}}, `echo '{{1}, {}}' | cfgfuzz check --checks exec,gpu`},
		{Settings{Walks: 16, Seed: 1, Checks: []string{"-meta"}}, `echo '{{1}, {}}' | cfgfuzz check --checks -meta,+gpu`},
	} {
		if got := MinimizedReplay(&c.s, f); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	s := &Settings{Walks: 16, Seed: 1, GPUEvery: 1}
	if got, want := MinimizedReplay(s, &Finding{Signature: "exec:trace-mismatch", Minimized: "{{1}, {}}"}), `echo '{{1}, {}}' | cfgfuzz check`; got != want {
		t.Errorf("a finding of another check: got %s, want %s", got, want)
	}
}

// TestReplayCarriesJudgementSettings: the check limit, the target
// environment and the rules reading are in a replay command when they
// differ from check's defaults, and only then.
func TestReplayCarriesJudgementSettings(t *testing.T) {
	f := &Finding{Signature: "exec:trace-mismatch", Minimized: "{{1}, {}}"}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Walks: 16, Seed: 1, CheckTimeout: Duration(DefaultCheckTimeout), TargetEnv: "vulkan1.1"}, `echo '{{1}, {}}' | cfgfuzz check`},
		{Settings{Walks: 16, Seed: 1, CheckTimeout: Duration(5 * time.Minute)}, `echo '{{1}, {}}' | cfgfuzz check --check-timeout 5m0s`},
		{Settings{Walks: 16, Seed: 1, TargetEnv: "vulkan1.3", RulesCompat: "spirv-tools-2023.1"}, `echo '{{1}, {}}' | cfgfuzz check --target-env vulkan1.3 --rules-compat spirv-tools-2023.1`},
	} {
		if got := MinimizedReplay(&c.s, f); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestReportTitleSaysComparison: a report with a baseline (compare, run
// --baseline) is headed as a comparison in report.md and report.html,
// one without as a campaign.
func TestReportTitleSaysComparison(t *testing.T) {
	for _, c := range []struct{ baseline, title string }{{"rev:" + strings.Repeat("a", 40), "cfgfuzz comparison"}, {"", "cfgfuzz campaign"}} {
		rep := &Report{Settings: Settings{Current: "self", Baseline: c.baseline}, Outcomes: map[string]int{}}
		if c.baseline != "" {
			rep.Divergences = &Divergences{Classes: map[string]int{}}
		}
		if md := Markdown(rep); !strings.HasPrefix(md, "# "+c.title+"\n") {
			t.Errorf("baseline %q: report.md begins %q, want the heading %q", c.baseline, md[:min(len(md), 40)], c.title)
		}
		if h := HTML(rep); !strings.Contains(h, "<title>"+c.title+"</title>") || !strings.Contains(h, "<h1>"+c.title+"</h1>") {
			t.Errorf("baseline %q: report.html lacks the title and heading %q", c.baseline, c.title)
		}
	}
}

// TestReportsSayRegisters: a campaign with --registers N says so in
// report.md (its campaign line and summary) and report.html (its
// campaign row and summary); one without says nothing of registers.
func TestReportsSayRegisters(t *testing.T) {
	rep := &Report{Settings: Settings{Current: "self", Registers: 64}, Outcomes: map[string]int{}}
	md, h := Markdown(rep), HTML(rep)
	for _, want := range []string{", register file of 64 (`--registers 64`)", "Every module carried a register file of 64 values (--registers 64)"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	for _, want := range []string{"register file of 64 (--registers 64)</td>", "Every module carried a register file of 64 values"} {
		if !strings.Contains(h, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	rep.Settings.Registers = 0
	if md, h := Markdown(rep), HTML(rep); strings.Contains(md, "register") || strings.Contains(h, "register") {
		t.Error("a report without registers mentions them")
	}
}

// TestStateFindingCountsSayWhatTheyCover: report.html's findings row
// counts tonight's signatures by class apart from the state's others, so
// its numbers add up.
func TestStateFindingCountsSayWhatTheyCover(t *testing.T) {
	rep := &Report{Findings: make([]Finding, 3), State: &StateReport{Classes: map[string]int{ClassNew: 1, ClassKnown: 2, ClassFixed: 1}}}
	if got, want := findingCounts(rep), "3 signatures tonight: 1 new, 2 known, 0 ignored; of the state's others, 1 fixed, 0 unverified"; got != want {
		t.Errorf("findings row %q, want %q", got, want)
	}
}
