// makebuild_test.go: `make build` where cgo is on and SPIRV-Tools' header
// is missing, or where cgo is off for want of a C compiler, says what to do (make deps, or CGO_ENABLED=0 and what that
// gives up) instead of running go build into a raw cgo error, and where
// the header is there it runs the two go builds as ever. The go command
// is a stand-in for `go build` (the real one for `go env`), so the test
// writes nothing into the repository.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// makeBuild runs `make -s build` at the repository's top with go build
// stood in for by a script that prints its arguments, env added to the
// test's environment (an entry without "=" takes that variable out).
func makeBuild(t *testing.T, env ...string) (string, error) {
	t.Helper()
	for _, tool := range []string{"make", "go", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here: %v", tool, err)
		}
	}
	realGo, _ := exec.LookPath("go")
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\nif [ \"$1\" = build ]; then echo \"go build ran: $*\"; exit 0; fi\nexec " + realGo + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "build", "GO="+fake)
	cmd.Dir = filepath.Join("..", "..")
	for _, kv := range append(os.Environ(), env...) {
		if k, _, ok := strings.Cut(kv, "="); ok && !slices.Contains(env, k) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// haveSPIRVHeader says whether the C compiler finds SPIRV-Tools' header
// as cgo would here.
func haveSPIRVHeader() bool {
	cmd := exec.Command("sh", "-c", `printf '#include <spirv-tools/libspirv.h>\n' | $(go env CC) $(go env CGO_CPPFLAGS) $(go env CGO_CFLAGS) -E -x c - >/dev/null 2>&1`)
	return cmd.Run() == nil && strings.TrimSpace(goEnv("CGO_ENABLED")) == "1"
}

func goEnv(key string) string {
	out, _ := exec.Command("go", "env", key).Output()
	return string(out)
}

func TestMakeBuildSaysWhatToDoWithoutSPIRVHeader(t *testing.T) {
	if strings.TrimSpace(goEnv("CGO_ENABLED")) != "1" {
		t.Skip("cgo is off here (no C compiler): the build needs no header")
	}
	// -nostdinc: the compiler finds no header, SPIRV-Tools' among them, as
	// on a machine without the spirv-tools package.
	out, err := makeBuild(t, "CGO_ENABLED=1", "CGO_CPPFLAGS=-nostdinc")
	if err == nil || strings.Contains(out, "go build ran") {
		t.Fatalf("make build without the header: err %v, want a failure before go build runs\n%s", err, out)
	}
	for _, want := range []string{"spirv-tools/libspirv.h is missing", "make deps && make build", "CGO_ENABLED=0 make build",
		"the spirv-val check", "runs the spirv-val executable", "the driver check (gpu"} {
		if !strings.Contains(out, want) {
			t.Errorf("make build without the header: no %q in what it says\n%s", want, out)
		}
	}

	// Without cgo the header is not needed: the builds run.
	if out, err := makeBuild(t, "CGO_ENABLED=0", "CGO_CPPFLAGS=-nostdinc"); err != nil || strings.Count(out, "go build ran") != 2 || strings.Contains(out, "make build:") {
		t.Errorf("CGO_ENABLED=0 make build without the header: err %v, want both go builds and no word of the header\n%s", err, out)
	}
}

func TestMakeBuildUnchangedWithSPIRVHeader(t *testing.T) {
	if !haveSPIRVHeader() {
		t.Skip("no SPIRV-Tools header here for cgo (make deps installs it)")
	}
	out, err := makeBuild(t, "TAGS=")
	if err != nil || strings.Count(out, "go build ran") != 2 || strings.Contains(out, "make build:") {
		t.Fatalf("make build with the header: err %v, want both go builds and nothing else\n%s", err, out)
	}
	for _, want := range []string{"go build ran: build -tags= -o bin/cfgfuzz ./cmd/cfgfuzz", "go build ran: build -tags= -o bin/structurize ./cmd/structurize"} {
		if !strings.Contains(out, want) {
			t.Errorf("make build TAGS=: no %q\n%s", want, out)
		}
	}
}

// TestMakeBuildSaysTheCCompilerIsMissing: a C compiler that is not there
// is named as such, not taken for a missing header.
func TestMakeBuildSaysTheCCompilerIsMissing(t *testing.T) {
	out, err := makeBuild(t, "CGO_ENABLED=1", "CC=/nonexistent/cc")
	if err == nil || strings.Contains(out, "go build ran") {
		t.Fatalf("make build with no C compiler: err %v, want a failure before go build runs\n%s", err, out)
	}
	for _, want := range []string{"its C compiler (/nonexistent/cc, go env CC) is not found", "make deps && make build", "CGO_ENABLED=0 make build"} {
		if !strings.Contains(out, want) {
			t.Errorf("make build with no C compiler: no %q in what it says\n%s", want, out)
		}
	}
	if strings.Contains(out, "libspirv.h") {
		t.Errorf("make build with no C compiler blames the header:\n%s", out)
	}
}

// TestMakeBuildSaysCgoIsOffForWantOfACompiler: with no C compiler on PATH
// and CGO_ENABLED not set, go turns cgo off by itself; make build says so,
// what a build without cgo gives up and how to get it, before go build
// runs, rather than quietly build without the validator and the driver
// check. CGO_ENABLED=0 asks for that build: it runs, with no word.
func TestMakeBuildSaysCgoIsOffForWantOfACompiler(t *testing.T) {
	bin := t.TempDir() // sh alone: no gcc, no cc
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh here")
	}
	if err := os.Symlink(sh, filepath.Join(bin, "sh")); err != nil {
		t.Fatal(err)
	}
	out, err := makeBuild(t, "PATH="+bin, "CGO_ENABLED", "CC")
	if err == nil || strings.Contains(out, "go build ran") {
		t.Fatalf("make build with no C compiler on PATH: err %v, want a failure before go build runs\n%s", err, out)
	}
	for _, want := range []string{"cgo is off because no C compiler was found (gcc, go env CC, is not on PATH)", "make deps && make build",
		"CGO_ENABLED=0 make build", "the in-process validator", "the driver check (gpu"} {
		if !strings.Contains(out, want) {
			t.Errorf("make build with no C compiler on PATH: no %q in what it says\n%s", want, out)
		}
	}
	if out, err := makeBuild(t, "PATH="+bin, "CGO_ENABLED=0", "CC"); err != nil || strings.Count(out, "go build ran") != 2 || strings.Contains(out, "make build:") {
		t.Errorf("CGO_ENABLED=0 make build with no C compiler on PATH: err %v, want both go builds and no word of cgo\n%s", err, out)
	}
}
