// journal_fuzz_test.go: the native fuzz target FuzzReadRecords, a
// campaign's results.jsonl as --resume and merge read it. The fuzzer's
// bytes are the log as they are, or (seal) with every line sealed under
// the settings' checksum as the journal seals it, so that mutations reach
// the record's decoding and its check against the settings and not only
// the checksum. Whatever the bytes, the log reads or fails with an error
// naming the file and a line of it, never a panic; the valid prefix ends
// at a line's end; the records read make a report; each record written
// by the journal reads back as the same record. The seed corpus is the
// log of a campaign run here.
//
//	go test -run '^$' -fuzz '^FuzzReadRecords$' -fuzztime 150s -parallel 1 ./fuzz
package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

var recordErrorAt = regexp.MustCompile(`^in/results\.jsonl:([0-9]+): .`)

// sealLines seals every line of data that opens an object as the journal
// seals a record's JSON.
func sealLines(data []byte, sum string) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		body, nl := bytes.CutSuffix(line, []byte("\n"))
		if len(body) > 1 && body[0] == '{' {
			body = sealRecord(body, sum)
		}
		out = append(out, body...)
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

// unsealLines is the records' JSON of a log, for the seed corpus of the
// sealed form.
func unsealLines(t testing.TB, log []byte, sum string) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(log, []byte("\n")) {
		body, nl := bytes.CutSuffix(line, []byte("\n"))
		if len(body) > 0 {
			b, err := openRecord(body, sum)
			if err != nil {
				t.Fatal(err)
			}
			body = b
		}
		out = append(out, body...)
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

func FuzzReadRecords(f *testing.F) {
	c := testConfig(f, 12)
	c.Workers = 1
	if _, err := Run(c); err != nil {
		f.Fatal(err)
	}
	s, err := LoadSettings(c.Dir)
	if err != nil {
		f.Fatal(err)
	}
	sum := SettingsSum(s)
	log, err := os.ReadFile(filepath.Join(c.Dir, ResultsFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(log, false)
	f.Add(log[:len(log)*2/3], false)
	bodies := unsealLines(f, log, sum)
	f.Add(bodies, true)
	lines := bytes.SplitAfter(bodies, []byte("\n"))
	f.Add(bytes.Join([][]byte{lines[3], lines[0], lines[0], lines[1]}, nil), true)
	f.Add([]byte(`{"i":11,"s":3,"seed":1,"graph":"{{}}","skipped":true,"same_as":12}`+"\n"+`{"i":2,"s":2,"seen":true}`+"\n"), true)
	f.Add([]byte(`{"i":1,"s":1,"seed":1,"graph":"{{}}","cur":{"outcome":"invalid","func":{"blocks":[{"kind":"clone"}]}},"base":null}`+"\n\n"), true)
	f.Add([]byte("{}\n{\"sum\":\"0123"), false)
	f.Fuzz(func(t *testing.T, data []byte, seal bool) {
		if seal {
			data = sealLines(data, sum)
		}
		var recs []Record
		good, err := eachRecordIn("in/results.jsonl", bytes.NewReader(data), &s, func(r *Record, _ int) error { recs = append(recs, *r); return nil })
		if err != nil {
			errorNamesALine(t, recordErrorAt, data, err)
			return
		}
		if good < 0 || good > int64(len(data)) || good > 0 && data[good-1] != '\n' {
			t.Fatalf("%q: valid prefix of %d bytes", data, good)
		}
		BuildReport(s, recs)
		for _, r := range recs {
			var b bytes.Buffer
			j := &journal{sum: sum, w: bufio.NewWriter(&b), lastSync: time.Now(), syncEvery: 1 << 30, syncAfter: time.Hour}
			if err := j.add(&r); err != nil {
				t.Fatal(err)
			}
			j.w.Flush()
			text := b.Bytes()
			var again []Record
			if _, err := eachRecordIn("in/results.jsonl", bytes.NewReader(text), &s, func(r *Record, _ int) error { again = append(again, *r); return nil }); err != nil || len(again) != 1 {
				t.Fatalf("%q: record %+v written back as %q reads as %v, %v", data, r, text, again, err)
			}
			r.Schema = RecordSchema // the journal writes it on every line
			want, _ := json.Marshal(r)
			got, _ := json.Marshal(again[0])
			if !bytes.Equal(got, want) {
				t.Fatalf("%q: record %s written back reads as %s", data, want, got)
			}
		}
	})
}

// errorNamesALine fails t unless err, an error reading file data, names
// a line of it as at does (its first group the line number).
func errorNamesALine(t *testing.T, at *regexp.Regexp, data []byte, err error) {
	t.Helper()
	m := at.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("%q: error %q names no line of the file", data, err)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || n > bytes.Count(data, []byte("\n"))+1 {
		t.Fatalf("%q: error %q names a line past the file", data, err)
	}
}
