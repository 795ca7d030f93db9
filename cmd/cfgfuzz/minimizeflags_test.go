// minimizeflags_test.go: minimize takes the flags of a report's replay
// command as check takes them: --timeout is the limit on each structurizer
// call there too (the search's own is --search-timeout), so a finding's
// replay flags pasted into minimize judge the graph as the campaign did;
// the flag --timeout replaced, --graph-timeout, is refused naming it.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestMinimizeTakesReplayFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c")
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "20", "--kinds", "reducible", "--weights", "w0", "--inject", "swap-arms", "--seed", "3",
		"--timeout", "20s", "--walks", "4", "--dispatch-every", "0", "--minimize=false", "--progress", "none", "--out", out}, "")
	if code != exitFail {
		t.Fatalf("campaign: exit %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep fuzz.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	f := rep.Findings[0]
	_, check, ok := strings.Cut(f.Replay, "| cfgfuzz check ")
	if !ok || !strings.Contains(check, "--timeout 20s") {
		t.Fatalf("replay %q: want a check command with --timeout 20s", f.Replay)
	}
	g := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(g, []byte(f.First.Graph+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"minimize"}, strings.Fields(check)...), g)
	code, stdout, stderr = runCmd(args, "")
	if code != exitOK || !strings.Contains(stderr, "minimize: "+f.Signature+":") || strings.Contains(stderr, "stopped early") ||
		!strings.Contains(stderr, "--timeout 20s limits each structurizer call") {
		t.Errorf("minimize %s: exit %d\n%s%s\nwant the finding minimized to its fixpoint and --timeout read as check reads it", strings.Join(args[1:], " "), code, stdout, stderr)
	}
	code, _, stderr = runCmd([]string{"minimize", "--inject", "swap-arms", "--graph-timeout", "10s", g}, "")
	if code != exitUsage || !strings.Contains(stderr, "--graph-timeout is now --timeout") {
		t.Errorf("--graph-timeout: exit %d, %s; want 2 naming --timeout", code, stderr)
	}
	code, _, stderr = runCmd([]string{"minimize", "--inject", "swap-arms", "--search-timeout", "-1s", g}, "")
	if code != exitUsage || !strings.Contains(stderr, "search-timeout") {
		t.Errorf("--search-timeout -1s: exit %d, %s; want 2 naming the flag", code, stderr)
	}
}
