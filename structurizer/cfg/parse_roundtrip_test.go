// parse_roundtrip_test.go: seeded random round trips. It defines the -seed
// flag, a random graph generator with plain, exact and adversarial names,
// checkParse (the properties every input must have, shared with FuzzParse),
// and tests that formatting thousands of random graphs in either notation,
// alone or many to a file, reads back to the same graphs, and that randomly
// damaged text never panics.
package cfg

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var seedFlag = flag.Uint64("seed", 0, "seed of the random round-trip tests in structurizer/cfg (0: the fixed default)")

// testRand returns the test's random source and logs its seed.
func testRand(t testing.TB) *rand.Rand {
	seed := *seedFlag
	if seed == 0 {
		seed = 20240601
	}
	t.Logf("seed %d (rerun with -seed=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, 0x63666766757a7a))
}

// nameMode picks how randomGraph names blocks.
type nameMode int

const (
	unnamed     nameMode = iota // Names == nil
	exactNames                  // distinct valid names that read back exactly
	hostileName                 // duplicates, default names of other blocks, invalid bytes, keywords
)

// randomGraph makes a valid graph of n blocks: mostly branches and
// conditionals, some returns and switches, random targets and weights.
func randomGraph(rng *rand.Rand, n int, mode nameMode) *Graph {
	g := New(n)
	for b := range n {
		g.Succs[b] = make([]int, randomDegree(rng))
		for i := range g.Succs[b] {
			g.Succs[b][i] = rng.IntN(n)
		}
		if rng.IntN(2) == 0 {
			g.Weights[b] = rng.IntN(2000)
		} else if rng.IntN(50) == 0 {
			g.Weights[b] = DefaultLimits.MaxWeight
		}
	}
	switch mode {
	case exactNames:
		g.Names = make([]string, n)
		for b := range g.Names {
			if rng.IntN(4) > 0 {
				g.Names[b] = "n" + strconv.Itoa(b) + [...]string{"", "_x", ".y", "-z"}[rng.IntN(4)]
			}
		}
	case hostileName:
		g.Names = make([]string, n)
		for b := range g.Names {
			g.Names[b] = hostileNameFor(rng, b, n)
		}
	}
	return g
}

// randomDegree is 0 to 2 mostly, sometimes a switch.
func randomDegree(rng *rand.Rand) int {
	switch r := rng.IntN(20); {
	case r < 3:
		return 0
	case r < 10:
		return 1
	case r < 17:
		return 2
	default:
		return 3 + rng.IntN(6)
	}
}

func hostileNameFor(rng *rand.Rand, b, n int) string {
	pool := []string{"", "", "b" + strconv.Itoa(b), "b" + strconv.Itoa(rng.IntN(n)), "b0" + strconv.Itoa(b),
		"x", "x_1", "ret", "switch", "---", "a b", "é", "x:y", "#", "{", "\xff", "b" + strconv.Itoa(n)}
	return pool[rng.IntN(len(pool))]
}

// expectedNames is what ParseLines(FormatLines(g)) must give for names, or
// false when the names cannot read back exactly (an invalid name, or two
// blocks that would need one label). A block named "b<id>" reads back
// unnamed. This follows the documented rule, independently of lineLabels.
func expectedNames(g *Graph) ([]string, bool) {
	seen := map[string]bool{}
	want := make([]string, g.Len())
	for b := range g.Len() {
		label := g.Name(b)
		if label == "" {
			label = "b" + strconv.Itoa(b)
		}
		if !isName(label) || seen[label] {
			return nil, false
		}
		seen[label] = true
		if label != "b"+strconv.Itoa(b) {
			want[b] = label
		}
	}
	return want, true
}

func sameEdgesAndWeights(g, h *Graph) bool {
	if g.Len() != h.Len() {
		return false
	}
	for b := range g.Len() {
		if !slices.Equal(g.Succs[b], h.Succs[b]) || g.Weight(b) != h.Weight(b) {
			return false
		}
	}
	return true
}

func TestRoundTripCompact(t *testing.T) {
	rng := testRand(t)
	for i := range 3000 {
		g := randomGraph(rng, 1+rng.IntN(60), unnamed)
		text := FormatCompact(g)
		h, err := ParseCompact(text, Limits{})
		if err != nil {
			t.Fatalf("graph %d: ParseCompact(FormatCompact(g)): %v\n%s", i, err, text)
		}
		if !slices.EqualFunc(g.Succs, h.Succs, slices.Equal) || h.TotalWeight() != 0 || h.Names != nil {
			t.Fatalf("graph %d: %s read back as %v", i, text, h)
		}
	}
}

func TestRoundTripLines(t *testing.T) {
	rng := testRand(t)
	exact := 0
	for i := range 3000 {
		g := randomGraph(rng, 1+rng.IntN(60), nameMode(i%3))
		text := FormatLines(g)
		h, err := ParseLines(text, Limits{})
		if err != nil {
			t.Fatalf("graph %d: ParseLines(FormatLines(g)): %v\n%s", i, err, text)
		}
		if err := h.Validate(Limits{}); err != nil {
			t.Fatalf("graph %d: %v", i, err)
		}
		if !sameEdgesAndWeights(g, h) {
			t.Fatalf("graph %d: edges or weights changed:\n%s\n%s", i, text, FormatLines(h))
		}
		if want, ok := expectedNames(g); ok {
			exact++
			w := g.Clone()
			w.Names = want
			if !h.Equal(w) {
				t.Fatalf("graph %d: names %q read back as %q", i, g.Names, h.Names)
			}
		}
		if again := FormatLines(h); again != text {
			t.Fatalf("graph %d: FormatLines(ParseLines(text)) != text:\n%s\n%s", i, text, again)
		}
	}
	if exact < 2000 {
		t.Errorf("only %d of 3000 graphs had names that read back exactly; the generator drifted", exact)
	}
}

// TestRoundTripLargeGraphs covers graphs of thousands of blocks (long
// names, many forward references).
func TestRoundTripLargeGraphs(t *testing.T) {
	rng := testRand(t)
	for i := range 6 {
		g := randomGraph(rng, 1000+rng.IntN(5000), nameMode(i%3))
		checkRoundTrip(t, g, Limits{})
	}
}

func TestRoundTripFiles(t *testing.T) {
	rng := testRand(t)
	for i := range 300 {
		var sb strings.Builder
		var want []Item
		line, prev := 1, ""
		for range 1 + rng.IntN(6) {
			g := randomGraph(rng, 1+rng.IntN(12), nameMode(rng.IntN(3)))
			notation := [...]string{"compact", "lines"}[rng.IntN(2)]
			switch {
			case prev == "lines" && notation == "lines":
				sb.WriteString("---\n")
				line++
			case prev == "compact" && rng.IntN(2) == 0:
				sb.WriteString("\n")
				line++
			case prev == "compact":
				sb.WriteString(" # comment\n\n")
				line += 2
			}
			want = append(want, Item{Graph: g, Line: line, Col: 1})
			if notation == "compact" {
				want[len(want)-1].Graph = FromSuccs(g.Succs)
				sb.WriteString(FormatCompact(g))
			} else {
				sb.WriteString(FormatLines(g))
				line += g.Len()
			}
			prev = notation
		}
		items, err := Parse("random.cfg", []byte(sb.String()), Limits{})
		if err != nil {
			t.Fatalf("file %d: %v\n%s", i, err, sb.String())
		}
		if len(items) != len(want) {
			t.Fatalf("file %d: %d graphs, want %d\n%s", i, len(items), len(want), sb.String())
		}
		for k, it := range items {
			w := want[k]
			if !sameEdgesAndWeights(it.Graph, w.Graph) || it.Line != w.Line || it.Col != w.Col {
				t.Fatalf("file %d graph %d: %v at %d:%d, want %v at %d:%d\n%s", i, k, it.Graph, it.Line, it.Col, w.Graph, w.Line, w.Col, sb.String())
			}
		}
	}
}

// TestParseDamagedText damages formatted graphs at random (bytes replaced,
// deleted, duplicated, spliced) and checks the properties of checkParse.
func TestParseDamagedText(t *testing.T) {
	rng := testRand(t)
	alphabet := []byte("{},#\n -:[]=w0123456789abrifstchetb\x00\xff\xc3")
	for range 4000 {
		g := randomGraph(rng, 1+rng.IntN(8), nameMode(rng.IntN(3)))
		var text []byte
		if rng.IntN(2) == 0 {
			text = []byte(FormatCompact(g))
		} else {
			text = []byte(FormatLines(g))
		}
		for range 1 + rng.IntN(3) {
			if len(text) == 0 {
				break
			}
			at := rng.IntN(len(text))
			switch rng.IntN(4) {
			case 0:
				text[at] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				text = slices.Delete(text, at, at+1)
			case 2:
				text = slices.Insert(text, at, alphabet[rng.IntN(len(alphabet))])
			default:
				text = text[:at]
			}
		}
		checkParse(t, text)
	}
}

// fuzzLimits are small, so random input reaches the limits.
var fuzzLimits = Limits{MaxBlocks: 300, MaxSuccs: 20, MaxWeight: 5000}

// checkParse runs every entry point on data and checks: no panic; errors are
// *ParseError at a position inside the input; accepted graphs validate and
// survive both formats; ParseCompact and ParseLines agree with Parse.
func checkParse(t testing.TB, data []byte) {
	t.Helper()
	items, err := Parse("in.cfg", data, fuzzLimits)
	checkParseError(t, data, err, "in.cfg:")
	for _, it := range items {
		if err := it.Graph.Validate(fuzzLimits); err != nil {
			t.Fatalf("Parse(%q) accepted an invalid graph at %d:%d: %v", data, it.Line, it.Col, err)
		}
		if _, exact := expectedNames(it.Graph); !exact {
			t.Fatalf("Parse(%q) produced names that cannot read back: %q", data, it.Graph.Names)
		}
		checkRoundTrip(t, it.Graph, fuzzLimits)
	}
	for _, p := range []parser{compact, lines} {
		gs, err := parseWith(p, string(data), fuzzLimits)
		checkParseError(t, data, err, "")
		if err == nil && (len(items) != 1 || !items[0].Graph.Equal(gs[0])) {
			t.Fatalf("%v(%q) = %v but Parse read %d graphs", p, data, gs[0], len(items))
		}
	}
}

// checkParseError checks that err is nil or a *ParseError pointing inside
// the input (the end of input included).
func checkParseError(t testing.TB, data []byte, err error, prefix string) {
	t.Helper()
	if err == nil {
		return
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is a %T, not a *ParseError", err, err)
	}
	data = bytes.TrimPrefix(data, []byte(byteOrderMark)) // not counted in columns
	lines := 1 + strings.Count(string(data), "\n")
	if pe.Line < 1 || pe.Line > lines || pe.Col < 1 || pe.Msg == "" || !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("input %q: error %q: position outside the input (%d lines) or no message", data, err, lines)
	}
	lineText := strings.Split(string(data), "\n")[pe.Line-1]
	if pe.Col > len(lineText)+1 {
		t.Fatalf("input %q: error %q: column past the end of line %d (%d bytes)", data, err, pe.Line, len(lineText))
	}
	checkNamedPositions(t, data, pe)
}

