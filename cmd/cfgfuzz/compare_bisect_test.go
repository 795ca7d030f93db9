// compare_bisect_test.go: the bisect command `cfgfuzz compare --repo DIR`
// prints for a new finding, run as printed with the built binary: on a
// feature branch against a trunk that moved on (the sides diverge), from
// their merge base, with the --build and --serve the comparison was given
// (the repository has no .cfgfuzz.json), it finds the commit that planted
// the bug; a current side older than the baseline gets no bisect command
// and one line why.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
)

// serveScript is a structurizer server for a repository of the tests:
// the built cfgfuzz's own, with swap-arms planted when planted is set.
func serveScript(t *testing.T, planted bool) string {
	script := "exec " + fuzz.ShellQuote(cfgfuzzBinary(t)) + " structurize"
	if planted {
		script += " --inject swap-arms"
	}
	return script + "\n"
}

// TestCompareBisectOfDivergingSidesRunsAsPrinted: in a repository without
// .cfgfuzz.json, trunk (base, then a docs commit), feature (base, notes,
// the commit that plants swap-arms, more notes) and after feature a
// commit that removes it again.
func TestCompareBisectOfDivergingSidesRunsAsPrinted(t *testing.T) {
	ownBuildCache(t)
	repo := filepath.Join(t.TempDir(), "server")
	writeFile(t, filepath.Join(repo, "serve.sh"), serveScript(t, false))
	gitIn(t, repo, "init", "-q")
	base := commitAll(t, repo, "server: cfgfuzz's own")
	gitIn(t, repo, "branch", "-M", "trunk")
	writeFile(t, filepath.Join(repo, "README"), "a server\n")
	commitAll(t, repo, "docs")
	gitIn(t, repo, "checkout", "-q", "-b", "feature", base)
	writeFile(t, filepath.Join(repo, "NOTES"), "notes\n")
	commitAll(t, repo, "notes")
	writeFile(t, filepath.Join(repo, "serve.sh"), serveScript(t, true))
	planted := commitAll(t, repo, "server: swap-arms planted")
	writeFile(t, filepath.Join(repo, "NOTES"), "more notes\n")
	feature := commitAll(t, repo, "more notes")
	gitIn(t, repo, "checkout", "-q", "-b", "fixed")
	writeFile(t, filepath.Join(repo, "serve.sh"), serveScript(t, false))
	fixed := commitAll(t, repo, "server: swap-arms removed")
	build, serve := "sh -n serve.sh && cp serve.sh {out}/serve.sh", "sh {out}/serve.sh"
	work := t.TempDir()
	compare := func(name, baseline, current string) (string, *fuzz.Report) {
		out := filepath.Join(work, name)
		code, stdout, stderr := cliIn(t, work, "compare", "--repo", repo, "--build", build, "--serve", serve, "--baseline", baseline, "--current", current,
			"--kinds", "reducible", "--graphs", "24", "--progress", "none", "--out", out)
		rep := readCampaignReport(t, out)
		if code != exitFail || rep.NewFindings == 0 {
			t.Fatalf("compare %s: exit %d, %d new findings; want 1 and some\n%s", name, code, rep.NewFindings, stderr)
		}
		return stdout, rep
	}

	stdout, rep := compare("diverged", "trunk", "feature")
	if b, err := os.ReadFile(filepath.Join(work, "diverged", "report.json")); err != nil || schema.Validate(b) != nil {
		t.Errorf("report.json of diverging sides does not validate: %v %v", err, schema.Validate(b))
	}
	if rep.Sides == nil || rep.Sides.MergeBase != base || !strings.Contains(stdout, "between the sides: the sides diverge: 3 commits on the current side, 1 on the baseline's") {
		t.Errorf("sides %+v, want the merge base %s and the sides diverging", rep.Sides, base[:7])
	}
	bisected := false
	for _, f := range rep.Findings {
		if f.New == 0 {
			continue
		}
		line := "    bisect (from the sides' merge base " + base[:7] + ", taken as good; bisect judges it first): " + f.Bisect + "\n"
		want := "cfgfuzz bisect --repo " + fuzz.ShellQuote(repo) + " --build " + fuzz.ShellQuote(build) + " --serve " + fuzz.ShellQuote(serve) + " --good " + base + " --bad " + feature + " "
		if !strings.HasPrefix(f.Bisect, want) || !strings.Contains(stdout, line) {
			t.Errorf("%s: bisect %q, want it to start %q, in the summary as %q", f.Signature, f.Bisect, want, line)
		}
		if bisected {
			continue
		}
		bisected = true
		code, text := shellReplay(t, work, f.Bisect)
		t.Logf("%s:\n%s", f.Bisect, text)
		if code != exitOK || !strings.Contains(text, "first "+planted+" ") || !strings.Contains(text, "\": invalid: "+f.Signature) || !strings.Contains(text, "good  "+base+": ok") {
			t.Errorf("the printed bisect, run: exit %d, want 0 judging the merge base first and finding %s:\n%s", code, planted[:12], text)
		}
	}
	if !bisected {
		t.Fatal("no new finding")
	}

	// The feature's tip against the fix after it: the current side is
	// older, a fix between them is not what bisect finds.
	stdout, rep = compare("older", fixed, feature)
	for _, f := range rep.Findings {
		if f.Bisect != "" {
			t.Errorf("%s: bisect %q, want none: the current side is older", f.Signature, f.Bisect)
		}
	}
	if want := "\n  no bisect command: the current side is older than the baseline, so a graph it fails and the baseline passes was fixed between them, and bisect finds where a failure began, not a fix\n"; !strings.Contains(stdout, want) || strings.Contains(stdout, "    bisect") {
		t.Errorf("the summary of an older current side lacks %q, or has a bisect line:\n%s", want, stdout)
	}
}

// TestBisectHelpSaysWhatGoodMustBe: bisect -h says --good must be an
// ancestor of --bad, how a diverging branch is bisected, and that the
// good commit is judged first.
func TestBisectHelpSaysWhatGoodMustBe(t *testing.T) {
	_, out, errs := runCmd([]string{"bisect", "-h"}, "")
	help := strings.Join(strings.Fields(out+errs), " ")
	for _, want := range []string{"--good must be an ancestor of --bad", "give --good their merge base", "The good commit is judged first"} {
		if !strings.Contains(help, want) {
			t.Errorf("bisect -h lacks %q:\n%s", want, out+errs)
		}
	}
}
