// sides_bisect_test.go: the bisect command a comparison prints for a new
// finding, for each shape of two commits of one repository: the current
// side ahead of the baseline (from the baseline), diverging from it (from
// their merge base, said so), older than it or the same commit (none, and
// one line why); its --good is an ancestor of its --bad, as bisect
// requires; it carries the campaign's gpu device and --build/--serve,
// which a shell gives back as they were.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sidesOf names the sides of a comparison of cur against base, both
// commits of repo, in s; it fails the test when they have no count of
// the commits between them.
func sidesOf(t *testing.T, repo, cur, base string, s *Settings) *Sides {
	t.Helper()
	s.Current, s.Baseline = "repo:"+repo+"@"+cur, "repo:"+repo+"@"+base
	s.Walks, s.Seed = 16, 1
	sides := NameSides(s)
	if sides == nil || sides.Ahead == nil || sides.Behind == nil {
		t.Fatalf("sides %+v: no commits between them counted", sides)
	}
	return sides
}

// newFinding is a finding of signature the baseline passed a graph of,
// stored with its min.cfg.
func newFinding(signature string) *Finding {
	return &Finding{New: 1, stored: "findings/x", storedFiles: []string{"graph.cfg", "min.cfg"}, Signature: signature}
}

// bisectArgs is the arguments a shell gives `cfgfuzz bisect` in the
// command cmd.
func bisectArgs(t *testing.T, cmd string) []string {
	t.Helper()
	rest, ok := strings.CutPrefix(cmd, "cfgfuzz bisect ")
	if !ok {
		t.Fatalf("%q is no cfgfuzz bisect command", cmd)
	}
	out, err := exec.Command("sh", "-c", "set -- "+rest+"; printf '%s\\0' \"$@\"").Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// flagValue is the value of --name in args, "" when absent.
func flagValue(args []string, name string) string {
	if i := slices.Index(args, "--"+name); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// isAncestor says whether a is an ancestor of b in repo (or b itself).
func isAncestor(repo, a, b string) bool {
	return exec.Command("git", "-C", repo, "merge-base", "--is-ancestor", a, b).Run() == nil
}

func TestBisectCommandForEachShapeOfTheSides(t *testing.T) {
	repo, c := raceRepo(t, 3) // c[0] - c[1] - c[2]
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// A branch off c[1] with a commit of its own: it and c[2] diverge.
	git("checkout", "-q", "-b", "side", c[1])
	if err := os.WriteFile(filepath.Join(repo, "g"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "g")
	git("commit", "-q", "-m", "side")
	side, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	// An orphan branch: its commit shares no history with c[2].
	git("checkout", "-q", "--orphan", "orphan")
	git("commit", "-q", "-m", "orphan")
	orphan, err := ResolveRevision("HEAD", BuildOptions{Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cur, base string
		good            string // the bisect's --good; "" no bisect
		from, none      string // in FromMergeBase, NoBisect; "" empty
		between         string
	}{
		{"ahead", c[2], c[0], c[0], "", "", "2 commits from the baseline to the current side"},
		{"diverged", side, c[2], c[1], "from the sides' merge base " + c[1][:7] + ", taken as good; bisect judges it first", "", "the sides diverge"},
		{"older", c[0], c[2], "", "", "no bisect command: the current side is older than the baseline", "(the current side is older)"},
		{"same", c[1], c[1], "", "", "no bisect command: both sides are the same commit", "the sides are the same commit"},
		{"unrelated", orphan, c[2], "", "", "no bisect command: the sides share no commit", "the sides share no commit: 1 commit on the current side, 3 on the baseline's"},
	} {
		s := Settings{Checks: []string{"exec"}}
		sides := sidesOf(t, repo, tc.cur, tc.base, &s)
		cmd := bisectCommand(t.TempDir(), &s, sides, newFinding("exec:x"))
		t.Logf("%s: between: %s; bisect: %s", tc.name, sides.Between(), cmd)
		if !strings.Contains(sides.Between(), tc.between) {
			t.Errorf("%s: between the sides %q, want %q in it", tc.name, sides.Between(), tc.between)
		}
		if from := sides.FromMergeBase(); (tc.from == "") != (from == "") || !strings.Contains(from, tc.from) {
			t.Errorf("%s: from the merge base %q, want %q", tc.name, from, tc.from)
		}
		rep := &Report{Sides: sides, Findings: []Finding{*newFinding("exec:x")}}
		if none := NoBisectNote(rep); (tc.none == "") != (none == "") || !strings.HasPrefix(none, tc.none) || strings.Contains(none, "\n") {
			t.Errorf("%s: no bisect %q, want one line starting %q", tc.name, none, tc.none)
		}
		if tc.good == "" {
			if cmd != "" {
				t.Errorf("%s: bisect %q, want none", tc.name, cmd)
			}
			continue
		}
		args := bisectArgs(t, cmd)
		good, bad := flagValue(args, "good"), flagValue(args, "bad")
		if good != tc.good || bad != tc.cur || !isAncestor(repo, good, bad) || flagValue(args, "repo") != repo || !strings.HasSuffix(args[len(args)-1], "/findings/x/min.cfg") {
			t.Errorf("%s: bisect %q, want --repo %s --good %s --bad %s (an ancestor of it) on min.cfg", tc.name, cmd, repo, tc.good[:7], tc.cur[:7])
		}
	}
}

// TestBisectCommandCarriesTheGPUDeviceAndTheProject: a gpu finding's
// bisect judges on the campaign's device, and the --build and --serve
// given to compare travel with it, quoted so that a shell gives them
// back unchanged.
func TestBisectCommandCarriesTheGPUDeviceAndTheProject(t *testing.T) {
	repo, c := raceRepo(t, 2)
	build := `make CFLAGS='-O2 -g' && cp "build/a b" {out}/server $HOME`
	s := Settings{Checks: []string{"exec"}, GPUDevice: "gpu", Project: &Project{Build: build, Serve: "{out}/server --x 'y z'"}}
	sides := sidesOf(t, repo, c[1], c[0], &s)
	args := bisectArgs(t, bisectCommand(t.TempDir(), &s, sides, newFinding("gpu:trace mismatch")))
	if flagValue(args, "build") != build || flagValue(args, "serve") != s.Project.Serve || flagValue(args, "gpu-device") != "gpu" || flagValue(args, "checks") != "exec,gpu" {
		t.Errorf("bisect arguments %q, want --build %q --serve %q --checks exec,gpu --gpu-device gpu", args, build, s.Project.Serve)
	}
	// Empty commands are the repository's .cfgfuzz.json's: none printed.
	s.Project = &Project{Serve: "{out}/server"}
	args = bisectArgs(t, bisectCommand(t.TempDir(), &s, sides, newFinding("exec:x")))
	if slices.Contains(args, "--build") || flagValue(args, "serve") != "{out}/server" || slices.Contains(args, "--gpu-device") {
		t.Errorf("bisect arguments %q, want --serve alone, and no --gpu-device without the gpu check", args)
	}
}

// TestNoBisectForAWorkingTree: a finding new against a baseline, where a
// side is a working tree with uncommitted changes (compare on a dirty
// tree), gets the one line saying why there is no bisect command.
func TestNoBisectForAWorkingTree(t *testing.T) {
	for _, tc := range []struct {
		cur, base bool
		want      string
	}{
		{true, false, "no bisect command: the current side is a working tree with uncommitted changes"},
		{false, true, "no bisect command: the baseline is a working tree with uncommitted changes"},
	} {
		sides := &Sides{Current: SideName{Commit: "1111111", Dirty: tc.cur}, Baseline: SideName{Commit: "2222222", Dirty: tc.base}}
		rep := &Report{Sides: sides, Findings: []Finding{*newFinding("exec:x")}}
		if got := NoBisectNote(rep); !strings.HasPrefix(got, tc.want) {
			t.Errorf("dirty current %v, baseline %v: %q, want %q", tc.cur, tc.base, got, tc.want)
		}
	}
}
