// parse_test.go: table tests of the parsers: graphs that must parse (the
// shapes bug reports quote, the line notation's examples, multi-graph
// files), input that must fail with a given line:col and message, the limits
// (ten million blocks without per-block memory past the limit), and
// FormatLines' choice of labels.
package cfg

import (
	"errors"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// parser names an entry point for the tables.
type parser int

const (
	compact parser = iota // ParseCompact
	lines                 // ParseLines
	file                  // Parse, exactly one graph expected unless said otherwise
)

func (p parser) String() string { return [...]string{"ParseCompact", "ParseLines", "Parse"}[p] }

// parseWith runs one entry point and returns every graph it read.
func parseWith(p parser, src string, lim Limits) ([]*Graph, error) {
	switch p {
	case compact:
		g, err := ParseCompact(src, lim)
		if err != nil {
			return nil, err
		}
		return []*Graph{g}, nil
	case lines:
		g, err := ParseLines(src, lim)
		if err != nil {
			return nil, err
		}
		return []*Graph{g}, nil
	}
	items, err := Parse("", []byte(src), lim)
	var gs []*Graph
	for _, it := range items {
		gs = append(gs, it.Graph)
	}
	return gs, err
}

// mustCompact parses compact notation in a test and fails it on error.
func mustCompact(t testing.TB, src string) *Graph {
	t.Helper()
	g, err := ParseCompact(src, Limits{})
	if err != nil {
		t.Fatalf("ParseCompact(%q): %v", src, err)
	}
	return g
}

func TestParseCompactShapes(t *testing.T) {
	cases := []struct {
		src  string
		want [][]int
	}{
		{"{{1}, {2, 3}, {3}, {}}", [][]int{{1}, {2, 3}, {3}, {}}},
		// As the README quotes it: block 4 has no list of its own, so it
		// returns (a bug report's trailing returning blocks).
		{"{{1}, {2, 3}, {4}, {}}", [][]int{{1}, {2, 3}, {4}, {}, {}}},
		{"{\n  {1},\n  {2}\n}", [][]int{{1}, {2}, {}}},
		{"{{5}}", [][]int{{5}, {}, {}, {}, {}, {}}},
		{"{{}}", [][]int{{}}},
		{"{{0}}", [][]int{{0}}},
		{"{{1}, {2, 2}, {}}", [][]int{{1}, {2, 2}, {}}},
		{"{{1}, {4, 5, 5}, {}, {}, {}, {}}", [][]int{{1}, {4, 5, 5}, {}, {}, {}, {}}},
		{"{{1, 2}, {3}, {3}, {}}", [][]int{{1, 2}, {3}, {3}, {}}},
		{"{{1}, {2, 0}, {1}}", [][]int{{1}, {2, 0}, {1}}},
		{"{{1,2},{2},{1}}", [][]int{{1, 2}, {2}, {1}}},
		{" {\n {1}, # entry\n {2, 3},\n {3},\n {}\n}\n", [][]int{{1}, {2, 3}, {3}, {}}},
		{"{{007}, {}, {}, {}, {}, {}, {}, {}}", [][]int{{7}, {}, {}, {}, {}, {}, {}, {}}},
		{"\uFEFF{{}}", [][]int{{}}},
		{"{\t{ 1 ,2 }\r\n,{},{}}", [][]int{{1, 2}, {}, {}}},
		{"# a comment: ünïcödé is fine here\n{{}}", [][]int{{}}},
	}
	for _, c := range cases {
		g := mustCompact(t, c.src)
		if !g.Equal(FromSuccs(c.want)) {
			t.Errorf("ParseCompact(%q) = %v, want %v", c.src, g, FromSuccs(c.want))
		}
		if err := g.Validate(Limits{}); err != nil {
			t.Errorf("ParseCompact(%q) does not validate: %v", c.src, err)
		}
		if len(g.Weights) != g.Len() || g.Names != nil {
			t.Errorf("ParseCompact(%q): weights %v names %q, want all zero and nil", c.src, g.Weights, g.Names)
		}
	}
}

func TestParseLinesExamples(t *testing.T) {
	src := `# a loop whose body is a switch
outer: switch unreachable enter_inner outer_payload
enter_inner: br body
body [w=1000]: if a b   # the hot block
a: br outer
b: if exit, outer
outer_payload [ w = 7 ]: br outer
unreachable: ret
exit: ret
`
	g, err := ParseLines(src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := FromSuccs([][]int{{6, 1, 5}, {2}, {3, 4}, {0}, {7, 0}, {0}, {}, {}})
	want.Weights[2], want.Weights[5] = 1000, 7
	want.Names = []string{"outer", "enter_inner", "body", "a", "b", "outer_payload", "unreachable", "exit"}
	if !g.Equal(want) {
		t.Fatalf("got %v %v %q\nwant %v %v %q", g, g.Weights, g.Names, want, want.Weights, want.Names)
	}
	if err := g.Validate(Limits{}); err != nil {
		t.Fatal(err)
	}
}

func TestParseLinesNames(t *testing.T) {
	cases := []struct {
		src   string
		succs [][]int
		names []string // nil: all default
	}{
		{"b0: br b1\nb1: ret", [][]int{{1}, {}}, nil},
		{"b1: br b0\nb0: ret", [][]int{{1}, {}}, []string{"b1", "b0"}},
		{"b0: br b01\nb01: ret", [][]int{{1}, {}}, []string{"", "b01"}},
		{"ret: br if\nif: if br switch\nbr: ret\nswitch: switch ret ret ret", [][]int{{1}, {2, 3}, {}, {0, 0, 0}}, []string{"ret", "if", "br", "switch"}},
		{"x.y-z_1: br 42\n42: ret", [][]int{{1}, {}}, []string{"x.y-z_1", "42"}},
		{"---: br a\na: ret", [][]int{{1}, {}}, []string{"---", "a"}},
		{"  a : br b\n\n\n  # gap\n b:ret", [][]int{{1}, {}}, []string{"a", "b"}},
		{"a: if a,b\nb: switch a , b,a", [][]int{{0, 1}, {0, 1, 0}}, []string{"a", "b"}},
		{"a: br a\r\n", [][]int{{0}}, []string{"a"}},
		{"e: ret # last line without newline", [][]int{{}}, []string{"e"}},
	}
	for _, c := range cases {
		g, err := ParseLines(c.src, Limits{})
		if err != nil {
			t.Errorf("ParseLines(%q): %v", c.src, err)
			continue
		}
		want := FromSuccs(c.succs)
		want.Names = c.names
		if !g.Equal(want) || (c.names == nil) != (g.Names == nil) {
			t.Errorf("ParseLines(%q) = %v %q, want %v %q", c.src, g, g.Names, want, c.names)
		}
	}
}

func TestParseFile(t *testing.T) {
	src := "# several graphs\n" +
		"{{1}, {}}\n" +
		"{{}} {{0}}  # two on one line\n" +
		"---\n" +
		"a: br b\n" +
		"b [w=3]: ret\n" +
		"--- # next\n" +
		"\n" +
		"x: br x\n" +
		"{{1, 1}, {}}\n" +
		"---\n"
	items, err := Parse("many.cfg", []byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		compact   string
		line, col int
	}{
		{"{{1}, {}}", 2, 1},
		{"{{}}", 3, 1},
		{"{{0}}", 3, 6},
		{"{{1}, {}}", 5, 1},
		{"{{0}}", 9, 1},
		{"{{1, 1}, {}}", 10, 1},
	}
	if len(items) != len(want) {
		t.Fatalf("got %d graphs, want %d", len(items), len(want))
	}
	for i, w := range want {
		it := items[i]
		if FormatCompact(it.Graph) != w.compact || it.Line != w.line || it.Col != w.col {
			t.Errorf("graph %d: %v at %d:%d, want %s at %d:%d", i, it.Graph, it.Line, it.Col, w.compact, w.line, w.col)
		}
	}
	if items[3].Graph.Weights[1] != 3 || items[3].Graph.Names[0] != "a" {
		t.Errorf("graph 3 lost its weight or names: %v %q", items[3].Graph.Weights, items[3].Graph.Names)
	}
}

func TestParseTestdata(t *testing.T) {
	items := readTestdata(t, "testdata/examples.cfg")
	if len(items) < 5 {
		t.Fatalf("testdata/examples.cfg: %d graphs, want at least 5", len(items))
	}
	for _, it := range items {
		if err := it.Graph.Validate(Limits{}); err != nil {
			t.Errorf("graph at %d:%d: %v", it.Line, it.Col, err)
		}
	}
}

// errCase is input that must fail at line:col with msg in the message.
type errCase struct {
	p         parser
	src       string
	line, col int
	msg       string
	lim       Limits
}

func TestParseCompactErrors(t *testing.T) {
	runErrCases(t, []errCase{
		// The design's own example names block 4 in a 4-block graph.
		{compact, "{{1}, {2", 1, 9, "expected ',' or '}' after successor, found end of input (successor 0 of block 1) (the graph opened at 1:1 is not closed)", Limits{}},
		{compact, "{{1},", 1, 6, "expected '{' to start the successor list of block 1 after ',', found end of input", Limits{}},
		{compact, "{{1}", 1, 5, "expected ',' or '}' after the successor list of block 0, found end of input", Limits{}},
		// The grammar has no trailing comma: the error points at the comma.
		{compact, "{{1,},{}}", 1, 4, "trailing comma after successor 0 of block 0: a ',' is followed by the next successor, '}' ends the list", Limits{}},
		{compact, "{{1, 2,}, {}, {},}", 1, 7, "trailing comma after successor 1 of block 0", Limits{}},
		{compact, "{{1}, {},}", 1, 9, "trailing comma after the successor list of block 1: a ',' is followed by the next list, '}' ends the graph", Limits{}},
		{compact, "{{1}, {2 ,\n  # a comment\n  }}", 1, 10, "trailing comma after successor 0 of block 1", Limits{}},
		{compact, "{\n  {1},\n  {},\n}", 3, 5, "trailing comma after the successor list of block 1", Limits{}},
		{compact, "{{1},{}", 1, 8, "not closed", Limits{}},
		{compact, "{", 1, 2, "found end of input", Limits{}},
		{compact, "{{", 1, 3, "expected a block number or '}' in the successor list of block 0, found end of input", Limits{}},
		{compact, "{{1 2}}", 1, 5, "expected ',' or '}' after successor, found '2' (successor 0 of block 0)", Limits{}},
		{compact, "{{1}, {x}}", 1, 8, "expected a block number or '}' in the successor list of block 1, found 'x'", Limits{}},
		{compact, "{{1x}}", 1, 4, "expected ',' or '}' after successor, found 'x'", Limits{}},
		{compact, "{{-1}}", 1, 3, "found '-': successors are non-negative block numbers", Limits{}},
		{compact, "{{+1}}", 1, 3, "found '+'", Limits{}},
		{compact, "{{%d}}", 1, 3, "in the successor list of block 0, found '%'", Limits{}},
		{compact, "{{1%v}}", 1, 4, "found '%' (successor 0 of block 0)", Limits{}},
		{compact, "{{1.5}}", 1, 4, "found '.'", Limits{}},
		{compact, "{{0x1}}", 1, 4, "found 'x'", Limits{}},
		{compact, "{{99999999999999999999999999999}}", 1, 3, "block 0: successor 0 is 99999999999999999999..., too large for the limit of 1048576 blocks", Limits{}},
		{compact, "{{9223372036854775808}}", 1, 3, "too large", Limits{}},
		{compact, "{{},,{}}", 1, 5, "expected '{' to start the successor list of block 1", Limits{}},
		{compact, "{{,}}", 1, 3, "expected a block number or '}'", Limits{}},
		{compact, "{{1,,2}}", 1, 5, "expected a block number after ',' in the successor list of block 0, found ','", Limits{}},
		{compact, "{,{}}", 1, 2, "expected '{' to start the successor list of block 0", Limits{}},
		{compact, "{{} {}}", 1, 5, "expected ',' or '}' after the successor list of block 0, found '{'", Limits{}},
		{compact, "{}", 1, 1, "empty graph", Limits{}},
		{compact, "", 1, 1, "no graph", Limits{}},
		{compact, "  # only a comment\n\n", 3, 1, "no graph", Limits{}},
		{compact, "[[1], []]", 1, 1, "expected '{' to start a graph in compact notation, found '['", Limits{}},
		{compact, "{{}} {{}}", 1, 6, "expected end of input after the graph, found '{' (ParseCompact reads one graph", Limits{}},
		{compact, "{{}}}", 1, 5, "expected end of input after the graph, found '}'", Limits{}},
		{compact, "\x00\x01\x02", 1, 1, `found '\x00'`, Limits{}},
		{compact, "{{\x7f}}", 1, 3, `found '\x7f'`, Limits{}},
		{compact, "{{1}, {é}}", 1, 8, "found 'é' (U+00E9, only ASCII is allowed outside comments)", Limits{}},
		{compact, "{{\xff}}", 1, 3, "found invalid UTF-8 byte 0xff", Limits{}},
		{compact, "{{}} # bad \xc3\x28 text", 1, 12, "invalid UTF-8 in comment (byte 0xc3)", Limits{}},
		{compact, "{{0, 0, 0}}", 1, 9, "too many successors: block 0 has more than the limit of 2", Limits{MaxSuccs: 2}},
		{compact, "{{}, {}, {}}", 1, 10, "too many blocks: block 2 is beyond the limit of 2 blocks", Limits{MaxBlocks: 2}},
		{compact, "{{5}", 1, 3, "block 0: successor 0 is 5, too large for the limit of 3 blocks", Limits{MaxBlocks: 3}},
		{compact, "{{2}, {}, {}}", 1, 3, "too large for the limit of 2 blocks", Limits{MaxBlocks: 2}},
	})
}

func TestParseLinesErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{lines, "a: br b", 1, 7, `undefined block "b" (target 1 of block "a")`, Limits{}},
		{lines, "a: if c b\nc: br d\nd: ret", 1, 9, `undefined block "b" (target 2 of block "a")`, Limits{}},
		{lines, "a: if b c\nb: br d\nc: ret", 2, 7, `undefined block "d" (target 1 of block "b")`, Limits{}},
		{lines, "outer: switch unreachable enter_inner outer_payload", 1, 15, `undefined block "unreachable" (target 1 of block "outer")`, Limits{}},
		{lines, "a: br a\n\n a: ret", 3, 2, `block "a" is defined twice (first at 1:1)`, Limits{}},
		{lines, "# c\n  x: br y\ny: br x\n# c\nz: ret\ny: ret", 6, 1, `block "y" is defined twice (first at 3:1)`, Limits{}},
		{lines, "b0: br x\nx: br b0\nb0: ret", 3, 1, `block "b0" is defined twice (first at 1:1)`, Limits{}},
		{lines, "a: ret b\nb: ret", 1, 8, `ret takes no targets; found "b" as target 1`, Limits{}},
		{lines, "a: ret, b", 1, 7, `ret takes no targets; found ','`, Limits{}},
		{lines, "a: br\n", 1, 6, "br takes exactly 1 target; found 0", Limits{}},
		{lines, "a: br a a", 1, 9, `br takes exactly 1 target; found "a" as target 2`, Limits{}},
		{lines, "a: if a", 1, 8, "if takes exactly 2 targets (true, false); found 1", Limits{}},
		{lines, "a: if a a a", 1, 11, `if takes exactly 2 targets (true, false); found "a" as target 3`, Limits{}},
		{lines, "a: switch a a", 1, 14, "switch takes 3 or more targets (default, case 1, case 2, ...); found 2", Limits{}},
		{lines, "a: switch", 1, 10, "switch takes 3 or more targets", Limits{}},
		{lines, "a: jump a", 1, 4, `expected a terminator (ret, br, if or switch), found "jump"`, Limits{}},
		{lines, "a: RET", 1, 4, `found "RET"`, Limits{}},
		{lines, "a:", 1, 3, "expected a terminator (ret, br, if or switch) after ':', found end of input", Limits{}},
		{lines, "a br a", 1, 3, `expected '[' or ':' after block name "a", found 'b'`, Limits{}},
		{lines, "a\nb: ret", 1, 2, `expected '[' or ':' after block name "a", found end of line`, Limits{}},
		{lines, "a [w=x]: ret", 1, 6, "expected a weight (a non-negative number of words) after 'w=', found 'x'", Limits{}},
		{lines, "a [w=-1]: ret", 1, 6, "found '-'", Limits{}},
		{lines, "a [w=2000000]: ret", 1, 6, `block "a": weight 2000000 is above the limit of 1048576`, Limits{}},
		{lines, "a [w=11]: ret", 1, 6, `weight 11 is above the limit of 10`, Limits{MaxWeight: 10}},
		{lines, "a [w=999999999999999999999999999999]: ret", 1, 6, `weight 99999999999999999999... is above the limit`, Limits{}},
		{lines, "a [x=1]: ret", 1, 4, `expected 'w=' (the weight) after '[', found "x"`, Limits{}},
		{lines, "a []: ret", 1, 4, `expected 'w=' (the weight) after '[', found ']'`, Limits{}},
		{lines, "a [w 1]: ret", 1, 6, "expected '=' after 'w', found '1'", Limits{}},
		{lines, "a [w=1: ret", 1, 7, "expected ']' after the weight, found ':'", Limits{}},
		{lines, "a [w=1] [w=2]: ret", 1, 9, `expected '[' or ':' after block name "a", found '['`, Limits{}},
		{lines, "a: if a, ", 1, 10, "expected a target name after ',', found end of input", Limits{}},
		{lines, "a: if a,,a", 1, 9, "expected a target name after ',', found ','", Limits{}},
		{lines, "a: br ,a", 1, 7, "expected a target name after br, found ','", Limits{}},
		{lines, "a: br a)", 1, 8, "expected a target name, ',' or end of line, found ')'", Limits{}},
		{lines, "a: br a:", 1, 8, "found ':'", Limits{}},
		{lines, strings.Repeat("n", 100) + " x", 1, 102, `expected '[' or ':' after block name "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"..., found 'x'`, Limits{}},
		{lines, "a: ret\n)", 2, 1, "expected a block name at the start of a line, found ')'", Limits{}},
		{lines, "a: br é", 1, 7, "found 'é' (U+00E9", Limits{}},
		{lines, "a: ret # \xff", 1, 10, "invalid UTF-8 in comment (byte 0xff)", Limits{}},
		// Columns count characters: a comment's 'é' is one.
		{lines, "a: ret # \u00e9\xff", 1, 11, "invalid UTF-8 in comment (byte 0xff)", Limits{}},
		{lines, "a: ret\n---\nb: ret", 2, 1, "expected end of input after the graph, found '---' (ParseLines reads one graph", Limits{}},
		{lines, "a: ret\n{{}}", 2, 1, "expected end of input after the graph, found '{'", Limits{}},
		{lines, "{{}}", 1, 1, "expected a block name to start a graph in line notation, found '{'", Limits{}},
		{lines, "\n\n", 3, 1, "no graph", Limits{}},
		{lines, "a: br b\nb: br c\nc: ret", 2, 7, `too many block names: "c" is beyond the limit of 2 blocks`, Limits{MaxBlocks: 2}},
		{lines, "a: ret\nb: ret\nc: ret", 3, 1, `too many blocks: block "c" would be block 2, beyond the limit of 2 blocks`, Limits{MaxBlocks: 2}},
		{lines, "a: switch a a a a", 1, 17, `too many successors: block "a" has more than the limit of 3`, Limits{MaxSuccs: 3}},
		{lines, "a: if a a", 1, 1, "", Limits{MaxSuccs: 1}}, // if needs 2 successors: a limit below 2 cannot hold it
	})
}

func TestParseFileErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{file, "", 1, 1, "no graph", Limits{}},
		{file, "# nothing\n---\n---\n", 4, 1, "no graph", Limits{}},
		// A byte order mark is not counted in line 1's columns: an editor
		// does not show it.
		{file, "\xef\xbb\xbf", 1, 1, "no graph", Limits{}},
		{file, "\xef\xbb\xbf{{x}}", 1, 3, "x", Limits{}},
		{file, "\xef\xbb\xbfentry: br bb\nb: ret\n", 1, 11, `undefined block "bb"`, Limits{}},
		{file, "\xef\xbb\xbfa: ret # \xff", 1, 10, "invalid UTF-8 in comment (byte 0xff)", Limits{}},
		{file, "{{}} x", 1, 6, "expected '{', a comment or end of line after a graph, found 'x'", Limits{}},
		{file, "{{}}, {{}}", 1, 5, "found ','", Limits{}},
		{file, "{{}} ---", 1, 6, "found '-'", Limits{}},
		{file, "{{}}\n)", 2, 1, "expected a graph: '{' (compact notation) or a block name (line notation), found ')'", Limits{}},
		{file, "a: ret\n---\nb: br c", 3, 7, `undefined block "c"`, Limits{}},
		{file, "a: ret\n----\n", 2, 5, `expected '[' or ':' after block name "----"`, Limits{}},
		{file, "\x89PNG\r\n\x1a\n\x00\x00", 1, 1, "found invalid UTF-8 byte 0x89", Limits{}},
	})
	for _, src := range []string{"\uFEFF{{}}", "\uFEFFa: ret"} {
		if items, err := Parse("bom.cfg", []byte(src), Limits{}); err != nil || items[0].Line != 1 || items[0].Col != 1 {
			t.Errorf("Parse(%q): %v; want a graph at 1:1, the byte order mark not counted", src, err)
		}
	}
	_, err := Parse("dir/x.cfg", []byte("{{1}"), Limits{})
	if err == nil || err.Error() != "dir/x.cfg:1:5: expected ',' or '}' after the successor list of block 0, found end of input (the graph opened at 1:1 is not closed)" {
		t.Errorf("Parse with a file name: %v", err)
	}
}

