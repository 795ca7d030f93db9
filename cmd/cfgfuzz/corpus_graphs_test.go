// corpus_graphs_test.go: graph files where a guided campaign wants its
// corpus directory (a directory of .cfg files, a file as --corpus).
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestCorpusOfGraphFiles: a --corpus directory that holds graph files but
// no entries.jsonl gets a note on stderr that they are not read and how
// to seed the corpus; the entry line the note shows is read as a corpus
// entry; a graph file given as --corpus is an error naming what --corpus
// wants, before any graph is judged.
func TestCorpusOfGraphFiles(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "graphs")
	graph := "entry: br head  # a loop\nhead [w=3]: if body exit\nbody: br head\nexit: ret\n"
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "loop.cfg"), []byte(graph), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(c, out string) []string {
		return []string{"run", "--graphs", "8", "--workers", "1", "--mutate", "0.5", "--corpus", c, "--progress", "none", "--minimize=false", "--out", filepath.Join(dir, out)}
	}
	code, _, errs := runCmd(args(corpus, "out1"), "")
	if code != exitOK || !strings.Contains(errs, "cfgfuzz: note: corpus "+corpus+" holds 1 .cfg file but no entries.jsonl: a corpus is its entries.jsonl alone, so they are not read") {
		t.Errorf("a directory of graph files: exit %d, stderr:\n%s", code, errs)
	}

	// The entry the note shows, {"graph": TEXT}, seeds a corpus.
	seeded := filepath.Join(dir, "seeded")
	os.MkdirAll(seeded, 0o755)
	if err := os.WriteFile(filepath.Join(seeded, fuzz.CorpusFile), []byte(`{"graph":"entry: br head  # a loop\nhead [w=3]: if body exit\nbody: br head\nexit: ret\n"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := fuzz.LoadCorpus(seeded); err != nil || len(c.Entries) != 1 || c.Entries[0].Graph != graph {
		t.Fatalf("the seeded corpus: %v, %+v", err, c)
	}
	code, _, errs = runCmd(args(seeded, "out2"), "")
	if code != exitOK || strings.Contains(errs, "note: corpus") {
		t.Errorf("a seeded corpus: exit %d, stderr:\n%s", code, errs)
	}

	file := filepath.Join(corpus, "loop.cfg")
	code, _, errs = runCmd(args(file, "out3"), "")
	want := "cfgfuzz run: --corpus " + file + ": not a directory: --corpus names the directory of a guided campaign's corpus"
	if code != exitUsage || !strings.HasPrefix(errs, want) || strings.Contains(errs, "entries.jsonl: not a directory") {
		t.Errorf("a graph file as --corpus: exit %d, stderr:\n%s\nwant it to start %q", code, errs, want)
	}
}
