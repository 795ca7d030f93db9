// answer.go reads and checks one answer of a structurizer server against
// the protocol (PROTOCOL.md, "Response" and "Failure behaviour"): a line of
// at most the answer limit, read without holding more than that in memory;
// blank lines skipped; no object writing a key twice (dupkey.go); an ok
// answer carrying exactly one of module and func, a func whose blocks
// write their required fields and name only blocks of the request's graph,
// a known outcome, a reason with refused and error. What breaks these
// rules is a protocol violation, answered as a crash whose signature names
// the rule broken.

package fuzz

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// errAnswerTooLong: a line grew past the answer limit.
var errAnswerTooLong = errors.New("answer too long")

// readAnswerLine reads one line (its newline included) of at most max
// bytes, newline excluded. A longer line fails with errAnswerTooLong once
// max+1 bytes are read, whether or not a newline ever comes; a line cut
// short by the end of the output or by the reader's deadline fails with
// that error (io.EOF, os.ErrDeadlineExceeded), returning what it holds of
// the line, which no newline ended (unended).
func readAnswerLine(r *bufio.Reader, max int) ([]byte, error) {
	var chunks [][]byte // copies of the full buffers read so far
	total := 0
	for {
		frag, err := r.ReadSlice('\n')
		total += len(frag)
		body := total
		if err == nil {
			body-- // the newline
		}
		if body > max {
			return nil, errAnswerTooLong
		}
		switch {
		case err == nil && chunks == nil:
			return bytes.Clone(frag), nil
		case err == nil:
			return bytes.Join(append(chunks, frag), nil), nil
		case errors.Is(err, bufio.ErrBufferFull):
			chunks = append(chunks, bytes.Clone(frag))
		default:
			return bytes.Join(append(chunks, frag), nil), err
		}
	}
}

// unended says what a server wrote of a line that no newline ended (""
// nothing but white space): how many bytes, and their start quoted.
// Without its newline an answer is not one, and what it held would
// otherwise be lost to the finding that the server's end or silence
// makes.
func unended(partial []byte) string {
	if isBlank(partial) {
		return ""
	}
	return fmt.Sprintf("it wrote %d bytes without the newline that ends an answer: %s", len(partial), excerpt(partial))
}

// isBlank says whether a line holds only white space.
func isBlank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// excerpt quotes the start of a line for a reason.
func excerpt(line []byte) string {
	line = bytes.TrimRight(line, "\r\n")
	if start, cut := cutAt(line, 40); cut {
		return fmt.Sprintf("%q...", start)
	}
	return fmt.Sprintf("%q", line)
}

// cutAt is b's first n bytes at most, cut between characters, and whether
// it was cut.
func cutAt(b []byte, n int) ([]byte, bool) {
	if len(b) <= n {
		return b, false
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n], true
}

// A violation is an answer that breaks the protocol. rule names the rule
// broken in a fixed phrase, and the finding's signature is made of it
// alone ("structurize:crash:protocol: RULE"), so that one defect keeps one
// signature on every graph that shows it; detail is what the answer held
// (an excerpt of the line, an id, a value, a block's index and numbers),
// which only the finding's reason carries.
type violation struct{ rule, detail string }

// Rules of the answer (PROTOCOL.md, "Failure behaviour"). An answer line
// longer than the answer limit breaks one more, which names the limit.
const (
	ruleNotJSON     = "answer is not JSON"
	ruleNotResponse = "answer is not a response"
	ruleID          = "answer id other than the request's"
	ruleOutcome     = "unknown outcome"
	ruleBoth        = "ok answer with both module and func"
	ruleNeither     = "ok answer with neither module nor func"
	ruleOrig        = "func block whose orig is not a block of the graph"
	ruleFuncBlocks  = "func of more blocks than an answer may have"
	ruleFields      = "func block without a required field"
	ruleDupKey      = "answer with a key written twice"
	ruleNoReason    = "refused or error answer without a reason"
	ruleUnasked     = "a line no request asked for"
)