// runErrCases checks that each case fails with a *ParseError at its
// position whose message holds its fragment.
func runErrCases(t *testing.T, cases []errCase) {
	t.Helper()
	for _, c := range cases {
		gs, err := parseWith(c.p, c.src, c.lim)
		var pe *ParseError
		if c.msg == "" { // the limits make the graph impossible: any error will do
			if err == nil {
				t.Errorf("%v(%q) = %v, want an error", c.p, c.src, gs)
			}
			continue
		}
		if !errors.As(err, &pe) {
			t.Errorf("%v(%q) = %v, %v; want a *ParseError", c.p, c.src, gs, err)
			continue
		}
		if pe.Line != c.line || pe.Col != c.col || !strings.Contains(pe.Msg, c.msg) {
			t.Errorf("%v(%q):\n got  %v\n want %d:%d: ...%s...", c.p, c.src, err, c.line, c.col, c.msg)
		}
	}
}

// TestParseUndefinedDefinedLater: a name a line-notation graph leaves
// undefined but a block line after the graph's end defines is an error
// that says where that block is and what ended the graph before it.
func TestParseUndefinedDefinedLater(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"entry: br b\n{{1}}\nb: ret\n", `f.cfg:1:11: undefined block "b" (target 1 of block "entry"): a block "b" follows at 3:1, after the compact graph at 2:1 that ended this graph (a line-notation graph ends at a line starting with '{' or a line "---")`},
		{"a: if c b\nc: ret\n---\n# b\n  b [w=2] : ret\n", `f.cfg:1:9: undefined block "b" (target 2 of block "a"): a block "b" follows at 5:3, after the "---" at 3:1 that ended this graph (a line-notation graph ends at a line starting with '{' or a line "---")`},
		{"a: br b\n---\nc: br b\nbb: ret\n", `f.cfg:1:7: undefined block "b" (target 1 of block "a")`},
		{"a: br b\n", `f.cfg:1:7: undefined block "b" (target 1 of block "a")`},
	} {
		if _, err := Parse("f.cfg", []byte(c.src), Limits{}); err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q):\n got  %v\n want %s", c.src, err, c.want)
		}
	}
}

