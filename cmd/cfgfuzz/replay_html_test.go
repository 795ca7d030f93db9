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
	for _, extra := range [][]string{nil, {"--registers", "8"}} {
		t.Run(strings.Join(append([]string{"default"}, extra...), " "), func(t *testing.T) {
			replayAsPrinted(t, bin, extra)
		})
	}
}

// replayAsPrinted runs a campaign with a planted fault and the extra
// flags, then each minimized finding's replay command as report.html
// prints it. With --registers, the minimizer must have judged under the
// same workload: the replay command and the findings store's replay both
// name it.
func replayAsPrinted(t *testing.T, bin string, extra []string) {
	dir := t.TempDir()
	args := append([]string{"run", "--graphs", "30", "--inject", "swap-arms", "--out", dir}, extra...)
	if code := run(args, nil, io.Discard, io.Discard); code != exitFail {
		t.Fatalf("campaign: exit %d, want %d", code, exitFail)
	}
	want := strings.Join(extra, " ") // "" for none
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
		if !strings.Contains(cmdline, want) {
			t.Errorf("replay %s does not name %q", cmdline, want)
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
	stored := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "verdict.json" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "cfgfuzz check") {
			return err
		}
		stored++
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: the stored replay does not name %q:\n%s", path, want, b)
		}
		return nil
	})
	if stored == 0 {
		t.Error("the findings store holds no replay command")
	}
}
