// adapter_everyuse_test.go: a structurizer that is not cfgfuzz's, the C++
// example adapter built with g++, through every use of the tool: its
// history in a temporary git repository (a clean commit, an unrelated one,
// the commit that plants swap-arms in its source, one more) compared by
// revision with --repo (built by the repository's .cfgfuzz.json), the
// finding minimized to at most 8 blocks, checked, saved as a regression
// and replayed by regress (JUnit XML parsed), bisected to the planting
// commit, and every replay command the compare report prints run as
// printed.
package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// adapterRepo is a git repository holding the C++ adapter with a build and
// serve config, and its four commits: clean, unrelated, planted, after.
func adapterRepo(t *testing.T) (repo string, commits [4]string) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ not installed: the C++ adapter is not built")
	}
	repo = filepath.Join(t.TempDir(), "adapter")
	src := filepath.Join(examplesDir(t), "cpp-adapter")
	for _, f := range []string{"cfgfuzz_protocol.hpp", "dispatch_adapter.cpp"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(repo, f), string(b))
	}
	// The build names itself by the commit it builds (ADAPTERS.md).
	writeFile(t, filepath.Join(repo, ".cfgfuzz.json"),
		`{"build": "g++ -std=c++17 -O0 -DCFGFUZZ_BUILD_NAME='\"adapter (git {rev})\"' -o {out}/adapter dispatch_adapter.cpp", "serve": "{out}/adapter"}`)
	gitIn(t, repo, "init", "-q")
	commits[0] = commitAll(t, repo, "adapter: the dispatch loop")
	gitIn(t, repo, "tag", "v1.0")
	writeFile(t, filepath.Join(repo, "NOTES"), "an unrelated change\n")
	commits[1] = commitAll(t, repo, "notes")
	editFile(t, filepath.Join(repo, "dispatch_adapter.cpp"), "bool swap_arms = false;", "bool swap_arms = true;")
	commits[2] = commitAll(t, repo, "adapter: a conditional's arms, swapped")
	writeFile(t, filepath.Join(repo, "NOTES"), "another unrelated change\n")
	commits[3] = commitAll(t, repo, "more notes")
	return repo, commits
}

func TestCppAdapterEveryUse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four revisions of the C++ adapter")
	}
	ownBuildCache(t)
	cfgfuzzBinary(t) // the replays' cfgfuzz, built before the tests leave this directory
	repo, c := adapterRepo(t)
	work := t.TempDir()

	// compare: the planted commit's findings are new against the clean one,
	// the sides named as given, by commit and subject, 3 commits apart, and
	// by the build name each declares.
	out := filepath.Join(work, "compare")
	code, stdout, _ := cliIn(t, work, "compare", "--repo", repo, "--baseline", "v1.0", "--current", "HEAD",
		"--graphs", "200", "--progress", "none", "--out", out)
	rep := readCampaignReport(t, out)
	if code != exitFail || rep.NewFindings == 0 {
		t.Fatalf("compare clean -> planted: exit %d, %d new findings; want 1 and some", code, rep.NewFindings)
	}
	checkSidesNamed(t, rep, out, stdout, c)
	var sig, minimized string
	for _, f := range rep.Findings {
		if f.New > 0 && f.Minimized != "" {
			sig, minimized = f.Signature, f.Minimized
			break
		}
	}
	if sig == "" {
		t.Fatalf("no new finding was minimized: %+v", rep.Findings)
	}
	g, err := cfg.ParseCompact(minimized, cfg.Limits{})
	if err != nil || g.Len() > 8 {
		t.Fatalf("minimized %q: %v blocks, %v; want at most 8", minimized, g.Len(), err)
	}

	// Every replay command of the report, run as printed, reproduces.
	for _, f := range rep.Findings {
		if f.Replay == "" {
			t.Errorf("%s: no replay command", f.Signature)
			continue
		}
		if code, text := shellReplay(t, work, f.Replay); code != exitFail || !strings.Contains(text, f.Signature) {
			t.Errorf("replay of %s, as printed: exit %d, want 1 and the signature:\n%s\n%s", f.Signature, code, f.Replay, text)
		}
	}

	planted := "repo:" + repo + "@" + c[2]
	clean := "repo:" + repo + "@" + c[0]
	graph := filepath.Join(work, "min.cfg")
	writeFile(t, graph, minimized+"\n")

	// check: the minimized graph fails on the planted revision, passes on the clean one.
	if code, stdout, _ := cliIn(t, work, "check", "--structurizer", planted, graph); code != exitFail || !strings.Contains(stdout, sig) {
		t.Errorf("check on the planted revision: exit %d, want 1 with %s:\n%s", code, sig, stdout)
	}
	if code, stdout, _ := cliIn(t, work, "check", "--structurizer", clean, graph); code != exitOK {
		t.Errorf("check on the clean revision: exit %d, want 0:\n%s", code, stdout)
	}

	// minimize: the first failing graph of the compare, shrunk again on the
	// planted revision and saved as a regression.
	regs := filepath.Join(work, "regressions")
	if code, stdout, stderr := cliIn(t, work, "minimize", "--structurizer", planted, "--regressions", regs, "--save-regression", "swapped-arms", graph); code != exitOK {
		t.Fatalf("minimize: exit %d\n%s%s", code, stdout, stderr)
	}

	// regress: the saved file fails on the planted revision, passes on the clean one.
	junit := filepath.Join(work, "junit.xml")
	if code, stdout, _ := cliIn(t, work, "regress", regs, "--structurizer", planted, "--junit", junit); code != exitFail {
		t.Errorf("regress on the planted revision: exit %d, want 1:\n%s", code, stdout)
	}
	var suites struct {
		XMLName  xml.Name `xml:"testsuites"`
		Failures int      `xml:"failures,attr"`
		Tests    int      `xml:"tests,attr"`
	}
	if b, err := os.ReadFile(junit); err != nil || xml.Unmarshal(b, &suites) != nil || suites.Tests == 0 || suites.Failures == 0 {
		t.Errorf("JUnit XML of the failing regress: %v, %+v", err, suites)
	}
	if code, stdout, _ := cliIn(t, work, "regress", regs, "--structurizer", clean); code != exitOK {
		t.Errorf("regress on the clean revision: exit %d, want 0:\n%s", code, stdout)
	}

	// bisect: the first commit whose verdict differs is the planting one.
	code, stdout, _ = cliIn(t, work, "bisect", "--repo", repo, "--good", c[0], "--bad", c[3], graph)
	if code != exitOK || !strings.Contains(stdout, c[2]) {
		t.Errorf("bisect: exit %d, want 0 naming %s:\n%s", code, c[2][:12], stdout)
	}
	// The bisect command the compare printed for a new finding, run as
	// printed (on the store's min.cfg), finds it too.
	for _, f := range rep.Findings {
		if f.New == 0 {
			continue
		}
		if code, text := shellReplay(t, work, f.Bisect); code != exitOK || !strings.Contains(text, c[2]) {
			t.Errorf("the compare's bisect of %s, as printed: exit %d, want 0 naming %s:\n%s\n%s", f.Signature, code, c[2][:12], f.Bisect, text)
		}
		break
	}
}

