// worktree_test.go: the working tree as a revision: a clean tree resolves
// to its commit, a dirty one to COMMIT+dirty:TREE built from its content
// (untracked files included, the index untouched), whose changed paths
// the build log names; the recorded form is
// found in the cache, and without a cached build it resolves only while
// the tree still has that content.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestWorkTreeRevision(t *testing.T) {
	repo, commits := tableRepo(t, 0)
	head := commits[0]
	p := Project{Build: "cat n new > {out}/content 2>/dev/null; true", Serve: "cat"}
	var log strings.Builder
	resolve := func(spec string, cache string) (Spec, string, error) {
		t.Helper()
		s := MustParseSpec(spec)
		s.Repo = repo
		log.Reset()
		_, got, err := Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: cache, Log: &log}, Project: p})
		if err != nil {
			return got, "", err
		}
		entry, _ := buildEntry(p, Revision{Commit: got.Rev, Tree: got.WorkTree}, BuildOptions{CacheDir: cache})
		b, _ := os.ReadFile(filepath.Join(entry, "out", "content"))
		return got, string(b), nil
	}
	cache := t.TempDir()
	clean, _, err := resolve("repo:x@HEAD+dirty", cache)
	if err != nil || clean.Rev != head || clean.WorkTree != "" {
		t.Fatalf("a clean tree: %v, %v; want %s exactly", clean, err, head)
	}

	os.WriteFile(filepath.Join(repo, "n"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "new"), []byte("untracked\n"), 0o644)
	dirty, content, err := resolve("repo:x@HEAD+dirty", cache)
	if err != nil || dirty.Rev != head || len(dirty.WorkTree) != 40 || content != "changed\nuntracked\n" {
		t.Fatalf("a dirty tree: %v, %q, %v", dirty, content, err)
	}
	if want := "the working tree differs from " + head[:12] + " in 2 paths (uncommitted changes, built in): n, new\n"; !strings.Contains(log.String(), want) {
		t.Errorf("the build log does not name the changes, %q:\n%s", want, log.String())
	}
	if !strings.HasSuffix(dirty.String(), "@"+head+"+dirty:"+dirty.WorkTree) {
		t.Errorf("resolved spec %s", dirty)
	}
	if staged := runGit(t, repo, "diff", "--cached", "--name-only"); staged != "" {
		t.Errorf("the index changed: %q", staged)
	}
	if st := runGit(t, repo, "status", "--porcelain"); st != "M n\n?? new" {
		t.Errorf("status %q", st)
	}

	os.WriteFile(filepath.Join(repo, "n"), []byte("changed again\n"), 0o644)
	recorded := "repo:x@" + head + "+dirty:" + dirty.WorkTree
	again, content, err := resolve(recorded, cache)
	if err != nil || again != dirty || content != "changed\nuntracked\n" {
		t.Errorf("the recorded tree, cached: %v, %q, %v", again, content, err)
	}
	if _, _, err := resolve(recorded, t.TempDir()); err == nil || !strings.Contains(err.Error(), "has changed since") {
		t.Errorf("the recorded tree, not cached, after a change: %v", err)
	}
}

// runGit runs git in dir and returns its trimmed output.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitEnv(dir, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestProjectFile(t *testing.T) {
	repo, _ := tableRepo(t, 0)
	os.WriteFile(filepath.Join(repo, ConfigFile), []byte(`{"build": "make", "serve": "./srv {worktree}"}`), 0o644)
	p, err := ProjectFor(repo, Project{Serve: "./other"})
	if err != nil || p.Build != "make" || p.Serve != "./other" {
		t.Errorf("the command line over the file: %+v, %v", p, err)
	}
	os.WriteFile(filepath.Join(repo, ConfigFile), []byte("\xef\xbb\xbf"+`{"build": "make", "serve": "./srv"}`), 0o644)
	if p, err := ProjectFor(repo, Project{}); err != nil || p.Serve != "./srv" {
		t.Errorf("a file saved with a byte-order mark: %+v, %v", p, err)
	}
	os.WriteFile(filepath.Join(repo, ConfigFile), []byte(`{"build": "make", "srve": "./srv"}`), 0o644)
	if _, err := ProjectFor(repo, Project{}); err == nil || !strings.Contains(err.Error(), `unknown field "srve"`) {
		t.Errorf("a misspelt field: %v", err)
	}
	os.WriteFile(filepath.Join(repo, ConfigFile), []byte(`{"Build": "make", "serve": "./srv"}`), 0o644)
	if _, err := ProjectFor(repo, Project{}); err == nil || !strings.Contains(err.Error(), `unknown key "Build"`) {
		t.Errorf("a key in another case: %v", err)
	}
	if v := (projectVars{Worktree: "/a b", Rev: "c0ffee", Out: "/o"}).expand("{worktree}/x {rev} {out}"); v != `'/a b'/x c0ffee /o` {
		t.Errorf("expand: %s", v)
	}
	// ADAPTERS.md's Go build puts {rev} inside quotes: a commit, and one
	// with a working tree's changes, are substituted bare.
	const goBuild = `go build -ldflags "-X 'main.buildName=mystruct (git {rev})'" -o {out}/adapter .`
	if v := (projectVars{Rev: "c0ffee+dirty:beef", Out: "/o"}).expand(goBuild); v != `go build -ldflags "-X 'main.buildName=mystruct (git c0ffee+dirty:beef)'" -o /o/adapter .` {
		t.Errorf("expand of ADAPTERS.md's Go build: %s", v)
	}
}