// tooLong is the violation of an answer line longer than max bytes: the
// limit is the campaign's, the same for every graph, so it is part of the
// rule.
func tooLong(max int) violation {
	return violation{rule: fmt.Sprintf("answer longer than %d bytes (--max-answer)", max)}
}

// String is the violation as a reason: "RULE: DETAIL", or the rule alone.
func (v violation) String() string {
	if v.detail == "" {
		return v.rule
	}
	return v.rule + ": " + v.detail
}

// broken says whether v is a violation (the zero violation is none).
func (v violation) broken() bool { return v.rule != "" }

// notResponse is the violation of a line that does not decode as a
// response, err the decoder's complaint: not JSON at all, or JSON of
// another shape.
func notResponse(line []byte, err error) violation {
	rule := ruleNotResponse
	if !json.Valid(line) {
		rule = ruleNotJSON
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "":
		err = fmt.Errorf("%s in field %s", te.Value, fieldPath(te.Field))
	case errors.As(err, &te): // the line itself: a number, a string, a list
		err = fmt.Errorf("a JSON %s, not an object", te.Value)
	}
	if rule == ruleNotJSON {
		return violation{rule, fmt.Sprintf("first bytes received %s (%v); %s", excerpt(line), err, stdoutAnswersOnly)}
	}
	return violation{rule, fmt.Sprintf("%s (%v)", excerpt(line), err)}
}

// keyTwice is the violation of an answer whose object at where ("" the
// top level) writes a key twice, first and second as written.
func keyTwice(first, second, where string) violation {
	keys := excerpt([]byte(first))
	if second != first {
		keys += " and " + excerpt([]byte(second)) + " (one field whatever the case)"
	}
	if where == "" {
		return violation{ruleDupKey, keys + " in the top-level object"}
	}
	path, cut := cutAt([]byte(PrintableLine(where)), 80)
	if cut {
		path = append(path, "..."...)
	}
	return violation{ruleDupKey, keys + " in " + string(path)}
}

// stdoutAnswersOnly ends the detail of an answer that is not JSON: most
// often a wrapper's banner or a log line on standard output.
const stdoutAnswersOnly = "standard output carries the protocol's answers only, one JSON object a line: logs and banners belong on standard error"

