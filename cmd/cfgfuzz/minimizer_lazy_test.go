// minimizer_lazy_test.go tests that a campaign's minimizer starts its
// structurizer servers only for a finding to minimize: a campaign that
// finds nothing starts one server per worker and side, one that finds
// something one more per side for the minimizer, and a stop signal while
// it minimizes leaves none of them running.

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// countingServer writes into a directory of its own a cmd: structurizer
// script that appends a line to the file it returns at each start, then
// serves cfgfuzz's own structurizer with the script's arguments.
func countingServer(t *testing.T, name string) (script, starts string) {
	t.Helper()
	script = filepath.Join(t.TempDir(), name+".sh")
	starts = script + ".starts"
	body := "#!/bin/sh\necho $$ >> '" + starts + "'\nexec '" + cfgfuzzBinary(t) + "' structurize \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, starts
}

// startCount is the number of lines in file, 0 when it is not there.
func startCount(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

// TestMinimizerStartsNoServerForNothing: with minimization on, a run and
// a compare that find nothing start one server per worker and side, as
// with --minimize=false; a compare that finds something minimizes it,
// starting one more baseline server for the minimizer (and current
// servers of its own: one for the search, more for its fresh
// judgements).
func TestMinimizerStartsNoServerForNothing(t *testing.T) {
	const workers = 2
	cur, curStarts := countingServer(t, "current")
	base, baseStarts := countingServer(t, "baseline")
	campaign := func(args ...string) (code int, dir, logs string) {
		t.Helper()
		os.Remove(curStarts)
		os.Remove(baseStarts)
		dir = filepath.Join(t.TempDir(), "c")
		args = append(args, "--graphs", "20", "--workers", strconv.Itoa(workers), "--progress", "none", "--out", dir)
		code, stdout, stderr := runCmd(args, "")
		return code, dir, stdout + stderr
	}
	if code, _, logs := campaign("run", "--structurizer", "cmd:"+cur); code != exitOK || startCount(t, curStarts) != workers {
		t.Errorf("run finding nothing: exit %d, %d servers started, want %d (one per worker)\n%s", code, startCount(t, curStarts), workers, logs)
	}
	code, _, logs := campaign("compare", "--structurizer", "cmd:"+cur, "--baseline-structurizer", "cmd:"+base)
	if code != exitOK || startCount(t, curStarts) != workers || startCount(t, baseStarts) != workers {
		t.Errorf("compare finding nothing: exit %d, %d current and %d baseline servers started, want %d each\n%s",
			code, startCount(t, curStarts), startCount(t, baseStarts), workers, logs)
	}
	code, dir, logs := campaign("compare", "--structurizer", "cmd:"+cur+" --inject swap-arms", "--baseline-structurizer", "cmd:"+base)
	if code != exitFail || startCount(t, baseStarts) != workers+1 || startCount(t, curStarts) <= workers {
		t.Errorf("compare finding swap-arms: exit %d, %d current and %d baseline servers started, want more than %d and %d\n%s",
			code, startCount(t, curStarts), startCount(t, baseStarts), workers, workers+1, logs)
	}
	rep := readReportJSON(t, dir)
	if len(rep.Findings) == 0 {
		t.Fatal("swap-arms not found")
	}
	for _, f := range rep.Findings {
		if f.Minimized == "" {
			t.Errorf("%s not minimized: %+v", f.Signature, f)
		}
	}
}

// TestMinimizerServerEndsOnSignal: SIGINT while the minimizer's own
// server (started for the first finding, after the workers' ones) is
// judging stops the campaign, exit 130, the report interrupted while
// minimizing, and no server of the campaign is left.
func TestMinimizerServerEndsOnSignal(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := filepath.Join(dir, "server.sh")
	starts := server + ".starts"
	// The workers' servers (the first two) answer at once; the
	// minimizer's take 0.3 s a request.
	script := "#!/bin/sh\necho $$ >> '" + starts + "'\nif [ $(wc -l < '" + starts + "') -le 2 ]; then exec '" + bin + "' structurize --inject swap-arms; fi\n" +
		"while IFS= read -r line; do sleep 0.3; printf '%s\\n' \"$line\" | '" + bin + "' structurize --inject swap-arms; done\n"
	if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "c")
	cmd := exec.Command(bin, "run", "--structurizer", server, "--graphs", "20", "--workers", "2", "--checks", "exec", "--progress", "none", "--out", out)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	token := "CFGFUZZ_SERVER=" + strconv.Itoa(cmd.Process.Pid) + "."
	for deadline := time.Now().Add(time.Minute); startCount(t, starts) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the minimizer's server never started (%d starts)\n%s", startCount(t, starts), logs.String())
		}
	}
	time.Sleep(500 * time.Millisecond) // its first request in flight
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 || !strings.Contains(logs.String(), "while minimizing") {
		t.Errorf("exit %d, want 130 and the campaign interrupted while minimizing\n%s", code, logs.String())
	}
	if left := leftAfter(token, 5*time.Second); len(left) > 0 {
		t.Errorf("processes of the campaign left: %v", left)
		killPids(left)
	}
}

