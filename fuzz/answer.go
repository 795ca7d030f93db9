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

// checkResponse says what in a parsed response breaks the protocol for a
// request of a graph of blocks blocks, or "".
func checkResponse(r *proto.Response, blocks int) string {
	switch r.Outcome {
	case proto.OK:
	case proto.Refused, proto.Error:
		return ""
	default:
		return fmt.Sprintf("unknown outcome %q", r.Outcome)
	}
	switch {
	case r.Module != nil && r.Func != nil:
		return "ok answer with both module and func"
	case r.Module == nil && r.Func == nil:
		return "ok answer with neither module nor func"
	case r.Func != nil:
		if n := len(r.Func.Blocks); n > MaxFuncBlocks(blocks) {
			return fmt.Sprintf("func of %d blocks for a %d-block graph, more than the %d an answer may have", n, blocks, MaxFuncBlocks(blocks))
		}
		return checkOrigs(r.Func, blocks)
	}
	return ""
}

// MaxFuncBlocks is the most blocks a func answer may have for a graph of
// blocks blocks (PROTOCOL.md): 64 per block and 4,096 more, eight times
// what the growth check lets through (8 per block and 24), so that an
// answer blown up by orders of magnitude is a protocol violation, read
// and refused before it is laid out and checked at a cost in memory and
// time that grows with it.
func MaxFuncBlocks(blocks int) int { return 64*blocks + 4096 }

// checkOrigs says which block of f names an original block the graph does
// not have, or "".
func checkOrigs(f *structurizer.Func, blocks int) string {
	for i, b := range f.Blocks {
		if b.Kind != structurizer.Synthetic && (b.Orig < 0 || b.Orig >= blocks) {
			return fmt.Sprintf("func block %d: orig %d is not a block of the %d-block graph", i, b.Orig, blocks)
		}
	}
	return ""
}
