// repo_test.go: temporary git repositories for the tests that build
// revisions (compare, bisect): a copy of this source tree committed in a
// fresh repository, edits that plant a bug in its structurizer, and the
// CLI run inside it with a build cache of its own.
package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gitIn runs git in dir and returns its trimmed output; it fails the test
// on an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=cfgfuzz test", "-c", "user.email=test@cfgfuzz.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commitAll commits every change in dir and returns the commit's hash.
func commitAll(t *testing.T, dir, msg string) string {
	t.Helper()
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return gitIn(t, dir, "rev-parse", "HEAD")
}

// treeRoot is this source tree's root (the test runs in cmd/cfgfuzz).
const treeRoot = "../.."

// copyOfThisTree copies this source tree (its files, not its history) into
// a fresh git repository with one commit and returns the repository.
func copyOfThisTree(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "cfgfuzz")
	for _, rel := range treeFiles(t) {
		b, err := os.ReadFile(filepath.Join(treeRoot, rel))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dst, "init", "-q")
	commitAll(t, dst, "base")
	return dst
}

// treeFiles lists the tree's files: git's tracked and untracked-not-ignored
// ones in a checkout, else every regular file outside .git.
func treeFiles(t *testing.T) []string {
	cmd := exec.Command("git", "ls-files", "-co", "--exclude-standard", "-z")
	cmd.Dir = treeRoot
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				if st, err := os.Stat(filepath.Join(treeRoot, string(f))); err == nil && st.Mode().IsRegular() {
					files = append(files, string(f))
				}
			}
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(treeRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(treeRoot, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// plantPanic makes the repository's structurizer panic on graphs of
// minBlocks blocks or more.
func plantPanic(t *testing.T, repo string, minBlocks int) {
	t.Helper()
	editFile(t, filepath.Join(repo, "structurizer", "structurize.go"),
		"func Structurize(g *cfg.Graph, opt Options) (*Result, error) {\n",
		"func Structurize(g *cfg.Graph, opt Options) (*Result, error) {\n\tif g.Len() >= "+strconv.Itoa(minBlocks)+" {\n\t\tpanic(\"planted: too many blocks\")\n\t}\n")
}

// editFile replaces old (which must be there) by new in the file at p.
func editFile(t *testing.T, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s lacks %q", p, old)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ownBuildCache points cfgfuzz's build cache (os.UserCacheDir) at a
// temporary directory, keeping Go's own build cache where it is so the
// builds stay incremental.
func ownBuildCache(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
}

// cliIn runs the CLI with the working directory dir and returns its exit
// status and output.
func cliIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errw bytes.Buffer
	code = run(args, nil, &out, &errw)
	t.Logf("cfgfuzz %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errw.String())
	return code, out.String(), errw.String()
}

// toyServer is a protocol v1 server in Python for the tests of other
// repositories: it refuses every graph, and with bug set it fails (an
// error outcome, a finding) on graphs of at least that many blocks.
func toyServer(bug int) string {
	return `import json, sys
BUG = ` + strconv.Itoa(bug) + `
for line in sys.stdin:
    req = json.loads(line)
    blocks = req["graph"].count("{") - 1
    if BUG and blocks >= BUG:
        resp = {"id": req["id"], "outcome": "error", "reason": "toy: planted bug"}
    else:
        resp = {"id": req["id"], "outcome": "refused", "reason": "toy: refuses every graph"}
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()
`
}

// toyRepo is a fresh git repository holding the toy server (no bug) and,
// when config is not "", a .cfgfuzz.json with it; it returns the
// repository and its first commit.
func toyRepo(t *testing.T, config string) (string, string) {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "toy")
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(0))
	if config != "" {
		writeFile(t, filepath.Join(repo, ".cfgfuzz.json"), config)
	}
	gitIn(t, repo, "init", "-q")
	return repo, commitAll(t, repo, "toy: refuse everything")
}

// plantedToyRepo is toyRepo with a second commit that plants the toy
// server's bug on graphs of 2 blocks or more: the repository, its first
// commit (no bug) and the second.
func plantedToyRepo(t *testing.T, config string) (repo, good, bad string) {
	t.Helper()
	repo, good = toyRepo(t, config)
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(2))
	return repo, good, commitAll(t, repo, "toy: planted bug on 2 blocks or more")
}

// writeFile writes s to p, making its directory.
func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writerIn is a function writing a file of dir by name, returning its path.
func writerIn(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, text)
		return p
	}
}

// toyConfig builds the toy by compiling it into {out} and serves it from
// there.
const toyConfig = `{"build": "python3 -m py_compile toy.py && cp toy.py {out}/toy.py", "serve": "python3 {out}/toy.py"}`
