// bench_test.go: the driver bench's sets and table without a driver: one
// set per size and register-file size, bad register counts refused, medians
// of the modules, ratios of the medians and the modules each column left
// out, and the modules whose sinks each column compared; on lavapipe, an
// external structurizer's column within its --timeout,
// its modules refused, timed out or rejected, and a module killed past its
// limit.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

func TestBenchSetsPerRegisterCount(t *testing.T) {
	bf := &benchFlags{sizes: "5,7", registers: "0,64,1024", graphs: 2, seed: 1}
	sets, err := benchSets(bf)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sets {
		names = append(names, s.name)
		if len(s.graphs) != 2 {
			t.Errorf("%s: %d graphs", s.name, len(s.graphs))
		}
	}
	want := "reducible 5|reducible 5 r=64|reducible 5 r=1024|reducible 7|reducible 7 r=64|reducible 7 r=1024"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("sets %s, want %s", got, want)
	}
	if sets[1].registers != 64 || sets[2].registers != 1024 || sets[0].registers != 0 {
		t.Errorf("registers %d %d %d", sets[0].registers, sets[1].registers, sets[2].registers)
	}
	for _, bad := range []string{"-1", "x", "100000"} {
		if _, err := benchSets(&benchFlags{sizes: "5", registers: bad, graphs: 1}); err == nil {
			t.Errorf("--registers %s accepted", bad)
		}
	}
}

func TestBenchTableMedians(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	if m := benchMedian(ms(9, 1, 5)); m != 5*time.Millisecond {
		t.Errorf("median %v", m)
	}
	if m := benchMedian(ms(4, 1, 2, 100)); m != 3*time.Millisecond {
		t.Errorf("median of four %v", m)
	}
	all := []int{0, 1, 2}
	s := benchTotals{graphs: 3, timed: all, compiles: ms(10, 30, 20), runs: ms(1, 1, 1), compileCPUs: ms(10, 30, 20), runCPUs: ms(1, 1, 1)}
	d := benchTotals{graphs: 3, timed: all, compiles: ms(40, 900, 50), runs: ms(4, 2, 3), compileCPUs: ms(40, 900, 50), runCPUs: ms(4, 2, 3)}
	var out bytes.Buffer
	printBenchTable(&out, []string{"structured", "dispatch"}, []benchRow{{name: "reducible 10 r=64", graphs: 3, blocks: 30, cols: []benchTotals{s, d}}})
	row := strings.Split(out.String(), "\n")[2]
	for _, want := range []string{"| reducible 10 r=64 | 3 | 10 | 3 |", "| 20.0 ms |", "| 50.0 ms |", "| 0.40x | 0.40x | 0.33x | 0.33x |"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}

// TestBenchTimesAnExternalStructurizer: --structurizer puts a structurizer
// speaking the protocol in a column of its own, ext, timed against the
// dispatch loop on lavapipe; one whose modules the driver runs wrong
// (swap-arms planted) makes the bench exit 1, naming the disagreement.
func TestBenchTimesAnExternalStructurizer(t *testing.T) {
	bench := []string{"bench", "--driver", "--device", "cpu", "--sizes", "12", "--graphs", "2", "--corpus", "", "--warmup", "1", "--repeats", "2"}
	code, out, errs := runCmd(append(bench, "--structurizer", "cmd:"+cfgfuzzBinary(t)+" structurize"), "")
	if code == exitUsage && !strings.Contains(out, "device:") {
		t.Skipf("no lavapipe here: %s", errs)
	}
	if code != exitOK || !strings.Contains(out, "ratio = ext/dispatch") || !strings.Contains(out, "| reducible 12 | 2 |") {
		t.Fatalf("exit %d, want 0 and a row of 2 graphs timed as ext/dispatch:\n%s%s", code, out, errs)
	}
	code, _, errs = runCmd(append(bench, "--structurizer", plantedSpec(t)), "")
	if code != exitFail || !strings.Contains(errs, "ext: driver disagrees with the graph") {
		t.Errorf("a planted bug: exit %d, want %d naming the disagreement:\n%s", code, exitFail, errs)
	}
}

// TestBenchKillsAModulePastItsLimit: each module is timed in a driver
// process of its own, so a module that outlives --module-limit ends that
// process and fails alone: every module here (a limit of 1 ms) is a driver
// failure, the bench still times them all and prints its table, exits 1,
// and leaves no driver process behind.
func TestBenchKillsAModulePastItsLimit(t *testing.T) {
	bench := []string{"bench", "--driver", "--device", "cpu", "--sizes", "12", "--graphs", "2", "--corpus", "", "--warmup", "1", "--repeats", "1"}
	if err := gpu.Available(); err != nil {
		t.Skipf("no lavapipe here: %v", err)
	}
	for _, bad := range []string{"0s", "-1s"} {
		if code, _, errs := runCmd(append(bench, "--module-limit", bad), ""); code != exitUsage || !strings.Contains(errs, fmt.Sprintf("invalid value %q for flag --module-limit: must be positive", bad)) {
			t.Errorf("--module-limit %s: exit %d, want %d and why:\n%s", bad, code, exitUsage, errs)
		}
	}
	before := driverServers(t) // the shared pool's, of earlier tests' gpu checks
	code, out, errs := runCmd(append(bench, "--module-limit", "1ms"), "")
	killed := strings.Count(errs, "no answer from the driver process running the module within 1ms: it was killed")
	if code != exitFail || killed != 4 || strings.Count(out, "| 0 of 2 (driver failure 2) | - | - |") != 2 {
		t.Fatalf("exit %d with %d modules killed, want %d, 4 and a row of none timed:\n%s%s", code, killed, exitFail, out, errs)
	}
	if left := slices.DeleteFunc(driverServers(t), func(p string) bool { return slices.Contains(before, p) }); len(left) > 0 {
		t.Errorf("driver processes left running: %v", left)
	}
}

// driverServers lists the processes running with the gpu package's
// ServerEnv set, as their /proc directories.
func driverServers(t *testing.T) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var left []string
	for _, f := range dirs {
		env, err := os.ReadFile(f)
		if err == nil && bytes.Contains(env, []byte(gpu.ServerEnv+"=")) {
			left = append(left, filepath.Dir(f))
		}
	}
	return left
}

