// bisect_test.go: `cfgfuzz bisect` on a temporary repository of a Python
// toy server whose history plants a bug, with a commit whose build fails
// on the way (skipped, with its build's error), and on a copy of this tree whose history plants a
// panic in the structurizer (no --repo, --build or --serve).
package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestBisectFindsTheCommitThatPlantsTheBug(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	toy := filepath.Join(repo, "toy.py")
	writeFile(t, filepath.Join(repo, "README"), "a toy\n")
	commitAll(t, repo, "docs")
	writeFile(t, toy, "def broken(:\n")
	broken := commitAll(t, repo, "toy: a syntax error")
	writeFile(t, toy, toyServer(0))
	commitAll(t, repo, "toy: the syntax error fixed")
	writeFile(t, toy, toyServer(3))
	planted := commitAll(t, repo, "toy: planted bug on 3 blocks or more")
	writeFile(t, filepath.Join(repo, "README"), "a toy, still\n")
	bad := commitAll(t, repo, "docs again")
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {2}, {}}\n")

	code, stdout, stderr := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good, "--bad", bad, graph)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"good  " + good + ": refused",
		"first " + planted + ` "toy: planted bug on 3 blocks or more": invalid: structurize:error:toy: planted bug` + "\n",
		"skipped " + broken + ": build failed: exit status 1\n",
		"reproduce: cfgfuzz bisect --repo " + repo + " --good " + planted + "^ --bad " + planted + " " + graph,
		"note: the good commit does not pass the graph either (refused)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The skipped commit shows its build's error, and no path of the
	// build, removed once it failed.
	skip := regexp.MustCompile(`(?m)^skipped ` + broken + `: .*\n(    .*\n)*`).FindString(stdout)
	if !strings.Contains(skip, "SyntaxError") || strings.Contains(skip, "/") {
		t.Errorf("the skipped commit's lines should show the build's error and name no path:\n%s", skip)
	}
	// The counts: five commits after the good one, each step logged on
	// standard error either tested or skipped, the good commit's aside.
	m := regexp.MustCompile(`(?m)^5 commits after the good one, (\d+) tested, (\d+) skipped$`).FindStringSubmatch(stdout)
	steps := len(regexp.MustCompile(`(?m)^cfgfuzz bisect: [0-9a-f]{12}: `).FindAllString(stderr, -1))
	if m == nil || m[2] != "1" || m[1] != strconv.Itoa(steps-2) {
		t.Errorf("counts %q after %d steps logged, want 5 commits, 1 skipped and the others of the steps tested but the good one:\n%s", m, steps, stdout)
	}

	// The printed reproduction, run as printed, finds the same commit.
	code, again, _ := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", planted+"^", "--bad", planted, graph)
	if code != exitOK || !strings.Contains(again, "first "+planted+` "toy: planted bug on 3 blocks or more": invalid: structurize:error:toy: planted bug`) || !strings.Contains(again, "1 commit after the good one, 1 tested, 0 skipped\n") {
		t.Errorf("the reproduction: exit %d, want one commit after the good one, tested\n%s", code, again)
	}

	// A good commit that does not build is an error naming the build's output.
	code, _, stderr = cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", broken, "--bad", bad, graph)
	if code != exitUsage || !strings.Contains(stderr, "SyntaxError") {
		t.Errorf("a good commit that does not build: exit %d\n%s", code, stderr)
	}

	// A first differing commit right after one that does not build leaves
	// two candidates: an incomplete answer, exit 2.
	writeFile(t, toy, toyServer(0))
	good2 := commitAll(t, repo, "toy: the bug removed")
	writeFile(t, toy, "def broken(:\n")
	broken2 := commitAll(t, repo, "toy: a syntax error again")
	writeFile(t, toy, toyServer(3))
	planted2 := commitAll(t, repo, "toy: the bug planted again")
	code, stdout, stderr = cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good2, "--bad", planted2, graph)
	if code != exitUsage || !strings.Contains(stdout, "is one of (the others were skipped): "+broken2+" "+planted2) || !strings.Contains(stderr, "not narrowed to one commit") ||
		!strings.Contains(stdout, "then  "+planted2+` "toy: the bug planted again": invalid: `) {
		t.Errorf("a culprit hidden by a failed build: exit %d, want 2 and both candidates\n%s%s", code, stdout, stderr)
	}
}