func TestParseErrorFormat(t *testing.T) {
	for _, c := range []struct {
		err  ParseError
		want string
	}{
		{ParseError{"", 3, 7, "bad"}, "3:7: bad"},
		{ParseError{"a.cfg", 1, 1, "bad"}, "a.cfg:1:1: bad"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// TestParseTenMillionBlocks checks that a graph claiming far more blocks
// than the limit fails at the first block past it, quickly and without
// memory for the blocks beyond.
func TestParseTenMillionBlocks(t *testing.T) {
	const n = 10_000_000
	huge := "{" + strings.Repeat("{},", n) + "}"
	for _, limit := range []int{0, 1000} {
		lim := Limits{MaxBlocks: limit}
		want := lim.withDefaults().MaxBlocks
		alloc := allocatedBytes(func() {
			_, err := ParseCompact(huge, lim)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Col != 2+3*want || !strings.Contains(pe.Msg, "too many blocks: block "+strconv.Itoa(want)+" is beyond the limit") {
				t.Errorf("limit %d: %v", want, err)
			}
		})
		// Per block: an end offset while reading, 8 bytes, about five times
		// over as append grows the slice by a quarter (TotalAlloc counts
		// every copy, not the peak).
		if budget := uint64(64*want + 4096); alloc > budget {
			t.Errorf("limit %d: allocated %d bytes, want at most %d", want, alloc, budget)
		}
	}

	wide := "{{" + strings.Repeat("0,", n) + "}}"
	alloc := allocatedBytes(func() {
		_, err := ParseCompact(wide, Limits{MaxSuccs: 100})
		if err == nil || !strings.Contains(err.Error(), "too many successors") {
			t.Errorf("ten million successors: %v", err)
		}
	})
	if alloc > 64<<10 {
		t.Errorf("ten million successors: allocated %d bytes", alloc)
	}

	var sb strings.Builder
	for i := range 200_000 {
		sb.WriteString("x" + strconv.Itoa(i) + ": br x" + strconv.Itoa(i+1) + "\n")
	}
	alloc = allocatedBytes(func() {
		_, err := ParseLines(sb.String(), Limits{MaxBlocks: 1000})
		if err == nil || !strings.Contains(err.Error(), `1000:10: too many block names: "x1000"`) {
			t.Errorf("200,000 lines: %v", err)
		}
	})
	if alloc > 1<<20 {
		t.Errorf("200,000 lines against a limit of 1000: allocated %d bytes", alloc)
	}
}

// allocatedBytes measures the heap bytes f allocates.
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestParseSharesNoSuccessorStorage(t *testing.T) {
	g := mustCompact(t, "{{1, 2}, {2}, {}}")
	g.Succs[0] = append(g.Succs[0], 0)
	if !slices.Equal(g.Succs[1], []int{2}) {
		t.Fatalf("appending to block 0's successors changed block 1's: %v", g.Succs)
	}
}

func TestFormatLinesLabels(t *testing.T) {
	cases := []struct {
		names []string
		want  string // the first line's label of each block, space-separated
		exact bool   // reads back with the same names
	}{
		{nil, "b0 b1 b2", true},
		{[]string{"", "", ""}, "b0 b1 b2", true},
		{[]string{"entry", "", "exit"}, "entry b1 exit", true},
		{[]string{"b0", "b1", "x"}, "b0 b1 x", false}, // own default names read back as ""
		{[]string{"b2", "", ""}, "b2_1 b1 b2", false},
		{[]string{"b2", "", "y"}, "b2 b1 y", true}, // b2 is free: block 2 is named
		{[]string{"x", "x", "x_1"}, "x x_2 x_1", false},
		{[]string{"a b", "a_b", ""}, "a_b_1 a_b b2", false},
		{[]string{"é", "", ""}, "__ b1 b2", false},
		{[]string{"ret", "if", "switch"}, "ret if switch", true},
	}
	for _, c := range cases {
		g := FromSuccs([][]int{{1}, {2}, {}})
		g.Names = c.names
		text := FormatLines(g)
		var labels []string
		for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
			labels = append(labels, line[:strings.IndexAny(line, " :")])
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("names %q: labels %q, want %q", c.names, got, c.want)
		}
		h, err := ParseLines(text, Limits{})
		if err != nil {
			t.Errorf("names %q: %v\n%s", c.names, err, text)
			continue
		}
		if h.Equal(g) != c.exact {
			t.Errorf("names %q: read back as %q, exact = %v, want %v", c.names, h.Names, h.Equal(g), c.exact)
		}
		if FormatLines(h) != text {
			t.Errorf("names %q: FormatLines is not a fixed point:\n%s\n%s", c.names, text, FormatLines(h))
		}
	}
}

// readTestdata parses a file of graphs under testdata.
func readTestdata(t *testing.T, path string) []Item {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	items, err := Parse(path, data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// TestBlockPos: BlockPos finds each block line of a line-notation graph,
// wherever the graph starts in its file.
func TestBlockPos(t *testing.T) {
	src := "\uFEFF# head\n{{1}, {}}\n---\n  a: br c # x\n\n# y\n\tc [w=2]: br d\nd: ret\n---\nx: ret\n"
	items, err := Parse("f.cfg", []byte(src), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{4, 3}, {7, 2}, {8, 1}}
	for b, w := range want {
		if line, col := BlockPos([]byte(src), items[1], b); line != w[0] || col != w[1] {
			t.Errorf("block %d at %d:%d, want %d:%d", b, line, col, w[0], w[1])
		}
	}
	if line, col := BlockPos([]byte(src), items[2], 0); line != 10 || col != 1 {
		t.Errorf("graph 2's block 0 at %d:%d, want 10:1", line, col)
	}
}
