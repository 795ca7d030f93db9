// state_torn_test.go: a commit a kill cut between its two renames
// (findings.json the new night's, seen.bloom the old one's, the new
// filter left as seen.bloom.tmp) is read as the commit completed, in
// memory by a reader that does not write, on disk by one that commits; a
// seen.bloom that matches neither findings.json nor a .tmp is an error
// naming the files; a store that names no filter reads any.
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

func TestTornCommitRollsForward(t *testing.T) {
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 40, swap)
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(state, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(state, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldSeen := read(StateSeenFile)
	night(t, state, "2026-03-02", 2, 40, swap)
	newStore, newSeen := read(StateFindingsFile), read(StateSeenFile)
	if bytes.Equal(oldSeen, newSeen) {
		t.Fatal("the second night left the filter as it was")
	}
	whole, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	tmp := StateSeenFile + ".tmp"
	// Torn: the store renamed in, the filter not.
	write(tmp, newSeen)
	write(StateSeenFile, oldSeen)
	st, err := LoadState(state)
	if err != nil {
		t.Fatalf("the torn state: %v", err)
	}
	if !bytes.Equal(st.Seen.bytes(), newSeen) || st.Digest != whole.Digest {
		t.Errorf("the torn state reads its old filter (digest %s, the committed state's %s)", st.Digest, whole.Digest)
	}
	if !bytes.Equal(read(StateSeenFile), oldSeen) {
		t.Error("reading the torn state wrote it")
	}
	// A commit on the state read so goes through: the directory holds
	// the state it read.
	if err := CommitState(st, NextState(st, &Report{State: &StateReport{}}, nil), nil); err != nil {
		t.Errorf("a commit on the torn state read through %s: %v", tmp, err)
	}
	write(StateFindingsFile, newStore)
	write(tmp, newSeen)
	write(StateSeenFile, oldSeen)
	// A reader that commits renames the .tmp into place, taking over a
	// stale lock there (one naming this process, which did not take it)
	// and saying so.
	if st, err = LoadState(state); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	writeLock(t, state, fmt.Sprintf("%d %s\n", os.Getpid(), host), 0)
	var note strings.Builder
	if err := st.CheckWritable(&note); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note.String(), "cfgfuzz: took over "+filepath.Join(state, LockFile)) {
		t.Errorf("the roll forward's takeover of a stale lock says %q", note.String())
	}
	if !bytes.Equal(read(StateSeenFile), newSeen) {
		t.Error("CheckWritable did not rename seen.bloom.tmp into place")
	}
	if _, err := os.Stat(filepath.Join(state, tmp)); !os.IsNotExist(err) {
		t.Errorf("seen.bloom.tmp left after the roll forward: %v", err)
	}
	if again, err := LoadState(state); err != nil || again.Digest != whole.Digest {
		t.Errorf("the state rolled forward: %v, digest %s, want %s", err, again.Digest, whole.Digest)
	}
	// A filter that goes with neither: an error naming both files.
	for _, tmpSeen := range [][]byte{nil, oldSeen} {
		write(StateSeenFile, oldSeen)
		os.Remove(filepath.Join(state, tmp))
		if tmpSeen != nil {
			write(tmp, tmpSeen)
		}
		_, err := LoadState(state)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(state, StateSeenFile)+" does not go with "+StateFindingsFile) || !strings.Contains(err.Error(), "delete") {
			t.Errorf("a seen.bloom of another night (.tmp %v): %v, want an error naming both files and what to do", tmpSeen != nil, err)
		}
	}
	// A filter deleted to start afresh reads empty.
	os.Remove(filepath.Join(state, StateSeenFile))
	os.Remove(filepath.Join(state, tmp))
	if st, err := LoadState(state); err != nil || st.Seen.Count() != 0 {
		t.Errorf("a state whose seen.bloom was deleted: %v", err)
	}
	// A store written without seen_sha256 takes any filter.
	var f map[string]any
	if err := json.Unmarshal(newStore, &f); err != nil {
		t.Fatal(err)
	}
	if _, ok := f["seen_sha256"]; !ok {
		t.Fatalf("findings.json names no seen_sha256:\n%s", newStore)
	}
	delete(f, "seen_sha256")
	b, _ := json.Marshal(f)
	write(StateFindingsFile, b)
	write(StateSeenFile, oldSeen)
	if st, err := LoadState(state); err != nil || !bytes.Equal(st.Seen.bytes(), oldSeen) {
		t.Errorf("a store without seen_sha256: %v", err)
	}
	f["seen_sha256"] = "e3b0"
	b, _ = json.Marshal(f)
	write(StateFindingsFile, b)
	if _, err := LoadState(state); err == nil || !strings.Contains(err.Error(), `seen_sha256 "e3b0": want a SHA-256`) {
		t.Errorf("a store whose seen_sha256 is no SHA-256: %v", err)
	}
}
