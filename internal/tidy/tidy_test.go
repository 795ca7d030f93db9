package tidy

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFreezeAndClean: Freeze waits for a Commit renaming its files and
// keeps a later one from renaming; Clean removes the temporaries, the
// directories MkdirFor made for a file not put into place (with what was
// written in them; not one that was there already), and the locks that
// still hold what this process wrote, not one another process wrote since. The package's state is the process's: one test holds it.
func TestFreezeAndClean(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	write := func(name, text string) {
		if err := os.WriteFile(p(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(name string) bool { _, err := os.Stat(p(name)); return err == nil }

	for _, name := range []string{"a.tmp", "b.tmp"} {
		f, err := Create(p(name))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// Directories for the files of a, which is put into place, and of b,
	// which is not.
	for _, d := range []struct{ path, target string }{{"pics-a", "a"}, {"pics-b/deeper", "b"}, {"old/new", "b"}, {"old", "b"}} {
		if d.path == "old/new" {
			if err := os.Mkdir(p("old"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := MkdirFor(p(d.path), p(d.target)); err != nil {
			t.Fatal(err)
		}
	}
	write("pics-a/x.dot", "digraph{}")
	write("pics-b/deeper/x.dot", "digraph{}")
	write("old/kept", "")
	Hold(p("mine"), []byte("1 host\n"))
	write("mine", "1 host\n")
	Hold(p("taken"), []byte("1 host\n"))
	write("taken", "2 host\n") // removed by hand and taken by another process

	// A Commit whose renames are in progress when Freeze is called.
	renaming, release := make(chan struct{}), make(chan struct{})
	committed := make(chan error, 1)
	go func() {
		committed <- Commit([]string{p("a.tmp")}, []string{p("a")}, func() error {
			close(renaming)
			<-release
			return os.Rename(p("a.tmp"), p("a"))
		})
	}()
	<-renaming
	frozen := make(chan struct{})
	go func() { Freeze(); close(frozen) }()
	select {
	case <-frozen:
		t.Fatal("Freeze returned while a Commit was renaming")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-frozen
	if err := <-committed; err != nil || !Replaced(p("a")) || !exists("a") {
		t.Fatalf("the Commit in progress: %v, replaced %v", err, Replaced(p("a")))
	}

	// A temporary written before Freeze whose Commit comes after it.
	go Commit([]string{p("b.tmp")}, []string{p("b")}, func() error { return os.Rename(p("b.tmp"), p("b")) })
	time.Sleep(100 * time.Millisecond)
	if Replaced(p("b")) || exists("b") {
		t.Fatal("a Commit after Freeze renamed")
	}

	Clean()
	for name, want := range map[string]bool{"a": true, "b.tmp": false, "b": false, "mine": false, "taken": true,
		"pics-a/x.dot": true, "pics-b": false, "old/kept": true, "old/new": false} {
		if exists(name) != want {
			t.Errorf("%s there: %v, want %v", name, !want, want)
		}
	}
}

// TestReleaseLeavesATakenLock: Release removes a lock that holds what
// Hold recorded and leaves one another process has written since (a
// takeover); Unhold leaves the lock and forgets it.
func TestReleaseLeavesATakenLock(t *testing.T) {
	dir := t.TempDir()
	mine, taken, dropped := filepath.Join(dir, "mine"), filepath.Join(dir, "taken"), filepath.Join(dir, "dropped")
	for _, p := range []string{mine, taken, dropped} {
		Hold(p, []byte("1 host\n"))
		if err := os.WriteFile(p, []byte("1 host\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(taken, []byte("2 other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Release(mine)
	Release(taken)
	Unhold(dropped)
	Release(dropped) // forgotten: nothing to release
	if _, err := os.Stat(mine); !os.IsNotExist(err) {
		t.Errorf("this process's lock after Release: %v, want it removed", err)
	}
	if b, err := os.ReadFile(taken); err != nil || string(b) != "2 other\n" {
		t.Errorf("another process's lock after Release: %q, %v, want it kept", b, err)
	}
	if _, err := os.Stat(dropped); err != nil {
		t.Errorf("the lock after Unhold: %v, want it kept", err)
	}
}
