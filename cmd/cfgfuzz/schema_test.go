// schema_test.go: the real outputs, a small campaign's report.json and
// results.jsonl lines, check --json lines and lint --json lines, validate
// against the JSON Schemas their "schema" fields name (fuzz/schema), and a
// document that breaks its schema does not.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
)

func validateLines(t *testing.T, what, text, wantSchema string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if !strings.Contains(line, `"schema":"`+wantSchema+`"`) {
			t.Errorf("%s line without \"schema\":%q: %.200s", what, wantSchema, line)
		}
		if err := schema.Validate([]byte(line)); err != nil {
			t.Errorf("%s line does not validate: %v\n%.400s", what, err, line)
		}
		n++
	}
	return n
}

// TestOutputsMatchTheirSchemas: a guided campaign's report.json and
// results.jsonl, check --json and lint --json validate against their
// schemas.
func TestOutputsMatchTheirSchemas(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "camp")
	code, out, stderr := runCmd([]string{"run", "--graphs", "30", "--inject", "swap-arms", "--mutate", "0.5", "--out", dir, "--progress", "none", "--minimize=false"}, "")
	if code != exitFail {
		t.Fatalf("run: exit %d, want 1 (new findings under swap-arms)\n%s%s", code, out, stderr)
	}
	rep, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(rep); err != nil {
		t.Errorf("report.json does not validate: %v", err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := validateLines(t, "results.jsonl", string(log), "cfgfuzz-record/v1"); n != 30 {
		t.Errorf("results.jsonl: %d lines, want 30", n)
	}
	// A comparison's log: both sides, and their modules kept for the
	// first divergent graphs.
	cmp := filepath.Join(t.TempDir(), "cmp")
	code, out, stderr = runCmd([]string{"compare", "--baseline-structurizer", "self", "--current", "self", "--inject", "swap-arms", "--graphs", "30",
		"--out", cmp, "--progress", "none", "--minimize=false"}, "")
	if code != exitFail {
		t.Fatalf("compare: exit %d, want 1 (newly invalid under swap-arms)\n%s%s", code, out, stderr)
	}
	log, err = os.ReadFile(filepath.Join(cmp, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"module":"`) {
		t.Errorf("the comparison's log keeps no module: the test checks none")
	}
	validateLines(t, "compare's results.jsonl", string(log), "cfgfuzz-record/v1")

	g := filepath.Join(t.TempDir(), "g.cfg")
	os.WriteFile(g, []byte("{{1, 2}, {3}, {3}, {}}\n{{1}, {2, 1}, {}}\n"), 0o644)
	code, out, stderr = runCmd([]string{"check", "--json", "--inject", "drop-merge", g}, "")
	if code == exitUsage {
		t.Fatalf("check --json: exit %d\n%s", code, stderr)
	}
	if n := validateLines(t, "check --json", out, "cfgfuzz-check/v1"); n != 2 {
		t.Errorf("check --json: %d lines, want 2", n)
	}

	_, broken, garbage := lintFiles(t)
	code, out, stderr = runCmd([]string{"lint", "--json", broken, garbage}, "")
	if code != exitUsage {
		t.Errorf("lint --json of a broken and an unreadable file: exit %d, want 2\n%s", code, stderr)
	}
	if n := validateLines(t, "lint --json", out, "cfgfuzz-lint/v1"); n != 2 {
		t.Errorf("lint --json: %d lines, want 2", n)
	}

	// The schemas refuse what they should: a report without provenance,
	// a record with an unknown outcome, a document naming no schema.
	var doc map[string]any
	json.Unmarshal(rep, &doc)
	delete(doc, "provenance")
	bad, _ := json.Marshal(doc)
	if schema.Validate(bad) == nil {
		t.Error("a report.json without provenance validates")
	}
	first, _, _ := bytes.Cut(log, []byte("\n"))
	badRec := bytes.Replace(first, []byte(`"outcome":"`), []byte(`"outcome":"bogus-`), 1)
	if schema.Validate(badRec) == nil {
		t.Errorf("a record with an unknown outcome validates: %.200s", badRec)
	}
	if schema.Validate([]byte(`{"file":"x","violations":[]}`)) == nil {
		t.Error("a document with no schema field validates")
	}
}
