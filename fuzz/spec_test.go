package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSpecForms(t *testing.T) {
	for _, c := range []struct {
		in, want string
		kind     string
	}{
		{"", "self", SpecSelf},
		{"self", "self", SpecSelf},
		{"in-process", "self", SpecSelf},
		{"isolated", "isolated", SpecIsolated},
		{"rev:HEAD~1", "rev:HEAD~1", SpecRev},
		{"cmd:./adapter --x", "cmd:./adapter --x", SpecCmd},
		{"./adapter --x", "cmd:./adapter --x", SpecCmd},
		{"repo:/src/my proj@v1.2", "repo:/src/my proj@v1.2", SpecRepo},
		{"repo:a@b@c", "repo:a@b@c", SpecRepo},
		{"rev:HEAD+dirty", "rev:HEAD+dirty", SpecRev},
		{"rev:0123abc+dirty:9f8e", "rev:0123abc+dirty:9f8e", SpecRev},
		{"repo:/src/x@HEAD+dirty", "repo:/src/x@HEAD+dirty", SpecRepo},
		{"repo:/src/x@c0ffee+dirty:beef", "repo:/src/x@c0ffee+dirty:beef", SpecRepo},
	} {
		s, err := ParseSpec(c.in)
		if err != nil {
			t.Fatalf("ParseSpec(%q): %v", c.in, err)
		}
		if s.Kind != c.kind || s.String() != c.want {
			t.Errorf("ParseSpec(%q) = %+v (%s), want kind %s, %s", c.in, s, s, c.kind, c.want)
		}
		again, err := ParseSpec(s.String())
		if err != nil || again != s {
			t.Errorf("ParseSpec(%q) does not round-trip: %+v, %v", s.String(), again, err)
		}
	}
	for _, bad := range []string{"rev:", "cmd:", "cmd:  ", "repo:dir", "repo:@x", "repo:dir@", "rev:+dirty", "repo:dir@+dirty:ab"} {
		if s, err := ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) = %+v, want an error", bad, s)
		}
	}
}

func TestSpecFlagReplaysThroughAShell(t *testing.T) {
	for _, spec := range []string{"cmd:./a 'b' \"c\" $HOME", "rev:main", "isolated", "repo:/x y@HEAD"} {
		flag := MustParseSpec(spec).Flag()
		out, err := exec.Command("sh", "-c", "printf %s "+flag[len("--structurizer "):]).Output()
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ParseSpec(string(out)); err != nil || got.String() != MustParseSpec(spec).String() {
			t.Errorf("%s: the shell read %q back as %v (%v)", spec, out, got, err)
		}
	}
	if s := MustParseSpec("rev:c0ffee+dirty:beef"); s.Rev != "c0ffee" || s.WorkTree != "beef" {
		t.Errorf("rev:c0ffee+dirty:beef = %+v", s)
	}
	if s := MustParseSpec("rev:HEAD+dirty"); s.Rev != "HEAD" || s.WorkTree != WorkTreeAny {
		t.Errorf("rev:HEAD+dirty = %+v", s)
	}
	if f := MustParseSpec("self").Flag(); f != "" {
		t.Errorf("self.Flag() = %q, want none", f)
	}
}

// TestCommandPathsRecordedAbsolute: a cmd spec's relative paths are
// recorded absolute, so a replay runs from any directory; what is no
// path, or not plainly one, is left to the shell.
func TestCommandPathsRecordedAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"ss", "tools/ss.py"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("#!/bin/sh\nread line\necho ran\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]string{
		"./ss --fast":            dir + "/ss --fast",
		"python3 tools/ss.py -v": "python3 " + dir + "/tools/ss.py -v",
		"python3 ss":             "python3 ss", // no slash: the shell's to find
		"'./ss'":                 "'./ss'",
		"./missing":              "./missing",
		"/bin/cat":               "/bin/cat",
		"./ss $HOME/x":           dir + "/ss $HOME/x",
	}
	for cmd, want := range cases {
		if got := absoluteWords(cmd); got != want {
			t.Errorf("absoluteWords(%q) = %q, want %q", cmd, got, want)
		}
	}
	_, rec, err := Resolve(MustParseSpec("cmd:./ss --fast"), ResolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "cmd:" + dir + "/ss --fast"; rec.String() != want {
		t.Errorf("recorded %q, want %q", rec.String(), want)
	}
}

// TestCommandPathsRecordedAbsoluteWithSpaces: in a directory whose path a
// shell would split, a relative path is recorded absolute and quoted, and
// the recorded command runs from elsewhere.
func TestCommandPathsRecordedAbsoluteWithSpaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my proj")
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools", "ss"), []byte("#!/bin/sh\necho \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got := absoluteWords("tools/ss --fast")
	if want := "'" + dir + "/tools/ss' --fast"; got != want {
		t.Fatalf("absoluteWords(tools/ss --fast) = %q, want %q", got, want)
	}
	t.Chdir(t.TempDir())
	if out, err := exec.Command("sh", "-c", "exec "+got).Output(); err != nil || string(out) != "--fast\n" {
		t.Errorf("the recorded command %s run from elsewhere: %q, %v", got, out, err)
	}
	if got := absoluteWords("tools/ss"); got != "tools/ss" {
		t.Errorf("absoluteWords(tools/ss) from elsewhere = %q, want it as it is (no such file here)", got)
	}
}

