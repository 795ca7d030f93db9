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
	"syscall"

	"github.com/cfgfuzz/cfgfuzz/corpus"
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

// openRegular opens the file at path for reading, refusing one that is
// not a regular file (a named pipe would block the open, a device never
// end) with an error naming it (a *refusedFile). The open does not wait:
// it is made without blocking (O_NONBLOCK) and what it opened is checked
// again, so a named pipe put at path after the first check is refused
// too. An error finding or opening it is os.OpenFile's (os.ErrNotExist
// for a file that is not there).
func openRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, fi.Mode())
		}
		return nil, err
	}
	return f, nil
}

// refusedFile is the error of a file refused unread, or read no further
// than its limit: not a regular file, or larger than its limit.
type refusedFile struct{ msg string }

func (e *refusedFile) Error() string { return e.msg }

// notRegular is openRegular's error for a file of mode m at path.
func notRegular(path string, m os.FileMode) error {
	return &refusedFile{fmt.Sprintf("%s: not a regular file but %s", path, corpus.FileKind(m))}
}

// readFileWithin reads the regular file at path (openRegular) whole,
// failing without reading it when it is larger than limit bytes and,
// should it grow while it is read, once it has read more; what names the
// file's kind in that error ("a campaign.json").
func readFileWithin(path string, limit int64, what string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, fileTooLarge(path, limit, what)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fileTooLarge(path, limit, what)
	}
	return data, nil
}

// readReportFile reads DIR/report.json within MaxReportFile.
func readReportFile(dir string) ([]byte, error) {
	return readFileWithin(filepath.Join(dir, "report.json"), MaxReportFile, "a report.json")
}

// fileTooLarge is readFileWithin's error.
func fileTooLarge(path string, limit int64, what string) error {
	return &refusedFile{fmt.Sprintf("%s: more than %s, the limit of %s: a damaged file, or not one cfgfuzz wrote", path, ByteSize(limit), what)}
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
