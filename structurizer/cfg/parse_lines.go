// parse_lines.go: the line notation's grammar (one block a line,
// "name [w=W]: TERM targets..."). It defines linesReader, which reads one
// graph, resolving names that are used before their definition, the
// terminator table, and the default-name rule (a block named "b<id>" is
// unnamed).

package cfg

import (
	"fmt"
	"strconv"
	"strings"
)

// terminator is one TERM keyword and how many targets it takes.
type terminator struct {
	word     string
	min, max int // max < 0: no bound but the successor limit
	usage    string
}

var terminators = [...]terminator{
	{"ret", 0, 0, "ret takes no targets"},
	{"br", 1, 1, "br takes exactly 1 target"},
	{"if", 2, 2, "if takes exactly 2 targets (true, false)"},
	{"switch", 3, -1, "switch takes 3 or more targets (default, case 1, case 2, ...)"},
}

func lookupTerminator(word string) (terminator, bool) {
	for _, t := range terminators {
		if t.word == word {
			return t, true
		}
	}
	return terminator{}, false
}

// forwardRef is a name used as a target before any line defined it. Where
// it was first used is found again only for an error (see firstUse).
type forwardRef struct {
	name string
	id   int // the block that defines name, -1 while undefined
}

// linesReader reads one graph in line notation. Targets go into one flat
// array as block ids, or as -(k+1) for a name still undefined, pending[k].
type linesReader struct {
	s       *scanner
	lim     Limits
	start   scanner   // the graph's first line, to find definitions again
	ids     nameTable // name -> block id, or -(k+1) for pending[k]
	pending []forwardRef
	flat    []int
	ends    []int
	weights []int
	names   []string // nil while every block has its default name
	nameLen int      // total bytes of names
}

// parseLinesGraph reads the graph whose first block line starts at s's
// position, up to the end of input, a "---" line or a line starting with '{'.
func parseLinesGraph(s *scanner, lim Limits) (*Graph, error) {
	r := &linesReader{s: s, lim: lim, start: *s, ids: nameTable{limit: min(lim.MaxBlocks, 1<<24)}}
	est := min(estimateLines(s.src[s.pos:]), lim.MaxBlocks)
	r.ends = make([]int, 0, est)
	r.weights = make([]int, 0, est)
	r.flat = make([]int, 0, 2*est)
	if err := r.graph(); err != nil {
		return nil, err
	}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	g := graphFromFlat(r.flat, r.ends)
	g.Weights = r.weights
	g.Names = r.packNames()
	return g, nil
}

// graph reads block lines until the graph ends.
func (r *linesReader) graph() error {
	s := r.s
	for {
		if err := r.block(); err != nil {
			return err
		}
		if err := s.skipSpace(true); err != nil {
			return err
		}
		if s.eof() || s.peek() == '{' || s.atSeparator() {
			return nil
		}
	}
}

// block reads one block line, its newline included.
func (r *linesReader) block() error {
	s := r.s
	id := len(r.ends)
	line, col := s.line, s.col()
	name := s.name()
	if name == "" {
		return s.errHere("expected a block name at the start of a line, found %s", s.found())
	}
	if id >= r.lim.MaxBlocks {
		return s.errAt(line, col, "too many blocks: block %s would be block %d, beyond the limit of %d blocks", quote(name), id, r.lim.MaxBlocks)
	}
	if err := r.define(name, id, line, col); err != nil {
		return err
	}
	if err := r.attributes(name); err != nil {
		return err
	}
	if s.peek() != ':' {
		return s.errHere("expected '[' or ':' after block name %s, found %s", quote(name), s.found())
	}
	s.pos++
	if err := r.terminatorAndTargets(name); err != nil {
		return err
	}
	r.ends = append(r.ends, len(r.flat))
	if s.peek() == '\n' {
		s.newline()
	}
	return nil
}

