// corpus.go defines the guided corpus: the graphs that made the
// structurizer show a behaviour feature (features.go) that no graph before
// them showed, in the order they were added, as AFL keeps the inputs that
// reach new edges. It is stored in a directory of its own (the nightly
// state's corpus/), one JSON entry a line in entries.jsonl, so a campaign
// starts from the corpus the last one left. The corpus also knows its quiet
// entries (quietFeatures), among which guide.go draws most grafts' parents,
// and which structurizer found each entry (Foreign), as features are read
// from one structurizer's answers.

package fuzz

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// CorpusFile is the corpus's file inside its directory.
const CorpusFile = "entries.jsonl"

// StateCorpusDir is the corpus directory inside a state directory
// (STATE.md), the default of a guided campaign run with one.
const StateCorpusDir = "corpus"

// MaxCorpus bounds the corpus. Once it holds this many entries, a graph
// with a new feature takes the place of the oldest redundant entry (one
// every feature of which another entry shows too), so the corpus's
// features only grow and the nights after the first keep adding; when no
// entry is redundant (each shows a feature no other does), the graph is
// not kept (Corpus.NotKept counts it; its features still count for the
// campaign).
const MaxCorpus = 4096

// CorpusEntry is one kept graph.
type CorpusEntry struct {
	Graph    string   `json:"graph"`    // line notation (weights kept)
	Features []string `json:"features"` // the features it showed, sorted
	// Index is the campaign graph index that added it; Seed that
	// campaign's seed (provenance only).
	Index int    `json:"index"`
	Seed  uint64 `json:"seed"`
	// Structurizer is the current side of the campaign that added it
	// (Settings.Current); "" unrecorded.
	Structurizer string `json:"structurizer,omitempty"`
}

// Corpus is the kept graphs and the union of their features. The zero
// value is an empty corpus.
type Corpus struct {
	Entries []CorpusEntry
	graphs  []*cfg.Graph // Entries' graphs, parsed
	seen    map[string]bool
	shows   map[string]int // feature -> the entries that show it
	// NotKept counts the graphs with a new feature the corpus had no room
	// for: full, and no entry redundant (MaxCorpus).
	NotKept int
	// quiet lists the entries, in order, whose structurization needed no
	// route variable, clone or fallback and one pass at most
	// (quietFeatures).
	quiet []int
}

// quietFeatures says whether a structurization with features fs kept the
// graph's own control flow: it reports stats that show no route
// variable, no clone, no fallback, it names one pass at most (a
// structurizer that took the graph as it stood: the passes that rework a
// graph add their names), and it did not fail.
func quietFeatures(fs []string) bool {
	want, passes := 0, 0
	for _, f := range fs {
		switch {
		case f == "route-vars:0" || f == "clones:0" || f == "fallbacks:0":
			want++
		case strings.HasPrefix(f, "pass:"):
			passes++
		case strings.HasPrefix(f, "outcome:"):
			return false
		}
	}
	return want == 3 && passes <= 1
}

// Features is the number of distinct features the corpus's entries show.
func (c *Corpus) Features() int { return len(c.seen) }

// novel reports whether fs holds a feature the corpus has not seen.
func (c *Corpus) novel(fs []string) bool {
	for _, f := range fs {
		if !c.seen[f] {
			return true
		}
	}
	return false
}

// Add keeps g when its features fs hold one the corpus has not seen (and
// the corpus is not full), and says whether it did.
func (c *Corpus) Add(g *cfg.Graph, fs []string, index int, seed uint64) bool {
	return c.addFound(CorpusEntry{Features: fs, Index: index, Seed: seed}, g)
}

// addFound is Add for an entry e (its graph g) that names the
// structurizer whose answer showed its features.
func (c *Corpus) addFound(e CorpusEntry, g *cfg.Graph) bool {
	if !c.novel(e.Features) {
		return false
	}
	if len(c.Entries) >= MaxCorpus {
		k := c.redundant(e.Features)
		if k < 0 {
			c.NotKept++
			return false
		}
		c.remove(k)
	}
	e.Graph = cfg.FormatLines(g)
	c.add(e, g)
	return true
}

// addAny keeps g whatever its features (KeepRandom's admission); a full
// corpus makes room by dropping its oldest entry, features and all.
func (c *Corpus) addAny(e CorpusEntry, g *cfg.Graph) {
	if len(c.Entries) >= MaxCorpus {
		c.remove(0)
	}
	e.Graph = cfg.FormatLines(g)
	c.add(e, g)
}

// redundant is the first entry every feature of which another entry, or
// the newcomer with features incoming, shows too; -1 none. It can go
// without the corpus losing a feature.
func (c *Corpus) redundant(incoming []string) int {
	for k, e := range c.Entries {
		covered := true
		for _, f := range e.Features {
			if c.shows[f] < 2 && !slices.Contains(incoming, f) {
				covered = false
				break
			}
		}
		if covered {
			return k
		}
	}
	return -1
}

