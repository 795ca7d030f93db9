// repo_project_flags_test.go: --build and --serve on every command that
// takes a structurizer spec. In a repository without .cfgfuzz.json, a
// comparison and a campaign given the two commands print replay commands
// that run as printed (sh -c, the built binary) and fail as the finding
// did; the regression file a comparison saves records the commands, and
// regress rebuilds the revision with them, its own replay command running
// as printed too. Given where no structurizer is a repo: spec, the flags
// are a usage error naming them.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// toyBuild and toyServe are toyConfig's commands, given as flags.
const (
	toyBuild = "python3 -m py_compile toy.py && cp toy.py {out}/toy.py"
	toyServe = "python3 {out}/toy.py"
)

// replayLine is the command of a FAIL line of regress ("; replay: CMD",
// and a note on the commit judged after it).
func replayLine(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if _, cmd, ok := strings.Cut(l, "; replay: "); ok && strings.HasPrefix(l, "FAIL ") {
			cmd, _, _ = strings.Cut(cmd, " (judged on the commit")
			return cmd
		}
	}
	t.Fatalf("no FAIL line with a replay command:\n%s", out)
	return ""
}

func TestCommandLineProjectReplaysAsPrinted(t *testing.T) {
	cfgfuzzBinary(t) // built here, before cliIn leaves the package's directory
	ownBuildCache(t)
	repo, good, bad := plantedToyRepo(t, "")
	work, regs := t.TempDir(), t.TempDir()
	out := filepath.Join(work, "compare")
	code, _, stderr := cliIn(t, work, "compare", "--repo", repo, "--build", toyBuild, "--serve", toyServe, "--baseline", good, "--current", bad,
		"--kinds", "exhaustive", "--graphs", "40", "--progress", "none", "--save-regressions", regs, "--out", out)
	rep := readCampaignReport(t, out)
	if code != exitFail || rep.NewFindings == 0 {
		t.Fatalf("compare: exit %d, %d new findings; want 1 and some\n%s", code, rep.NewFindings, stderr)
	}
	if strings.Contains(stderr, "warning: --") {
		t.Errorf("compare warns of its --build or --serve:\n%s", stderr)
	}
	flags := " --build " + fuzz.ShellQuote(toyBuild) + " --serve " + fuzz.ShellQuote(toyServe)
	for _, f := range rep.Findings {
		want := "cfgfuzz check --structurizer " + fuzz.ShellQuote("repo:"+repo+"@"+bad) + flags
		if !strings.Contains(f.Replay, want) {
			t.Errorf("%s: replay %q, want it to hold %q", f.Signature, f.Replay, want)
		}
		code, text := shellReplay(t, work, f.Replay)
		if code != exitFail || !strings.Contains(text, "FAIL "+f.Signature) {
			t.Errorf("the printed replay %s, run: exit %d, want 1 failing with %s:\n%s", f.Replay, code, f.Signature, text)
		}
	}

	// The findings store's minimized graph records them, and check's note
	// on a file judged elsewhere names them with its structurizer.
	mins, _ := filepath.Glob(filepath.Join(out, "findings", "*", "*", "min.cfg"))
	if len(mins) == 0 {
		t.Fatal("no min.cfg in the findings store")
	}
	if m, err := corpus.ReadRegression(mins[0]); err != nil || m.Header.Build != toyBuild || m.Header.Serve != toyServe {
		t.Errorf("%s: header %+v, %v; want build %q and serve %q", mins[0], m.Header, err, toyBuild, toyServe)
	}
	_, _, stderr = cliIn(t, work, "check", mins[0])
	if want := "judge it with --structurizer " + fuzz.ShellQuote("repo:"+repo+"@"+bad) + flags; !strings.Contains(stderr, want) {
		t.Errorf("check of %s on this tree's structurizer: want a note naming %q:\n%s", mins[0], want, stderr)
	}

	// The regression file records the commands; regress rebuilds the
	// revision with them, and its replay command runs as printed.
	files, err := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression file saved in %s: %v", regs, err)
	}
	r, err := corpus.ReadRegression(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Build != toyBuild || r.Header.Serve != toyServe || r.Header.Structurizer != "repo:"+repo+"@"+bad {
		t.Errorf("the regression header records structurizer %q, build %q, serve %q; want the current side, %q and %q", r.Header.Structurizer, r.Header.Build, r.Header.Serve, toyBuild, toyServe)
	}
	// --checks exec: the replay runs the test's binary, which a build
	// with -tags vulkan would otherwise send a gpu check it lacks.
	code, stdout, stderr := cliIn(t, work, "regress", "--checks", "exec", files[0])
	if code != exitFail || strings.Contains(stderr, "no serve command") {
		t.Fatalf("regress of the saved file: exit %d, want 1 (the recorded revision fails it)\n%s%s", code, stdout, stderr)
	}
	replay := replayLine(t, stdout+stderr)
	if !strings.Contains(replay, flags) {
		t.Errorf("regress's replay %q lacks %q", replay, flags)
	}
	if code, text := shellReplay(t, work, replay); code != exitFail {
		t.Errorf("regress's printed replay %s, run: exit %d, want 1:\n%s", replay, code, text)
	}
	// --structurizer with the flags judges the good revision the same way.
	code, stdout, stderr = cliIn(t, work, "regress", "--structurizer", "repo:"+repo+"@"+good, "--build", toyBuild, "--serve", toyServe, files[0])
	if code == exitUsage {
		t.Errorf("regress on the good revision with --build and --serve: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestRunReplaysACommandLineProject: run's --structurizer repo:DIR@REV
// with --build and --serve, and no .cfgfuzz.json: its findings' replay
// commands run as printed.
func TestRunReplaysACommandLineProject(t *testing.T) {
	cfgfuzzBinary(t) // built here, before cliIn leaves the package's directory
	ownBuildCache(t)
	repo, _, bad := plantedToyRepo(t, "")
	work := t.TempDir()
	out := filepath.Join(work, "run")
	code, _, stderr := cliIn(t, work, "run", "--structurizer", "repo:"+repo+"@"+bad, "--build", toyBuild, "--serve", toyServe,
		"--kinds", "exhaustive", "--graphs", "12", "--minimize=false", "--progress", "none", "--out", out)
	rep := readCampaignReport(t, out)
	if code != exitFail || len(rep.Findings) == 0 || rep.Settings.Project == nil || rep.Settings.Project.Build != toyBuild {
		t.Fatalf("run: exit %d, %d findings, project %+v; want 1, some, and the commands recorded\n%s", code, len(rep.Findings), rep.Settings.Project, stderr)
	}
	f := rep.Findings[0]
	if code, text := shellReplay(t, work, f.Replay); code != exitFail || !strings.Contains(text, "FAIL "+f.Signature) {
		t.Errorf("the printed replay %s, run: exit %d, want 1 failing with %s:\n%s", f.Replay, code, f.Signature, text)
	}
}

// TestProjectFlagsNeedARepoSpec: --build or --serve where no structurizer
// of the command is a repo: spec is a usage error naming the flag, before
// anything is built or judged.
func TestProjectFlagsNeedARepoSpec(t *testing.T) {
	dir := t.TempDir()
	g := filepath.Join(dir, "g.cfg")
	writeFile(t, g, "{{}}\n")
	regs := filepath.Join(dir, "regs")
	writeFile(t, filepath.Join(regs, "a.cfg"), "# signature: none\n{{}}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--build", "make", g}, "cfgfuzz check: --build: builds and serves a repo:DIR@REV structurizer only, and this command's is self"},
		{[]string{"check", "--structurizer", "cmd:./adapter", "--serve", "x", g}, "--serve: builds and serves a repo:DIR@REV structurizer only, and this command's is cmd:"},
		{[]string{"minimize", "--build", "make", "--serve", "x", g}, "--build and --serve: builds and serves a repo:DIR@REV structurizer only"},
		{[]string{"regress", "--structurizer", "isolated", "--build", "make", regs}, "--build: builds and serves a repo:DIR@REV structurizer only, and this command's is isolated"},
		{[]string{"regress", "--serve", "x", regs}, "--serve: builds and serves a repo:DIR@REV structurizer only, and this command's is self (the structurizers the files record"},
		{[]string{"selftest", "--structurizer", "isolated", "--build", "make"}, "--build: builds and serves a repo:DIR@REV structurizer only"},
		{[]string{"run", "--build", "make", "--graphs", "1", "--progress", "none", "--out", filepath.Join(dir, "run")}, "cfgfuzz run: --build: builds and serves a repo:DIR@REV structurizer only, and this command's is self"},
		{[]string{"compare", "--baseline-structurizer", "self", "--current", "self", "--serve", "x", "--graphs", "1", "--progress", "none", "--out", filepath.Join(dir, "compare")}, "--serve: builds and serves a repo:DIR@REV structurizer only, and this command's is self and self"},
	} {
		code, _, stderr := runCmd(c.args, "")
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
		t.Error("run refused for its --build made its output directory")
	}
}

// TestRegressionHeaderProjectTravels: a header's build and serve commands
// write their paths inside the file's git work tree from {repo}, and read
// them back from where the file lies.
func TestRegressionHeaderProjectTravels(t *testing.T) {
	top := t.TempDir()
	writeFile(t, filepath.Join(top, ".git"), "gitdir: elsewhere\n")
	regs := filepath.Join(top, "regs")
	h := portableHeader(corpus.Header{Structurizer: "repo:" + top + "@abc", Build: "make -C " + filepath.Join(top, "tools") + " OUT={out}", Serve: filepath.Join(top, "bin", "server") + " --fast"}, regs)
	if h.Build != "make -C {repo}/tools OUT={out}" || h.Serve != "{repo}/bin/server --fast" || h.Structurizer != "repo:{repo}@abc" {
		t.Errorf("portable header: structurizer %q, build %q, serve %q", h.Structurizer, h.Build, h.Serve)
	}
	p, err := recordedProject(&corpus.Regression{Path: filepath.Join(regs, "a.cfg"), Header: h})
	if err != nil || p.Build != "make -C "+filepath.Join(top, "tools")+" OUT={out}" || p.Serve != filepath.Join(top, "bin", "server")+" --fast" {
		t.Errorf("read back: %+v, %v", p, err)
	}
}
