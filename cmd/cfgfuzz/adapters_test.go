// adapters_test.go: the example adapters of fuzz/examples (C++ built with
// g++, Rust built with rustc, Python run with python3, Go built as its own
// module) each speak
// protocol v1 (C++, Rust and Go v2, declaring the build name compiled or
// linked in, which the report shows) to `cfgfuzz run --structurizer` and pass `cfgfuzz selftest`
// (with and without their bug): 200 graphs with no finding,
// and each adapter's planted bug found (exit 1, its signature) and
// minimized against the adapter into the findings store. g++, rustc or
// python3 missing skips that adapter, saying so.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// adapter is one example adapter: how to build it, the shell command that
// runs it, its planted bug's flag and the signature the bug must give.
type adapter struct {
	name  string
	build func(t *testing.T, dir string) string // returns the command
	bug   string                                // appended to the command
	sig   string                                // signature the bug must give
	// named is the name its protocol v2 hello declares, as its build
	// names it (exampleBuildName); "" for a v1 adapter.
	named string
}

// exampleBuildName is the build name the C++, Rust and Go adapters are
// built with: a commit and a working tree's suffix, as a build command
// of compare or bisect names its revision ({rev}).
const exampleBuildName = "example adapter (git 0a049b650f8f+dirty:1f1bedcc)"

var adapters = []adapter{
	{name: "cpp", build: buildCppAdapter, bug: " --bug swap-arms", sig: "exec:trace-mismatch", named: exampleBuildName},
	{name: "rust", build: buildRustAdapter, bug: " --bug choice-rotated", sig: "exec:trace-mismatch", named: exampleBuildName},
	{name: "python", build: pythonAdapter, bug: " --bug exit-restarts", sig: "exec:trace-mismatch"},
	{name: "go", build: buildGoAdapter, bug: " --bug no-loop-merge", sig: "rules:R3", named: exampleBuildName},
}

func examplesDir(t *testing.T) string {
	d, err := filepath.Abs(filepath.Join("..", "..", "fuzz", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func buildCppAdapter(t *testing.T, dir string) string {
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ not installed: the C++ adapter is not built")
	}
	bin := filepath.Join(dir, "dispatch_adapter")
	src := filepath.Join(examplesDir(t), "cpp-adapter", "dispatch_adapter.cpp")
	name := `-DCFGFUZZ_BUILD_NAME="` + exampleBuildName + `"`
	if out, err := exec.Command(gxx, "-std=c++17", "-O0", "-Wall", "-Wextra", "-Werror", name, "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	return shellQuote(bin)
}

func buildRustAdapter(t *testing.T, dir string) string {
	rustc, err := exec.LookPath("rustc")
	if err != nil {
		t.Skip("rustc not installed: the Rust adapter is not built")
	}
	bin := filepath.Join(dir, "rust-adapter")
	src := filepath.Join(examplesDir(t), "rust-adapter", "src", "main.rs")
	cmd := exec.Command(rustc, "--edition", "2021", "-D", "warnings", "-o", bin, src)
	cmd.Env = append(os.Environ(), "CFGFUZZ_BUILD_NAME="+exampleBuildName)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rustc: %v\n%s", err, out)
	}
	return shellQuote(bin)
}

func pythonAdapter(t *testing.T, dir string) string {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the Python adapter is not run")
	}
	return shellQuote(py) + " " + shellQuote(filepath.Join(examplesDir(t), "python-adapter", "cfgfuzz_adapter.py"))
}

// buildGoAdapter builds the Go adapter with the build command its
// documentation gives, the name linked in from CFGFUZZ_BUILD_NAME.
func buildGoAdapter(t *testing.T, dir string) string {
	bin := filepath.Join(dir, "go-adapter")
	cmd := exec.Command("sh", "-c", `go build -ldflags "-X 'main.buildName=$CFGFUZZ_BUILD_NAME'" -o "$1" .`, "sh", bin)
	cmd.Dir = filepath.Join(examplesDir(t), "go-adapter")
	cmd.Env = append(os.Environ(), "CFGFUZZ_BUILD_NAME="+exampleBuildName)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build (its own module, importing fuzz/proto): %v\n%s", err, out)
	}
	return shellQuote(bin)
}

// campaignOutcomes runs `cfgfuzz run --structurizer cmd` on 200 graphs
// into out and returns its exit status and the count of each outcome and
// signature.
func campaignOutcomes(t *testing.T, cmd, out string, minimize bool) (int, map[string]int, string) {
	t.Helper()
	return campaignOutcomesWith(t, cmd, out, minimize, 200)
}

