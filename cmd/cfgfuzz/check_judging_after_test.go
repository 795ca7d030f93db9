// check_judging_after_test.go: the judging of each file holds on the paths
// check takes besides the plain one: after a graph whose checks ran past
// --check-timeout (check renews the side and the oracle), and for every
// judgement of --repeat (a fresh server each), every file's graphs are
// judged under their own file's header, never the abandoned file's nor
// the flags' where the header records otherwise.
package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// judgingFiles writes graph files of armsGraph recording other judgings:
// slow its fault and a check limit no judgement keeps, plain nothing,
// narrow the dispatch strategy, a register file and two checks, faulty
// its fault alone.
func judgingFiles(t *testing.T) (slow, plain, narrow, faulty string) {
	t.Helper()
	dir := t.TempDir()
	write := writerIn(t, dir)
	slow = write("slow.cfg", "# signature: exec:trace-mismatch\n# fault: swap-arms\n# check-timeout: 1ns\n"+armsGraph+"\n")
	plain = write("plain.cfg", armsGraph+"\n")
	narrow = write("narrow.cfg", "# signature: exec:trace-mismatch\n# strategy: dispatch\n# registers: 5\n# checks: pdom,exec\n"+armsGraph+"\n")
	faulty = write("faulty.cfg", "# signature: exec:trace-mismatch\n# fault: swap-arms\n"+armsGraph+"\n")
	return slow, plain, narrow, faulty
}

// checkRecords runs check --json with args and reads its records.
func checkRecords(t *testing.T, args ...string) (int, []checkRecord, string) {
	t.Helper()
	code, out, errs := runCmd(append([]string{"check", "--json"}, args...), "")
	var recs []checkRecord
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var rec checkRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("check %s: %v in %q\n%s", strings.Join(args, " "), err, line, errs)
		}
		recs = append(recs, rec)
	}
	return code, recs, out + errs
}

// wantJudgedAs says whether rec is file's graph judged as its header
// records (judgingFiles): own is the strategy check asks of the
// structurizer under the flags.
func wantJudgedAs(t *testing.T, what string, rec checkRecord, file, own string) {
	t.Helper()
	if !strings.HasPrefix(rec.Source, file+":") {
		t.Errorf("%s: record of %s, want %s", what, rec.Source, file)
		return
	}
	switch filepath.Base(file) {
	case "slow.cfg":
		if !abandoned(rec) || rec.Strategy != own {
			t.Errorf("%s: %s: %s %q strategy %q, want no verdict within its header's check limit, strategy %q", what, file, rec.Outcome, rec.Reason, rec.Strategy, own)
		}
	case "plain.cfg":
		if rec.Outcome != outcomeOK || len(rec.Checks) != 8 || rec.Strategy != own {
			t.Errorf("%s: %s: %s %q with %d checks, strategy %q; want ok under the flags' 8 checks, strategy %q", what, file, rec.Outcome, rec.Reason, len(rec.Checks), rec.Strategy, own)
		}
	case "narrow.cfg":
		if rec.Outcome != outcomeOK || len(rec.Checks) != 2 || rec.Strategy != "dispatch" || rec.Stats == nil || rec.Stats.RouteVars == 0 {
			t.Errorf("%s: %s: %s %q with %d checks, strategy %q; want ok under its header's 2 checks and strategy dispatch (a route variable)", what, file, rec.Outcome, rec.Reason, len(rec.Checks), rec.Strategy)
		}
	case "faulty.cfg":
		if rec.Outcome != outcomeFail || rec.Reason != "exec:trace-mismatch" || len(rec.Checks) != 8 || rec.Strategy != own {
			t.Errorf("%s: %s: %s %q with %d checks, strategy %q; want its header's fault to fail exec:trace-mismatch under 8 checks, strategy %q", what, file, rec.Outcome, rec.Reason, len(rec.Checks), rec.Strategy, own)
		}
	}
}

// TestCheckJudgingAfterANoVerdict: a file whose header's check limit no
// judgement keeps has no verdict; the files after it, on the new side and
// oracle check takes, are each judged under their own header (or the
// flags, for the file that records none), wherever the abandoned file
// lies among them, on cfgfuzz's own structurizer and on a server alike.
func TestCheckJudgingAfterANoVerdict(t *testing.T) {
	slow, plain, narrow, faulty := judgingFiles(t)
	for _, c := range []struct{ structurizer, own string }{
		{"self", "structured"},
		{"cmd:" + cfgfuzzBinary(t) + " structurize", ""},
	} {
		for _, files := range [][]string{{slow, plain, narrow, faulty}, {narrow, slow, plain, faulty}, {faulty, slow, narrow, plain}} {
			code, recs, text := checkRecords(t, append([]string{"--structurizer", c.structurizer}, files...)...)
			what := "--structurizer " + c.structurizer + " of " + strings.Join(names(files), " ")
			if code != exitUsage || len(recs) != len(files) {
				t.Errorf("%s: exit %d with %d records, want %d (incomplete) and %d\n%s", what, code, len(recs), exitUsage, len(files), text)
				continue
			}
			if !strings.Contains(text, "the graphs after it go to a new structurizer side and oracle") {
				t.Errorf("%s: no word of the new side and oracle\n%s", what, text)
			}
			for i, f := range files {
				wantJudgedAs(t, what, recs[i], f, c.own)
			}
		}
	}
}

// TestCheckRepeatJudgesEachFileAsItsHeader: under --repeat, every
// judgement of a file's graph, each on a server process of its own, is
// under the file's judging: they agree, and each record ends as its
// header says.
func TestCheckRepeatJudgesEachFileAsItsHeader(t *testing.T) {
	_, plain, narrow, faulty := judgingFiles(t)
	files := []string{faulty, narrow, plain, faulty}
	code, recs, text := checkRecords(t, append([]string{"--structurizer", "cmd:" + cfgfuzzBinary(t) + " structurize", "--repeat", "3"}, files...)...)
	if code != exitFail || len(recs) != len(files) {
		t.Fatalf("check --repeat 3: exit %d with %d records, want %d and %d\n%s", code, len(recs), exitFail, len(files), text)
	}
	for i, f := range files {
		what := "--repeat 3, graph " + filepath.Base(f)
		wantJudgedAs(t, what, recs[i], f, "")
		if j := recs[i].Judgements; j == nil || *j != (judgements{Alike: 3, Judged: 3}) {
			t.Errorf("%s: judgements %+v, want 3 of 3 alike", what, j)
		}
	}
}

// names are the files' base names.
func names(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(f))
	}
	return out
}
