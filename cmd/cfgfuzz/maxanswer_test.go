// maxanswer_test.go: `run --max-answer` bounds a structurizer process's
// answer (a longer one is a crash finding with a stable signature) and the
// campaign records the bound for --resume.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestRunMaxAnswer(t *testing.T) {
	bin := hostileServer(t)
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--structurizer", bin + " huge-line", "--graphs", "2", "--max-answer", "1MiB",
		"--out", dir, "--progress", "none", "--minimize=false", "--workers", "1"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitFail {
		t.Fatalf("exit %d, want %d: %s", code, exitFail, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep fuzz.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	want := "structurize:crash:protocol: answer longer than N bytes (--max-answer)"
	if len(rep.Findings) != 1 || rep.Findings[0].Signature != want || rep.Findings[0].Count != 2 {
		t.Errorf("findings %+v, want 2 graphs of %q", rep.Findings, want)
	}
	s, err := fuzz.LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.MaxAnswer != 1<<20 {
		t.Errorf("campaign records max_answer %d, want %d", s.MaxAnswer, 1<<20)
	}
}

// TestCheckMinimizeRegressMaxAnswer: check, minimize and regress hold a
// structurizer process to --max-answer as run does: this tree's server,
// whose answers are a few hundred bytes, passes under the default and is
// a crash finding under a 64-byte bound.
func TestCheckMinimizeRegressMaxAnswer(t *testing.T) {
	bin := hostileServer(t)
	graph := filepath.Join(t.TempDir(), "g.cfg")
	if err := os.WriteFile(graph, []byte("# signature: none\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const sig = "answer longer than"
	for _, c := range []struct {
		bound string
		code  int
	}{{"", exitOK}, {"64", exitFail}} {
		args := []string{"check", "--structurizer", bin + " good", graph}
		if c.bound != "" {
			args = append(args, "--max-answer", c.bound)
		}
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || (c.bound != "") != strings.Contains(stdout.String(), sig) {
			t.Errorf("check --max-answer %q: exit %d, want %d\n%s%s", c.bound, code, c.code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"minimize", "--structurizer", bin + " good", "--max-answer", "64", graph}, strings.NewReader(""), &stdout, &stderr)
	if code != exitOK || !strings.Contains(stdout.String()+stderr.String(), sig) {
		t.Errorf("minimize --max-answer 64: exit %d, want 0 and the crash signature\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, c := range []struct {
		bound string
		code  int
	}{{"", exitOK}, {"64", exitFail}} {
		args := []string{"regress", "--structurizer", bin + " good", filepath.Dir(graph)}
		if c.bound != "" {
			args = append(args, "--max-answer", c.bound)
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != c.code {
			t.Errorf("regress --max-answer %q: exit %d, want %d\n%s%s", c.bound, code, c.code, stdout.String(), stderr.String())
		}
	}
}