// TestBisectJudgesAsAskedAndSaysSo: the judging flags given to bisect
// (walks, checks, limits) are in both printed commands, the reproduction
// run as printed finds the same commit, and a file whose header records
// another judging (a register file, a limit) is noted on standard error
// with the flags that judge it as recorded.
func TestBisectJudgesAsAskedAndSaysSo(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(3))
	planted := commitAll(t, repo, "toy: planted bug on 3 blocks or more")
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "# signature: none\n# registers: 64\n# timeout: 30s\n{{1, 2}, {2}, {}}\n")

	code, stdout, stderr := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good, "--bad", planted, "--walks", "8", "--checks", "spirv-val,exec", "--timeout", "20s", graph)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if want := "cfgfuzz bisect: note: " + graph + " records another judging in its header: judge it with --registers 64 --walks 16 --timeout 30s as it was judged"; !strings.Contains(stderr, want) {
		t.Errorf("standard error lacks %q:\n%s", want, stderr)
	}
	judging := " --walks 8 --checks spirv-val,exec --timeout 20s "
	var reproduce string
	for _, want := range []string{
		"reproduce: cfgfuzz bisect --repo " + repo + judging + "--good " + planted + "^ --bad " + planted + " " + graph + "\n",
		"check it:  cfgfuzz check --structurizer repo:" + repo + "@" + planted + judging + graph + "\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
		if strings.HasPrefix(want, "reproduce: ") {
			reproduce = strings.TrimSuffix(strings.TrimPrefix(want, "reproduce: cfgfuzz "), "\n")
		}
	}
	code, again, errs := cliIn(t, t.TempDir(), strings.Fields(reproduce)...)
	if code != exitOK || !strings.Contains(again, "first "+planted+` "toy: planted bug on 3 blocks or more": invalid: structurize:error:toy: planted bug`) {
		t.Errorf("the reproduction %q: exit %d\n%s%s", reproduce, code, again, errs)
	}
}

// TestBisectResultLineNamesTheSubject: the result line names the first
// differing commit by its full hash and its subject, quoted as a Go string
// literal, then its verdict: a subject with colons, quotes and a control
// character reads back whole, and the verdict after it as printed.
func TestBisectResultLineNamesTheSubject(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(3))
	subject := "toy: the \"planted\" bug: 3 blocks \x1b[2J or more"
	planted := commitAll(t, repo, subject)
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {2}, {}}\n")
	code, stdout, stderr := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good, "--bad", planted, graph)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	checkConsole(t, "bisect's output", stdout)
	// The expression fuzz/README.md gives for the line.
	m := regexp.MustCompile(`(?m)^(first|then) +([0-9a-f]+)( "(?:[^"\\]|\\.)*")?: (.*)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no line `first HASH \"SUBJECT\": VERDICT`:\n%s", stdout)
	}
	got, err := strconv.Unquote(strings.TrimPrefix(m[3], " "))
	if m[1] != "first" || m[2] != planted || err != nil || got != subject || m[4] != "invalid: structurize:error:toy: planted bug" {
		t.Errorf("result line read as %s commit %s, subject %q (%v), verdict %q; want first, %s, %q, the planted bug", m[1], m[2], got, err, m[4], planted, subject)
	}
}

func TestBisectCfgfuzzsOwnHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two revisions of cfgfuzz (about 15 s)")
	}
	ownBuildCache(t)
	repo := copyOfThisTree(t)
	good := gitIn(t, repo, "rev-parse", "HEAD")
	writeFile(t, filepath.Join(repo, "NOTES"), "one\n")
	commitAll(t, repo, "notes")
	plantPanic(t, repo, 6)
	planted := commitAll(t, repo, "structurizer: panic on 6 blocks or more")
	writeFile(t, filepath.Join(repo, "NOTES"), "two\n")
	bad := commitAll(t, repo, "notes again")
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {3}, {3}, {4}, {5, 1}, {}}\n")

	code, stdout, stderr := cliIn(t, repo, "bisect", "--good", good, "--bad", bad, graph)
	if code != exitOK || !strings.Contains(stdout, "good  "+good+": ok\n") || !strings.Contains(stdout, "first "+planted+` "structurizer: panic on 6 blocks or more": panic: structurize:panic:`) {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestBisectPrintsStandardInputsGraph: a graph bisected from standard
// input is printed into the reproduce and check commands, piped in, and
// the check command runs as printed.
func TestBisectPrintsStandardInputsGraph(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g.Weights = []int{0, 7, 0, 0}
	res := &fuzz.BisectResult{Good: "a", Bad: "b", GoodVerdict: "ok", First: "b", FirstVerdict: "invalid: exec:trace-mismatch", Commits: 1}
	var b strings.Builder
	printBisect(res, bisectFlags{}, fuzz.Settings{Walks: 16, Seed: 1}, func(c string) fuzz.Spec { return fuzz.Spec{Kind: fuzz.SpecSelf} }, graphInput("-", g), &b)
	var check string
	for _, l := range strings.Split(b.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, "check it:  "); ok {
			check = rest
		}
		if strings.HasPrefix(l, "reproduce: ") && !strings.HasPrefix(l, "reproduce: printf 'b0: ") {
			t.Errorf("the reproduce line reads no graph from a pipe: %s", l)
		}
	}
	if !strings.HasPrefix(check, "printf 'b0: ") || !strings.HasSuffix(check, " -") {
		t.Fatalf("printed:\n%s\nwant a check line piping the graph into -", b.String())
	}
	pipe, command, _ := strings.Cut(check, " | cfgfuzz ")
	in, err := exec.Command("sh", "-c", pipe).Output()
	if err != nil {
		t.Fatalf("%s: %v", pipe, err)
	}
	if !strings.Contains(string(in), "b1 [w=7]: br b3\n") {
		t.Errorf("%s printed %q: the weight or a line is lost", pipe, in)
	}
	if code, out, errs := runCmd(strings.Fields(command), string(in)); code != exitOK || !strings.HasPrefix(out, "ok ") {
		t.Errorf("%s: exit %d\n%s%s", check, code, out, errs)
	}
}