// attributes reads an optional "[w=W]" and the blanks around it, and
// records the block's weight.
func (r *linesReader) attributes(block string) error {
	s := r.s
	if err := s.skipSpace(false); err != nil {
		return err
	}
	if s.peek() != '[' {
		r.weights = append(r.weights, 0)
		return nil
	}
	s.pos++
	if err := s.skipSpace(false); err != nil {
		return err
	}
	line, col := s.line, s.col()
	if key := s.name(); key != "w" {
		what := s.found()
		if key != "" {
			what = strconv.Quote(key)
		}
		return s.errAt(line, col, "expected 'w=' (the weight) after '[', found %s", what)
	}
	if err := s.skipSpace(false); err != nil {
		return err
	}
	if s.peek() != '=' {
		return s.errHere("expected '=' after 'w', found %s", s.found())
	}
	s.pos++
	if err := s.skipSpace(false); err != nil {
		return err
	}
	if !isDigit(s.peek()) {
		return s.errHere("expected a weight (a non-negative number of words) after 'w=', found %s", s.found())
	}
	line, col = s.line, s.col()
	w, text, big := s.number(r.lim.MaxWeight)
	if big {
		return s.errAt(line, col, "block %s: weight %s is above the limit of %d", quote(block), text, r.lim.MaxWeight)
	}
	if err := s.skipSpace(false); err != nil {
		return err
	}
	if s.peek() != ']' {
		return s.errHere("expected ']' after the weight, found %s", s.found())
	}
	s.pos++
	r.weights = append(r.weights, w)
	return s.skipSpace(false)
}

// terminatorAndTargets reads "TERM target..." up to the end of the line
// (the newline stays) and checks the number of targets.
func (r *linesReader) terminatorAndTargets(block string) error {
	s := r.s
	if err := s.skipSpace(false); err != nil {
		return err
	}
	line, col := s.line, s.col()
	word := s.name()
	if word == "" {
		return s.errHere("expected a terminator (ret, br, if or switch) after ':', found %s", s.found())
	}
	term, ok := lookupTerminator(word)
	if !ok {
		return s.errAt(line, col, "expected a terminator (ret, br, if or switch), found %s", quote(word))
	}
	for count := 0; ; count++ {
		if err := s.skipSpace(false); err != nil {
			return err
		}
		if c := s.peek(); c == eofByte || c == '\n' {
			if count < term.min {
				return s.errHere("%s; found %d", term.usage, count)
			}
			return nil
		}
		if err := r.separator(count, term); err != nil {
			return err
		}
		line, col := s.line, s.col()
		target := s.name()
		if term.max >= 0 && count >= term.max {
			return s.errAt(line, col, "%s; found %s as target %d", term.usage, quote(target), count+1)
		}
		if count >= r.lim.MaxSuccs {
			return s.errAt(line, col, "too many successors: block %s has more than the limit of %d", quote(block), r.lim.MaxSuccs)
		}
		t, err := r.target(target, line, col)
		if err != nil {
			return err
		}
		r.flat = append(r.flat, t)
	}
}

// separator consumes the blanks and the optional comma before target
// number count and checks that a name follows.
func (r *linesReader) separator(count int, term terminator) error {
	s := r.s
	if s.peek() == ',' && count > 0 {
		s.pos++
		if err := s.skipSpace(false); err != nil {
			return err
		}
		if !isNameByte(s.peek()) {
			return s.errHere("expected a target name after ',', found %s", s.found())
		}
		return nil
	}
	if isNameByte(s.peek()) {
		return nil
	}
	if term.max == 0 {
		return s.errHere("%s; found %s", term.usage, s.found())
	}
	if count == 0 {
		return s.errHere("expected a target name after %s, found %s", term.word, s.found())
	}
	return s.errHere("expected a target name, ',' or end of line, found %s", s.found())
}

// define records that the block line id defines name.
func (r *linesReader) define(name string, id, line, col int) error {
	v, seen := r.ids.lookup(name)
	switch {
	case seen && v >= 0:
		first := r.definitionPos(v)
		return r.s.errAt(line, col, "block %s is defined twice (first at %d:%d)", quote(name), first.line, first.col())
	case seen:
		r.pending[-v-1].id = id
	case r.ids.count >= r.lim.MaxBlocks:
		return r.s.errAt(line, col, "too many block names: %s is beyond the limit of %d blocks", quote(name), r.lim.MaxBlocks)
	}
	r.ids.store(name, id)
	r.recordName(name, id)
	return nil
}

