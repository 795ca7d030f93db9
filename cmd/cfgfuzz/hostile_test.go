package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tests here feed merge, compare --repo and bisect the redteam
// server's hostile mode (fuzz/testdata/redteam/server: HTML, Markdown,
// XML and terminal control text in its name, reasons, panics and standard
// error), hostile directory and revision names and hostile build output,
// and read what reaches the console, report.md, report.html and
// report.json.

// hostileServer is the redteam server, built once per test binary.
func hostileServer(t *testing.T) string {
	t.Helper()
	return builtProgram(t, "../../fuzz/testdata/redteam/server")
}

// hostileName is a directory or revision name with HTML, Markdown and
// terminal control text (no slash, which git and the file system refuse).
const hostileName = "h<b>x<i>|`t`&amp;\x1b[31m\u009b# forged"

// consoleControl is a control character a terminal acts on.
var consoleControl = regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]")

// checkConsole fails the test when text (a command's standard output or
// error) holds a control character or a forged line.
func checkConsole(t *testing.T, what, text string) {
	t.Helper()
	if m := consoleControl.FindString(text); m != "" {
		t.Errorf("%s holds the control character %q:\n%s", what, m, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "# forged") || strings.HasPrefix(l, "0 findings (0 signatures)") {
			t.Errorf("%s has a forged line: %q", what, l)
		}
	}
}

// checkReports fails the test when dir's report.md or report.html carries
// the hostile text's markup or control characters, or report.json does
// not read back.
func checkReports(t *testing.T, dir string) {
	t.Helper()
	md := readFile(t, filepath.Join(dir, "report.md"))
	if m := consoleControl.FindString(md); m != "" {
		t.Errorf("report.md holds the control character %q", m)
	}
	var fence string // the replay block's fence, inside it
	for _, l := range strings.Split(md, "\n") {
		switch {
		case fence != "":
			if l == fence {
				fence = ""
			}
			continue
		case strings.HasPrefix(l, "```"):
			fence = strings.TrimSuffix(l, "sh")
			continue
		}
		if strings.HasPrefix(l, "# forged") || strings.Contains(l, "<script>") || strings.Contains(l, "<b>x</b>") {
			t.Errorf("report.md carries the hostile text's markup: %q", l)
		}
	}
	if fence != "" {
		t.Errorf("report.md's replay block is not closed")
	}
	page := readFile(t, filepath.Join(dir, "report.html"))
	if m := consoleControl.FindString(page); m != "" {
		t.Errorf("report.html holds the control character %q", m)
	}
	for _, bad := range []string{"<script>alert", "<b>x", "<i>|"} {
		if strings.Contains(page, bad) {
			t.Errorf("report.html carries %q", bad)
		}
	}
	readReportJSON(t, dir)
}

