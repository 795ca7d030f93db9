// repo_compare_test.go: `cfgfuzz compare --repo DIR` on revisions of a
// repository that is not cfgfuzz's (a Python toy server): the build and
// serve commands from .cfgfuzz.json or the command line, a revision that
// plants a bug found as new, a kept checkout ({worktree} in the serve
// command), the working tree as the default current side, and a failing
// build's output shown.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestCompareRevisionsOfAnotherRepository(t *testing.T) {
	ownBuildCache(t)
	repo, good, bad := plantedToyRepo(t, toyConfig)
	out := t.TempDir()
	compare := func(name string, extra ...string) (int, string, string, *fuzz.Report) {
		dir := filepath.Join(out, name)
		args := append([]string{"compare", "--repo", repo, "--kinds", "exhaustive", "--graphs", "40", "--minimize=false", "--progress", "none", "--out", dir}, extra...)
		code, stdout, stderr := cliIn(t, t.TempDir(), args...)
		if code == exitUsage {
			return code, stdout, stderr, nil
		}
		return code, stdout, stderr, readCampaignReport(t, dir)
	}

	code, _, _, rep := compare("bug", "--baseline", good, "--current", bad)
	if code != exitFail || rep == nil || rep.NewFindings == 0 {
		t.Fatalf("good -> bad: exit %d, report %v", code, rep)
	}
	for _, f := range rep.Findings {
		if f.Signature != "structurize:error:toy: planted bug" {
			t.Errorf("finding %s", f.Signature)
		}
	}
	if want := "repo:" + repo + "@" + bad; rep.Settings.Current != want || rep.Settings.Baseline != "repo:"+repo+"@"+good {
		t.Errorf("sides %q and %q, want %q and @%s", rep.Settings.Current, rep.Settings.Baseline, want, good)
	}

	// The command line's commands, the checkout kept for the serve command.
	code, _, _, rep = compare("worktree", "--baseline", good, "--current", good, "--build", "true", "--serve", "python3 {worktree}/toy.py")
	if code != exitOK || rep.Divergences.Classes[fuzz.ClassSame] != 40 {
		t.Fatalf("good -> good served from the checkout: exit %d", code)
	}
	if wts := gitIn(t, repo, "worktree", "list"); !strings.Contains(wts, good[:7]) {
		t.Errorf("the served checkout is not among the worktrees:\n%s", wts)
	}

	// The working tree, uncommitted: the bug removed again.
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(0))
	code, _, _, rep = compare("tree", "--baseline", bad)
	if code != exitOK || !strings.HasPrefix(rep.Settings.Current, "repo:"+repo+"@"+bad+"+dirty:") || rep.Divergences.BaselineFindings == 0 || rep.Outcomes[fuzz.OutRefused] != 40 {
		t.Errorf("the working tree against the bug: exit %d, current %q, baseline findings %d, outcomes %v", code, rep.Settings.Current, rep.Divergences.BaselineFindings, rep.Outcomes)
	}

	// A build that fails shows its output.
	writeFile(t, filepath.Join(repo, "toy.py"), "def broken(:\n")
	broken := commitAll(t, repo, "toy: a syntax error")
	code, _, stderr, _ := compare("broken", "--baseline", good, "--current", broken)
	if code != exitUsage || !strings.Contains(stderr, "SyntaxError") || !strings.Contains(stderr, "py_compile") {
		t.Errorf("a failing build: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestCompareRepoNeedsAServeCommand(t *testing.T) {
	repo, good := toyRepo(t, "")
	code, _, stderr := cliIn(t, t.TempDir(), "compare", "--repo", repo, "--baseline", good, "--graphs", "1", "--progress", "none", "--out", filepath.Join(t.TempDir(), "o"))
	if code != exitUsage || !strings.Contains(stderr, "no serve command") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".cfgfuzz.json")); err == nil {
		t.Error("the test repository has a config")
	}
}