// benchTiny is a bench of one graph of 20 blocks and no corpus, each
// module dispatched twice: the smallest run that times a column.
var benchTiny = []string{"bench", "--driver", "--device", "cpu", "--sizes", "20", "--graphs", "1", "--corpus", "", "--warmup", "1", "--repeats", "1"}

// TestBenchTimeoutIsTheStructurizersLimit: bench's --timeout bounds each
// call of the --structurizer, as check's does (a server answering after
// 1.5 s times out under --timeout 1s and is timed under 5s); the fence
// timeout is --fence-timeout, and --timeout without a structurizer is
// an error naming it.
func TestBenchTimeoutIsTheStructurizersLimit(t *testing.T) {
	if err := gpu.Available(); err != nil {
		t.Skipf("no lavapipe here: %v", err)
	}
	code, _, errs := runCmd(append(slices.Clone(benchTiny), "--timeout", "20s"), "")
	if code != exitUsage || !strings.Contains(errs, "--fence-timeout") {
		t.Errorf("--timeout without --structurizer: exit %d, want %d naming --fence-timeout:\n%s", code, exitUsage, errs)
	}
	if code, _, errs := runCmd(append(slices.Clone(benchTiny), "--fence-timeout", "0s"), ""); code != exitUsage || !strings.Contains(errs, "--fence-timeout") {
		t.Errorf("--fence-timeout 0s: exit %d, want %d:\n%s", code, exitUsage, errs)
	}
	slow := "cmd:" + slowServer(t, t.TempDir(), cfgfuzzBinary(t), "1.5", "")
	code, out, errs := runCmd(append(slices.Clone(benchTiny), "--structurizer", slow, "--timeout", "1s"), "")
	if code != exitFail || !strings.Contains(errs, "no answer within 1s") {
		t.Errorf("--timeout 1s, a server answering in 1.5 s: exit %d, want %d and the call's timeout:\n%s%s", code, exitFail, out, errs)
	}
	code, out, errs = runCmd(append(slices.Clone(benchTiny), "--structurizer", slow, "--timeout", "5s", "--fence-timeout", "1m"), "")
	if code != exitOK || !strings.Contains(out, "each call within 5s") || !strings.Contains(out, "fence timeout 1m0s (--fence-timeout)") {
		t.Errorf("--timeout 5s: exit %d, want %d, the server's modules timed:\n%s%s", code, exitOK, out, errs)
	}
}

