// check_recorded_test.go: check judges a graph file under the judging its
// header records for every flag left out, file by file in one run, on
// cfgfuzz's own structurizer and on a server alike; a flag given wins, and
// the structurizer is never taken.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// armsGraph is a diamond: swap-arms makes its module take the other arm.
const armsGraph = "{{1, 2}, {3}, {3}, {}}"

// TestCheckTakesAStoredFindingsJudging: a finding stored under a planted
// fault, a register file and other walks fails check with no flag given,
// as it failed its campaign, and check says what it took; the flag given
// instead wins.
func TestCheckTakesAStoredFindingsJudging(t *testing.T) {
	g, err := cfg.ParseCompact(armsGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	st := &corpus.Store{Dir: filepath.Join(t.TempDir(), "store")}
	added, err := st.Add(corpus.Finding{Signature: "exec:trace-mismatch", Graph: g, Origin: "campaign seed 3",
		Inject: []string{"swap-arms"}, Registers: 5, Judged: corpus.Judged{Walks: corpus.WalksOf(4, 3)}})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(added.Dir, "graph.cfg")

	code, out, errs := runCmd([]string{"check", in}, "")
	if code != exitFail || !strings.HasPrefix(out, "FAIL exec:trace-mismatch "+in) {
		t.Errorf("check of the stored finding: exit %d, want %d failing exec:trace-mismatch\n%s%s", code, exitFail, out, errs)
	}
	if want := "cfgfuzz check: note: judging " + in + " as its header records: --inject swap-arms --registers 5 --walks 4 --seed 3"; !strings.Contains(errs, want) {
		t.Errorf("check of the stored finding: stderr lacks %q\n%s", want, errs)
	}
	if strings.Contains(errs, "records another judging") {
		t.Errorf("check judged the file as its header records, yet notes another judging\n%s", errs)
	}

	// A flag given is a choice: the fault left out, the graph passes, and
	// the note names the header's.
	code, out, errs = runCmd([]string{"check", "--inject", "", in}, "")
	if code != exitOK || !strings.Contains(errs, "judging "+in+" as its header records: --registers 5 --walks 4 --seed 3") ||
		!strings.Contains(errs, "judge it with --inject swap-arms as it was judged") {
		t.Errorf("check --inject '': exit %d, want 0, the rest taken and a note naming the header's fault\n%s%s", code, out, errs)
	}
}

// TestCheckJudgesEachFileAsItsHeader: files of one run that record other
// judgings are each judged under their own, on cfgfuzz's own structurizer
// and on a server (the options go with every request): the checks a
// header names, its strategy, and none of it for a file without a header.
func TestCheckJudgesEachFileAsItsHeader(t *testing.T) {
	dir := t.TempDir()
	write := writerIn(t, dir)
	fault := write("fault.cfg", "# signature: exec:trace-mismatch\n# fault: swap-arms\n"+armsGraph+"\n")
	plain := write("plain.cfg", armsGraph+"\n")
	narrow := write("narrow.cfg", "# signature: exec:trace-mismatch\n# strategy: dispatch\n# checks: pdom,exec\n"+armsGraph+"\n")
	for _, structurizer := range []string{"self", "cmd:" + cfgfuzzBinary(t) + " structurize"} {
		code, out, errs := runCmd([]string{"check", "--json", "--structurizer", structurizer, fault, plain, narrow}, "")
		var recs []checkRecord
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec checkRecord
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%s: %v in %q", structurizer, err, line)
			}
			recs = append(recs, rec)
		}
		if code != exitFail || len(recs) != 3 {
			t.Fatalf("--structurizer %s: exit %d with %d records, want %d and 3\n%s%s", structurizer, code, len(recs), exitFail, out, errs)
		}
		if recs[0].Outcome != outcomeFail || recs[0].Reason != "exec:trace-mismatch" {
			t.Errorf("--structurizer %s: %s: %s %s, want the fault its header records to fail exec:trace-mismatch", structurizer, fault, recs[0].Outcome, recs[0].Reason)
		}
		if recs[1].Outcome != outcomeOK || len(recs[1].Checks) != 8 {
			t.Errorf("--structurizer %s: %s: %s with %d checks, want ok under the flags' 8 checks", structurizer, plain, recs[1].Outcome, len(recs[1].Checks))
		}
		if recs[2].Outcome != outcomeOK || len(recs[2].Checks) != 2 || recs[2].Strategy != "dispatch" || recs[2].Stats == nil || recs[2].Stats.RouteVars == 0 {
			t.Errorf("--structurizer %s: %s: %+v, want ok under its header's 2 checks and strategy dispatch (a route variable)", structurizer, narrow, recs[2])
		}
		for _, f := range []string{fault, narrow} {
			if !strings.Contains(errs, "judging "+f+" as its header records") {
				t.Errorf("--structurizer %s: no note on what was taken from %s\n%s", structurizer, f, errs)
			}
		}
	}
}

