package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// A stop signal that reaches a campaign at an exact point (through the
// campaignStage seam: the signal is sent to this process and the stage
// waits until the handler took it) leaves a report and an exit status
// that agree and say what happened: before the first graph and while the
// findings are minimized the report is interrupted and the status 128 +
// the signal; once the graphs are done without minimization, or when
// only the report is left to write, the campaign is complete and the
// status is the findings' (the report says nothing of an interruption).
func TestSignalAtEachStage(t *testing.T) {
	const graphs = 30
	for _, tc := range []struct {
		name     string
		stage    string
		nth      int // the stage's nth call gets the signal
		sig      syscall.Signal
		minimize bool
		// want: the report's incompleteness ("" complete), the exit
		// status, and whether every graph was run
		incomplete string
		code       int
		allGraphs  bool
	}{
		{"before the first graph", fuzz.StageGraphs, 1, syscall.SIGINT, true, "interrupted (SIGINT)", 130, false},
		{"mid-minimization", fuzz.StageMinimize, 2, syscall.SIGTERM, true, "interrupted (SIGTERM) while minimizing", 143, true},
		{"after the last graph, before minimizing", fuzz.StageGraphsDone, 1, syscall.SIGINT, true, "interrupted (SIGINT) while minimizing", 130, true},
		{"after the last graph, nothing to minimize", fuzz.StageGraphsDone, 1, syscall.SIGINT, false, "", exitFail, true},
		{"before the report is written", fuzz.StageReport, 1, syscall.SIGHUP, true, "", exitFail, true},
	} {
		t.Run(tc.stage+"/"+strconv.Itoa(tc.nth), func(t *testing.T) {
			skipIfStartedIgnoring(t, tc.sig)
			calls := map[string]int{}
			sent := false
			campaignStage = func(stage string, ctx context.Context) {
				calls[stage]++
				if stage != tc.stage || calls[stage] != tc.nth {
					return
				}
				if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
					t.Fatal(err)
				}
				select {
				case <-ctx.Done():
					sent = true
				case <-time.After(30 * time.Second):
					t.Errorf("%s: the handler did not take the signal", tc.name)
				}
			}
			defer func() { campaignStage = nil }()
			dir := filepath.Join(t.TempDir(), "c")
			args := []string{"run", "--inject", "swap-arms", "--graphs", strconv.Itoa(graphs), "--workers", "2", "--progress", "none", "--out", dir}
			if !tc.minimize {
				args = append(args, "--minimize=false")
			}
			code, stdout, stderr := runCmd(args, "")
			if !sent {
				t.Fatalf("%s: the stage was not reached (stages %v)\n%s%s", tc.name, calls, stdout, stderr)
			}
			if code != tc.code {
				t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.code, stdout, stderr)
			}
			rep := readReportJSON(t, dir)
			got := ""
			if rep.Incomplete != nil {
				got = rep.Incomplete.Reason
			}
			if got != tc.incomplete {
				t.Errorf("%s: report.json's incompleteness %q, want %q", tc.name, got, tc.incomplete)
			}
			if done := rep.Graphs + rep.Skipped; (done == graphs) != tc.allGraphs || !tc.allGraphs && done != 0 {
				t.Errorf("%s: the report covers %d of %d graphs", tc.name, done, graphs)
			}
			// The stop line says what stops: the minimization, once it runs.
			if saysMinimizing := strings.Contains(stderr, "the minimization stops"); saysMinimizing != (tc.stage == fuzz.StageMinimize) {
				t.Errorf("%s: the stop line names the minimization: %v\n%s", tc.name, saysMinimizing, stderr)
			}
			md := readFile(t, filepath.Join(dir, "report.md"))
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if tc.incomplete != "" {
				if rep.Incomplete.Resume == "" || !strings.Contains(md, tc.incomplete) || !strings.Contains(last, tc.incomplete) {
					t.Errorf("%s: report.md or the last line on stderr does not say %q: %q", tc.name, tc.incomplete, last)
				}
				for _, f := range rep.Findings {
					if f.Minimized != "" {
						t.Errorf("%s: an interrupted report holds a minimized graph for %s", tc.name, f.Signature)
					}
				}
			} else {
				if strings.Contains(md, "interrupted") || strings.Contains(last, "interrupted") {
					t.Errorf("%s: a complete report says interrupted: %q", tc.name, last)
				}
				if rep.NewFindings == 0 {
					t.Errorf("%s: no findings", tc.name)
				}
				if tc.minimize {
					for _, f := range rep.Findings {
						if f.Minimized == "" {
							t.Errorf("%s: the complete report lacks the minimized graph of %s", tc.name, f.Signature)
						}
					}
				}
			}
		})
	}
}
