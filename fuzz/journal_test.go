// journal_test.go checks the results log's replay: a torn last line is
// dropped and overwritten on resume, a repeated record counts once and an
// index logged again with another record is refused, damage
// before the end is an error; and what does not verify (changed settings,
// an edited record, a record outside the settings) is refused naming the
// file and line.
package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// journalSettings is a campaign of two streams and ten graphs.
var journalSettings = Settings{Seed: 1, Graphs: 10, Streams: []Stream{{Kind: "a", Weights: "w0"}, {Kind: "b", Weights: "w0"}}, Current: "in-process"}

// sealedLog writes campaign.json and a log of the given record bodies
// (each sealed as the journal seals it) and returns the log's text.
func sealedLog(t *testing.T, dir string, bodies ...string) string {
	t.Helper()
	if err := SaveSettings(dir, journalSettings, ThisWriter()); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, body := range bodies {
		b.Write(sealRecord([]byte(body), SettingsSum(journalSettings)))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, ResultsFile), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReadRecordsTornAndDuplicate(t *testing.T) {
	dir := t.TempDir()
	good := sealedLog(t, dir, `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`,
		`{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`,
		`{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`)
	os.WriteFile(filepath.Join(dir, ResultsFile), []byte(good+`{"sum":"0123`), 0o644)
	recs, n, err := ReadRecords(dir)
	if err != nil || len(recs) != 2 || n != int64(len(good)) || recs[0].Current.Outcome != "ok" {
		t.Fatalf("got %d records, offset %d, %v; want 2, %d", len(recs), n, err, len(good))
	}
	j, err := openJournal(dir, true, n, SettingsSum(journalSettings))
	if err != nil {
		t.Fatal(err)
	}
	j.add(&Record{Index: 2, Graph: "{{}}", Current: SideResult{Outcome: OutOK}})
	j.close()
	if recs, _, err = ReadRecords(dir); err != nil || len(recs) != 3 {
		t.Fatalf("after resume: %d records, %v", len(recs), err)
	}
	os.WriteFile(filepath.Join(dir, ResultsFile), []byte("garbage\n"+good), 0o644)
	if _, _, err := ReadRecords(dir); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("damaged first line: err %v", err)
	}
}

// TestReadRecordsRefusesAnIndexLoggedTwice: an index logged again with
// another record (here another outcome, or signature, or baseline) is an
// error naming both lines and the first field that differs, with both
// values, wherever the two are; its first record is not taken for the
// index.
func TestReadRecordsRefusesAnIndexLoggedTwice(t *testing.T) {
	ok0 := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`
	ok1 := `{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`
	invalid0 := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"invalid","signature":"exec:trace-mismatch"}}`
	rules0 := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"invalid","signature":"rules:R6"}}`
	spaced0 := `{"i":0, "s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`
	for _, c := range []struct {
		bodies []string
		what   string
	}{
		{[]string{ok0, ok1, invalid0}, `(its cur.outcome is "invalid", line 1's is "ok")`},
		{[]string{invalid0, ok1, ok0, ok1}, `(its cur.outcome is "ok", line 1's is "invalid")`},
		{[]string{invalid0, ok1, rules0}, `(its cur.signature is "rules:R6", line 1's is "exec:trace-mismatch")`},
		{[]string{ok0, ok1, spaced0}, `(the same fields as line 1's, written otherwise)`},
	} {
		dir := t.TempDir()
		sealedLog(t, dir, c.bodies...)
		_, _, err := ReadRecords(dir)
		want := filepath.Join(dir, ResultsFile) + ":3: graph index 0 logged again, with another record than line 1's " + c.what
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("log %q: err %v, want %q", c.bodies, err, want)
		}
	}
}

