// state_damage_test.go: a state directory survives what happens to it
// between nights (state_test.go has the interrupted night): a night whose
// state directory another campaign committed to meanwhile does not
// overwrite that campaign's update, and an empty findings.json is an
// error, not an empty store.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateChangedMeanwhileNotOverwritten: two nights read the same state
// directory; the first commits its update, and the second, finishing
// later, refuses to overwrite it and says where its own update is.
func TestStateChangedMeanwhileNotOverwritten(t *testing.T) {
	state := t.TempDir()
	a, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	ca := testConfig(t, 40)
	ca.Seed, ca.State, ca.Night, ca.Inject = 1, a, "2026-03-01", []string{"swap-arms"}
	mustRun(t, ca)
	committed, err := os.ReadFile(filepath.Join(state, StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	cb := testConfig(t, 40)
	cb.Seed, cb.State, cb.Night = 2, b, "2026-03-01"
	cb.Current = panicsOnFour()
	_, err = Run(cb)
	if err == nil || !strings.Contains(err.Error(), "changed since") || !strings.Contains(err.Error(), filepath.Join(cb.Dir, StateUpdateDir)) {
		t.Errorf("second night on a state another night committed to: %v, want an error naming the change and OUT/state", err)
	}
	now, err := os.ReadFile(filepath.Join(state, StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(now) != string(committed) {
		t.Errorf("the second night overwrote the first night's state")
	}
	if _, err := os.Stat(filepath.Join(cb.Dir, StateUpdateDir, StateFindingsFile)); err != nil {
		t.Errorf("the second night's update is not in OUT/state: %v", err)
	}
}

// TestEmptyStoreFileRefused: a findings.json of no bytes (a write torn by
// a crash or a full disk) is an error naming the file, not a store
// without signatures whose update would then forget them all.
func TestEmptyStoreFileRefused(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, StateFindingsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadState(state)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(state, StateFindingsFile)) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty findings.json: %v, want an error naming the file and saying it is empty", err)
	}
}
