// rerun_fuzz_test.go: OUT/rerun.jsonl, which `merge --state` and `run
// --resume` read back. TestRerunOfUnknownSignature is the regression of
// a line naming a signature the state does not keep, which once reached
// the classes as a stored signature that was not there; FuzzReadReruns
// (go test -fuzz '^FuzzReadReruns$') reads any bytes against a state's
// plan: a re-run of the plan, or an error naming the file and a line,
// never a panic, and what it reads classes without one. What reads
// writes back (WriteReruns) and reads again the same.
package fuzz

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rerunState is a state of two signatures, three kept graphs and one
// minimized graph.
func rerunState() *State {
	return &State{Store: []StoredSignature{
		{Signature: "exec:trace-mismatch", Outcome: OutInvalid, FirstSeen: "2026-11-28", LastSeen: "2026-11-30", Minimized: "{{0, 1}, {}}", Graphs: []KeptGraph{
			{Graph: "{{1, 2}, {3}, {3}, {}}", Stream: Stream{Kind: "reducible", Weights: "w0"}, Seed: 1},
			{Graph: "{{1}, {0, 2}, {}}", Weights: []int{16, 16, 16}, Stream: Stream{Kind: "reducible", Weights: "w16"}, Seed: 7},
		}},
		{Signature: "structurize:crash:exit status N: boom", Strategy: "dispatch", Outcome: OutCrash, FirstSeen: "2026-11-28", LastSeen: "2026-11-28", Fixed: "2026-11-29", Graphs: []KeptGraph{
			{Graph: "{{}}", Stream: Stream{Kind: "exhaustive", Weights: "w0"}, Seed: 3},
		}},
	}, Triage: map[string]TriageEntry{}, Seen: NewBloom()}
}

// rerunLines is the plan of st re-run with results, as WriteReruns
// writes it.
func rerunLines(t testing.TB, st *State) []byte {
	plan := rerunPlan(st)
	plan[0].Result = SideResult{Outcome: OutOK, Hash: "abc"}
	plan[1].Result = SideResult{Outcome: OutInvalid, Signature: "exec:trace-mismatch", Detail: "walk 0"}
	plan[2].Result = SideResult{Outcome: OutError, Detail: "no verdict"}
	dir := t.TempDir()
	if err := WriteReruns(dir, plan); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, RerunFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRerunOfUnknownSignature(t *testing.T) {
	st := rerunState()
	good := rerunLines(t, st)
	for _, c := range []struct{ from, to, want string }{
		{`"signature":"exec:trace-mismatch"`, `"signature":"exec:other"`, "rerun.jsonl:1: kept graph 0 is of signature exec:trace-mismatch"},
		{`{"j":2,`, `{"j":9,`, "rerun.jsonl:3: re-run 9, but the state's re-runs are 4 (3 kept graphs and 1 minimized graph;"},
		{`{"j":1,`, `{"j":-1,`, "rerun.jsonl:2: re-run -1"},
		{`"minimized":true,`, ``, "rerun.jsonl:4: re-run 3 is of a minimized graph, not of a kept graph"},
		{`{{1}, {0, 2}, {}}`, `{{1}, {0, 1}, {}}`, "rerun.jsonl:2: kept graph 1 is {{1}, {0, 2}, {}}, not {{1}, {0, 1}, {}}"},
		{`"outcome":"ok"`, `"outcome":"fine"`, `rerun.jsonl:1: kept graph 0: unknown outcome "fine"`},
		{`{"j":0,`, "null\n" + `{"j":0,`, "rerun.jsonl:1: kept graph 0 is of signature"},
		{`"seed":1}`, `"seed":"1"}`, "rerun.jsonl:1: column"},
	} {
		dir := t.TempDir()
		bad := strings.Replace(string(good), c.from, c.to, 1)
		if bad == string(good) {
			t.Fatalf("%s is not in the re-runs", c.from)
		}
		if err := os.WriteFile(filepath.Join(dir, RerunFile), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		rs, err := ReadReruns(st, dir)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, c.want)) {
			t.Errorf("%s -> %s: read %d re-runs, error %v; want %s", c.from, c.to, len(rs), err, c.want)
		}
	}
}

var rerunErrorAt = regexp.MustCompile(`^in/rerun\.jsonl:([0-9]+): .`)

func FuzzReadReruns(f *testing.F) {
	st := rerunState()
	good := rerunLines(f, st)
	f.Add(good)
	lines := bytes.SplitAfter(good, []byte("\n"))
	f.Add(lines[1])
	f.Add(append(bytes.Clone(lines[2]), lines[0]...))
	f.Add([]byte("null\n"))
	f.Add([]byte("{}\n\n"))
	f.Add(good[:len(good)/2])
	plan := rerunPlan(st)
	rep := &Report{Findings: []Finding{}}
	f.Fuzz(func(t *testing.T, data []byte) {
		byJ := map[int]Rerun{}
		err := readRerunFile("in/rerun.jsonl", bytes.NewReader(data), plan, byJ)
		if err != nil {
			errorNamesALine(t, rerunErrorAt, data, err)
			return
		}
		var rs []Rerun
		for j := range len(plan) {
			if r, ok := byJ[j]; ok {
				rs = append(rs, r)
			}
		}
		if len(rs) != len(byJ) {
			t.Fatalf("%q: read re-runs outside the plan: %v", data, byJ)
		}
		ClassifyState(st, rep, rs)
		dir := t.TempDir()
		if err := WriteReruns(dir, rs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadReruns(st, dir)
		if err != nil {
			t.Fatalf("%q read as %v, written back, does not read: %v", data, rs, err)
		}
		if len(again) != len(rs) {
			t.Fatalf("%q read as %v, written back, reads as %v", data, rs, again)
		}
		for i := range rs {
			a, _ := json.Marshal(rs[i])
			b, _ := json.Marshal(again[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("%q read as %s, written back, reads as %s", data, a, b)
			}
		}
	})
}
