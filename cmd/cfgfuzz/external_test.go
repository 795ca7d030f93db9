// external_test.go: the commands driving a structurizer that is not this
// process's: `cfgfuzz structurize --inject FAULT` (this tree's behind the
// protocol, with a bug planted in every answer) and testdata/misbehave.py
// (crashes, panics, hangs or errs on graphs with a self-loop) run as
// --structurizer 'cmd:...', checked, minimized, stored, replayed and kept
// as regressions exactly like the in-process structurizer.
package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// TestMain removes the binary cfgfuzzBinary built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// cfgfuzzBinary builds this command once per test binary.
func cfgfuzzBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := exec.Command("mktemp", "-d").Output()
		if err != nil {
			binErr = err
			return
		}
		binDir = strings.TrimSpace(string(dir))
		binPath = filepath.Join(binDir, "cfgfuzz")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("building cfgfuzz: %v", binErr)
	}
	return binPath
}

// plantedSpec is an external structurizer with a bug of its own: this
// tree's behind the protocol with swap-arms planted in every answer.
func plantedSpec(t *testing.T) string {
	return "cmd:" + cfgfuzzBinary(t) + " structurize --inject swap-arms"
}

// misbehaveSpec is testdata/misbehave.py in mode over this tree's server.
func misbehaveSpec(t *testing.T, mode string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	py, _ := filepath.Abs(filepath.Join("testdata", "misbehave.py"))
	return "cmd:python3 " + py + " " + mode + " " + cfgfuzzBinary(t) + " structurize"
}

func runCmd(args []string, stdin string) (int, string, string) {
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errw)
	return code, out.String(), errw.String()
}

// TestCheckExternalStructurizer: check --structurizer runs the graphs on
// the named program: the planted bug fails exec where the in-process
// structurizer passes, and each misbehaviour of misbehave.py is its
// harness finding (a normalized signature), the other graph still ok.
func TestCheckExternalStructurizer(t *testing.T) {
	const g = "{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}\n"
	if code, out, errs := runCmd([]string{"check", "-"}, g); code != exitOK {
		t.Fatalf("self: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd([]string{"check", "--structurizer", plantedSpec(t), "-"}, g)
	if code != exitFail || !strings.HasPrefix(out, "FAIL exec:") || !strings.Contains(errs, "structurizer cmd:") {
		t.Errorf("planted: exit %d\n%s%s", code, out, errs)
	}
	const loop = "{{1}, {1, 2}, {}}\n" + g
	for mode, sig := range map[string]string{
		"crash": "FAIL structurize:crash:exit status N: Segmentation fault at N in <path>:N (loops [N])",
		"panic": "FAIL structurize:panic:loop header bN has N blocks: [N]",
		"error": "FAIL structurize:error:internal: header N at N: blocks N",
		"hang":  "FAIL structurize:timeout",
	} {
		code, out, errs := runCmd([]string{"check", "--timeout", "2s", "--structurizer", misbehaveSpec(t, mode), "-"}, loop)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != exitFail || len(lines) != 2 || !strings.HasPrefix(lines[0], sig+" ") || !strings.HasPrefix(lines[1], "ok ") {
			t.Errorf("%s: exit %d, want a first line starting %q and an ok:\n%s%s", mode, code, sig, out, errs)
		}
	}
}
