// parse.go: reading graphs back from text. It defines ParseError, Item and
// the three entry points: ParseCompact (one graph in compact notation),
// ParseLines (one graph in line notation) and Parse (a file of many graphs in
// either notation). parse_compact.go and parse_lines.go hold the two
// notations' grammars; parse_scan.go the scanner they share.
//
// # Compact notation
//
//	{{1}, {2, 3}, {4}, {}}
//
// The outer list holds one successor list per block, block 0 first. A
// successor is a decimal block number (leading zeros are allowed and mean
// nothing). Whitespace and newlines may appear between any two tokens, and
// '#' starts a comment that runs to the end of the line. Commas separate the
// items of a list and nothing else: a trailing comma ({1, 2,} or
// {{1}, {},}) is an error at the comma. A successor past the last list adds
// returning blocks up to it, as bug reports leave out trailing returning
// blocks: the example above has five blocks, block 4 returning. Only a
// successor at or past Limits.MaxBlocks is out of range, so a graph may be
// far larger than its text: {{1048575}}, 11 bytes, declares 1,048,576
// blocks, the most DefaultLimits allows (MaxBlocks, 1<<20), of which all
// but two are unreachable returning blocks. The parser's memory stays
// proportional to the blocks (a few dozen bytes each); what callers do with
// such a graph must be bounded by them (cfgfuzz check: --timeout and
// --check-timeout). Compact notation carries no names and no weights.
//
// # Line notation
//
//	entry:            br loop        # comment
//	loop [w=1000]:    if body, exit
//	body:             switch loop a b
//	a: br loop
//	b: br loop
//	exit: ret
//
// One block a line, the first block line is the entry, blocks are numbered in
// line order. A line is
//
//	NAME [w=WEIGHT]: TERM TARGET...
//
// where TERM is ret (no targets), br (exactly 1), if (exactly 2, the first
// taken on a non-zero decision) or switch (3 or more: the default, then case
// 1, case 2, ...). Targets may name blocks defined further down. A name is a
// run of ASCII letters, digits and the characters '_', '.' and '-'; the
// terminator keywords are ordinary names outside the TERM position. Targets
// are separated by spaces, a comma, or both; a comma at the end of a line is
// an error. The weight attribute is optional, at most once a block; W is a
// decimal number of words, at most Limits.MaxWeight (1<<20 by default).
// A block named exactly "b<id>" (its own block number, as FormatLines writes
// unnamed blocks) gets the default name: Names[id] is "", and a graph whose
// names are all default has Names == nil.
//
// # Files
//
// Parse reads any number of graphs. Compact graphs follow each other freely
// (one a line is usual; after a compact graph only another '{', a comment or
// the end of the line may follow on that line). A line-notation graph runs
// until a line holding just "---" (a comment may follow), a line starting
// with '{' (a compact graph, which needs no "---" before it) or the end of
// input. A name a line-notation graph uses but does not define is an error
// at its first use, which also names the first block line after the graph
// that defines it, if one does, and what ended the graph before it. Sections that hold no block line (a leading or
// trailing "---") are skipped, but input without any graph is an error. A
// leading UTF-8 byte order mark is skipped. Blank lines and comments may go
// anywhere. Outside comments only ASCII is accepted; comments must be valid
// UTF-8.
//
// Positions are 1-based lines and 1-based columns counting characters, as
// an editor shows them: a leading byte order mark is not counted, and an
// invalid byte in a comment is placed by the characters before it. Only
// comments may hold non-ASCII text and every other error is reported at or
// before the first non-ASCII byte outside one, so the scanner counts bytes
// and agrees with characters wherever an error points.
//
// Every accepted graph passes Validate with the same limits. The limits are
// checked while reading: the (MaxBlocks+1)-th block, the (MaxSuccs+1)-th
// successor of a block, a target number not below MaxBlocks and a weight
// above MaxWeight stop the parser at once, so memory stays proportional to
// the limits, not to the input's claims.

package cfg

import "fmt"

// ParseError is a syntax or limit error at a position in the input. Line and
// Col are 1-based; Col counts characters, a leading byte order mark not
// among them.
type ParseError struct {
	File      string // empty when the input has no file name
	Line, Col int
	Msg       string // what was expected and what was found
}

