//go:build unix

// bounded_unix_test.go: a campaign file or log that is a named pipe is
// refused by a merge (and a resume) naming it, not opened: the open would
// wait for a writer for ever.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCampaignFilesNotRegularRefused: a campaign file or log that is a
// named pipe is refused naming it, never opened (the open would wait for
// a writer for ever).
func TestCampaignFilesNotRegularRefused(t *testing.T) {
	for _, name := range []string{CampaignFile, ResultsFile, "report.json"} {
		dir := t.TempDir()
		sealedLog(t, dir, `{"i":0,"s":0,"seed":1,"graph":"{{}}","cur":{"outcome":"ok"}}`)
		path := filepath.Join(dir, name)
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("no named pipe: %v", err)
		}
		done := make(chan error, 1)
		go func() { _, err := Merge([]string{dir}); done <- err }()
		select {
		case err := <-done:
			if want := path + ": not a regular file but a named pipe"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s a named pipe: err %v, want %q", name, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s a named pipe: the merge waits on it", name)
		}
	}
}

// TestCorpusFileNotRegularRefused: a guided campaign's corpus file that is
// a named pipe is refused naming it, not waited on; a missing one is an
// empty corpus.
func TestCorpusFileNotRegularRefused(t *testing.T) {
	dir := t.TempDir()
	if c, err := LoadCorpus(dir); err != nil || len(c.Entries) != 0 {
		t.Fatalf("no corpus file: %v, %d entries; want an empty corpus", err, len(c.Entries))
	}
	path := filepath.Join(dir, CorpusFile)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadCorpus(dir); done <- err }()
	select {
	case err := <-done:
		if want := path + ": not a regular file but a named pipe"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a corpus file that is a named pipe: err %v, want %q", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadCorpus waits on a named pipe")
	}
}

// TestStateTextFilesNotRegularRefused: a triage file that is a named pipe
// is refused by ReadTriage naming it, never waited on, and one past
// MaxTriageFile naming the limit; a state whose seen.bloom became a named
// pipe after it was read is refused by its commit, not waited on.
func TestStateTextFilesNotRegularRefused(t *testing.T) {
	within := func(what string, call func() error) error {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatalf("%s waits on a named pipe", what)
			return nil
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, StateTriageFile)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	want := path + ": not a regular file but a named pipe"
	if err := within("ReadTriage", func() error { _, err := ReadTriage(path); return err }); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadTriage of a named pipe: err %v, want %q", err, want)
	}
	os.Remove(path)
	sparseFile(t, path, MaxTriageFile+1, "\n")
	if _, err := ReadTriage(path); err == nil || !strings.Contains(err.Error(), path+": more than 64MiB, the limit of a triage.txt") {
		t.Errorf("ReadTriage of a file past its limit: err %v", err)
	}

	dir = t.TempDir()
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, StateSeenFile)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	want = path + ": not a regular file but a named pipe"
	if err := within("CommitState", func() error { return CommitState(st, StateUpdate{}, nil) }); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("CommitState with a seen.bloom that is a named pipe: err %v, want %q", err, want)
	}
}