// checkSidesNamed: the compare of v1.0 (commits[0]) and HEAD (commits[3])
// in out names each side as given with its short commit and subject in
// report.json, the summary, report.md and report.html, says the sides
// are 3 commits apart, names the build each side's hello declared, and
// gives each new finding a bisect command between the two commits on its
// store entry's min.cfg.
func checkSidesNamed(t *testing.T, rep *fuzz.Report, out, stdout string, c [4]string) {
	t.Helper()
	sd := rep.Sides
	if sd == nil || sd.Baseline.Given != "v1.0" || sd.Baseline.Commit != c[0] || sd.Baseline.Subject != "adapter: the dispatch loop" ||
		sd.Current.Given != "HEAD" || sd.Current.Commit != c[3] || sd.Current.Subject != "more notes" ||
		sd.Ahead == nil || *sd.Ahead != 3 || sd.Behind == nil || *sd.Behind != 0 {
		t.Errorf("report.json's sides: %+v, want v1.0 and HEAD by commit and subject, 3 commits apart", sd)
	}
	base := `v1.0 (` + c[0][:7] + ` "adapter: the dispatch loop")`
	cur := `HEAD (` + c[3][:7] + ` "more notes")`
	md, html := readFile(t, filepath.Join(out, "report.md")), readFile(t, filepath.Join(out, "report.html"))
	for what, text := range map[string]string{"the summary": stdout, "report.md": md, "report.html": strings.ReplaceAll(html, "&#34;", `"`)} {
		for _, want := range []string{base, cur, "3 commits from the baseline to the current side"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not name %q:\n%s", what, want, text)
			}
		}
	}
	for side, commit := range map[string]string{"current": c[3], "baseline": c[0]} {
		if h := rep.Declared[side]; h == nil || h.Name != "adapter (git "+commit+")" {
			t.Errorf("the %s side declares %+v, want the build named by its commit", side, h)
		}
	}
	for _, f := range rep.Findings {
		if f.New == 0 {
			continue
		}
		want := "cfgfuzz bisect --repo " + fuzz.ShellQuote(rep.Sides.Repo) + " --good " + c[0] + " --bad " + c[3]
		if !strings.HasPrefix(f.Bisect, want) || !strings.HasSuffix(f.Bisect, "min.cfg") || !strings.Contains(stdout, "    bisect: "+f.Bisect+"\n") ||
			!strings.Contains(md, f.Bisect) {
			t.Errorf("%s: bisect %q, want %q ... PATH/min.cfg in report.json, the summary and report.md", f.Signature, f.Bisect, want)
		}
	}
}