// recordName keeps the name of block id unless it is the default "b<id>".
func (r *linesReader) recordName(name string, id int) {
	if isDefaultName(name, id) {
		if r.names != nil {
			r.names = append(r.names, "")
		}
		return
	}
	if r.names == nil {
		r.names = make([]string, id, id+16)
	}
	r.names = append(r.names, name)
	r.nameLen += len(name)
}

// target returns the block id a target name stands for, or the code of a
// forward reference.
func (r *linesReader) target(name string, line, col int) (int, error) {
	if v, seen := r.ids.lookup(name); seen {
		return v, nil
	}
	if r.ids.count >= r.lim.MaxBlocks {
		return 0, r.s.errAt(line, col, "too many block names: %s is beyond the limit of %d blocks", quote(name), r.lim.MaxBlocks)
	}
	r.pending = append(r.pending, forwardRef{name: name, id: -1})
	code := -len(r.pending)
	r.ids.store(name, code)
	return code, nil
}

// resolve replaces forward references by block ids; the first name used
// but never defined is an error at its first use.
func (r *linesReader) resolve() error {
	for _, ref := range r.pending {
		if ref.id < 0 {
			at, from, idx := r.firstUse(ref.name)
			return r.s.errAt(at.line, at.col(), "undefined block %s (target %d of block %s)%s", quote(ref.name), idx+1, quote(r.blockName(from)), r.laterDefinition(ref.name))
		}
	}
	if len(r.pending) == 0 {
		return nil
	}
	for i, t := range r.flat {
		if t < 0 {
			r.flat[i] = r.pending[-t-1].id
		}
	}
	return nil
}

// laterDefinition is the hint of an undefined name's error when a block
// line after the end of the graph defines it: the graph ended at the
// scanner's position, at a compact graph or a "---" line, and the name's
// block went to the graph after it. "" when no line defines name there.
// It reads the rest of the input (only for an error message).
func (r *linesReader) laterDefinition(name string) string {
	s := *r.s
	if s.eof() {
		return ""
	}
	endLine, endCol := s.line, s.col()
	ender := "the compact graph"
	if s.peek() != '{' {
		ender = `the "---"`
	}
	for {
		s.skipLine()
		if s.eof() {
			return ""
		}
		for s.peek() == ' ' || s.peek() == '\t' || s.peek() == '\r' {
			s.pos++
		}
		line, col := s.line, s.col()
		if s.name() != name {
			continue
		}
		for s.peek() == ' ' || s.peek() == '\t' {
			s.pos++
		}
		if c := s.peek(); c == ':' || c == '[' {
			return fmt.Sprintf(": a block %s follows at %d:%d, after %s at %d:%d that ended this graph (a line-notation graph ends at a line starting with '{' or a line \"---\")", quote(name), line, col, ender, endLine, endCol)
		}
	}
}

// firstUse finds the first use of name as a target again (only for error
// messages): the block lines were all well formed, one block a line, and the
// first ':' of a line ends its name and attributes.
func (r *linesReader) firstUse(name string) (at scanner, from, idx int) {
	s := r.start
	for b := range len(r.ends) {
		s.pos += strings.IndexByte(s.src[s.pos:], ':') + 1
		_ = s.skipSpace(false)
		s.name() // the terminator
		for i := 0; ; i++ {
			_ = s.skipSpace(false)
			if s.peek() == ',' {
				s.pos++
				_ = s.skipSpace(false)
			}
			at = s
			target := s.name()
			if target == "" {
				break
			}
			if target == name {
				return at, b, i
			}
		}
		s.skipLine()
		_ = s.skipSpace(true)
	}
	return r.start, 0, 0 // not reached: name was used
}

// estimateLines guesses how many block lines the graph at the start of src
// holds, for the initial capacity of the per-block arrays: the lines up to
// the next line starting with "---" or '{', at most 1<<16. Each search stops
// at the graph's end, so a file of many graphs is still read in linear time.
func estimateLines(src string) int {
	end := len(src)
	if i := strings.Index(src, "\n---"); i >= 0 {
		end = i
	}
	if i := strings.Index(src[:end], "\n{"); i >= 0 {
		end = i
	}
	return min(strings.Count(src[:end], "\n")+1, 1<<16)
}