// remove drops entry k. Pre: k is redundant (its features stay shown),
// or the corpus keeps at random (addAny), where features may go.
// The lists are made anew, not edited in place: a published snapshot
// (guide.go) shares their arrays while workers read it.
func (c *Corpus) remove(k int) {
	for _, f := range c.Entries[k].Features {
		if c.shows[f]--; c.shows[f] == 0 {
			delete(c.shows, f)
			delete(c.seen, f)
		}
	}
	c.Entries = slices.Concat(c.Entries[:k], c.Entries[k+1:])
	c.graphs = slices.Concat(c.graphs[:k], c.graphs[k+1:])
	c.quiet = nil
	for i, e := range c.Entries {
		if quietFeatures(e.Features) {
			c.quiet = append(c.quiet, i)
		}
	}
}

// Foreign describes the entries another structurizer than current (a
// Settings.Current) found, one phrase per structurizer, in order of first
// entry: "12 entries found by cfgfuzz's own structurizer". Entries that
// record no structurizer are not among them. nil when there are none.
func (c *Corpus) Foreign(current string) []string {
	mine := structurizerOf(current)
	count := map[string]int{}
	var order []string
	for _, e := range c.Entries {
		if e.Structurizer == "" {
			continue
		}
		who := structurizerOf(e.Structurizer)
		if who == mine {
			continue
		}
		if count[who] == 0 {
			order = append(order, who)
		}
		count[who]++
	}
	var out []string
	for _, who := range order {
		out = append(out, entries(count[who])+" found by "+who)
	}
	return out
}

func (c *Corpus) add(e CorpusEntry, g *cfg.Graph) {
	if c.seen == nil {
		c.seen, c.shows = map[string]bool{}, map[string]int{}
	}
	for _, f := range e.Features {
		c.seen[f] = true
		c.shows[f]++
	}
	if quietFeatures(e.Features) {
		c.quiet = append(c.quiet, len(c.Entries))
	}
	c.Entries = append(c.Entries, e)
	c.graphs = append(c.graphs, g)
}

// Clone is an independent copy (the graphs are shared: nothing changes one).
func (c *Corpus) Clone() *Corpus {
	d := &Corpus{}
	for i, e := range c.Entries {
		d.add(e, c.graphs[i])
	}
	return d
}

// Digest names the corpus's content: its entry count and a hash of the
// entries, for the settings a guided campaign depends on.
func (c *Corpus) Digest() string {
	h := sha256.New()
	for _, e := range c.Entries {
		b, _ := json.Marshal(e)
		h.Write(append(b, '\n'))
	}
	return fmt.Sprintf("%d entries sha256:%s", len(c.Entries), hex.EncodeToString(h.Sum(nil)[:8]))
}

// LoadCorpus reads dir's corpus; a missing directory or file is an empty
// corpus. A bad line, or a graph beyond gen.Mutate's limits, is an error
// naming the file and line; a file past MaxCorpusFile, or one that is not
// a regular file (a named pipe), is an error naming it; so is a dir that
// is a file (a graph file given as a corpus).
func LoadCorpus(dir string) (*Corpus, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("corpus %s is a file, not a directory: a corpus is a directory holding its %s (fuzz/README.md, \"Guided generation\")", dir, CorpusFile)
	}
	path := filepath.Join(dir, CorpusFile)
	data, err := readFileWithin(path, MaxCorpusFile, "a corpus file")
	if errors.Is(err, os.ErrNotExist) {
		return &Corpus{}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseCorpus(path, data)
}

// parseCorpus reads a corpus file's text; path names it in the errors.
func parseCorpus(path string, data []byte) (*Corpus, error) {
	c := &Corpus{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	line := 1
	for ; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e CorpusEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, jsonError(sc.Bytes(), err))
		}
		g, err := cfg.ParseLines(e.Graph, cfg.Limits{})
		if err != nil {
			return nil, fmt.Errorf("%s:%d: graph: %w", path, line, err)
		}
		if err := (gen.MutateOptions{}).Fits(g); err != nil {
			return nil, fmt.Errorf("%s:%d: graph: %w (a corpus holds only graphs that mutations take)", path, line, err)
		}
		c.add(e, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line, err)
	}
	return c, nil
}

// SaveCorpus writes c into dir (created when missing), atomically.
func SaveCorpus(dir string, c *Corpus) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := corpusBytes(c)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, CorpusFile), b)
}

// corpusBytes is the corpus file's text: one entry a line.
func corpusBytes(c *Corpus) ([]byte, error) {
	var b bytes.Buffer
	for _, e := range c.Entries {
		line, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes(), nil
}