var (
	definedTwice = regexp.MustCompile(`^block "([^"]*)" is defined twice \(first at (\d+):(\d+)\)$`)
	undefined    = regexp.MustCompile(`^undefined block "([^"]*)" \(target (\d+) of block "([^"]*)"\)(: a block .* follows at (\d+):(\d+), after .*)?$`)
)

// checkNamedPositions checks that errors about a name point at it: a
// duplicate definition at both definitions, an undefined name at its first
// use, which is the first mention of the name in the input.
func checkNamedPositions(t testing.TB, data []byte, pe *ParseError) {
	t.Helper()
	if m := definedTwice.FindStringSubmatch(pe.Msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		if nameAt(data, pe.Line, pe.Col) != m[1] || nameAt(data, line, col) != m[1] {
			t.Fatalf("input %q: %v: the name is not at both positions", data, pe)
		}
	}
	if m := undefined.FindStringSubmatch(pe.Msg); m != nil && nameAt(data, pe.Line, pe.Col) != m[1] {
		t.Fatalf("input %q: %v: the name is not at the position", data, pe)
	}
	if m := undefined.FindStringSubmatch(pe.Msg); m != nil && m[4] != "" {
		line, _ := strconv.Atoi(m[5])
		col, _ := strconv.Atoi(m[6])
		if nameAt(data, line, col) != m[1] {
			t.Fatalf("input %q: %v: the later block is not at its position", data, pe)
		}
	}
}