// TestBenchTableRatiosAndLeftOut: with three columns the first is divided
// by each other one; a column's modules cell says how many of the set's
// graphs are in its figures and why the others are not, a ratio over
// different graphs is marked, and a column with no module shows no figure
// (never a 0), the row still counting the graphs and their blocks.
func TestBenchTableRatiosAndLeftOut(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	full := func(c, r int) benchTotals {
		return benchTotals{graphs: 2, timed: []int{0, 1}, words: 200, compiles: ms(c, c), runs: ms(r, r), compileCPUs: ms(c, c), runCPUs: ms(r, r)}
	}
	ext := benchTotals{graphs: 2, timed: []int{1}, words: 100, compiles: ms(10), runs: ms(1), compileCPUs: ms(10), runCPUs: ms(1), left: map[string]int{benchLeftRejected: 1}}
	none := benchTotals{graphs: 1, left: map[string]int{"timeout": 1}}
	rows := []benchRow{
		{name: "reducible 20", graphs: 2, blocks: 42, cols: []benchTotals{ext, full(20, 4), full(40, 2)}},
		{name: "reducible 50", graphs: 1, blocks: 51, noWalk: 1, cols: []benchTotals{none, full(20, 4), full(40, 2)}},
	}
	var out bytes.Buffer
	printBenchTable(&out, []string{"ext", "structured", "dispatch"}, rows)
	lines := strings.Split(out.String(), "\n")
	for _, want := range []string{"| compile ext/structured | compile cpu ext/structured | run ext/structured | run cpu ext/structured |", "| run cpu ext/dispatch |"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("header %q lacks %q", lines[0], want)
		}
	}
	if n, want := strings.Count(lines[1], "---"), 3+7*3+4*2; n != want {
		t.Errorf("%d columns under the header, want %d", n, want)
	}
	for _, want := range []string{"| reducible 20 | 2 | 21 | 1 of 2 (rejected 1) | 100 |", "| 0.50x * | 0.50x * | 0.25x * | 0.25x * | 0.25x * | 0.25x * | 0.50x * | 0.50x * |"} {
		if !strings.Contains(lines[2], want) {
			t.Errorf("row %q lacks %q", lines[2], want)
		}
	}
	for _, want := range []string{"| reducible 50 | 1 (1 left out: no walk returns) | 51 | 0 of 1 (timeout 1) | - | - | - | - | - | - | 2 |", "| - | - | - | - | - | - | - | - |"} {
		if !strings.Contains(lines[3], want) {
			t.Errorf("row %q lacks %q", lines[3], want)
		}
	}
	if !strings.Contains(out.String(), "rejected (its traces disagree with the graph's walks, or its filler's") {
		t.Errorf("the legend does not say what rejected means:\n%s", out.String())
	}
}

// benchDeclining is a structurizer server that answers its hello through
// cfgfuzz's own (the program after the mode) and then, by mode, refuses
// every graph or never answers one.
const benchDeclining = `import json, subprocess, sys, time
mode = sys.argv[1]
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    req = json.loads(line)
    if req.get("hello") is None:
        if mode == "hang":
            time.sleep(3600)
        print(json.dumps({"id": req["id"], "outcome": "refused", "reason": "too many blocks"}), flush=True)
        continue
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
`

// decliningSpec is benchDeclining in mode over this tree's server.
func decliningSpec(t *testing.T, mode string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	py := filepath.Join(t.TempDir(), "declining.py")
	if err := os.WriteFile(py, []byte(benchDeclining), 0o644); err != nil {
		t.Fatal(err)
	}
	return "cmd:python3 " + py + " " + mode + " " + cfgfuzzBinary(t) + " structurize"
}