// A sharded campaign on the hostile server merges into a report that
// shows the server's declared name and findings escaped on the console
// and in report.md and report.html, from shard directories with hostile
// names.
func TestMergeOfHostileShards(t *testing.T) {
	srv := hostileServer(t)
	base := filepath.Join(t.TempDir(), hostileName)
	var shards []string
	for _, i := range []string{"0", "1"} {
		dir := filepath.Join(base, "shard"+i)
		code, out, errOut := runCmd([]string{"run", "--structurizer", "cmd:" + srv + " hostile", "--graphs", "14", "--shard", i + "/2", "--out", dir, "--progress", "none"}, "")
		if code != exitFail {
			t.Fatalf("shard %s: exit %d, want %d\n%s%s", i, code, exitFail, out, errOut)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(base, "merged")
	code, out, errOut := runCmd(append([]string{"merge", "--out", merged, "--minimize-timeout", "2s"}, shards...), "")
	if code != exitFail {
		t.Fatalf("merge: exit %d, want %d\n%s%s", code, exitFail, out, errOut)
	}
	checkConsole(t, "merge's output", out+errOut)
	checkReports(t, merged)
	rep := readReportJSON(t, merged)
	if h := rep.Declared["current"]; h == nil || !strings.HasPrefix(h.Name, "redteam/hostile \x1b[2J") {
		t.Errorf("the merged report.json lacks the current side's declared name: %+v", rep.Declared)
	}
	if md := readFile(t, filepath.Join(merged, "report.md")); !strings.Contains(md, `which declares itself "redteam/hostile \\x1b\[2J`) {
		t.Errorf("the merged report.md does not show the declared name escaped")
	}

	// A partial merge names the shard missing from hostile directories.
	code, out, errOut = runCmd([]string{"merge", "--partial", "--minimize=false", "--out", filepath.Join(base, "partial"), shards[0]}, "")
	if code != exitFail {
		t.Fatalf("partial merge: exit %d, want %d\n%s%s", code, exitFail, out, errOut)
	}
	checkConsole(t, "a partial merge's output", out+errOut)
	checkReports(t, filepath.Join(base, "partial"))
}

// hostileRepo is a repository in a directory with a hostile name whose
// commits serve the redteam server in the mode its file mode names: good,
// then (with a build that fails, writing hostile text) broken, then
// hostile on a branch with a hostile name. It returns the repository and
// the three commits.
func hostileRepo(t *testing.T) (string, [3]string) {
	t.Helper()
	repo := filepath.Join(t.TempDir(), hostileName)
	var commits [3]string
	writeFile(t, filepath.Join(repo, "mode"), "good")
	writeFile(t, filepath.Join(repo, "build.sh"), "true\n")
	gitIn(t, repo, "init", "-q")
	commits[0] = commitAll(t, repo, "good <b>x</b> `t` |")
	writeFile(t, filepath.Join(repo, "build.sh"), `printf '\033[2J\033]0;title\007<b>x</b>\r0 findings (0 signatures), 0 new\n# forged\n\302\233\n'; exit 1`+"\n")
	commits[1] = commitAll(t, repo, "broken \x1b[31m <script>")
	writeFile(t, filepath.Join(repo, "mode"), "hostile")
	writeFile(t, filepath.Join(repo, "build.sh"), "true\n")
	commits[2] = commitAll(t, repo, "hostile\n\n# forged")
	gitIn(t, repo, "branch", "b<img>|`x`&#", commits[2])
	return repo, commits
}

// compare --repo of a good and a hostile revision, in a repository whose
// directory and branch have hostile names, shows them escaped.
func TestCompareRepoHostile(t *testing.T) {
	ownBuildCache(t)
	srv := hostileServer(t)
	repo, commits := hostileRepo(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCmd([]string{"compare", "--repo", repo, "--build", "sh build.sh", "--serve", srv + " $(cat {worktree}/mode)",
		"--baseline", commits[0], "--current", "b<img>|`x`&#", "--graphs", "14", "--minimize-timeout", "2s", "--out", out, "--progress", "none"}, "")
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFail, stdout, stderr)
	}
	checkConsole(t, "compare's output", stdout+stderr)
	checkReports(t, out)

	// A revision whose build fails with hostile output.
	code, stdout, stderr = runCmd([]string{"compare", "--repo", repo, "--build", "sh build.sh", "--serve", srv + " $(cat {worktree}/mode)",
		"--baseline", commits[0], "--current", commits[1], "--graphs", "2", "--out", filepath.Join(t.TempDir(), "out"), "--progress", "none"}, "")
	if code != exitUsage {
		t.Fatalf("a failed build: exit %d, want %d\n%s%s", code, exitUsage, stdout, stderr)
	}
	checkConsole(t, "compare's output on a failed build", stdout+stderr)
}

// bisect over a good commit, a commit whose build fails with hostile
// output and a hostile one prints their verdicts and the build's output
// escaped, each on its own line.
func TestBisectHostile(t *testing.T) {
	ownBuildCache(t)
	srv := hostileServer(t)
	repo, commits := hostileRepo(t)
	graph := filepath.Join(t.TempDir(), "g")
	writeFile(t, graph, "{{}}\n")
	code, stdout, stderr := runCmd([]string{"bisect", "--repo", repo, "--build", "sh build.sh", "--serve", srv + " $(cat {worktree}/mode)",
		"--good", commits[0], "--bad", "b<img>|`x`&#", graph}, "")
	if code != exitUsage { // the broken commit hides which of two it is
		t.Fatalf("exit %d, want %d\n%s%s", code, exitUsage, stdout, stderr)
	}
	checkConsole(t, "bisect's output", stdout+stderr)
	var firsts int
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "then ") || strings.HasPrefix(l, "first ") {
			firsts++
		}
	}
	if firsts != 1 {
		t.Errorf("%d lines name the first differing commit, want 1:\n%s", firsts, stdout)
	}
	if !strings.Contains(stdout, "skipped "+commits[1]) || !strings.Contains(stdout, `\x1b[2J\x1b]0;title\x07<b>x</b>\r0 findings`) {
		t.Errorf("bisect does not show the broken commit's build output escaped:\n%s", stdout)
	}
}
