// outdir_test.go: what a command says and how it exits when the paths it
// writes are not usable: an --out that is a file, a findings store that
// cannot be written.
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutIsAFile: run and compare into an --out that is a regular file
// exit 2 saying it is not a directory, not that it holds a campaign; into
// an --out below a file, exit 2 naming the flag and the directory.
func TestOutIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--graphs", "5", "--progress", "none", "--out", file},
		{"compare", "--baseline-structurizer", "self", "--current", "self", "--graphs", "5", "--progress", "none", "--out", file},
	} {
		var out, errw bytes.Buffer
		code := run(args, nil, &out, &errw)
		if code != exitUsage || !strings.Contains(errw.String(), file+" is not a directory") || strings.Contains(errw.String(), "holds a campaign") {
			t.Errorf("%s --out FILE: exit %d, want 2 saying %s is not a directory\n%s%s", args[0], code, file, out.String(), errw.String())
		}
		below := filepath.Join(file, "x")
		args[len(args)-1] = below
		out.Reset()
		errw.Reset()
		if code := run(args, nil, &out, &errw); code != exitUsage || !strings.Contains(errw.String(), "--out "+below+": ") {
			t.Errorf("%s --out FILE/x: exit %d, want 2 naming --out %s\n%s%s", args[0], code, below, out.String(), errw.String())
		}
	}
}

// TestRunReportsStoreError: a finding the findings store cannot take is
// said on stderr, naming the store, not dropped without a word.
func TestRunReportsStoreError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "findings"), nil, 0o644); err != nil { // where the store's directory goes
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	code := run([]string{"run", "--graphs", "20", "--kinds", "reducible", "--dispatch-every", "0", "--inject", "swap-arms", "--progress", "none", "--out", dir}, nil, &out, &errw)
	if code != exitFail {
		t.Fatalf("exit %d, want 1 (new findings)\n%s%s", code, out.String(), errw.String())
	}
	if !strings.Contains(errw.String(), "findings store: exec:trace-mismatch not stored under "+dir) {
		t.Errorf("stderr does not say the finding was not stored\n%s", errw.String())
	}
}

// TestRunSummaryDespiteUnwritableProfile: a --memprofile that cannot be
// written makes the exit status 2, but the summary of the run's findings
// still comes on stdout.
func TestRunSummaryDespiteUnwritableProfile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	prof := filepath.Join(t.TempDir(), "no", "such", "dir", "mem.prof")
	var out, errw bytes.Buffer
	code := run([]string{"run", "--graphs", "20", "--kinds", "reducible", "--dispatch-every", "0", "--inject", "swap-arms", "--progress", "none", "--minimize=false", "--memprofile", prof, "--out", dir}, nil, &out, &errw)
	if code != exitUsage || !strings.Contains(errw.String(), "--memprofile") {
		t.Errorf("exit %d, want 2 naming --memprofile\n%s", code, errw.String())
	}
	if !strings.Contains(out.String(), "findings (") || !strings.Contains(out.String(), "new") {
		t.Errorf("no summary on stdout:\n%s", out.String())
	}
}