// TestBenchSaysWhatEachColumnTimed on lavapipe: the external structurizer
// against structured and dispatch gets a ratio against each; its modules
// that the driver runs wrong (swap-arms planted) are counted as rejected
// and left out of its figures; a structurizer that refuses every graph,
// or hangs, has a row that says so, with the graph counted and its blocks.
func TestBenchSaysWhatEachColumnTimed(t *testing.T) {
	if err := gpu.Available(); err != nil {
		t.Skipf("no lavapipe here: %v", err)
	}
	code, out, errs := runCmd(append(slices.Clone(benchTiny), "--structurizer", "cmd:"+cfgfuzzBinary(t)+" structurize", "--strategies", "structured,dispatch"), "")
	row := benchTableRow(out, "reducible 20")
	if code != exitOK || !strings.Contains(out, "ratios = ext/structured, ext/dispatch") || strings.Count(row, "x |") != 8 {
		t.Errorf("ext, structured, dispatch: exit %d, want %d and 8 ratios in the row %q:\n%s%s", code, exitOK, row, out, errs)
	}
	if want := "sinks compared: ext 1 of 1, structured 1 of 1, dispatch 1 of 1 modules in the figures"; !strings.Contains(out, want) {
		t.Errorf("the table does not say %q:\n%s", want, out)
	}
	code, out, errs = runCmd(append(slices.Clone(benchTiny), "--structurizer", plantedSpec(t)), "")
	row = benchTableRow(out, "reducible 20")
	if code != exitFail || !strings.HasPrefix(row, "| reducible 20 | 1 | 21 | 0 of 1 (rejected 1) | - | - | - |") || !strings.Contains(errs, "left out of the figures") {
		t.Errorf("a planted bug: exit %d, want %d and the module rejected, not timed, in the row %q:\n%s%s", code, exitFail, row, out, errs)
	}
	for mode, want := range map[string]string{"refuse": "0 of 1 (refused 1)", "hang": "0 of 1 (timeout 1)"} {
		code, out, errs = runCmd(append(slices.Clone(benchTiny), "--structurizer", decliningSpec(t, mode), "--timeout", "2s"), "")
		row = benchTableRow(out, "reducible 20")
		cells := strings.Split(row, " | ")
		if code != exitFail || !strings.HasPrefix(row, "| reducible 20 | 1 | 21 | "+want+" | - |") || len(cells) < 11 || cells[10] != "1" {
			t.Errorf("%s: exit %d, want %d and a row of one graph, %s, dispatch timed: %q\n%s%s", mode, code, exitFail, want, row, out, errs)
		}
	}
}

// benchTableRow is the bench table's row of the set named set, "" if none.
func benchTableRow(out, set string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| "+set+" |") {
			return l
		}
	}
	return ""
}

// TestBenchCorpusMustExist: a --corpus DIR that is missing, not a
// directory or holds no *.cfg is an error naming it, before any driver
// starts; --corpus "" is no corpus, and the default corpus missing (the
// tests run in cmd/cfgfuzz, where it is) is said, not skipped silently.
func TestBenchCorpusMustExist(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.cfg")
	os.WriteFile(file, []byte("{{}}\n"), 0o644)
	empty := t.TempDir()
	base := []string{"bench", "--driver", "--device", "cpu", "--sizes", "20", "--graphs", "1", "--warmup", "1", "--repeats", "1"}
	for _, c := range []struct{ dir, why string }{
		{filepath.Join(dir, "missing"), "no such directory"},
		{file, "not a directory"},
		{empty, "no *.cfg file"},
	} {
		code, _, errs := runCmd(append(slices.Clone(base), "--corpus", c.dir), "")
		if code != exitUsage || !strings.Contains(errs, "--corpus "+c.dir+": "+c.why) {
			t.Errorf("--corpus %s: exit %d, want %d naming it (%s):\n%s", c.dir, code, exitUsage, c.why, errs)
		}
	}
	if _, err := os.Stat("corpus/testdata/regressions"); err == nil {
		t.Skip("the default corpus is here")
	}
	_, out, _ := runCmd(append(slices.Clone(base), "--sizes", "x"), "")
	if !strings.Contains(out, "corpus: corpus/testdata/regressions (the default) is not in this directory") {
		t.Errorf("the default corpus missing is not said:\n%s", out)
	}
}