// TestCheckHeaderValueRefused: a value a header records that check cannot
// judge under is a usage error naming the file, before any graph.
func TestCheckHeaderValueRefused(t *testing.T) {
	in := filepath.Join(t.TempDir(), "bad.cfg")
	if err := os.WriteFile(in, []byte("# signature: exec:trace-mismatch\n# checks: pdom,nosuch\n"+armsGraph+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd([]string{"check", in}, "")
	if code != exitUsage || out != "" || !strings.Contains(errs, in+", judged as its header records (--checks pdom,nosuch)") {
		t.Errorf("check of a header naming an unknown check: exit %d, want %d naming the file, no graph judged\n%s%s", code, exitUsage, out, errs)
	}
}

// TestCheckHeaderThatDoesNotRead: a file of one graph whose header records
// a judging but does not read (a value that does not parse, no
// '# signature:') is a usage error naming the file and line, never
// judged under the flags alone: the stored finding below passes without
// its fault. check and minimize alike; a file without a header and one of
// several graphs are still judged under the flags.
func TestCheckHeaderThatDoesNotRead(t *testing.T) {
	dir := t.TempDir()
	write := writerIn(t, dir)
	for _, c := range []struct{ name, text, says string }{
		{"bad-value.cfg", "# signature: exec:trace-mismatch\n# fault: swap-arms\n# registers: 5x\n" + armsGraph + "\n", "bad-value.cfg:3: '# registers: 5x'"},
		{"no-signature.cfg", "# fault: swap-arms\n" + armsGraph + "\n", "no '# signature:' header"},
	} {
		in := write(c.name, c.text)
		code, out, errs := runCmd([]string{"check", in}, "")
		if code != exitUsage || out != "" || !strings.Contains(errs, c.says) {
			t.Errorf("check %s: exit %d, want %d saying %q, no graph judged\n%s%s", c.name, code, exitUsage, c.says, out, errs)
		}
		code, out, errs = runCmd([]string{"minimize", in}, "")
		if code != exitUsage || !strings.Contains(errs, c.says) {
			t.Errorf("minimize %s: exit %d, want %d saying %q\n%s%s", c.name, code, exitUsage, c.says, out, errs)
		}
	}
	plain := write("plain.cfg", "# a note, no header key\n"+armsGraph+"\n")
	several := write("several.cfg", "# fault: swap-arms\n"+armsGraph+"\n"+armsGraph+"\n")
	if code, out, errs := runCmd([]string{"check", plain, several}, ""); code != exitOK {
		t.Errorf("check of a file without a header and one of several graphs: exit %d, want %d\n%s%s", code, exitOK, out, errs)
	}
}

// TestCheckGPUDeviceForAHeadersGPU: --gpu-device serves the gpu check a
// file's header turns on (`# checks: +gpu`): no note says the check is
// off. Where no Vulkan driver is, check refuses the file instead.
func TestCheckGPUDeviceForAHeadersGPU(t *testing.T) {
	if err := gpu.Available(); err != nil {
		t.Skipf("no Vulkan driver (%v): test with -tags vulkan", err)
	}
	in := filepath.Join(t.TempDir(), "gpu.cfg")
	if err := os.WriteFile(in, []byte("# signature: none\n# expect: pass\n# checks: +gpu\n"+armsGraph+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd([]string{"check", "--gpu-device", "cpu", "--json", in}, "")
	if code != exitOK || !strings.Contains(out, `"check":"gpu"`) || strings.Contains(errs, "does nothing") {
		t.Errorf("check --gpu-device cpu of a file whose header adds gpu: exit %d, want 0, the gpu check run and no note that it is off\n%s%s", code, out, errs)
	}
	plain := filepath.Join(t.TempDir(), "plain.cfg")
	if err := os.WriteFile(plain, []byte(armsGraph+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, errs := runCmd([]string{"check", "--gpu-device", "cpu", plain}, ""); !strings.Contains(errs, "does nothing") {
		t.Errorf("check --gpu-device cpu of a file without the gpu check: no note that the flag does nothing\n%s", errs)
	}
}

// TestCheckStdinBesideAFileNamedStdin: a file named as standard input's
// graphs are shown ("<stdin>") lends its header's judging to its own
// graph alone: standard input's graph, in either order, is judged under
// the flags.
func TestCheckStdinBesideAFileNamedStdin(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "<stdin>", "# signature: exec:trace-mismatch\n# fault: swap-arms\n"+armsGraph+"\n")
	for _, args := range [][]string{{"<stdin>", "-"}, {"-", "<stdin>"}} {
		code, out, errs := runCmd(append([]string{"check", "--json"}, args...), armsGraph+"\n")
		var outcomes []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec checkRecord
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("check %q: %v in %q\n%s", args, err, line, errs)
			}
			outcomes = append(outcomes, rec.Outcome)
		}
		want := []string{outcomeFail, outcomeOK} // the file's graph fails under its fault, standard input's passes
		if args[0] == "-" {
			want = []string{outcomeOK, outcomeFail}
		}
		if code != exitFail || strings.Join(outcomes, " ") != strings.Join(want, " ") {
			t.Errorf("check %q: exit %d, outcomes %q; want %d and %q\n%s%s", args, code, outcomes, exitFail, want, out, errs)
		}
	}
}

// TestCheckJSONNamesTheJudgingTaken: each --json record names, by flag,
// the settings check took from its file's header; a record of a file
// without one, or of a flag given, names none of them.
func TestCheckJSONNamesTheJudgingTaken(t *testing.T) {
	dir := t.TempDir()
	write := writerIn(t, dir)
	recorded := write("recorded.cfg", "# signature: exec:trace-mismatch\n# fault: swap-arms\n# registers: 5\n# walks: 4 seed 3\n# checks: pdom,exec\n# timeout: 7s\n"+armsGraph+"\n")
	plain := write("plain.cfg", armsGraph+"\n")
	for _, tc := range []struct {
		flags []string
		want  []string // from_header of recorded.cfg's record, as JSON
	}{
		{nil, []string{`{"checks":"pdom,exec","inject":"swap-arms","registers":5,"seed":3,"timeout":"7s","walks":4}`, ``}},
		{[]string{"--inject", "", "--seed", "1"}, []string{`{"checks":"pdom,exec","registers":5,"timeout":"7s","walks":4}`, ``}}, // the walks taken, the seed given
	} {
		args := append(append([]string{"check", "--json"}, tc.flags...), recorded, plain, "-")
		_, out, errs := runCmd(args, armsGraph+"\n")
		validateLines(t, "check --json", out, "cfgfuzz-check/v1")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec struct {
				FromHeader json.RawMessage `json:"from_header"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%q: %v in %q", args, err, line)
			}
			got = append(got, string(rec.FromHeader))
		}
		want := append(tc.want, ``) // standard input's header is never taken
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("check %q: from_header of the records\n%s\nwant\n%s\n%s", args, strings.Join(got, "\n"), strings.Join(want, "\n"), errs)
		}
	}
}

// pipeOf is a pipe that holds text, its read end named as /dev/fd/N
// names it (a shell's <(cat FILE)): opened again, it reads empty.
func pipeOf(t *testing.T, text string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := w.WriteString(text); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return "/dev/fd/" + strconv.Itoa(int(r.Fd()))
}

// TestHeaderOfAPipe: a stored finding given through a pipe (check
// <(cat FILE)) is judged under its header, which check and minimize read
// from the bytes they read the graph from: opening the pipe again reads
// nothing, and the finding, judged without its fault, passed.
func TestHeaderOfAPipe(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	const finding = "# signature: exec:trace-mismatch\n# fault: swap-arms\n" + armsGraph + "\n"
	code, out, errs := runCmd([]string{"check", pipeOf(t, finding)}, "")
	if code != exitFail || !strings.Contains(errs, "as its header records: --inject swap-arms") {
		t.Errorf("check of a pipe: exit %d, want %d under the header's fault\n%s%s", code, exitFail, out, errs)
	}
	code, out, errs = runCmd([]string{"minimize", pipeOf(t, finding)}, "")
	if code != exitOK || !strings.Contains(errs, "as its header records: --inject swap-arms") {
		t.Errorf("minimize of a pipe: exit %d, want %d under the header's fault\n%s%s", code, exitOK, out, errs)
	}
}

// TestMismatchNoteOfAPipe: the note naming the flags that judge a file
// as its header records, where the flags given judge it otherwise, is
// said of a file given through a pipe and of standard input as of a file
// named (their header read from the bytes the graph was read from),
// naming the input as check names its graphs; standard input's header is
// never taken, so with no flag it is noted too.
func TestMismatchNoteOfAPipe(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	const finding = "# signature: exec:trace-mismatch\n# fault: swap-arms\n" + armsGraph + "\n"
	const note = " records another judging in its header: judge it with --inject swap-arms as it was judged"
	named := writerIn(t, t.TempDir())("finding.cfg", finding)
	pipe := pipeOf(t, finding)
	for _, tc := range []struct {
		args  []string
		stdin string
		name  string // in the note; "" no note
	}{
		{[]string{"--inject", "", named}, "", named},
		{[]string{"--inject", "", pipe}, "", pipe},
		{[]string{"--inject", "", "-"}, finding, "<stdin>"},
		{nil, finding, "<stdin>"},
		{[]string{"--inject", "swap-arms"}, finding, ""},
	} {
		_, out, errs := runCmd(append([]string{"check"}, tc.args...), tc.stdin)
		if tc.name == "" {
			if strings.Contains(errs, "records another judging") {
				t.Errorf("check %q: a note where the flags judge as recorded\n%s%s", tc.args, out, errs)
			}
		} else if !strings.Contains(errs, "cfgfuzz check: note: "+tc.name+note) {
			t.Errorf("check %q: no note %q\n%s%s", tc.args, tc.name+note, out, errs)
		}
	}
	_, out, errs := runCmd([]string{"minimize", "--inject", "", pipeOf(t, finding)}, "")
	if !strings.Contains(errs, "/dev/fd/") || !strings.Contains(errs, note) {
		t.Errorf("minimize --inject '' of a pipe: no note %q\n%s%s", note, out, errs)
	}
}
