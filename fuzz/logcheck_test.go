// logcheck_test.go checks that a resume takes a logged verdict only for
// its index's graph: a record sealed for the campaign whose graph, seed,
// weights or mutant is not its index's, a skipped record whose graph does
// not repeat its same_as index's, a line of another campaign sealed for
// this one, and a guided record of a batch whose earlier batches the log
// lacks an index of are each refused, naming the file, the line and what
// differs; an untouched log resumes (the resume tests).
package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// logLines is dir's results log, a line (with its newline) an element,
// and the record each holds.
func logLines(t *testing.T, dir string) ([]string, []Record) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:len(lines)-1] // what follows the last newline: nothing
	s, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]Record, len(lines))
	for k, line := range lines {
		body, err := openRecord([]byte(strings.TrimSpace(line)), SettingsSum(s))
		if err == nil {
			err = json.Unmarshal(body, &recs[k])
		}
		if err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
	}
	return lines, recs
}

// resealed is record r as a log line of dir's campaign, sealed for it
// with edit applied to its JSON fields.
func resealed(t *testing.T, dir string, r Record, edit func(m map[string]any)) string {
	t.Helper()
	s, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // a seed is a uint64: as a float it would change
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ = json.Marshal(m)
	return string(sealRecord(b, SettingsSum(s))) + "\n"
}

// resumeErr writes lines as dir's log and resumes the campaign c ran
// there: the error it ends with.
func resumeErr(t *testing.T, c Config, lines []string) error {
	t.Helper()
	if err := os.WriteFile(filepath.Join(c.Dir, ResultsFile), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	saved, err := LoadSettings(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Settings, c.Resume = saved, true
	_, err = Run(c)
	return err
}

// firstJudged is the line (from 0) of the first record of lines' records
// whose graph was judged, at or past index from.
func firstJudged(t *testing.T, recs []Record, from int) int {
	t.Helper()
	for k, r := range recs {
		if r.Index >= from && !r.Skipped && !r.Seen && r.Graph != "" {
			return k
		}
	}
	t.Fatal("no judged record")
	return 0
}

func TestResumeRefusesAnotherGraphsRecord(t *testing.T) {
	c := testConfig(t, 40)
	mustRun(t, c)
	lines, recs := logLines(t, c.Dir)
	k := firstJudged(t, recs, 5)
	other := recs[firstJudged(t, recs, recs[k].Index+1)]
	path := filepath.Join(c.Dir, ResultsFile)
	at := fmt.Sprintf("%s:%d: graph index %d ", path, k+1, recs[k].Index)
	cases := []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"another graph", func(m map[string]any) { m["graph"], m["weights"] = other.Graph, other.Weights }, "its graph is"},
		{"another seed", func(m map[string]any) { m["seed"] = other.Seed }, "its seed is"},
		{"another strategy", func(m map[string]any) { m["strategy"] = "structured" }, "its strategy is"},
		{"a mutant", func(m map[string]any) { m["mutant"] = "corpus[0] none" }, "its mutant is"},
		{"skipped as a repeat of another graph", func(m map[string]any) {
			m["skipped"], m["same_as"] = true, 0
			delete(m, "cur")
		}, "skipped as a repeat of graph index 0, but its graph does not repeat"},
	}
	for _, tc := range cases {
		forged := append([]string(nil), lines...)
		forged[k] = resealed(t, c.Dir, recs[k], tc.edit)
		err := resumeErr(t, c, forged)
		if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one opening %q and naming %q", tc.name, err, at, tc.want)
		}
	}
	if err := resumeErr(t, c, lines); err != nil {
		t.Errorf("the untouched log: %v", err)
	}
}

// TestResumeRefusesAnotherCampaignsLine: a line of a campaign of another
// seed, sealed for this one, is refused: the same index, another graph.
func TestResumeRefusesAnotherCampaignsLine(t *testing.T) {
	c, o := testConfig(t, 20), testConfig(t, 20)
	o.Seed = 2
	mustRun(t, c)
	mustRun(t, o)
	lines, recs := logLines(t, c.Dir)
	_, others := logLines(t, o.Dir)
	k := firstJudged(t, recs, 0)
	for _, r := range others {
		if r.Index == recs[k].Index {
			lines[k] = resealed(t, c.Dir, r, func(map[string]any) {})
		}
	}
	err := resumeErr(t, c, lines)
	want := fmt.Sprintf("%s:%d: graph index %d is not the graph the campaign's settings give it: its seed is", filepath.Join(c.Dir, ResultsFile), k+1, recs[k].Index)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want %q", err, want)
	}
}

// TestResumeRefusesAForgedMutant: a guided campaign's mutant of a later
// batch, its graph or its description changed, is refused; so is a record
// of a later batch once the log lacks an index of an earlier one.
func TestResumeRefusesAForgedMutant(t *testing.T) {
	c := guidedConfig(t, 100)
	mustRun(t, c)
	lines, recs := logLines(t, c.Dir)
	k := -1
	for i, r := range recs {
		if r.Mutant != "" && r.Index >= 2*c.CorpusBatch && !r.Skipped {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no mutant past the first two batches")
	}
	other := recs[firstJudged(t, recs, recs[k].Index+1)]
	path := filepath.Join(c.Dir, ResultsFile)
	at := fmt.Sprintf("%s:%d: graph index %d ", path, k+1, recs[k].Index)
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"another graph", func(m map[string]any) { m["graph"], m["weights"] = other.Graph, other.Weights }, "its graph is"},
		{"another mutant", func(m map[string]any) { m["mutant"] = "corpus[0] none" + graftFrom + "3" }, "its mutant is"},
	} {
		forged := append([]string(nil), lines...)
		forged[k] = resealed(t, c.Dir, recs[k], tc.edit)
		err := resumeErr(t, c, forged)
		if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one opening %q and naming %q", tc.name, err, at, tc.want)
		}
	}

	var gap []string
	for i, line := range lines {
		if recs[i].Index != 3 {
			gap = append(gap, line)
		}
	}
	err := resumeErr(t, c, gap)
	if err == nil || !strings.Contains(err.Error(), "but the log lacks an index below") {
		t.Errorf("a log without index 3: err %v, want one saying the log lacks an index", err)
	}
	if err := resumeErr(t, c, lines); err != nil {
		t.Errorf("the untouched log: %v", err)
	}
}
