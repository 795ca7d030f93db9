// journal_test.go checks the results log's replay: a torn last line is
// dropped and overwritten on resume, a repeated index counts once, damage
// before the end is an error.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRecordsTornAndDuplicate(t *testing.T) {
	dir := t.TempDir()
	good := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}` + "\n" +
		`{"i":1,"s":1,"seed":2,"graph":"{{}}","cur":{"outcome":"ok"}}` + "\n" +
		`{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"invalid"}}` + "\n"
	os.WriteFile(filepath.Join(dir, ResultsFile), []byte(good+`{"i":2,"s":0,"se`), 0o644)
	recs, n, err := ReadRecords(dir)
	if err != nil || len(recs) != 2 || n != int64(len(good)) || recs[0].Current.Outcome != "ok" {
		t.Fatalf("got %d records, offset %d, %v; want 2, %d", len(recs), n, err, len(good))
	}
	j, err := openJournal(dir, true, n)
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
