// portable_test.go: regression files that travel. Saved in a git
// repository, a file records the structurizer inside it from {repo}; a
// clone at another path replays it on the clone's own program without
// --structurizer, and prints replay commands that run from where regress
// ran.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

// adapterScript is a protocol adapter inside a project: this tree's
// structurizer, with the given arguments (a fault planted, or none).
func adapterScript(t *testing.T, path, args string) {
	t.Helper()
	writeFile(t, path, "#!/bin/sh\nexec "+cfgfuzzBinary(t)+" structurize "+args+"\n")
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// adapterProject is a git work tree at DIR/name (a fresh temporary DIR)
// holding tools/adapter.sh, this tree's structurizer passing on its
// arguments; the test is skipped without git.
func adapterProject(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	proj := filepath.Join(t.TempDir(), name)
	adapterScript(t, filepath.Join(proj, "tools", "adapter.sh"), `"$@"`)
	gitIn(t, proj, "init", "-q")
	return proj
}

func TestRegressionTravelsToAClone(t *testing.T) {
	proj := adapterProject(t, "proj")
	writeFile(t, filepath.Join(proj, "found", "g.cfg"), "{{1, 2}, {3}, {3}, {4, 1}, {}}\n")
	t.Chdir(proj)
	const spec = "cmd:tools/adapter.sh --inject swap-arms"
	code, _, errs := runCmd([]string{"run", "--structurizer", spec, "--graphs", "100", "--out", filepath.Join(t.TempDir(), "c"),
		"--progress", "none", "--save-regressions", "tests/regs"}, "")
	if code != exitFail {
		t.Fatalf("run --save-regressions: exit %d, want 1\n%s", code, errs)
	}
	code, out, errs := runCmd([]string{"minimize", "--structurizer", spec, "--regressions", "tests/regs", "--save-regression", "arms", "found/g.cfg"}, "")
	if code != exitOK {
		t.Fatalf("minimize --save-regression: exit %d\n%s", code, errs)
	}
	saved := readFile(t, filepath.Join(proj, "tests", "regs", "arms.cfg"))
	for _, want := range []string{"# structurizer: cmd:{repo}/tools/adapter.sh --inject swap-arms\n", "# origin: cfgfuzz minimize {repo}/found/g.cfg:1:1\n"} {
		if !strings.Contains(saved, want) || !strings.Contains(out, want) {
			t.Errorf("the saved regression (and the text minimize printed) lack %q:\n%s", want, saved)
		}
	}
	files, _ := filepath.Glob(filepath.Join(proj, "tests", "regs", "exec-trace-mismatch-*.cfg"))
	if len(files) != 1 || !strings.Contains(readFile(t, files[0]), "# structurizer: cmd:{repo}/tools/adapter.sh --inject swap-arms\n") {
		t.Fatalf("the campaign's regression files %v do not record the adapter from {repo}", files)
	}
	commitAll(t, proj, "the adapter and its regressions")

	clone := filepath.Join(t.TempDir(), "elsewhere", "clone")
	gitIn(t, filepath.Dir(proj), "clone", "-q", proj, clone)
	t.Chdir(clone)
	code, out, errs = runCmd([]string{"regress", "tests/regs"}, "")
	want := "replay: cfgfuzz check --structurizer 'cmd:./tools/adapter.sh --inject swap-arms'" + gpuReplay(errs) + " ./tests/regs/arms.cfg"
	if code != exitFail || strings.Count(out, "got exec:trace-mismatch") != 2 || !strings.Contains(out, want) {
		t.Errorf("regress in the clone, on the recorded (buggy) adapter: exit %d, want 1, both files failing with the signature and %q\n%s%s", code, want, out, errs)
	}
	if _, _, errs := runCmd([]string{"check", "tests/regs/arms.cfg"}, ""); !strings.Contains(errs, "judge it with --structurizer 'cmd:./tools/adapter.sh --inject swap-arms'") {
		t.Errorf("check on cfgfuzz's own does not name the recorded adapter as it runs from here:\n%s", errs)
	}
	// The clone's own program runs: fixed there, every file passes.
	adapterScript(t, filepath.Join(clone, "tools", "adapter.sh"), "")
	if code, out, errs := runCmd([]string{"regress", "tests/regs"}, ""); code != exitOK {
		t.Errorf("regress in the clone on its fixed adapter: exit %d, want 0\n%s%s", code, out, errs)
	}
	// From another directory the paths outside it are absolute.
	t.Chdir(filepath.Join(clone, "tools"))
	adapterScript(t, filepath.Join(clone, "tools", "adapter.sh"), `"$@"`)
	code, out, errs = runCmd([]string{"regress", "../tests/regs"}, "")
	if want := "--structurizer 'cmd:./adapter.sh --inject swap-arms'" + gpuReplay(errs) + " " + filepath.Join(clone, "tests", "regs", "arms.cfg"); code != exitFail || !strings.Contains(out, want) {
		t.Errorf("regress from tools/: exit %d, want a replay with %q\n%s", code, want, out)
	}
}

// TestRegressPlaceholderWithoutGit: a file in no git work tree that names
// {repo} is an error case saying so; {dir} is the file's own directory.
func TestRegressPlaceholderWithoutGit(t *testing.T) {
	dir := t.TempDir()
	if gitTop(dir) != "" {
		t.Skipf("the temporary directory %s lies in a git work tree", dir)
	}
	regs := filepath.Join(dir, "regs")
	writeFile(t, filepath.Join(regs, "repo.cfg"), "# signature: exec:trace-mismatch\n# structurizer: cmd:{repo}/adapter.sh\n{{1, 2}, {3}, {3}, {}}\n")
	code, out, errs := runCmd([]string{"regress", regs}, "")
	if code != exitUsage || !strings.Contains(out, "ERROR "+filepath.Join(regs, "repo.cfg")+" clean: '# structurizer: cmd:{repo}/adapter.sh': {repo} stands for the top of the git work tree") {
		t.Errorf("{repo} outside git: exit %d, want 2 and an error case naming the header\n%s%s", code, out, errs)
	}
	os.Remove(filepath.Join(regs, "repo.cfg"))
	adapterScript(t, filepath.Join(regs, "adapter.sh"), "--inject swap-arms")
	writeFile(t, filepath.Join(regs, "dir.cfg"), "# signature: exec:trace-mismatch\n# structurizer: cmd:{dir}/adapter.sh\n# expect: fail\n{{1, 2}, {3}, {3}, {}}\n")
	t.Chdir(t.TempDir())
	if code, out, errs := runCmd([]string{"regress", regs}, ""); code != exitOK || !strings.Contains(out, "ok "+filepath.Join(regs, "dir.cfg")+" clean") {
		t.Errorf("{dir}: exit %d, want the adapter beside the file to fail as expected\n%s%s", code, out, errs)
	}
}

// TestRootedPaths: a path is written from the placeholder of the root it
// lies in and read back to the same path; one outside stays as it is.
func TestRootedPaths(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".git", "tools"} {
		if err := os.Mkdir(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r, err := rootsOf(filepath.Join(repo, "tests", "regs"))
	if err != nil || r.repo != repo {
		t.Fatalf("rootsOf: %+v, %v; want the repository %s", r, err, repo)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(repo, "tools", "a"), "{repo}/tools/a"},
		{repo, "{repo}"},
		{filepath.Join(link, "tools", "a"), "{repo}/tools/a"},
		{repo + "-other/a", repo + "-other/a"},
		{"/usr/bin/python3", "/usr/bin/python3"},
		{"tools/a", "tools/a"},
	} {
		got := r.rooted(c.path)
		if got != c.want {
			t.Errorf("rooted(%s) = %s, want %s", c.path, got, c.want)
		}
		back, err := r.expand(got)
		if wantBack := strings.Replace(c.path, link, repo, 1); err != nil || back != wantBack {
			t.Errorf("expand(%s) = %s, %v; want %s", got, back, err, wantBack)
		}
	}
	if got, err := r.expandSpec("repo:{repo}@abc"); err != nil || got != "repo:"+repo+"@abc" {
		t.Errorf("expandSpec(repo:{repo}@abc) = %s, %v", got, err)
	}
	if got := r.portableSpec("repo:" + repo + "@abc"); got != "repo:{repo}@abc" {
		t.Errorf("portableSpec(repo:%s@abc) = %s", repo, got)
	}
}

// TestRegressionTravelsFromAPathWithSpaces: a project whose checkout path
// holds a space records its adapter from {repo} as well, and a clone at
// another such path replays it.
func TestRegressionTravelsFromAPathWithSpaces(t *testing.T) {
	proj := adapterProject(t, "my proj")
	writeFile(t, filepath.Join(proj, "found", "g.cfg"), "{{1, 2}, {3}, {3}, {4, 1}, {}}\n")
	t.Chdir(proj)
	for _, spec := range []string{"cmd:tools/adapter.sh --inject swap-arms", "cmd:'" + proj + "/tools/adapter.sh' --inject swap-arms"} {
		if code, _, errs := runCmd([]string{"minimize", "--structurizer", spec, "--regressions", "tests/regs", "--save-regression", "arms", "found/g.cfg"}, ""); code != exitOK {
			t.Fatalf("minimize --structurizer %s --save-regression: exit %d\n%s", spec, code, errs)
		}
		saved := readFile(t, filepath.Join(proj, "tests", "regs", "arms.cfg"))
		if want := "# structurizer: cmd:{repo}/tools/adapter.sh --inject swap-arms\n"; !strings.Contains(saved, want) {
			t.Errorf("--structurizer %s: the saved regression lacks %q:\n%s", spec, want, saved)
		}
		os.Remove(filepath.Join(proj, "tests", "regs", "arms.cfg"))
	}
	if code, _, errs := runCmd([]string{"minimize", "--structurizer", "cmd:tools/adapter.sh --inject swap-arms", "--regressions", "tests/regs", "--save-regression", "arms", "found/g.cfg"}, ""); code != exitOK {
		t.Fatalf("minimize --save-regression: exit %d\n%s", code, errs)
	}
	commitAll(t, proj, "the adapter and its regression")

	clone := filepath.Join(t.TempDir(), "other place", "clone")
	gitIn(t, filepath.Dir(proj), "clone", "-q", proj, clone)
	t.Chdir(filepath.Join(clone, "tests"))
	code, out, errs := runCmd([]string{"regress", "regs"}, "")
	want := "replay: cfgfuzz check --structurizer 'cmd:'\\''" + clone + "/tools/adapter.sh'\\'' --inject swap-arms'" + gpuReplay(errs) + " ./regs/arms.cfg"
	if code != exitFail || !strings.Contains(out, "got exec:trace-mismatch") || !strings.Contains(out, want) {
		t.Errorf("regress in the clone's tests/: exit %d, want 1, the file failing with the signature and %q\n%s%s", code, want, out, errs)
	}
}

// TestRegressionDirectoryLinkedIntoARepository: a regression directory
// reached through a symbolic link from outside the work tree it lies in
// records the paths of that work tree from {repo}, as the file read from
// its clone does.
func TestRegressionDirectoryLinkedIntoARepository(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".git", "tools", "tests/regs"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if gitTop(outside) != "" {
		t.Skipf("the temporary directory %s lies in a git work tree", outside)
	}
	link := filepath.Join(outside, "regs")
	if err := os.Symlink(filepath.Join(repo, "tests", "regs"), link); err != nil {
		t.Fatal(err)
	}
	spec := "cmd:" + repo + "/tools/adapter --x"
	if got := portableHeader(corpus.Header{Structurizer: spec}, link).Structurizer; got != "cmd:{repo}/tools/adapter --x" {
		t.Errorf("saved through %s, the header records %s, want cmd:{repo}/tools/adapter --x", link, got)
	}
	if got := portableHeader(corpus.Header{Structurizer: spec}, filepath.Join(link, "sub")).Structurizer; got != "cmd:{repo}/tools/adapter --x" {
		t.Errorf("saved into a directory not made yet under %s, the header records %s, want cmd:{repo}/tools/adapter --x", link, got)
	}
	reg := &corpus.Regression{Path: filepath.Join(link, "a.cfg"), Header: corpus.Header{Structurizer: "cmd:{repo}/tools/adapter --x"}}
	if got, err := recordedSpec(reg); err != nil || got != spec {
		t.Errorf("read through %s: %s, %v; want %s", link, got, err, spec)
	}
	// A link inside the work tree to a directory outside it: the files lie
	// in no work tree.
	if err := os.Symlink(outside, filepath.Join(repo, "out")); err != nil {
		t.Fatal(err)
	}
	if r, err := rootsOf(filepath.Join(repo, "out")); err != nil || r.repo != "" {
		t.Errorf("rootsOf(a link out of the work tree) = %+v, %v; want no repository", r, err)
	}
}

// TestMinimizeOutAndRegressionEachFromTheirPlace: minimize --out FILE
// --save-regression NAME writes each file's paths from where that file
// lies: the regression file inside the work tree from {repo}, the --out
// file outside it absolute, so check names a structurizer that runs.
func TestMinimizeOutAndRegressionEachFromTheirPlace(t *testing.T) {
	proj := adapterProject(t, "proj")
	outside := t.TempDir()
	if gitTop(outside) != "" {
		t.Skipf("the temporary directory %s lies in a git work tree", outside)
	}
	t.Chdir(proj)
	out := filepath.Join(outside, "min.cfg")
	code, _, errs := runCmd([]string{"minimize", "--structurizer", "cmd:tools/adapter.sh --inject swap-arms", "--regressions", "tests/regs",
		"--save-regression", "arms", "--out", out, "-"}, "{{1, 2}, {3}, {3}, {4, 1}, {}}\n")
	if code != exitOK {
		t.Fatalf("minimize: exit %d\n%s", code, errs)
	}
	if saved, want := readFile(t, filepath.Join(proj, "tests", "regs", "arms.cfg")), "# structurizer: cmd:{repo}/tools/adapter.sh --inject swap-arms\n"; !strings.Contains(saved, want) {
		t.Errorf("the regression file lacks %q:\n%s", want, saved)
	}
	if got, want := readFile(t, out), "# structurizer: cmd:"+proj+"/tools/adapter.sh --inject swap-arms\n"; !strings.Contains(got, want) {
		t.Errorf("the --out file outside the work tree lacks %q:\n%s", want, got)
	}
	t.Chdir(outside)
	if _, _, errs := runCmd([]string{"check", out}, ""); !strings.Contains(errs, "judge it with --structurizer 'cmd:"+proj+"/tools/adapter.sh --inject swap-arms'") {
		t.Errorf("check on the --out file does not name the adapter's path:\n%s", errs)
	}
}

// TestRootWordTravels: a cmd word that is the work tree's top itself (an
// adapter told where the project is, `-C /home/me/proj`) is written as
// {repo} and read back, as a path below it is.
func TestRootWordTravels(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := rootsOf(filepath.Join(repo, "tests"))
	if err != nil {
		t.Fatal(err)
	}
	spec := "cmd:make -s -C " + repo + " serve"
	saved := r.portableSpec(spec)
	if saved != "cmd:make -s -C {repo} serve" {
		t.Errorf("portableSpec(%s) = %s, want the top written {repo}", spec, saved)
	}
	if back, err := r.expandSpec(saved); err != nil || back != spec {
		t.Errorf("expandSpec(%s) = %s, %v; want %s", saved, back, err, spec)
	}
}

// TestCdSpecRunsAsWritten: a structurizer that changes directory before
// its program (cd build && ./shaderc) runs the program of that directory,
// though a file of the same name lies in the working directory (a
// directory shaderc; a planted-bug ./adapter beside tools/adapter), and a
// campaign and a saved regression record the command as written.
func TestCdSpecRunsAsWritten(t *testing.T) {
	proj := adapterProject(t, "proj")
	const g = "{{1, 2}, {3}, {3}, {4, 1}, {}}\n"
	writeFile(t, filepath.Join(proj, "g.cfg"), g)
	adapterScript(t, filepath.Join(proj, "build", "shaderc"), "")
	if err := os.MkdirAll(filepath.Join(proj, "shaderc"), 0o755); err != nil {
		t.Fatal(err)
	}
	adapterScript(t, filepath.Join(proj, "adapter"), "")
	adapterScript(t, filepath.Join(proj, "tools", "adapter"), "--inject swap-arms")
	t.Chdir(proj)

	if code, _, errs := runCmd([]string{"check", "--structurizer", "cd build && ./shaderc", "g.cfg"}, ""); code != exitOK {
		t.Errorf("check --structurizer 'cd build && ./shaderc': exit %d, want 0 (build/shaderc run)\n%s", code, errs)
	}
	const spec = "cd tools && ./adapter"
	if code, out, errs := runCmd([]string{"check", "--structurizer", spec, "g.cfg"}, ""); code != exitFail || !strings.Contains(out, "trace-mismatch") {
		t.Errorf("check --structurizer %q: exit %d, want 1 and tools/adapter's trace-mismatch\n%s%s", spec, code, out, errs)
	}
	out := filepath.Join(t.TempDir(), "c")
	if code, _, errs := runCmd([]string{"run", "--structurizer", spec, "--graphs", "100", "--out", out, "--progress", "none"}, ""); code != exitFail {
		t.Errorf("run --structurizer %q: exit %d, want 1 (tools/adapter's bug found)\n%s", spec, code, errs)
	}
	if c := readFile(t, filepath.Join(out, "campaign.json")); !strings.Contains(c, `"cmd:cd tools \u0026\u0026 ./adapter"`) && !strings.Contains(c, `"cmd:cd tools && ./adapter"`) {
		t.Errorf("campaign.json does not record the command as written:\n%s", c)
	}
	code, _, errs := runCmd([]string{"minimize", "--structurizer", spec, "--regressions", "tests/regs", "--save-regression", "arms", "g.cfg"}, "")
	if code != exitOK {
		t.Fatalf("minimize --save-regression: exit %d\n%s", code, errs)
	}
	if saved := readFile(t, filepath.Join(proj, "tests", "regs", "arms.cfg")); !strings.Contains(saved, "# structurizer: cmd:cd tools && ./adapter\n") {
		t.Errorf("the saved regression does not record the command as written:\n%s", saved)
	}
	if code, out, errs := runCmd([]string{"regress", "tests/regs"}, ""); code != exitFail || !strings.Contains(out, "trace-mismatch") {
		t.Errorf("regress of the saved file: exit %d, want 1 on tools/adapter's bug\n%s%s", code, out, errs)
	}
}