// TestBenchSaysWhatItMeasuredWhenStopped: SIGINT to a bench (a real
// process) in its first set, once one graph is timed in both columns and
// the external structurizer (answering after 2 s) is asked for the next,
// ends it with 130, saying it stopped, where, and the table of what was
// measured so far, and leaves no driver process behind.
func TestBenchSaysWhatItMeasuredWhenStopped(t *testing.T) {
	if err := gpu.Available(); err != nil {
		t.Skipf("no lavapipe here: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cfgfuzz") // with the driver, which cfgfuzzBinary's lacks
	if out, err := exec.Command("go", "build", "-tags", "vulkan", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building cfgfuzz with -tags vulkan: %v\n%s", err, out)
	}
	slow := "cmd:" + slowServer(t, dir, bin, "2", "")
	args := append(slices.Clone(benchTiny[1:]), "--graphs", "3", "--structurizer", slow, "-v")
	errFile := filepath.Join(dir, "stderr")
	f, err := os.Create(errFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, append([]string{"bench"}, args...)...)
	cmd.Stderr = f
	before := driverServers(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(errFile); strings.Contains(string(b), "reducible 20 #1 dispatch") {
			break
		}
	}
	time.Sleep(500 * time.Millisecond) // graph 1's dispatch module counted; its ext call in flight
	cmd.Process.Signal(syscall.SIGINT)
	code := 0
	if ee, ok := cmd.Wait().(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	b, _ := os.ReadFile(errFile)
	errs := string(b)
	row := benchTableRow(errs, "reducible 20 (stopped)")
	if code != 130 || !strings.Contains(errs, "cfgfuzz bench: SIGINT: stopped in set 1 of 1, reducible 20;") || !strings.HasPrefix(row, "| reducible 20 (stopped) | 2 | ") {
		t.Fatalf("exit %d, want 130, the stop said and a row of the 2 graphs begun %q:\n%s", code, row, errs)
	}
	if cells := strings.Split(row, " | "); len(cells) < 11 || cells[3] != "1" || cells[10] != "2" {
		t.Errorf("row %q: want 1 ext module and 2 dispatch modules timed", row)
	}
	time.Sleep(time.Second)
	if left := slices.DeleteFunc(driverServers(t), func(p string) bool { return slices.Contains(before, p) }); len(left) > 0 {
		t.Errorf("driver processes left running: %v", left)
	}
}

// TestBenchNeedsAColumn: --strategies naming none, without a
// --structurizer, is a usage error before any driver starts, not a
// table of no column (which has no first column to divide by).
func TestBenchNeedsAColumn(t *testing.T) {
	for _, s := range []string{"", ","} {
		code, _, errs := runCmd([]string{"bench", "--driver", "--sizes", "10", "--graphs", "1", "--corpus", "", "--strategies", s}, "")
		if code != exitUsage || !strings.Contains(errs, "no column") || strings.Contains(errs, "panic") {
			t.Errorf("--strategies %q: exit %d, want %d saying there is no column:\n%s", s, code, exitUsage, errs)
		}
	}
}

// TestBenchStatus: a harness error in any column makes bench's status 2
// and says the figures are incomplete; another graph left out makes it
// 1; none, 0.
func TestBenchStatus(t *testing.T) {
	row := func(left map[string]int) []benchRow {
		return []benchRow{{name: "reducible 20", graphs: 2, cols: []benchTotals{{}, {left: left}}}}
	}
	for _, c := range []struct {
		left map[string]int
		want int
		says string
	}{
		{nil, exitOK, ""},
		{map[string]int{"refused": 1}, exitFail, ""},
		{map[string]int{benchLeftRejected: 1}, exitFail, ""},
		{map[string]int{"refused": 1, benchLeftHarness: 2}, exitUsage, "2 graphs got no module for a harness error"},
	} {
		var stderr strings.Builder
		if got := benchStatus(row(c.left), &stderr); got != c.want || !strings.Contains(stderr.String(), c.says) || (c.says == "") != (stderr.Len() == 0) {
			t.Errorf("left %v: status %d, said %q; want %d saying %q", c.left, got, stderr.String(), c.want, c.says)
		}
	}
}

// TestBenchFailureText: a failure whose detail starts with the
// signature's reason reads it once; another keeps both.
func TestBenchFailureText(t *testing.T) {
	for _, c := range [][3]string{
		{"structurize:crash:protocol: answer is not JSON", "protocol: answer is not JSON: first bytes \"x\"", "structurize:crash:protocol: answer is not JSON: first bytes \"x\""},
		{"structurize:timeout", "no answer within 10s", "structurize:timeout: no answer within 10s"},
		{"structurize:error:toy", "planted", "structurize:error:toy: planted"},
	} {
		if got := failureText(c[0], c[1]); got != c[2] {
			t.Errorf("failureText(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestBenchCountsComparedSinks: under the table, each column's modules in
// the figures whose filler's results were compared with the
// interpreter's, over every row; a module left out is not counted.
func TestBenchCountsComparedSinks(t *testing.T) {
	var ext, dispatch benchTotals
	ext.add(0, benchResult{sinksCompared: true})
	ext.add(1, benchResult{})
	ext.add(2, benchResult{left: benchLeftRejected})
	dispatch.add(0, benchResult{sinksCompared: true})
	rows := []benchRow{
		{name: "reducible 5", graphs: 3, blocks: 15, cols: []benchTotals{ext, dispatch}},
		{name: "corpus", graphs: 1, blocks: 3, cols: []benchTotals{dispatch, dispatch}},
	}
	var out bytes.Buffer
	printBenchTable(&out, []string{"ext", "dispatch"}, rows)
	if want := "sinks compared: ext 2 of 3, dispatch 2 of 2 modules in the figures"; !strings.Contains(out.String(), want) {
		t.Errorf("the table does not say %q:\n%s", want, out.String())
	}
}