// TestRepoSpecRecordedAbsolute: a repo spec's directory given relative
// (repo:.@HEAD) is recorded absolute, so the regression file or replay
// command that repeats it runs from any directory, as --repo's is.
func TestRepoSpecRecordedAbsolute(t *testing.T) {
	repo, commits := tableRepo(t, 0)
	t.Chdir(repo)
	_, rec, err := Resolve(MustParseSpec("repo:.@HEAD"), ResolveOptions{Build: BuildOptions{CacheDir: t.TempDir()}, Project: Project{Serve: "cat"}})
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	if want := "repo:" + abs + "@" + commits[0]; rec.String() != want {
		t.Errorf("recorded %q, want %q", rec.String(), want)
	}
}

// TestCommandPathsAfterACdLeftAsWritten: a command that changes directory
// runs its later words from there, so they are left as written though a
// file of that name lies in the working directory (./adapter here and in
// tools/); the cd's own directory is found from the working directory and
// made absolute, and a cd that is an argument changes nothing.
func TestCommandPathsAfterACdLeftAsWritten(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"shaderc", "build/bin", "tools"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"adapter", "tools/adapter", "build/shaderc"} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\nread line\necho ran\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for cmd, want := range map[string]string{
		"cd build && ./shaderc":                       "cd build && ./shaderc",
		"cd tools && ./adapter --conf ./adapter":      "cd tools && ./adapter --conf ./adapter",
		"cd tools; ./adapter":                         "cd tools; ./adapter",
		"cd tools&&./adapter":                         "cd tools&&./adapter",
		"(cd tools && exec ./adapter)":                "(cd tools && exec ./adapter)",
		"FOO=1 cd tools && ./adapter":                 "FOO=1 cd tools && ./adapter",
		"if cd tools; then ./adapter; fi":             "if cd tools; then ./adapter; fi",
		"sh -c 'cd tools && ./adapter --x'":           "sh -c 'cd tools && ./adapter --x'",
		"env bash -c 'cd tools && exec ./adapter'":    "env bash -c 'cd tools && exec ./adapter'",
		"sh -c 'cd build/bin && ../shaderc'":          "sh -c 'cd build/bin && ../shaderc'",
		"cd build/bin && ../shaderc":                  "cd " + dir + "/build/bin && ../shaderc",
		"cd -P build/bin && ./adapter":                "cd -P " + dir + "/build/bin && ./adapter",
		"./adapter --x && cd tools && ./adapter":      dir + "/adapter --x && cd tools && ./adapter",
		"./adapter cd tools ./adapter":                dir + "/adapter cd tools " + dir + "/adapter",
		"./adapter --wrap sh -c 'cd tools' ./adapter": dir + "/adapter --wrap sh -c 'cd tools' " + dir + "/adapter",
		"env -C tools ./adapter":                      "env -C tools ./adapter",
		"env --chdir=tools ./adapter":                 "env --chdir=tools ./adapter",
		"env -C build/bin ../shaderc":                 "env -C " + dir + "/build/bin ../shaderc",
	} {
		if got := absoluteWords(cmd); got != want {
			t.Errorf("absoluteWords(%q) = %q, want %q", cmd, got, want)
		}
	}
	got, err := RecordedSpec("cd tools && ./adapter")
	if want := "cmd:cd tools && ./adapter"; err != nil || got != want {
		t.Errorf("RecordedSpec(cd tools && ./adapter) = %q, %v; want %q", got, err, want)
	}
}

// TestGoRunRecordedWithItsDirectory: a `go run` command, which finds its
// module from the directory it runs in, is recorded with go's -C naming
// that directory, and the recorded command runs from any other; a
// command that names -C itself or changes directory is left as it is.
func TestGoRunRecordedWithItsDirectory(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go:", err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":         "module example.com/adapter\n\ngo 1.21\n",
		"cmd/ad/main.go": "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() { fmt.Println(os.Args[1:]) }\n",
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for cmd, want := range map[string]string{
		"go run ./cmd/ad --fast":       "go -C " + dir + " run " + dir + "/cmd/ad --fast",
		"GOFLAGS=-mod=mod go run .":    "GOFLAGS=-mod=mod go -C " + dir + " run .",
		"go -C sub run .":              "go -C sub run .",
		"cd cmd/ad && go run .":        "cd " + dir + "/cmd/ad && go run .",
		"go build -o ad ./cmd/ad":      "go build -o ad " + dir + "/cmd/ad",
		"./go run x":                   "./go run x",
		"sh -c 'go run ./cmd/ad' --go": "sh -c 'go run ./cmd/ad' --go",
	} {
		if got := absoluteWords(cmd); got != want {
			t.Errorf("absoluteWords(%q) = %q, want %q", cmd, got, want)
		}
	}
	recorded, err := RecordedSpec("cmd:go run ./cmd/ad --fast")
	if err != nil {
		t.Fatal(err)
	}
	sp := MustParseSpec(recorded)
	elsewhere := t.TempDir()
	t.Chdir(elsewhere)
	cmd := exec.Command("sh", "-c", "exec "+sp.Cmd)
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "[--fast]\n" {
		t.Errorf("the recorded %s run from %s: %q, %v", recorded, elsewhere, out, err)
	}
	// A regression file in the module writes the directory from {repo}.
	mapped := sp.MapPaths(func(p string) string {
		if rel, ok := strings.CutPrefix(p, dir); ok {
			return "{repo}" + rel
		}
		return p
	})
	if want := "cmd:go -C {repo} run {repo}/cmd/ad --fast"; mapped.String() != want {
		t.Errorf("mapped %q, want %q", mapped.String(), want)
	}
}