// fieldPath is a field's path in an answer as the protocol names it, from
// a path of encoding/json's: without the names of the Go types embedded
// in the types it is read into (the protocol's names are lower case).
func fieldPath(path string) string {
	var keep []string
	for _, f := range strings.Split(path, ".") {
		if f != "" && !unicode.IsUpper(rune(f[0])) {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, ".")
}

// decodeResponse reads an answer line: the response, or the violation of
// a line that is not one: not JSON, JSON of another shape, an object that
// writes a key twice (dupkey.go), or an ok answer whose func has a block
// that leaves out a required field (PROTOCOL.md, "The structured
// function"). It reads the line once, as encoding/json reads a
// proto.Response, except that the func's blocks note what they leave out
// (wireBlock), and scans it once for keys written twice.
func decodeResponse(line []byte) (proto.Response, violation) {
	var w wireResponse
	if err := json.Unmarshal(line, &w); err != nil {
		return proto.Response{}, notResponse(line, err)
	}
	if first, second, where, dup := duplicateKey(line); dup {
		return proto.Response{}, keyTwice(first, second, where)
	}
	r := w.Response
	r.Module = w.Module
	if w.Func == nil {
		return r, violation{}
	}
	if r.Outcome != proto.OK { // its func is ignored
		r.Func = nil
		return r, violation{}
	}
	f, v := w.Func.read()
	r.Func = f
	return r, v
}

// wireResponse is a response as decodeResponse reads it: its func (the
// field shadows Response.Func) through wireFunc, its module through
// wireModule.
type wireResponse struct {
	proto.Response
	Module wireModule `json:"module,omitempty"`
	Func   *wireFunc  `json:"func,omitempty"`
}

// wireModule is a module answer's bytes, read as encoding/json reads a
// []byte (standard base64 in a string, null for none) but, when the
// string holds no escape, decoded from the line in place: a module is
// most of its answer line, and encoding/json would first copy it out
// unquoted.
type wireModule []byte

func (m *wireModule) UnmarshalJSON(b []byte) error {
	if s, ok := bytes.CutPrefix(b, []byte{'"'}); ok && len(s) > 0 && s[len(s)-1] == '"' && bytes.IndexByte(s, '\\') < 0 {
		s = s[:len(s)-1]
		out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(out, s)
		if err != nil {
			return err
		}
		*m = out[:n]
		return nil
	}
	var v []byte
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = v
	return nil
}

// wireFunc is a structured function whose blocks (the field shadows
// Func.Blocks) are read through wireBlock.
type wireFunc struct {
	structurizer.Func
	Blocks []wireBlock `json:"blocks"`
}

// wireBlock is a block of a func answer as it is read: its required
// fields (the fields shadow the block's) note whether the answer wrote
// them, every other field is read into the block itself. Each field is
// read once, in the one pass over the line.
type wireBlock struct {
	structurizer.Block
	Kind  writtenKind `json:"kind"`
	Orig  writtenInt  `json:"orig"`
	Merge wireMerge   `json:"merge"`
	Term  wireTerm    `json:"term"`
}

type wireMerge struct {
	structurizer.Merge
	Kind writtenMergeKind `json:"kind"`
}

type wireTerm struct {
	structurizer.Term
	Kind writtenTermKind `json:"kind"`
}

// writtenKind, writtenMergeKind and writtenTermKind are a kind read from
// its name, and whether the answer wrote it.
type writtenKind struct {
	v  structurizer.Kind
	ok bool
}

func (w *writtenKind) UnmarshalText(b []byte) error { w.ok = true; return w.v.UnmarshalText(b) }

type writtenMergeKind struct {
	v  structurizer.MergeKind
	ok bool
}

func (w *writtenMergeKind) UnmarshalText(b []byte) error { w.ok = true; return w.v.UnmarshalText(b) }

type writtenTermKind struct {
	v  structurizer.TermKind
	ok bool
}

func (w *writtenTermKind) UnmarshalText(b []byte) error { w.ok = true; return w.v.UnmarshalText(b) }

// writtenInt is an int, and whether the answer wrote it: null is not
// writing it, as null leaves an int as it is.
type writtenInt struct {
	v  int
	ok bool
}

func (w *writtenInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, strconv.IntSize)
	if err != nil {
		what := "number"
		switch b[0] {
		case '"':
			what = "string"
		case '{':
			what = "object"
		case '[':
			what = "array"
		case 't', 'f':
			what = "bool"
		}
		return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeFor[int]()}
	}
	w.v, w.ok = int(n), true
	return nil
}

// read is the function the answer wrote, with the first block that leaves
// out a required field (the zero violation when none does). A field left
// out reads as its zero value; a synthetic block's orig, which it may
// leave out, as -1.
func (w *wireFunc) read() (*structurizer.Func, violation) {
	f := w.Func
	if w.Blocks != nil {
		f.Blocks = make([]structurizer.Block, len(w.Blocks))
	}
	var v violation
	for i := range w.Blocks {
		if lacks := w.Blocks[i].read(&f.Blocks[i]); lacks != "" && !v.broken() {
			v = violation{ruleFields, fmt.Sprintf("block %d lacks %s", i, lacks)}
		}
	}
	return &f, v
}