// TestSnapshotLeavesOutCampaignOutput: untracked directories holding a
// campaign or a state (cfgfuzz's own output) keep a clean tree clean; any
// other untracked file makes it dirty.
func TestSnapshotLeavesOutCampaignOutput(t *testing.T) {
	repo, commits := tableRepo(t, 0)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(repo, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("night/"+CampaignFile, "{}")
	write("night/findings/abc/graph.cfg", "{{}}")
	write("runs/a/"+ResultsFile, "")
	write("st/"+StateFindingsFile, "{}")
	write("st/"+StateSeenFile, "")
	s, err := SnapshotWorkTree(repo)
	if err != nil || !s.Clean || s.Commit != commits[0] {
		t.Fatalf("a tree whose only untracked files are cfgfuzz's output: %+v, %v; want clean at %s", s, err, commits[0])
	}
	write("runs/notes.txt", "source\n")
	if s, err := SnapshotWorkTree(repo); err != nil || s.Clean || strings.Join(s.Changed, ",") != "runs/notes.txt" {
		t.Errorf("an untracked file beside the output: %+v, %v; want dirty, runs/notes.txt changed", s, err)
	}
}

// TestSnapshotLeavesOutRegressionFiles: untracked regression files, in a
// directory of their own or beside source, keep a clean tree clean, and
// the tree hash of a dirty one does not change as more are saved; a *.cfg
// that is no regression, and a change of a tracked regression file, are
// uncommitted changes.
func TestSnapshotLeavesOutRegressionFiles(t *testing.T) {
	repo, commits := tableRepo(t, 0)
	g, err := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	save := func(dir, name string) {
		t.Helper()
		h := corpus.Header{Signature: "structurize:error:toy", Structurizer: "repo:{repo}@" + commits[0], Expect: corpus.ExpectPass}
		if _, err := corpus.WriteRegression(filepath.Join(repo, dir), name, h, g); err != nil {
			t.Fatal(err)
		}
	}
	save("tests/cfgfuzz", "one")
	save(".", "beside")
	s, err := SnapshotWorkTree(repo)
	if err != nil || !s.Clean || s.Commit != commits[0] {
		t.Fatalf("a tree whose only untracked files are regression files: %+v, %v; want clean at %s", s, err, commits[0])
	}

	os.WriteFile(filepath.Join(repo, "n"), []byte("changed\n"), 0o644)
	dirty, err := SnapshotWorkTree(repo)
	if err != nil || dirty.Clean || strings.Join(dirty.Changed, ",") != "n" {
		t.Fatalf("a changed source file beside regression files: %+v, %v; want n alone changed", dirty, err)
	}
	save("tests/cfgfuzz", "two")
	if again, err := SnapshotWorkTree(repo); err != nil || again.Tree != dirty.Tree {
		t.Errorf("another regression file saved: tree %s, %v; want %s as before", again.Tree, err, dirty.Tree)
	}

	os.WriteFile(filepath.Join(repo, "tests/cfgfuzz/input.cfg"), []byte("{{1}, {}}\n"), 0o644)
	if s, err := SnapshotWorkTree(repo); err != nil || strings.Join(s.Changed, ",") != "n,tests/cfgfuzz/input.cfg" {
		t.Errorf("a graph file without a regression header: %+v, %v; want it changed", s, err)
	}
	os.Remove(filepath.Join(repo, "tests/cfgfuzz/input.cfg"))
	runGit(t, repo, "add", "tests/cfgfuzz/one.cfg")
	runGit(t, repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "a regression")
	os.WriteFile(filepath.Join(repo, "tests/cfgfuzz/one.cfg"), []byte("# expect: pass\n{{}}\n"), 0o644)
	if s, err := SnapshotWorkTree(repo); err != nil || strings.Join(s.Changed, ",") != "n,tests/cfgfuzz/one.cfg" {
		t.Errorf("a tracked regression file changed: %+v, %v; want it changed", s, err)
	}
}

// TestServeFailureNamed: a build whose serve command cannot run is a build
// error that says it was serving, and a revision the repository lacks is
// refused naming the repository.
func TestServeFailureNamed(t *testing.T) {
	repo, _ := tableRepo(t, 0)
	s := MustParseSpec("repo:x@HEAD")
	s.Repo = repo
	_, _, err := Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "true", Serve: "./no-such-server"}})
	if !IsBuildError(err) || !strings.HasPrefix(err.Error(), "serving the build of ") || !strings.Contains(err.Error(), "./no-such-server") {
		t.Errorf("a serve command that cannot run: %v, want a build error saying it was serving", err)
	}
	// A program named relative to the checkout, where the build made it:
	// the server runs in {out}, and the error says so and how to name it.
	_, _, err = Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "mkdir -p build && cp /bin/cat build/adapter", Serve: "build/adapter"}})
	if !IsBuildError(err) || !strings.Contains(err.Error(), "the serve command runs in {out} (/") ||
		!strings.Contains(err.Error(), "serve {out}/adapter, or serve {worktree}/build/adapter, which keeps the checkout") {
		t.Errorf("a serve command naming the program from the checkout: %v, want one saying it runs in {out} and how to name the program", err)
	}
	// A bare name the build put into {out}: the shell looks it up in PATH.
	_, _, err = Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "cp /bin/cat {out}/no-such-adapter", Serve: "no-such-adapter"}})
	if !IsBuildError(err) || !strings.Contains(err.Error(), "looks a bare no-such-adapter up in PATH, not there: name it {out}/no-such-adapter") {
		t.Errorf("a bare name of a program in {out}: %v", err)
	}
	s.Rev = "no-such-tag"
	_, _, err = Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "true", Serve: "cat"}})
	if err == nil || !strings.Contains(err.Error(), "not a commit of the git repository "+repo) {
		t.Errorf("a missing revision: %v, want one naming %s", err, repo)
	}
	s.Repo = filepath.Join(repo, "no-such-dir")
	if _, _, err = Resolve(s, ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Build: "true", Serve: "cat"}}); err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Errorf("a repository that does not exist: %v", err)
	}
}

