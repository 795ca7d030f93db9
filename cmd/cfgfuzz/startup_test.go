// startup_test.go: a structurizer that ends before it answers anything,
// on the hello, the one-block graph and a diamond alike, is the user's setup
// error in every command that judges graphs (exit 2, saying so), never
// a failing graph.
package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServerThatEndsAtStartIsASetupError(t *testing.T) {
	dir := t.TempDir()
	graph := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(graph, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(dir, "regs")
	if err := os.Mkdir(regs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(regs, "diamond.cfg"), []byte("# signature: none\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const server = "cmd:sh -c 'echo no config file >&2; exit 1'"
	for _, args := range [][]string{
		{"check", "--structurizer", server, graph},
		{"regress", "--structurizer", server, regs},
		{"run", "--structurizer", server, "--graphs", "20", "--progress", "none", "--out", filepath.Join(dir, "run")},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, nil, &stdout, &stderr)
		want := "ends before it answers anything, on the protocol's hello, on the one-block graph {{}} and on the diamond {{1, 2}, {3}, {3}, {}} alike (exit status 1: no config file)"
		if code != exitUsage || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s%s", args[0], code, want, stdout.String(), stderr.String())
		}
	}
}
