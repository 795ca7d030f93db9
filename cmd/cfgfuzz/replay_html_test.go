// replay_html_test.go: the replay command report.html prints for a
// minimized finding runs as printed, in a shell, and fails the graph again.
package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestMinimizedReplayRunsAsPrinted(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	if code := run([]string{"run", "--graphs", "30", "--inject", "swap-arms", "--out", dir}, nil, io.Discard, io.Discard); code != exitFail {
		t.Fatalf("campaign: exit %d, want %d", code, exitFail)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep fuzz.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i := range rep.Findings {
		f := &rep.Findings[i]
		cmdline := fuzz.MinimizedReplay(&rep.Settings, f)
		if cmdline == "" {
			continue
		}
		if !strings.Contains(string(page), strings.ReplaceAll(cmdline, "'", "&#39;")) {
			t.Errorf("report.html does not print %s", cmdline)
		}
		c := exec.Command("sh", "-c", cmdline)
		c.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		out, err := c.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFail || !strings.Contains(string(out), "FAIL "+f.Signature) {
			t.Errorf("%s: %v\n%s", cmdline, err, out)
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no finding was minimized")
	}
}
