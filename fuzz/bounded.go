// bounded.go: the files of a campaign directory and of a state directory
// that --resume and merge read, read within a bound, as cfg.ReadInput
// reads a graph: a damaged or hostile file (one of gigabytes, a
// results-log line that never ends) is an error naming the file, the line
// where there is one, and the limit it passed, never a read that runs
// until memory runs out; a file that is not a regular one (a named pipe,
// a device) is an error naming it. Each limit is far past what a campaign
// writes.

package fuzz

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cfgfuzz/cfgfuzz/internal/bounded"
)

// Limits of the files a resume and a merge read.
const (
	// MaxRecordLine bounds one line of results.jsonl (under the default
	// --max-answer: recordLineLimit): 512 MiB. A record holds one graph
	// in compact notation (about 1 MiB for the generator's largest,
	// 65,536 blocks), a failing graph's structured function and, for the
	// first divergent graphs of each class of a comparison, both sides'
	// modules in base64: the largest measured, a 16,000-block graph at
	// 1,000 words a block (the 2^24 filler words a module may carry)
	// compared with both modules kept, is a line of 171 MiB.
	MaxRecordLine = 512 << 20
	// MaxCampaignFile bounds campaign.json: 16 MiB. Its settings hold
	// no graph; a comparison of every generator and weight setting
	// writes under 3 KiB.
	MaxCampaignFile = 16 << 20
	// MaxReportFile bounds report.json as a merge and a resume read it:
	// 1 GiB. A report holds the records' examples, the first five
	// divergent graphs of each class with both modules: the report of the
	// 171 MiB record above is 171 MiB.
	MaxReportFile = 1 << 30
	// MaxStoreFile bounds a state's findings.json: 1 GiB, for a store of
	// up to 3 kept graphs and a minimized graph a signature.
	MaxStoreFile = 1 << 30
	// MaxTriageFile bounds a state's triage.txt, a file written by hand:
	// 64 MiB.
	MaxTriageFile = 64 << 20
	// MaxCorpusFile bounds a guided campaign's corpus file (entries.jsonl):
	// 256 MiB, for MaxCorpus entries of graphs that mutations take, each
	// line a few KiB.
	MaxCorpusFile = 256 << 20
	// MaxSeenFile bounds a state's seen.bloom: its one size, the magic
	// line and 2^24 bits (2 MiB).
	MaxSeenFile = int64(len(bloomMagicLine) + BloomBits/8)
	// MaxLockFile bounds a campaign's or a state's lock as it is read:
	// 4 KiB, for a pid and a host name (at most 255 bytes).
	MaxLockFile = 4 << 10
)

// recordLineLimit bounds a results-log line of a campaign under settings
// s: MaxRecordLine, and twice a --max-answer larger than the default
// more, as each side's answer may carry a module that large.
func recordLineLimit(s *Settings) int {
	if s.MaxAnswer > DefaultMaxAnswer {
		return MaxRecordLine + 2*s.MaxAnswer
	}
	return MaxRecordLine
}

// openRegular opens the regular file at path for reading (bounded.Open:
// a file that is not regular is refused naming it, never waited on).
func openRegular(path string) (*os.File, error) { return bounded.Open(path) }

// readFileWithin reads the regular file at path whole within limit bytes
// (bounded.ReadFile); what names the file's kind in the error of one
// past it ("a campaign.json").
func readFileWithin(path string, limit int64, what string) ([]byte, error) {
	return bounded.ReadFile(path, limit, what)
}

// readReportFile reads DIR/report.json within MaxReportFile.
func readReportFile(dir string) ([]byte, error) {
	return readFileWithin(filepath.Join(dir, "report.json"), MaxReportFile, "a report.json")
}

// lineReader reads a file's lines, each within a bound.
type lineReader struct {
	path  string // names the file in the errors
	br    *bufio.Reader
	limit int    // bytes of a line, its newline not counted
	what  string // what a line is, for the error: "a results-log line"
	n     int    // the line last read, from 1
}

func newLineReader(path string, r io.Reader, limit int, what string) *lineReader {
	return &lineReader{path: path, br: bufio.NewReaderSize(r, 1<<16), limit: limit, what: what}
}

// next reads the next line with its newline; at the end of the file, what
// is left after the last newline (maybe nothing) with io.EOF. A line
// longer than the limit is an error naming the file, the line and the
// limit, returned once the limit is passed: the rest is not read. Any
// other error names the file and line too.
func (lr *lineReader) next() ([]byte, error) {
	lr.n++
	var full [][]byte // the buffers filled before the line's end, copied
	n := 0
	for {
		chunk, err := lr.br.ReadSlice('\n')
		n += len(chunk)
		if text := n - btoi(err == nil); text > lr.limit { // the newline does not count
			return nil, fmt.Errorf("%s:%d: more than %s, the limit of %s: a damaged file, or not one cfgfuzz wrote", lr.path, lr.n, ByteSize(lr.limit), lr.what)
		}
		switch err {
		case bufio.ErrBufferFull:
			full = append(full, bytes.Clone(chunk))
			continue
		case nil, io.EOF:
		default:
			return nil, fmt.Errorf("%s:%d: %w", lr.path, lr.n, err)
		}
		line := make([]byte, 0, n)
		for _, b := range full {
			line = append(line, b...)
		}
		return append(line, chunk...), err
	}
}