// Error formats the error as file:line:col: msg, or line:col: msg without a
// file name.
func (e *ParseError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Item is one graph of a file and where it starts: the position of its
// opening '{' or of its first block line's name (columns as ParseError's).
type Item struct {
	Graph     *Graph
	Line, Col int
}

// ParseCompact reads exactly one graph in compact notation, e.g.
// {{1}, {2, 3}, {4}, {}}. Errors are *ParseError without a file name.
func ParseCompact(src string, lim Limits) (*Graph, error) {
	s := newScanner("", src)
	if err := s.skipSpace(true); err != nil {
		return nil, err
	}
	if s.eof() {
		return nil, s.errHere("no graph: expected '{' to start a graph in compact notation, found end of input")
	}
	if s.peek() != '{' {
		return nil, s.errHere("expected '{' to start a graph in compact notation, found %s", s.found())
	}
	g, err := parseCompactGraph(s, lim.withDefaults())
	if err != nil {
		return nil, err
	}
	return g, s.expectEnd("ParseCompact")
}

// ParseLines reads exactly one graph in line notation. Errors are
// *ParseError without a file name.
func ParseLines(src string, lim Limits) (*Graph, error) {
	s := newScanner("", src)
	if err := s.skipSpace(true); err != nil {
		return nil, err
	}
	if s.eof() {
		return nil, s.errHere("no graph: expected a block line (name: terminator targets...), found end of input")
	}
	if !isNameByte(s.peek()) {
		return nil, s.errHere("expected a block name to start a graph in line notation, found %s", s.found())
	}
	g, err := parseLinesGraph(s, lim.withDefaults())
	if err != nil {
		return nil, err
	}
	return g, s.expectEnd("ParseLines")
}

// Parse reads every graph of a file, in either notation, detected per graph:
// a graph starting with '{' is compact, anything else is line notation.
// Compact graphs follow each other directly; line-notation graphs are
// separated by a line "---". file names the input in error messages. Input
// without any graph is an error ("no graph"). On error Parse returns no
// items and a *ParseError.
func Parse(file string, data []byte, lim Limits) ([]Item, error) {
	lim = lim.withDefaults()
	s := newScanner(file, string(data))
	var items []Item
	for {
		if err := s.skipSpace(true); err != nil {
			return nil, err
		}
		if s.eof() {
			break
		}
		if s.atSeparator() {
			s.skipLine()
			continue
		}
		line, col := s.line, s.col()
		g, err := parseOneGraph(s, lim)
		if err != nil {
			return nil, err
		}
		items = append(items, Item{Graph: g, Line: line, Col: col})
	}
	if len(items) == 0 {
		return nil, s.errHere("no graph: the input holds only whitespace and comments")
	}
	return items, nil
}

// parseOneGraph reads the graph at s's position, choosing the notation by its
// first byte.
func parseOneGraph(s *scanner, lim Limits) (*Graph, error) {
	switch c := s.peek(); {
	case c == '{':
		g, err := parseCompactGraph(s, lim)
		if err != nil {
			return nil, err
		}
		return g, s.endCompactLine()
	case isNameByte(c):
		return parseLinesGraph(s, lim)
	default:
		return nil, s.errHere("expected a graph: '{' (compact notation) or a block name (line notation), found %s", s.found())
	}
}

// expectEnd checks that nothing but whitespace and comments follows the one
// graph that ParseCompact or ParseLines read.
func (s *scanner) expectEnd(fn string) error {
	if err := s.skipSpace(true); err != nil {
		return err
	}
	if s.eof() {
		return nil
	}
	what := s.found()
	if s.atSeparator() {
		what = "'---'"
	}
	return s.errHere("expected end of input after the graph, found %s (%s reads one graph; Parse reads files of many)", what, fn)
}

// endCompactLine checks what follows a compact graph on its line: another
// '{', a comment or the end of the line.
func (s *scanner) endCompactLine() error {
	if err := s.skipSpace(false); err != nil {
		return err
	}
	if c := s.peek(); c == eofByte || c == '\n' || c == '{' {
		return nil
	}
	return s.errHere("expected '{', a comment or end of line after a graph, found %s", s.found())
}

// BlockPos is the position of block b's name in the line-notation graph it
// that Parse read from data: the start of the graph's b-th block line
// (counting from 0), found by reading the graph's lines again from its
// start, so it costs the graph's text up to that line. b must be a block of
// it.Graph, and it must be in line notation.
func BlockPos(data []byte, it Item, b int) (line, col int) {
	s := newScanner("", string(data))
	for s.line < it.Line {
		s.skipLine()
	}
	s.pos = s.lineStart + it.Col - 1
	for range b {
		s.skipLine()
		_ = s.skipSpace(true) // these lines were read once already
	}
	return s.line, s.col()
}
