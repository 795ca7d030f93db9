// stateformat_test.go checks how findings.json's format is versioned
// (stateformat.go): a store written before format revisions were counted
// reads and is written back in this cfgfuzz's revision; one of a later
// revision of the same format reads past the keys this cfgfuzz does not
// know, says so, and a night's update leaves them out; an unknown key in
// a store of this revision or an earlier one, a newer format and a file
// cut short are errors naming the file and what to do, and leave it as it
// was.
package fuzz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeBeforeRevisions is findings.json as a cfgfuzz writes it whose
// format has no revisions yet: no format_minor.
const storeBeforeRevisions = `{
  "schema": "cfgfuzz-state/v1",
  "night": "2026-11-30",
  "signatures": [
    {
      "signature": "exec:trace-mismatch",
      "outcome": "invalid",
      "first_seen": "2026-11-28",
      "last_seen": "2026-11-30",
      "first_revision": "",
      "revision": "",
      "minimized": "{{0, 1}, {}}",
      "graphs": [
        {
          "graph": "{{1, 2}, {3}, {3}, {}}",
          "stream": {"kind": "random", "weights": "w0"},
          "seed": 1
        }
      ]
    }
  ],
  "exhaustive_next": 42
}
`

// storeOfLaterRevision is storeBeforeRevisions as a newer cfgfuzz might
// write it, in revision 2 of the format, with keys this one does not know
// at the top, in an entry and in a kept graph.
var storeOfLaterRevision = strings.NewReplacer(
	`"schema": "cfgfuzz-state/v1",`, `"schema": "cfgfuzz-state/v1", "format_minor": 2, "bisect_cache": {"abc": 1},`,
	`"outcome": "invalid",`, `"outcome": "invalid", "first_bisected": "2026-11-29",`,
	`"seed": 1`, `"seed": 1, "origin": "mutant"`,
).Replace(storeBeforeRevisions)

// stateWith is a state directory whose findings.json is text.
func stateWith(t *testing.T, text string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, StateFindingsFile)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// nightWritesOwnRevision runs a night on dir and checks that it committed
// a findings.json of this cfgfuzz's revision, without the keys given,
// that reads back without a note.
func nightWritesOwnRevision(t *testing.T, dir, path string, gone ...string) {
	t.Helper()
	night(t, dir, "2026-12-01", 1, 20, nil)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"format_minor": 1,`) || !strings.Contains(string(b), `"exec:trace-mismatch"`) {
		t.Errorf("the night's store is not of revision 1, or lost the stored signature:\n%s", b)
	}
	for _, k := range gone {
		if strings.Contains(string(b), k) {
			t.Errorf("the night's store keeps %s, a key this cfgfuzz does not know:\n%s", k, b)
		}
	}
	st, err := LoadState(dir)
	if err != nil || st.Newer != "" {
		t.Errorf("the night's store read back: %v, note %q", err, st.Newer)
	}
}

func TestStateBeforeRevisionsReads(t *testing.T) {
	dir, path := stateWith(t, storeBeforeRevisions)
	st, err := LoadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Newer != "" || len(st.Store) != 1 || st.Store[0].Minimized != "{{0, 1}, {}}" || *st.ExhaustiveNext != 42 {
		t.Fatalf("read: note %q, store %+v", st.Newer, st.Store)
	}
	nightWritesOwnRevision(t, dir, path)
}

func TestStateOfLaterRevisionReadsPastNewKeys(t *testing.T) {
	dir, path := stateWith(t, storeOfLaterRevision)
	st, err := LoadState(dir)
	if err != nil {
		t.Fatalf("a store of a later revision of the format: %v", err)
	}
	if len(st.Store) != 1 || st.Store[0].Minimized != "{{0, 1}, {}}" || st.Store[0].Graphs[0].Seed != 1 {
		t.Errorf("the keys this cfgfuzz knows were not read: %+v", st.Store)
	}
	for _, want := range []string{
		path + " was written by a newer cfgfuzz (cfgfuzz-state/v1, format_minor 2; this cfgfuzz reads and writes cfgfuzz-state/v1, format_minor 1)",
		"(bisect_cache, signatures[].first_bisected, signatures[].graphs[].origin)",
		"leaves them out of the store",
	} {
		if !strings.Contains(st.Newer, want) {
			t.Errorf("the note does not say %q:\n%s", want, st.Newer)
		}
	}
	nightWritesOwnRevision(t, dir, path, "bisect_cache", "first_bisected", "origin")
}

// TestStateFormatRefusals: what a night cannot read is an error naming
// the file and what to do, and the file is left as it was.
func TestStateFormatRefusals(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"an unknown key of no revision", strings.Replace(storeBeforeRevisions, `"outcome"`, `"first_bisected": "x", "outcome"`, 1),
			[]string{`signatures[0] (exec:trace-mismatch): unknown key "first_bisected" (misspelt?`, "not a key of cfgfuzz-state/v1, format_minor 0, the revision of the format the store says it was written in", "correct the key or delete it"}},
		{"an unknown key of this revision", strings.Replace(storeOfLaterRevision, `"format_minor": 2`, `"format_minor": 1`, 1),
			[]string{`signatures[0] (exec:trace-mismatch): unknown key "first_bisected" (misspelt?`, "not a key of cfgfuzz-state/v1, format_minor 1,", "restore the file from the last night's OUT/state"}},
		{"a newer format", strings.Replace(storeBeforeRevisions, "cfgfuzz-state/v1", "cfgfuzz-state/v2", 1),
			[]string{`schema "cfgfuzz-state/v2": a newer state format than this cfgfuzz reads ("cfgfuzz-state/v1")`, "run the night with the cfgfuzz that wrote it or a newer one", "give another --state directory"}},
		{"a revision below 0", strings.Replace(storeOfLaterRevision, `"format_minor": 2`, `"format_minor": -1`, 1),
			[]string{"format_minor -1: not a revision of cfgfuzz-state/v1", "restore the file", "delete it to start the store afresh"}},
		{"a file cut short", storeBeforeRevisions[:200],
			[]string{"unexpected end of JSON input", "restore it, for example from the last night's OUT/state, or delete it to start the store afresh"}},
	} {
		dir, path := stateWith(t, c.text)
		_, err := LoadState(dir)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, path)
			continue
		}
		for _, want := range c.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v\ndoes not say %q", c.name, err, want)
			}
		}
		if b, _ := os.ReadFile(path); string(b) != c.text {
			t.Errorf("%s: findings.json changed", c.name)
		}
	}
}
