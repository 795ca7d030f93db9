// answer.go reads and checks one answer of a structurizer server against
// the protocol (PROTOCOL.md, "Response" and "Failure behaviour"): a line of
// at most the answer limit, read without holding more than that in memory;
// blank lines skipped; an ok answer carrying exactly one of module and
// func, a func naming only blocks of the request's graph, a known outcome.
// What breaks these rules is a protocol violation, answered as a crash.
package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// errAnswerTooLong: a line grew past the answer limit.
var errAnswerTooLong = errors.New("answer too long")

// readAnswerLine reads one line (its newline included) of at most max
// bytes, newline excluded. A longer line fails with errAnswerTooLong once
// max+1 bytes are read, whether or not a newline ever comes; a line cut
// short by the end of the output fails with that error (io.EOF).
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
			return nil, err
		}
	}
}

// isBlank says whether a line holds only white space.
func isBlank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// excerpt quotes the start of a line for a reason.
func excerpt(line []byte) string {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > 40 {
		return fmt.Sprintf("%q...", line[:40])
	}
	return fmt.Sprintf("%q", line)
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
	return violation{rule, fmt.Sprintf("%s (%v)", excerpt(line), err)}
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
		return violation{}
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