// blockName is the name a block was defined with.
func (r *linesReader) blockName(b int) string {
	if b < len(r.names) && r.names[b] != "" {
		return r.names[b]
	}
	return "b" + strconv.Itoa(b)
}

// definitionPos finds the line of block b again (only for error messages):
// every block line before it was well formed, one block a line.
func (r *linesReader) definitionPos(b int) scanner {
	s := r.start
	for k := 0; k < b; k++ {
		s.skipLine()
		_ = s.skipSpace(true) // these lines were read once already
	}
	return s
}

// packNames copies the block names into one string, so the graph neither
// holds one allocation per name nor keeps the input alive.
func (r *linesReader) packNames() []string {
	if r.names == nil {
		return nil
	}
	var sb strings.Builder
	sb.Grow(r.nameLen)
	for _, name := range r.names {
		sb.WriteString(name)
	}
	all := sb.String()
	names := make([]string, len(r.ends))
	at := 0
	for b, name := range r.names {
		names[b] = all[at : at+len(name)]
		at += len(name)
	}
	return names
}

// nameTable maps names to codes (a block id, or a negative forward
// reference). Names of the form "b<k>" (k written as strconv.Itoa writes
// it, below the block limit) skip hashing: FormatLines gives every unnamed
// block such a name, so in most files most names go to an array indexed by
// k, in pages allocated as they are touched (at most 4 bytes a block and 8
// bytes a page up to the highest k used, which is below the block limit).
type nameTable struct {
	limit int // "b<k>" with k at or above this go to the map
	other map[string]int
	pages []*namePage // pages[k/namePageLen][k%namePageLen]: code+1 for ids, the code for forward references, 0 if absent
	count int         // distinct names stored
}

const namePageLen = 128

type namePage [namePageLen]int32

// indexName returns k for a name "b<k>" that the paged array holds.
func (t *nameTable) indexName(name string) (int, bool) {
	if len(name) < 2 || len(name) > 9 || name[0] != 'b' || len(name) > 2 && name[1] == '0' {
		return 0, false
	}
	k := 0
	for i := 1; i < len(name); i++ {
		c := name[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		k = k*10 + int(c-'0')
	}
	return k, k < t.limit
}

func (t *nameTable) lookup(name string) (code int, seen bool) {
	k, indexed := t.indexName(name)
	if !indexed {
		code, seen = t.other[name]
		return code, seen
	}
	if k/namePageLen >= len(t.pages) || t.pages[k/namePageLen] == nil {
		return 0, false
	}
	switch v := int(t.pages[k/namePageLen][k%namePageLen]); {
	case v > 0:
		return v - 1, true
	case v < 0:
		return v, true
	}
	return 0, false
}

// store sets name's code, counting the name if it is new.
func (t *nameTable) store(name string, code int) {
	if _, seen := t.lookup(name); !seen {
		t.count++
	}
	k, indexed := t.indexName(name)
	if !indexed {
		if t.other == nil {
			t.other = make(map[string]int)
		}
		t.other[name] = code
		return
	}
	p := k / namePageLen
	for len(t.pages) <= p {
		t.pages = append(t.pages, nil)
	}
	if t.pages[p] == nil {
		t.pages[p] = new(namePage)
	}
	if code >= 0 {
		code++
	}
	t.pages[p][k%namePageLen] = int32(code)
}

// quote quotes a name for an error message, shortened when long.
func quote(name string) string {
	if len(name) > 40 {
		return strconv.Quote(name[:32]) + "..."
	}
	return strconv.Quote(name)
}

// isDefaultName reports whether name is "b<id>" with id written the way
// strconv.Itoa writes it, the name FormatLines gives an unnamed block.
func isDefaultName(name string, id int) bool {
	if len(name) < 2 || name[0] != 'b' || len(name) > 2 && name[1] == '0' {
		return false
	}
	v := 0
	for i := 1; i < len(name); i++ {
		c := name[i]
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + int(c-'0')
		if v > id {
			return false
		}
	}
	return v == id
}
