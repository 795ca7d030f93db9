// store_test.go: the findings store deduplicates by signature and graph,
// counts every graph reported once, keeps at most Cap entries per signature, and writes
// every file of an entry: the modules' disassemblies, and the pictures
// (well-formed SVG, a Graphviz file beside each).
package corpus

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// moduleOf is the in-process structurizer's module of g.
func moduleOf(t *testing.T, g *cfg.Graph) []byte {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

func TestStoreDedupAndCap(t *testing.T) {
	st := &Store{Dir: t.TempDir(), Cap: 2}
	g := func(s string) *cfg.Graph {
		h, err := cfg.ParseCompact(s, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	adds := []struct {
		sig, graph string
		new, kept  bool
	}{
		{"exec:trace-mismatch", "{{1, 2}, {}, {}}", true, true},
		{"exec:trace-mismatch", "{{1, 2}, {}, {}}", false, false}, // same graph
		{"exec:trace-mismatch", "{{1, 0}, {}}", false, true},
		{"exec:trace-mismatch", "{{0, 1}, {}}", false, false}, // over the cap
		{"rules:R12", "{{1, 1}, {}}", true, true},
	}
	for i, a := range adds {
		got, err := st.Add(Finding{Signature: a.sig, Graph: g(a.graph), Minimized: g("{{1}, {}}"), Module: moduleOf(t, g(a.graph)), Origin: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if got.New != a.new || got.Kept != a.kept {
			t.Errorf("add %d (%s %s): new %v kept %v, want %v %v", i, a.sig, a.graph, got.New, got.Kept, a.new, a.kept)
		}
	}
	sigs, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(sigs) != 2 || sigs[0].Signature != "exec:trace-mismatch" || sigs[0].Reports != 3 || len(sigs[0].Entries) != 2 {
		t.Fatalf("List: %+v", sigs)
	}
	for _, f := range []string{"graph.cfg", "min.cfg", "verdict.json", "module.spv", "module.spvasm",
		"before.svg", "before.dot", "after.svg", "after.dot", "min.svg", "min.dot"} {
		if _, err := os.Stat(filepath.Join(sigs[0].Entries[0], f)); err != nil {
			t.Error(err)
		}
	}
	if asm := string(mustRead(t, filepath.Join(sigs[0].Entries[0], "module.spvasm"))); !strings.Contains(asm, "OpFunction") {
		t.Errorf("module.spvasm is no disassembly:\n%s", asm)
	}
	if dot := string(mustRead(t, filepath.Join(sigs[0].Entries[0], "after.dot"))); !strings.Contains(dot, "digraph") || !strings.Contains(dot, "style=dashed") {
		t.Errorf("after.dot has no merge declaration:\n%s", dot)
	}
	items, err := cfg.Parse("graph.cfg", mustRead(t, filepath.Join(sigs[1].Entries[0], "graph.cfg")), cfg.Limits{})
	if err != nil || len(items) != 1 || cfg.FormatCompact(items[0].Graph) != "{{1, 1}, {}}" {
		t.Errorf("graph.cfg reads back as %v, %v", items, err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStoredPicturesAreWellFormed(t *testing.T) {
	st := &Store{Dir: t.TempDir()}
	for seed := range uint64(20) {
		g := randomGraph(seed, 2+int(seed)*3)
		g.Names = make([]string, g.Len())
		g.Names[0] = `a<b&"c"`
		a, err := st.Add(Finding{Signature: "t<1>", Graph: g, Minimized: g, Origin: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Kept {
			continue
		}
		for _, name := range []string{"before.svg", "min.svg"} {
			s := string(mustRead(t, filepath.Join(a.Dir, name)))
			d := xml.NewDecoder(strings.NewReader(s))
			for {
				_, err := d.Token()
				if err != nil {
					if err.Error() != "EOF" {
						t.Fatalf("seed %d %s: %v\n%s", seed, name, err, s)
					}
					break
				}
			}
		}
	}
}

// TestStoreIdempotentPerGraph replays what a campaign killed during
// minimization and resumed does: the same findings are added again, and a
// killed writer left a half-written entry. The count stays at the number of
// distinct graphs, and the entry is written whole.
func TestStoreIdempotentPerGraph(t *testing.T) {
	st := &Store{Dir: t.TempDir()}
	graphs := []string{"{{1, 2}, {}, {}}", "{{1, 0}, {}}", "{{0, 1}, {}}"}
	add := func(s string) Added {
		g, err := cfg.ParseCompact(s, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := st.Add(Finding{Signature: "exec:trace-mismatch", Graph: g, Module: []byte{1, 2, 3, 4}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	first := add(graphs[0])
	// A writer killed inside the second entry: a partial temporary directory.
	g1, _ := cfg.ParseCompact(graphs[1], cfg.Limits{})
	partial := filepath.Join(st.SignatureDir("exec:trace-mismatch"), entryHash(Finding{Graph: g1})) + ".tmp"
	if err := os.MkdirAll(partial, 0o755); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the run, then the resumed run
		for _, s := range graphs {
			add(s)
		}
	}
	sigs, err := st.List()
	if err != nil || len(sigs) != 1 {
		t.Fatalf("List: %+v, %v", sigs, err)
	}
	if sigs[0].Reports != len(graphs) || len(sigs[0].Entries) != len(graphs) {
		t.Errorf("after re-adding: %d reports, %d entries; want %d and %d", sigs[0].Reports, len(sigs[0].Entries), len(graphs), len(graphs))
	}
	if b := mustRead(t, filepath.Join(sigs[0].Dir, "count.txt")); strings.TrimSpace(string(b)) != "3" {
		t.Errorf("count.txt = %q, want 3", b)
	}
	for _, e := range sigs[0].Entries {
		if _, err := os.Stat(filepath.Join(e, "verdict.json")); err != nil {
			t.Errorf("entry %s is not whole: %v", e, err)
		}
	}
	if _, err := os.Stat(partial); err == nil {
		t.Errorf("the partial entry %s is still there", partial)
	}
	if !first.New {
		t.Errorf("the first add did not report a new signature")
	}
}

// TestReplaceFile: the new contents replace the old, no temporary file is
// left, and a write that cannot happen leaves the old file as it was.
func TestReplaceFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "findings.json")
	for _, want := range []string{"one\n", "two\n"} {
		if err := ReplaceFile(p, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(p); err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if err := os.Mkdir(p+".tmp", 0o755); err != nil { // the temporary file cannot be written
		t.Fatal(err)
	}
	if err := ReplaceFile(p, []byte("three\n")); err == nil {
		t.Error("a write whose temporary file cannot be made succeeded")
	}
	if got, _ := os.ReadFile(p); string(got) != "two\n" {
		t.Errorf("a failed write left %q, want the old contents", got)
	}
	os.Remove(p + ".tmp")
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left %d files, want the one", len(ents))
	}
}

// TestReplaceFilesAllOrNone: files replaced together are all replaced, and
// when one of them cannot be written (a full disk on the second) none is:
// the first keeps its old contents and no temporary file is left.
func TestReplaceFilesAllOrNone(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "findings.json"), filepath.Join(dir, "seen.bloom")
	if err := ReplaceFiles([]string{a, b}, [][]byte{[]byte("a1\n"), []byte("b1\n")}); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(b+".tmp", 0o755); err != nil { // the second temporary file cannot be written
		t.Fatal(err)
	}
	if err := ReplaceFiles([]string{a, b}, [][]byte{[]byte("a2\n"), []byte("b2\n")}); err == nil || !strings.Contains(err.Error(), b+".tmp") {
		t.Errorf("a replacement whose second file cannot be written: %v, want an error naming %s", err, b+".tmp")
	}
	for p, want := range map[string]string{a: "a1\n", b: "b1\n"} {
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("a failed replacement left %s as %q, want the old %q", filepath.Base(p), got, want)
		}
	}
	if _, err := os.Stat(a + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("a failed replacement left %s.tmp: %v", filepath.Base(a), err)
	}
	os.Remove(b + ".tmp")
	if err := ReplaceFiles([]string{a, b}, [][]byte{[]byte("a3\n"), []byte("b3\n")}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{a: "a3\n", b: "b3\n"} {
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("%s holds %q, want %q", filepath.Base(p), got, want)
		}
	}
}

// TestSignatureNameWholeOrNone: a signature's name that cannot be written
// (a full disk) leaves no signature.txt, never an empty one that the
// store's listing would read as a signature of no name.
func TestSignatureNameWholeOrNone(t *testing.T) {
	st := &Store{Dir: t.TempDir()}
	sig := "exec:trace-mismatch"
	block := filepath.Join(st.SignatureDir(sig), "signature.txt.tmp")
	if err := os.MkdirAll(block, 0o755); err != nil { // signature.txt cannot be written
		t.Fatal(err)
	}
	g := randomGraph(1, 5)
	if _, err := st.Add(Finding{Signature: sig, Graph: g, Origin: "test"}); err == nil || !strings.Contains(err.Error(), block) {
		t.Errorf("a finding whose signature.txt cannot be written: %v, want an error naming %s", err, block)
	}
	if _, err := os.Stat(filepath.Join(st.SignatureDir(sig), "signature.txt")); !os.IsNotExist(err) {
		t.Errorf("the failed write left signature.txt (%v)", err)
	}
	os.Remove(block)
	if _, err := st.Add(Finding{Signature: sig, Graph: g, Origin: "test"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(st.SignatureDir(sig), "signature.txt")); string(b) != sig+"\n" {
		t.Errorf("signature.txt holds %q", b)
	}
}