// nameAt returns the name that starts at line:col of data.
func nameAt(data []byte, line, col int) string {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
		return ""
	}
	rest := lines[line-1][col-1:]
	end := strings.IndexFunc(rest, func(r rune) bool { return r > 127 || !isNameByte(int(r)) })
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// checkRoundTrip formats a valid g both ways and reads it back: compact
// keeps the edges; lines keeps everything when g's names allow it (always
// for graphs the parser produced) and otherwise edges and weights.
func checkRoundTrip(t testing.TB, g *Graph, lim Limits) {
	t.Helper()
	text := FormatCompact(g)
	h, err := ParseCompact(text, lim)
	if err != nil {
		t.Fatalf("ParseCompact(FormatCompact(g)): %v\n%s", err, text)
	}
	if !slices.EqualFunc(g.Succs, h.Succs, slices.Equal) {
		t.Fatalf("compact round trip changed the edges:\n%s\n%s", text, FormatCompact(h))
	}
	text = FormatLines(g)
	h, err = ParseLines(text, lim)
	if err != nil {
		t.Fatalf("ParseLines(FormatLines(g)): %v\n%s", err, text)
	}
	want, exact := expectedNames(g)
	w := g.Clone()
	w.Names = want
	if exact && !h.Equal(w) || !exact && !sameEdgesAndWeights(g, h) {
		t.Fatalf("line round trip changed the graph:\n%s\n%s", text, FormatLines(h))
	}
}