// TestLazySide: a lazy side makes its side on its first request, not
// before; closing one never asked makes nothing; a factory that cannot
// make the side gives a harness error naming it (not started, never a
// finding), and the next request tries again.
func TestLazySide(t *testing.T) {
	news, fail := 0, true
	f := fuzz.SideFactory{Describe: "cmd:heavy", New: func() (fuzz.Side, error) {
		news++
		if fail {
			return nil, errors.New("out of memory")
		}
		return &fuzz.InProcess{}, nil
	}}
	var sides openSides
	s := sides.openLazily(f)
	if err := s.Close(); err != nil || news != 0 {
		t.Fatalf("closing an unused side: %v, %d sides made", err, news)
	}
	g, err := cfg.ParseCompact("{{1, 2}, {2}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a := s.Structurize(g, proto.Options{}, fuzz.DefaultTimeout)
	if a.Outcome != proto.Error || !a.NotStarted || !strings.Contains(a.Reason, "cmd:heavy") || !strings.Contains(a.Reason, "out of memory") {
		t.Errorf("a side that cannot be made answers %+v", a)
	}
	fail = false
	if a := s.Structurize(g, proto.Options{}, fuzz.DefaultTimeout); a.Outcome != proto.OK || news != 2 {
		t.Errorf("the second request: %s %s, %d sides made", a.Outcome, a.Reason, news)
	}
	s.Structurize(g, proto.Options{}, fuzz.DefaultTimeout)
	if news != 2 {
		t.Errorf("a made side is made again: %d sides made", news)
	}
	sides.close()
}

// TestCampaignMinimizerSideFails: a campaign whose current side serves
// its worker but cannot be made again for the minimizer opens nothing
// before the campaign, and records why on the finding, unminimized.
func TestCampaignMinimizerSideFails(t *testing.T) {
	streams, err := streamsFor("reducible", "", "")
	if err != nil {
		t.Fatal(err)
	}
	news := 0
	cur := fuzz.SideFactory{Describe: "cmd:once", New: func() (fuzz.Side, error) {
		if news++; news > 1 {
			return nil, errors.New("no second server")
		}
		return &fuzz.InProcess{}, nil
	}}
	c := fuzz.Config{Source: genSource{}, Workers: 1, Dir: t.TempDir(),
		Settings: fuzz.Settings{Seed: 1, Graphs: 20, Streams: streams[:1], Inject: []string{"swap-arms"}, Current: "cmd:once"}, Current: cur}
	var sides openSides
	defer sides.close()
	if err := campaignMinimizer(&c, &sides, minimizeBudget{timeout: DefaultMinimizeTimeout, steps: DefaultMinimizeSteps}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if news != 0 {
		t.Fatalf("the minimizer made %d sides before the campaign", news)
	}
	o, err := fuzz.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Report.Findings) == 0 {
		t.Fatal("swap-arms not found")
	}
	for _, f := range o.Report.Findings {
		why := f.MinimizeError + f.NotReproduced
		t.Logf("%s: %s", f.Signature, why)
		if f.Minimized != "" || !strings.Contains(why, "no second server") {
			t.Errorf("%s: minimized %q, why not %q", f.Signature, f.Minimized, why)
		}
	}
}
