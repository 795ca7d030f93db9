// bounded_test.go checks the bounds on what a resume and a merge read: a
// campaign.json, a report.json, a state's findings.json and triage.txt
// past their limits, a results-log line and a rerun.jsonl line past
// theirs, are each an error naming the file (and line) and the limit,
// without the file read whole (bounded_unix_test.go: a named pipe in a
// file's place is refused, not waited on). The large files are sparse:
// their size costs no disk, and a file refused by its size is never read.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sparseFile makes path a file of size zero bytes (a hole), then text.
func sparseFile(t *testing.T, path string, size int64, text string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(text), size); err != nil {
		t.Fatal(err)
	}
}

// wantBoundError fails t unless err names want (the file, its line) and
// the limit.
func wantBoundError(t *testing.T, what string, err error, want, limit string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "more than "+limit) {
		t.Errorf("%s: err %v, want one naming %s and the limit %s", what, err, want, limit)
	}
}

func TestCampaignFilesBounded(t *testing.T) {
	ok0 := `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`

	dir := t.TempDir()
	sealedLog(t, dir, ok0)
	path := filepath.Join(dir, CampaignFile)
	sparseFile(t, path, MaxCampaignFile+1, "\n")
	_, _, err := LoadCampaign(dir)
	wantBoundError(t, "campaign.json", err, path+":", "16MiB")

	dir = t.TempDir()
	sealedLog(t, dir, ok0)
	path = filepath.Join(dir, "report.json")
	sparseFile(t, path, MaxReportFile+1, "\n")
	_, err = Merge([]string{dir})
	wantBoundError(t, "report.json", err, path+":", "1GiB")
}

func TestStateFilesBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, StateFindingsFile)
	sparseFile(t, path, MaxStoreFile+1, "\n")
	_, err := LoadState(dir)
	wantBoundError(t, "findings.json", err, path+":", "1GiB")

	dir = t.TempDir()
	path = filepath.Join(dir, StateTriageFile)
	sparseFile(t, path, MaxTriageFile+1, "\n")
	_, err = LoadState(dir)
	wantBoundError(t, "triage.txt", err, path+":", "64MiB")
}

// TestResultsLogLineBounded: a results-log line past MaxRecordLine (a
// hole of zeros, then a record) is an error naming the file, line 1 and
// the limit. The reader holds the line up to the limit, 512 MiB.
func TestResultsLogLineBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 512 MiB")
	}
	dir := t.TempDir()
	log := sealedLog(t, dir, `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`)
	path := filepath.Join(dir, ResultsFile)
	sparseFile(t, path, MaxRecordLine+1, "\n"+log)
	_, _, err := ReadRecords(dir)
	wantBoundError(t, "results.jsonl", err, path+":1:", "512MiB")
}

func TestRerunLineBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, RerunFile)
	sparseFile(t, path, maxRerunLine+1, "\n")
	_, err := ReadReruns(&State{}, dir)
	wantBoundError(t, "rerun.jsonl", err, path+":1:", "16MiB")
}