// read sets b to the block the answer wrote and lists the required fields
// it left out ("" none): kind; orig, unless the block is synthetic; the
// kinds of merge and term.
func (w *wireBlock) read(b *structurizer.Block) string {
	*b = w.Block
	b.Merge = w.Merge.Merge
	b.Term = w.Term.Term
	b.Kind, b.Orig, b.Merge.Kind, b.Term.Kind = w.Kind.v, w.Orig.v, w.Merge.Kind.v, w.Term.Kind.v
	if w.Kind.ok && w.Orig.ok && w.Merge.Kind.ok && w.Term.Kind.ok {
		return ""
	}
	var lacks []string
	if !w.Kind.ok {
		lacks = append(lacks, "kind")
	}
	switch {
	case w.Orig.ok:
	case w.Kind.ok && b.Kind == structurizer.Synthetic:
		b.Orig = -1
	default:
		lacks = append(lacks, "orig")
	}
	if !w.Merge.Kind.ok {
		lacks = append(lacks, "merge.kind")
	}
	if !w.Term.Kind.ok {
		lacks = append(lacks, "term.kind")
	}
	return strings.Join(lacks, ", ")
}

// unaskedLine is the violation of a server that wrote line (its start)
// when no answer was waited for: when is where it came ("after its answer
// to this request").
func unaskedLine(line []byte, when string) violation {
	return violation{ruleUnasked, fmt.Sprintf("%s, %s; a server writes one answer line per request, after reading it", excerpt(line), when)}
}

// wrongID is the violation of an answer of id to request want.
func wrongID(id, want int64) violation {
	return violation{ruleID, fmt.Sprintf("%d to request %d", id, want)}
}

// checkResponse says what in a parsed response breaks the protocol for a
// request of a graph of blocks blocks; the zero violation when nothing
// does. The id is the caller's to check.
func checkResponse(r *proto.Response, blocks int) violation {
	switch r.Outcome {
	case proto.OK:
	case proto.Refused, proto.Error:
		return checkReason(r)
	default:
		return violation{ruleOutcome, fmt.Sprintf("%q", r.Outcome)}
	}
	switch {
	case r.Module != nil && r.Func != nil:
		return violation{rule: ruleBoth}
	case r.Module == nil && r.Func == nil:
		return violation{rule: ruleNeither}
	case r.Func != nil:
		if n := len(r.Func.Blocks); n > MaxFuncBlocks(blocks) {
			return violation{ruleFuncBlocks, fmt.Sprintf("%d blocks for a %d-block graph, at most %d", n, blocks, MaxFuncBlocks(blocks))}
		}
		return checkOrigs(r.Func, blocks)
	}
	return violation{}
}

// checkReason says whether a refused or error answer lacks its reason
// (PROTOCOL.md, "Response": why it refused or failed): absent, empty or
// white space alone, it would make a refusal no one can read in the
// campaign's declined reasons and an error whose signature says nothing.
func checkReason(r *proto.Response) violation {
	if strings.TrimSpace(r.Reason) != "" {
		return violation{}
	}
	if r.Reason != "" {
		return violation{ruleNoReason, fmt.Sprintf("outcome %q, reason %q: white space alone", r.Outcome, r.Reason)}
	}
	return violation{ruleNoReason, fmt.Sprintf("outcome %q, reason absent or empty", r.Outcome)}
}

// MaxFuncBlocks is the most blocks a func answer may have for a graph of
// blocks blocks (PROTOCOL.md): 64 per block and 4,096 more, eight times
// what the growth check lets through (8 per block and 24), so that an
// answer blown up by orders of magnitude is a protocol violation, read
// and refused before it is laid out and checked at a cost in memory and
// time that grows with it.
func MaxFuncBlocks(blocks int) int { return 64*blocks + 4096 }

// checkOrigs says which block of f names an original block the graph does
// not have; the zero violation when none does.
func checkOrigs(f *structurizer.Func, blocks int) violation {
	for i, b := range f.Blocks {
		if b.Kind != structurizer.Synthetic && (b.Orig < 0 || b.Orig >= blocks) {
			return violation{ruleOrig, fmt.Sprintf("block %d: orig %d of a %d-block graph", i, b.Orig, blocks)}
		}
	}
	return violation{}
}
