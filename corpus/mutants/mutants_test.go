// mutants_test.go holds the table to the tree: every mutant's snippet
// occurs exactly once in the current code (no campaign runs), and the
// results log reader agrees with fuzz.Record's JSON form.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestEverySnippetOccursOnce(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := parseTable("mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	live := 0
	for _, m := range ms {
		if m.Equivalent == "" {
			live++
		}
		if strings.HasPrefix(m.File, "structurizer/faults.go") {
			t.Errorf("mutant %s edits the planted faults", m.Name)
		}
	}
	if live < 24 {
		t.Errorf("%d mutants that are not marked equivalent, want at least 24", live)
	}
	if err := checkSnippets(root, ms); err != nil {
		t.Error(err)
	}
}

func TestMutateDemandsExactlyOneOccurrence(t *testing.T) {
	m := Mutant{Name: "m", File: "f.go", Old: "a < b", New: "a <= b"}
	if got, err := m.mutate("x := a < b"); err != nil || got != "x := a <= b" {
		t.Errorf("one occurrence: %q, %v", got, err)
	}
	if _, err := m.mutate("x := a > b"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("no occurrence: %v, want not found", err)
	}
	if _, err := m.mutate("a < b; a < b"); err == nil || !strings.Contains(err.Error(), "2 times") {
		t.Errorf("two occurrences: %v, want found 2 times", err)
	}
}

func TestParseTableRejectsBadTables(t *testing.T) {
	for name, text := range map[string]string{
		"unclosed":  "== m\nfile: f\nwhat: w\n--- old\nx\n",
		"no file":   "== m\nwhat: w\n--- old\nx\n--- new\ny\n--- end\n",
		"same":      "== m\nfile: f\nwhat: w\n--- old\nx\n--- new\nx\n--- end\n",
		"duplicate": "== m\nfile: f\nwhat: w\n--- old\nx\n--- new\ny\n--- end\n== m\nfile: f\nwhat: w\n--- old\nz\n--- new\ny\n--- end\n",
		"stray":     "== m\nfile: f\nbogus\n",
	} {
		p := filepath.Join(t.TempDir(), "t.txt")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parseTable(p); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

// TestParseTableReadsFlags: a mutant's flags: line gives the flags its
// campaign adds, after the measurement's own, which it leaves as they are.
func TestParseTableReadsFlags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.txt")
	text := "== m\nfile: f\nwhat: w\nflags: --registers 5\n--- old\nx\n--- new\ny\n--- end\n== n\nfile: f\nwhat: w\n--- old\nx\n--- new\nz\n--- end\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := parseTable(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ms[0].Flags, " "); got != "--registers 5" || ms[1].Flags != nil {
		t.Errorf("flags %q and %q, want \"--registers 5\" and none", got, ms[1].Flags)
	}
	base := Settings{Extra: make([]string, 1, 4)}
	base.Extra[0] = "--blocks=48-400"
	s := withFlags(base, ms[0].Flags)
	if got := strings.Join(s.Extra, " "); got != "--blocks=48-400 --registers 5" {
		t.Errorf("campaign flags %q, want the measurement's then the mutant's", got)
	}
	if _ = append(base.Extra, "--seed"); s.Extra[1] != "--registers" {
		t.Errorf("the mutant's flags share the measurement's array: %q", s.Extra)
	}
}