// TestBuildLogSaysHowItEnded: the build log says what is built and how
// long it took, whether the build succeeded or failed (a failed one is not
// said to be kept), and when a build comes from the cache.
func TestBuildLogSaysHowItEnded(t *testing.T) {
	repo, commits := tableRepo(t, 1, 1)
	var log strings.Builder
	p := Project{Build: "test ! -e BROKEN", Serve: "cat"}
	opt := BuildOptions{Repo: repo, CacheDir: t.TempDir(), Log: &log}
	if _, err := BuildProject(p, Revision{Commit: commits[0]}, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildProject(p, Revision{Commit: commits[1]}, opt); !IsBuildError(err) {
		t.Fatalf("the broken commit: %v, want a build error", err)
	}
	if _, err := BuildProject(p, Revision{Commit: commits[0]}, opt); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "cfgfuzz: built "+commits[0][:12]+" in ") ||
		!strings.HasPrefix(lines[3], "cfgfuzz: building "+commits[1][:12]+" failed after ") || !strings.Contains(lines[3], "nothing kept") ||
		!strings.HasPrefix(lines[4], "cfgfuzz: "+commits[0][:12]+" built before (kept in ") {
		t.Errorf("build log:\n%s", log.String())
	}
}

// TestBuildLogNamesABuildOnce: builds given one Named set (the two sides
// of a comparison of one revision with itself) name a revision once: the
// build, or, where the cache had it, "built before"; without the set each
// call names it.
func TestBuildLogNamesABuildOnce(t *testing.T) {
	repo, commits := tableRepo(t, 1, 0)
	p := Project{Build: "true", Serve: "cat"}
	cache := t.TempDir()
	var log strings.Builder
	opt := BuildOptions{Repo: repo, CacheDir: cache, Log: &log, Named: map[string]bool{}}
	for range 2 {
		if _, err := BuildProject(p, Revision{Commit: commits[0]}, opt); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(log.String(), "\n"); n != 2 || strings.Contains(log.String(), "built before") {
		t.Errorf("built twice through one set: want the building and built lines only:\n%s", log.String())
	}
	log.Reset()
	opt.Named = map[string]bool{}
	for range 2 {
		if _, err := BuildProject(p, Revision{Commit: commits[0]}, opt); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(log.String(), " built before ("); n != 1 || strings.Count(log.String(), "\n") != 1 {
		t.Errorf("found in the cache twice through one set: want one built-before line:\n%s", log.String())
	}
	log.Reset()
	opt.Named = nil
	for range 2 {
		if _, err := BuildProject(p, Revision{Commit: commits[0]}, opt); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(log.String(), " built before ("); n != 2 {
		t.Errorf("without a set: want a built-before line per call:\n%s", log.String())
	}
}