// TestRepoSpecProjectOfFileAndFlags: check of a repo spec without
// .cfgfuzz.json and without --serve is an error naming both ways of giving
// the command; with the file, --build and --serve each replace the file's
// own, as compare's do.
func TestRepoSpecProjectOfFileAndFlags(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, "")
	g := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, g, "{{}}\n")
	spec := "repo:" + repo + "@" + good
	code, _, stderr := cliIn(t, t.TempDir(), "check", "--structurizer", spec, g)
	if code != exitUsage || !strings.Contains(stderr, `no serve command (put "build" and "serve" in its .cfgfuzz.json, or give --build and --serve)`) {
		t.Errorf("check of a repo spec without a project file: exit %d, stderr:\n%s", code, stderr)
	}
	// The file's serve command fails; --serve replaces it, the file's
	// build command stays.
	writeFile(t, filepath.Join(repo, ".cfgfuzz.json"), `{"build": "cp toy.py {out}/toy.py", "serve": "exit 3"}`)
	code, stdout, stderr := cliIn(t, t.TempDir(), "check", "--structurizer", spec, "--serve", "python3 {out}/toy.py", g)
	if code != exitFail || !strings.Contains(stdout, "FAIL structurize:refused") || !strings.Contains(stdout, "toy: refuses every graph") {
		t.Errorf("check with --serve over the file's: exit %d, want 1 with the toy's refusal:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = cliIn(t, t.TempDir(), "check", "--structurizer", spec, g)
	if code != exitUsage {
		t.Errorf("check with the file's failing serve command: exit %d, want 2:\n%s%s", code, stdout, stderr)
	}
}

// TestCompareRefusesAMissingBaselineBeforeBuilding: a baseline revision
// that does not exist is refused before the current side is built (the
// build command leaves a mark when it runs), as is a current one.
func TestCompareRefusesAMissingBaselineBeforeBuilding(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, "")
	for _, c := range []struct{ side, baseline, current, want string }{
		{"baseline", "v9.9", good, `baseline: revision "v9.9": not a commit of the git repository`},
		{"current", good, "v9.9", `current side: revision "v9.9": not a commit of the git repository`},
	} {
		mark := filepath.Join(t.TempDir(), "built")
		code, _, stderr := cliIn(t, t.TempDir(), "compare", "--repo", repo, "--baseline", c.baseline, "--current", c.current, "--graphs", "1",
			"--build", "touch "+mark, "--serve", "python3 {worktree}/toy.py", "--progress", "none", "--out", filepath.Join(t.TempDir(), "o"))
		_, err := os.Stat(mark)
		if code != exitUsage || !strings.Contains(stderr, c.want) || err == nil {
			t.Errorf("a missing %s revision: exit %d, built %v, stderr:\n%s\nwant %q before any build", c.side, code, err == nil, stderr, c.want)
		}
	}
}

// TestRepoFlagFromASubdirectory: --repo naming a directory inside the
// repository names the repository itself (builds run in a checkout's top,
// .cfgfuzz.json is read there): the sides' specs name the top, and a
// resume repeating --repo as a subdirectory, relative to where it runs,
// is the same setting.
func TestRepoFlagFromASubdirectory(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	sub := filepath.Join(repo, "sub", "dir")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	top, err := fuzz.RepoTop(repo)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "c")
	args := []string{"compare", "--repo", ".", "--baseline", good, "--current", good, "--kinds", "exhaustive", "--graphs", "4", "--minimize=false", "--progress", "none"}
	code, _, stderr := cliIn(t, sub, append(args, "--out", dir)...)
	if code != exitOK {
		t.Fatalf("compare --repo . in %s: exit %d\n%s", sub, code, stderr)
	}
	rep := readCampaignReport(t, dir)
	if want := "repo:" + top + "@" + good; rep.Settings.Baseline != want || rep.Settings.Current != want {
		t.Errorf("sides %q and %q, want both %q", rep.Settings.Baseline, rep.Settings.Current, want)
	}
	args[2] = filepath.Join("sub", "dir")
	code, _, stderr = cliIn(t, repo, append(args, "--resume", dir)...)
	if code != exitOK || strings.Contains(stderr, "changed from") {
		t.Errorf("resume repeating --repo as sub/dir: exit %d\n%s", code, stderr)
	}
}

// TestCompareOfOneRevisionNamesItsBuildOnce: both sides of a comparison
// of one revision with itself run one build, which the log names once:
// built the first time, found in the cache ("built before") the next.
func TestCompareOfOneRevisionNamesItsBuildOnce(t *testing.T) {
	ownBuildCache(t)
	repo, rev := toyRepo(t, toyConfig)
	for _, want := range []string{"cfgfuzz: built " + rev[:12] + " in ", "cfgfuzz: " + rev[:12] + " built before ("} {
		_, _, stderr := cliIn(t, t.TempDir(), "compare", "--repo", repo, "--baseline", rev, "--current", rev, "--kinds", "exhaustive", "--graphs", "2",
			"--minimize=false", "--progress", "none", "--out", filepath.Join(t.TempDir(), "o"))
		var builds []string // the build log's lines
		for _, l := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(l, "cfgfuzz: ") && !strings.HasPrefix(l, "cfgfuzz: building ") {
				builds = append(builds, l)
			}
		}
		if len(builds) != 1 || !strings.HasPrefix(builds[0], want) {
			t.Errorf("want %q once, and no other line naming the build:\n%s", want, stderr)
		}
	}
}
