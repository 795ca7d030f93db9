// state_damage_test.go: a state directory survives what happens to it
// between and during nights: an empty findings.json is an error, not an
// empty store.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