// TestBisectReproducesFromTheNarrowestEnds: when skipped commits leave
// the answer ambiguous, the reproduce line bisects again from the last
// commit tested good to the first tested bad, not from --good.
func TestBisectReproducesFromTheNarrowestEnds(t *testing.T) {
	good, lastGood, skipped, first := strings.Repeat("1", 40), strings.Repeat("2", 40), strings.Repeat("3", 40), strings.Repeat("4", 40)
	res := &fuzz.BisectResult{Good: good, Bad: first, GoodVerdict: "ok", First: first, FirstVerdict: "invalid: exec:trace-mismatch",
		Candidates: []string{skipped}, LastGood: lastGood, Commits: 3,
		Steps: []fuzz.BisectStep{{Commit: good, Verdict: "ok"}, {Commit: first, Verdict: "invalid: exec:trace-mismatch"},
			{Commit: lastGood, Verdict: "ok"}, {Commit: skipped, Skipped: "build failed: exit status 1"}}}
	var b strings.Builder
	printBisect(res, bisectFlags{repo: "/r"}, fuzz.Settings{Walks: 16, Seed: 1}, func(c string) fuzz.Spec { return fuzz.Spec{Kind: fuzz.SpecRepo, Repo: "/r", Rev: c} }, graphIn{arg: "bug.cfg"}, &b)
	if want := "reproduce: cfgfuzz bisect --repo /r --good " + lastGood + " --bad " + first + " bug.cfg\n"; !strings.Contains(b.String(), want) {
		t.Errorf("printed:\n%s\nwant %q", b.String(), want)
	}
}

// TestBisectNotesAFailingGoodCommit: a good commit whose verdict is a
// failure (not ok, nor unsupported) is noted: the commit found may be a
// fix, not where a failure began.
func TestBisectNotesAFailingGoodCommit(t *testing.T) {
	for _, tc := range []struct {
		good string
		note bool
	}{{fuzz.OutOK, false}, {fuzz.OutUnsupported, false}, {"invalid: rules:R11", true}, {"refused", true}} {
		var b strings.Builder
		res := &fuzz.BisectResult{Good: "g", GoodVerdict: tc.good, First: "f", FirstVerdict: fuzz.OutOK, LastGood: "g", Commits: 1}
		printBisect(res, bisectFlags{}, fuzz.Settings{}, func(c string) fuzz.Spec { return fuzz.Spec{Kind: fuzz.SpecRev, Rev: c} }, graphIn{arg: "g.cfg"}, &b)
		if got := strings.Contains(b.String(), "note: the good commit does not pass the graph either ("+tc.good+")"); got != tc.note {
			t.Errorf("good verdict %q: note %v, want %v\n%s", tc.good, got, tc.note, b.String())
		}
	}
}

// TestBisectRefusesABadProjectFileFirst: a .cfgfuzz.json that does not read,
// or a repository with no serve command, is an error naming the file or
// the repository before the first step, not the good commit's failure.
func TestBisectRefusesABadProjectFileFirst(t *testing.T) {
	ownBuildCache(t)
	graph := filepath.Join(t.TempDir(), "g.cfg")
	writeFile(t, graph, "{{1, 2}, {2}, {}}\n")
	for _, c := range []struct {
		config, want string
	}{
		{`{"build": "true", "serv": "python3 toy.py"}`, `.cfgfuzz.json: json: unknown field "serv"`},
		{"", ": no serve command (put \"build\" and \"serve\" in its .cfgfuzz.json"},
	} {
		repo, good := toyRepo(t, c.config)
		writeFile(t, filepath.Join(repo, "toy.py"), toyServer(3))
		bad := commitAll(t, repo, "toy: planted bug on 3 blocks or more")
		code, _, stderr := cliIn(t, t.TempDir(), "bisect", "--repo", repo, "--good", good, "--bad", bad, graph)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "step 1") || strings.Contains(stderr, "commit") {
			t.Errorf("config %q: exit %d, want %d and %q before any step, naming no commit\n%s", c.config, code, exitUsage, c.want, stderr)
		}
	}
}