// campaignOutcomesWith is campaignOutcomes on n graphs, with more flags.
func campaignOutcomesWith(t *testing.T, cmd, out string, minimize bool, n int, args ...string) (int, map[string]int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"run", "--structurizer", cmd, "--graphs", strconv.Itoa(n), "--seed", "1", "--workers", "2",
		"--out", out, "--progress", "none", "--minimize=" + strconv.FormatBool(minimize)}, args...), strings.NewReader(""), &stdout, &stderr)
	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatalf("exit %d, no results log: %v\n%s%s", code, err, stdout.String(), stderr.String())
	}
	defer f.Close()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			Cur struct{ Outcome, Signature string } `json:"cur"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("results log: %v", err)
		}
		counts[rec.Cur.Outcome]++
		if rec.Cur.Signature != "" {
			counts[rec.Cur.Signature]++
		}
	}
	return code, counts, stdout.String() + stderr.String()
}

func TestExampleAdapters(t *testing.T) {
	t.Parallel() // its builds and campaigns keep the cores busy while the tests that mostly wait wait (parallelTests)
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) {
			cmd := a.build(t, t.TempDir())
			checkBadRequests(t, cmd)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"selftest", "--structurizer", cmd, "--timeout", "10s"}, nil, &stdout, &stderr); code != 0 {
				t.Errorf("selftest: exit %d, want 0\n%s%s", code, stdout.String(), stderr.String())
			}
			var bugOut, bugErr bytes.Buffer
			if code := run([]string{"selftest", "--structurizer", cmd + a.bug, "--timeout", "10s"}, nil, &bugOut, &bugErr); code != 0 {
				// The protocol is the adapter's, not its bug's: selftest
				// checks the protocol only.
				t.Errorf("selftest of the adapter with%s: exit %d, want 0\n%s%s", a.bug, code, bugOut.String(), bugErr.String())
			}
			clean := t.TempDir()
			code, counts, text := campaignOutcomes(t, cmd, clean, false)
			if code != 0 || counts["ok"] != 200 {
				t.Errorf("clean adapter: exit %d, outcomes %v, want exit 0 and 200 ok\n%s", code, counts, text)
			}
			checkDeclaredName(t, clean, a.named)
			out := t.TempDir()
			code, counts, text = campaignOutcomes(t, cmd+a.bug, out, true)
			if code != 1 || counts[a.sig] == 0 {
				t.Errorf("adapter with%s: exit %d, outcomes %v, want exit 1 and %s findings\n%s", a.bug, code, counts, a.sig, text)
			}
			// The campaign minimized the finding against the adapter.
			mins, _ := filepath.Glob(filepath.Join(out, "findings", "*", "*", "min.cfg"))
			if len(mins) == 0 {
				t.Errorf("adapter with%s: no minimized finding under %s/findings\n%s", a.bug, out, text)
			}
		})
	}
}

// checkDeclaredName: the campaign in dir names the build its adapter
// declared in its hello (named; "" none) in report.json's declared
// current side, and report.md says it.
func checkDeclaredName(t *testing.T, dir, named string) {
	t.Helper()
	var rep struct {
		Declared map[string]struct {
			V    int    `json:"v"`
			Name string `json:"name"`
		} `json:"declared"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "report.json"))), &rep); err != nil {
		t.Fatal(err)
	}
	if got := rep.Declared["current"]; got.Name != named || (named != "" && got.V != 2) {
		t.Errorf("report.json declares the current side %+v, want the name %q in a v2 hello", got, named)
	}
	if md := readFile(t, filepath.Join(dir, "report.md")); named != "" && !strings.Contains(md, named) {
		t.Errorf("report.md does not name the build %q:\n%s", named, md)
	}
}

// checkBadRequests: a line that is not JSON, a request of another
// version, a bad graph and weights of the wrong length each get an error
// whose reason starts with "request: " (a harness error, not a finding), in
// order, with the request's id.
func checkBadRequests(t *testing.T, shell string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", shell)
	cmd.Stdin = strings.NewReader("not json\n{\"v\":3,\"id\":7,\"graph\":\"{{}}\"}\n{\"v\":1,\"id\":8,\"graph\":\"{{1}, {7\"}\n{\"v\":1,\"id\":9,\"graph\":\"{{1}, {}}\",\"weights\":[1]}\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d response lines, want 4:\n%s", len(lines), out)
	}
	for i, want := range []int64{0, 7, 8, 9} {
		var r struct {
			ID      int64  `json:"id"`
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, lines[i])
		}
		if r.ID != want || r.Outcome != "error" || !strings.HasPrefix(r.Reason, "request: ") {
			t.Errorf("line %d: %s, want id %d, outcome error, reason request: ...", i+1, lines[i], want)
		}
	}
}