// TestReadResultsReadsFuzzRecords writes records as package fuzz encodes
// them and reads them back: failures by outcome, the first failing index
// in index order (not log order), signatures, fallbacks, a torn last line.
func TestReadResultsReadsFuzzRecords(t *testing.T) {
	recs := []fuzz.Record{
		{Index: 2, Current: fuzz.SideResult{Outcome: fuzz.OutOK, Fallbacks: 1}},
		{Index: 7, Current: fuzz.SideResult{Outcome: fuzz.OutInvalid, Signature: "exec:trace-mismatch"}},
		{Index: 0, Current: fuzz.SideResult{Outcome: fuzz.OutOK}},
		{Index: 5, Current: fuzz.SideResult{Outcome: fuzz.OutPanic, Signature: "structurize:panic:x"}},
		{Index: 1, Current: fuzz.SideResult{Outcome: fuzz.OutRefused}},
	}
	var b strings.Builder
	for _, r := range recs {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	b.WriteString(`{"i":9,"cur":{"outc`) // torn
	p := filepath.Join(t.TempDir(), "results.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Result{First: -1}
	if err := readResults(p, &r); err != nil {
		t.Fatal(err)
	}
	if r.Graphs != 5 || r.Failing != 2 || r.First != 5 || r.Fallbacks != 1 ||
		r.Signatures["exec:trace-mismatch"] != 1 || r.Signatures["structurize:panic:x"] != 1 {
		t.Errorf("read %+v", r)
	}
	if got := verdict(&r, 5, ""); got != StKilled {
		t.Errorf("verdict %s, want killed", got)
	}
	clean := Result{First: -1, Graphs: 5}
	if got := verdict(&clean, 5, ""); got != StSurvived {
		t.Errorf("clean verdict %s, want survived", got)
	}
	short := Result{First: -1, Graphs: 4}
	if got := verdict(&short, 5, ""); got != StError {
		t.Errorf("short log verdict %s, want error", got)
	}
	for _, out := range fuzz.Outcomes {
		want := out == fuzz.OutInvalid || out == fuzz.OutPanic || out == fuzz.OutTimeout || out == fuzz.OutCrash
		if failing(out) != want {
			t.Errorf("failing(%q) = %v", out, failing(out))
		}
	}
}

// TestCopyTreeLeavesOutGit copies files, directories and links, and no
// .git (a directory, or a worktree's file).
func TestCopyTreeLeavesOutGit(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	for p, text := range map[string]string{"a.go": "package a", "sub/b.go": "package b", ".git/HEAD": "ref", "sub/.git": "gitdir: x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(src, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.go", "sub/b.go", "link.go"} {
		if b, err := os.ReadFile(filepath.Join(dst, p)); err != nil || len(b) == 0 {
			t.Errorf("%s not copied: %v", p, err)
		}
	}
	for _, p := range []string{".git", "sub/.git"} {
		if _, err := os.Lstat(filepath.Join(dst, p)); err == nil {
			t.Errorf("%s copied", p)
		}
	}
}

// TestCutCampaignIsNeverASurvivor: a campaign stopped at the limit with no
// finding is an error, not a survivor (a hanging mutant must not pass).
func TestCutCampaignIsNeverASurvivor(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "cfgfuzz")
	// A fake cfgfuzz that writes one record and hangs.
	script := "#!/bin/sh\nwhile [ \"$1\" != --out ]; do shift; done; mkdir -p \"$2\"\n" +
		"echo '{\"i\":0,\"cur\":{\"outcome\":\"ok\"}}' > \"$2/results.jsonl\"\nsleep 30\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Settings{Graphs: 10, Seed: 1, Workers: 1, Limit: 300 * time.Millisecond}
	out := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	_, _, cut := campaign(bin, out, s)
	if cut == nil {
		t.Fatal("campaign not cut at the limit")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cut took %v: the process group was not killed", d)
	}
	r := Result{First: -1}
	if err := readResults(filepath.Join(out, "results.jsonl"), &r); err != nil || r.Graphs != 1 {
		t.Fatalf("partial log: %+v, %v", r, err)
	}
	judge(&r, &Mutant{Name: "m"}, s.Graphs, "", cut)
	if r.Status != StError {
		t.Errorf("cut campaign without a finding: %s, want error", r.Status)
	}
	found := Result{First: 3, Failing: 1, Graphs: 4, Exit: -1}
	if judge(&found, &Mutant{Name: "m"}, s.Graphs, "", cut); found.Status != StKilled {
		t.Errorf("cut campaign with a finding: %s, want killed", found.Status)
	}
	eq := Result{First: -1, Graphs: 10}
	if judge(&eq, &Mutant{Name: "m", Equivalent: "why"}, 10, "", nil); eq.Status != StEquivalent {
		t.Errorf("clean campaign of an equivalent mutant: %s, want equivalent", eq.Status)
	}
}