// TestIndexLoggedTwiceShowsWhereValuesDiffer: two values that differ past
// the bytes the message shows of each are shown from a little before
// their first different byte, "..." before; a field absent (or null) is
// told from an empty one; two modules of one size name their first
// different byte.
func TestIndexLoggedTwiceShowsWhereValuesDiffer(t *testing.T) {
	long := strings.Repeat("a", 100)
	rec := func(cur string) string {
		return `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{` + cur + `}}`
	}
	ok1 := `{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`
	for _, c := range []struct {
		first, again string
		what         string
	}{
		{rec(`"outcome":"error","detail":"` + long + `xyz"`), rec(`"outcome":"error","detail":"` + long + `XYZ"`),
			`(its cur.detail is ...` + long[:20] + `XYZ", line 1's is ...` + long[:20] + `xyz")`},
		{rec(`"outcome":"error","detail":"` + long + `"`), rec(`"outcome":"error","detail":"` + long + `b"`),
			`(its cur.detail is ...` + long[:20] + `b", line 1's is ...` + long[:20] + `")`},
		{rec(`"outcome":"error","detail":"short"`), rec(`"outcome":"error","detail":"shorT"`),
			`(its cur.detail is "shorT", line 1's is "short")`},
		{rec(`"outcome":"ok"`), rec(`"outcome":"ok","also":[]`),
			`(its cur.also is [] (empty), line 1's is absent)`},
		{rec(`"outcome":"ok","also":null`), rec(`"outcome":"ok","also":[]`),
			`(its cur.also is [] (empty), line 1's is absent)`},
		{rec(`"outcome":"ok","module":"AAAA"`), rec(`"outcome":"ok","module":"AAAB"`),
			`(its cur.module is 3 bytes, byte 2 0x01, line 1's is 3 bytes, byte 2 0x00)`},
	} {
		dir := t.TempDir()
		sealedLog(t, dir, c.first, ok1, c.again)
		_, _, err := ReadRecords(dir)
		want := filepath.Join(dir, ResultsFile) + ":3: graph index 0 logged again, with another record than line 1's " + c.what
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("log %q then %q:\n err %v\nwant %q", c.first, c.again, err, want)
		}
	}
}

// TestReadRecordsRefusesWhatDoesNotVerify: each case damages a valid
// campaign one way; replay must fail naming the file (and the line).
func TestReadRecordsRefusesWhatDoesNotVerify(t *testing.T) {
	ok0 := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`
	ok1 := `{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`
	cases := []struct {
		name   string
		bodies []string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"changed seed", []string{ok0, ok1}, func(t *testing.T, dir string) { editSettings(t, dir, "seed", 2) }, "campaign.json: the settings do not match"},
		{"no settings checksum", []string{ok0, ok1}, func(t *testing.T, dir string) { editSettings(t, dir, "sha256", nil) }, "campaign.json: no sha256"},
		{"edited record", []string{ok0, ok1}, func(t *testing.T, dir string) {
			replaceInFile(t, filepath.Join(dir, ResultsFile), `"seed":2`, `"seed":3`)
		}, "results.jsonl:2: checksum mismatch"},
		{"unsealed record", []string{ok0, ok1}, func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ResultsFile), []byte(ok0+"\n"+ok1+"\n"), 0o644)
		}, "results.jsonl:1: no checksum"},
		{"stream out of range", []string{ok0, `{"i":1,"s":7,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`, ok1}, nil, "results.jsonl:2: stream index 7"},
		{"unknown outcome", []string{`{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"fine"}}`, ok1}, nil, `results.jsonl:1: unknown outcome "fine"`},
		{"index outside the budget", []string{ok0, `{"i":12,"s":0,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}`, ok1}, nil, "results.jsonl:2: graph index 12"},
		{"baseline result without a baseline", []string{ok0, `{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"},"base":{"outcome":"ok"},"class":"same"}`, ok1}, nil, "results.jsonl:2: baseline result"},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		sealedLog(t, dir, tc.bodies...)
		if tc.damage != nil {
			tc.damage(t, dir)
		}
		_, _, err := ReadRecords(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: err %v, want one naming %s and %q", tc.name, err, dir, tc.want)
		}
	}
}

// editSettings sets (or, for nil, deletes) one key of campaign.json.
func editSettings(t *testing.T, dir, key string, v any) {
	t.Helper()
	path := filepath.Join(dir, CampaignFile)
	var m map[string]any
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		delete(m, key)
	} else {
		m[key] = v
	}
	b, _ = json.Marshal(m)
	os.WriteFile(path, b, 0o644)
}

func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: %v, or no %q", path, err, old)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}
