//go:build unix

package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestStoreTextFilesBounded: a signature's reports.txt or signature.txt
// that is a named pipe is refused naming it, never waited on, and one
// past its limit is refused naming it and the limit, unread.
func TestStoreTextFilesBounded(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	const sig = "exec:trace-mismatch"
	add := func(st *Store) error {
		done := make(chan error, 1)
		go func() { _, err := st.Add(Finding{Signature: sig, Graph: g, Origin: "test"}); done <- err }()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Add waits on a store's file")
			return nil
		}
	}
	for _, name := range []string{"reports.txt", "signature.txt"} {
		st := &Store{Dir: t.TempDir()}
		path := filepath.Join(st.SignatureDir(sig), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("no named pipe: %v", err)
		}
		want := path + ": not a regular file but a named pipe"
		if err := add(st); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s a named pipe: Add's error %v, want %q", name, err, want)
		}
	}
	st := &Store{Dir: t.TempDir()}
	path := filepath.Join(st.SignatureDir(sig), "reports.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxReportsFile + 1); err != nil { // a hole: no disk
		t.Fatal(err)
	}
	f.Close()
	want := path + ": more than 256MiB, the limit of a reports.txt"
	if err := add(st); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a reports.txt past its limit: Add's error %v, want %q", err, want)
	}
}
