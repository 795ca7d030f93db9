// malformed_graphs_test.go: the parsers and `cfgfuzz check`'s pipeline
// (structurizer through the campaign's side, the emitter, every default
// check) on seeded mutations of graph text: generated graphs of every kind
// in compact and line notation, with characters deleted, inserted,
// duplicated or swapped, numbers replaced (huge, negative, at the block
// limit), lines cut. 0 panics and 0 hangs: the parser gets a per-case
// watchdog, and every graph it accepts of at most malformedCheckBlocks
// blocks is checked as `cfgfuzz check` checks it, under a watchdog too.
// 300 cases by default, 10,000 with -long. Seeded; the seed is logged.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var long = flag.Bool("long", false, "run the long robustness tests (10,000 malformed graphs)")

// malformedCheckBlocks is the largest accepted graph the test checks (a
// larger one is only parsed: checking a million blocks takes seconds, and
// check's own limits bound it).
const malformedCheckBlocks = 2000

func TestMalformedGraphsNeverPanicOrHang(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("CFGFUZZ_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (CFGFUZZ_SEED=%d replays)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 23))
	n := 300
	if *long {
		n = 10_000
	}
	orc, err := oracle.New(oracle.Options{Walks: oracle.WalkOptions{Random: 4, Seed: 1}, Seed: 1})
	if err != nil {
		t.Skip(err)
	}
	side := &fuzz.InProcess{}
	defer side.Close()
	seam := fuzz.SideStructurizer(side, proto.Options{}, 5*time.Second)
	outcomes := map[string]int{}
	for i := range n {
		text := mutateGraphText(r, graphText(t, r, i))
		what := fmt.Sprintf("case %d: %q", i, shorten(text))
		items, err := within(t, what, func() ([]cfg.Item, error) { return cfg.Parse("case", []byte(text), cfg.Limits{}) })
		if err != nil {
			outcomes["parse error"]++
			continue
		}
		for _, it := range items {
			if it.Graph.Len() > malformedCheckBlocks {
				outcomes["parsed, too large to check"]++
				continue
			}
			rec, _ := within(t, what, func() (checkRecord, error) {
				return checkOne(sourced{Item: it, File: "case"}, seam, "structured", orc, time.Minute), nil
			})
			if rec.Outcome == outcomeError {
				t.Errorf("%s: harness error: %s", what, rec.Reason)
			}
			outcomes[rec.Outcome]++
		}
	}
	t.Logf("%d mutated graph texts: %v", n, outcomes)
}

// within runs f under a watchdog: a panic or a call still running after
// two minutes fails the test.
func within[T any](t *testing.T, what string, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v     T
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		v, err := f()
		done <- result{v: v, err: err}
	}()
	select {
	case res := <-done:
		if res.panic != nil {
			t.Fatalf("%s: panic %v", what, res.panic)
		}
		return res.v, res.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s: no answer within 2m (a hang)", what)
	}
	var zero T
	return zero, nil
}

// graphText is a generated graph (every kind in turn) in compact or line
// notation.
func graphText(t *testing.T, r *rand.Rand, i int) string {
	kinds := gen.Kinds()
	item, err := gen.Generate(gen.Config{Kind: kinds[i%len(kinds)]}, r.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	if r.IntN(2) == 0 {
		return cfg.FormatCompact(item.Graph)
	}
	return cfg.FormatLines(item.Graph)
}

// graphTokens are what a mutation inserts: the notations' own characters
// and words, and numbers at the edges.
var graphTokens = []string{"{", "}", ",", " ", "\n", "#", ":", "---", "[w=", "]", "ret", "br", "if", "switch",
	"0", "1", "-1", "1048575", "1048576", "99999999999999999999", "\xef\xbb\xbf", "\x00", "é", "b0", "entry"}

// mutateGraphText applies one to four mutations to text.
func mutateGraphText(r *rand.Rand, text string) string {
	count := 1
	if r.IntN(4) == 0 {
		count += r.IntN(4)
	}
	for range count {
		if text == "" {
			text = graphTokens[r.IntN(len(graphTokens))]
			continue
		}
		at := r.IntN(len(text))
		switch op := r.IntN(9); {
		case op >= 6: // replace a number (the common case: the text stays a graph)
			text = replaceNumber(r, text)
		case op == 0: // delete a span
			text = text[:at] + text[min(len(text), at+1+r.IntN(4)):]
		case op == 1: // insert a token
			text = text[:at] + graphTokens[r.IntN(len(graphTokens))] + text[at:]
		case op == 2: // duplicate a span
			end := min(len(text), at+1+r.IntN(40))
			text = text[:end] + text[at:end] + text[end:]
		case op == 3: // swap two characters
			b := []byte(text)
			j := r.IntN(len(b))
			b[at], b[j] = b[j], b[at]
			text = string(b)
		default: // cut
			text = text[:at]
		}
	}
	return text
}

// replaceNumber replaces the first number at or after a random place with
// an edge value.
func replaceNumber(r *rand.Rand, text string) string {
	start := r.IntN(len(text))
	at := strings.IndexAny(text[start:], "0123456789")
	if at < 0 {
		return text
	}
	at += start
	end := at
	for end < len(text) && text[end] >= '0' && text[end] <= '9' {
		end++
	}
	edges := []string{"0", "-1", "2000", "65536", "1048575", "1048576", "4294967296", "99999999999999999999"}
	edge := edges[r.IntN(len(edges))]
	if r.IntN(3) > 0 {
		edge = strconv.Itoa(r.IntN(24)) // another block, or a few past the last
	}
	return text[:at] + edge + text[end:]
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
