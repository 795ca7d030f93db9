// parse_compact.go: the compact notation's grammar ({{1}, {2, 3}, {}}). It
// defines compactReader, which reads one graph into a flat successor array,
// and graphFromFlat, which slices that array into a Graph (both notations
// use it).

package cfg

import (
	"fmt"
	"strings"
)

// compactReader reads one compact graph. Successors go into one flat array
// and ends[b] is where block b's successors end in it.
type compactReader struct {
	s     *scanner
	lim   Limits
	bound int // a successor must be below bound: the block limit
	flat  []int
	ends  []int
	max   int // the largest successor seen, -1 if none

	openLine, openCol int // the graph's '{'
}

// parseCompactGraph reads the graph whose '{' is at s's position. Successors
// are checked against the block limit while reading; when one turns out to
// name a block beyond the graph's end, the graph is read again with the
// block count as the bound so that the error points at the first such
// successor.
func parseCompactGraph(s *scanner, lim Limits) (*Graph, error) {
	start := *s
	r := &compactReader{s: s, lim: lim, bound: lim.MaxBlocks, max: -1}
	if err := r.graph(); err != nil {
		return nil, err
	}
	n := len(r.ends)
	if n == 0 {
		return nil, start.errHere("empty graph: expected at least one successor list in '{...}' (block 0 is the entry)")
	}
	// Bug reports often leave out the lists of trailing returning blocks
	// ({{1}, {2, 3}, {4}, {}} names block 4 without listing it): a
	// successor past the last list, within the block limit, adds the
	// blocks up to it, each returning.
	for len(r.ends) <= r.max {
		r.ends = append(r.ends, len(r.flat))
	}
	n = len(r.ends)
	g := graphFromFlat(r.flat, r.ends)
	g.Weights = make([]int, n)
	return g, nil
}

// graphFromFlat builds the successor lists of a graph from a flat array and
// the end offsets of each block's run in it. The lists share the array but
// are capped, so appending to one never overwrites another.
func graphFromFlat(flat, ends []int) *Graph {
	g := &Graph{Succs: make([][]int, len(ends))}
	start := 0
	for b, end := range ends {
		g.Succs[b] = flat[start:end:end]
		start = end
	}
	return g
}

// graph reads '{' list, list, ... '}'. A ',' separates two lists: one
// before the '}' is an error at the comma.
func (r *compactReader) graph() error {
	s := r.s
	r.openLine, r.openCol = s.line, s.col()
	s.pos++
	comma := false // the last token was a ',' (at commaLine:commaCol)
	var commaLine, commaCol int
	for {
		if err := s.skipSpace(true); err != nil {
			return err
		}
		switch s.peek() {
		case '}':
			if comma {
				return s.errAt(commaLine, commaCol, "trailing comma after the successor list of block %d: a ',' is followed by the next list, '}' ends the graph", len(r.ends)-1)
			}
			s.pos++
			return nil
		case '{':
			if len(r.ends) >= r.lim.MaxBlocks {
				return s.errHere("too many blocks: block %d is beyond the limit of %d blocks", len(r.ends), r.lim.MaxBlocks)
			}
			if err := r.list(); err != nil {
				return err
			}
		default:
			if comma {
				return r.unexpected("expected '{' to start the successor list of block %d after ','", "", len(r.ends))
			}
			return r.unexpected("expected '{' to start the successor list of block %d, or '}' to end the graph", "", len(r.ends))
		}
		if err := s.skipSpace(true); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			comma, commaLine, commaCol = true, s.line, s.col()
			s.pos++
		case '}':
			comma = false
		default:
			return r.unexpected("expected ',' or '}' after the successor list of block %d", "", len(r.ends)-1)
		}
	}
}

// list reads the successor list of the next block: '{' n, n, ... '}'. A
// ',' separates two successors: one before the '}' is an error at the
// comma.
func (r *compactReader) list() error {
	s := r.s
	b := len(r.ends)
	count := 0
	s.pos++
	comma := false // the last token was a ',' (at commaLine:commaCol)
	var commaLine, commaCol int
	for {
		if err := s.skipSpace(true); err != nil {
			return err
		}
		switch c := s.peek(); {
		case c == '}' && comma:
			return s.errAt(commaLine, commaCol, "trailing comma after successor %d of block %d: a ',' is followed by the next successor, '}' ends the list", count-1, b)
		case c == '}':
			s.pos++
			r.ends = append(r.ends, len(r.flat))
			return nil
		case isDigit(c):
			if err := r.successor(b, count); err != nil {
				return err
			}
			count++
		case c == '-':
			return s.errHere("expected a block number in the successor list of block %d, found '-': successors are non-negative block numbers", b)
		case comma:
			return r.unexpected("expected a block number after ',' in the successor list of block %d", "", b)
		default:
			return r.unexpected("expected a block number or '}' in the successor list of block %d", "", b)
		}
		if err := s.skipSpace(true); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			comma, commaLine, commaCol = true, s.line, s.col()
			s.pos++
		case '}':
			comma = false
		default:
			return r.unexpected("expected ',' or '}' after successor", " (successor %d of block %d)", count-1, b)
		}
	}
}

// successor reads successor i of block b.
func (r *compactReader) successor(b, i int) error {
	s := r.s
	line, col := s.line, s.col()
	if i >= r.lim.MaxSuccs {
		return s.errHere("too many successors: block %d has more than the limit of %d", b, r.lim.MaxSuccs)
	}
	t, text, big := s.number(r.bound - 1)
	if big {
		return s.errAt(line, col, "block %d: successor %d is %s, too large for the limit of %d blocks", b, i, text, r.lim.MaxBlocks)
	}
	r.flat = append(r.flat, t)
	r.max = max(r.max, t)
	return nil
}

// unexpected reports what was expected, the byte at the scanner's position,
// then context; when the input ended early, also where the graph opened.
// The arguments fill the verbs of expected and context, in that order.
func (r *compactReader) unexpected(expected, context string, args ...any) error {
	found := strings.ReplaceAll(r.s.found(), "%", "%%")
	msg := fmt.Sprintf(expected+", found "+found+context, args...)
	if r.s.eof() {
		msg += fmt.Sprintf(" (the graph opened at %d:%d is not closed)", r.openLine, r.openCol)
	}
	return r.s.errHere("%s", msg)
}
