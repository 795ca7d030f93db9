// journal.go defines the results log, the campaign's checkpoint: one JSON
// record a line in DIR/results.jsonl, appended as graphs complete and
// fsynced in batches. A killed campaign loses at most the unsynced batch
// and a torn last line; --resume drops the torn line, replays the rest and
// runs only the indices the log lacks, so nothing is counted twice and the
// report (always computed from the log) equals an uninterrupted run's.
// DIR/campaign.json holds the Settings the log belongs to.
package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// File names inside a campaign directory.
const (
	ResultsFile  = "results.jsonl"
	CampaignFile = "campaign.json"
)

// journal appends records and syncs them every syncEvery records or
// syncAfter of time, whichever comes first.
type journal struct {
	f         *os.File
	w         *bufio.Writer
	pending   int
	lastSync  time.Time
	syncEvery int
	syncAfter time.Duration
}

// SaveSettings writes DIR/campaign.json.
func SaveSettings(dir string, s Settings) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, CampaignFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, CampaignFile))
}

// LoadSettings reads DIR/campaign.json.
func LoadSettings(dir string) (Settings, error) {
	var s Settings
	b, err := os.ReadFile(filepath.Join(dir, CampaignFile))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %v", filepath.Join(dir, CampaignFile), err)
	}
	return s, nil
}

// ReadRecords replays DIR/results.jsonl. A torn last line (a kill during a
// write) is ignored and its offset returned as good, the length of the
// valid prefix; a damaged line elsewhere is an error. A repeated index
// keeps its first record.
func ReadRecords(dir string) (recs []Record, good int64, err error) {
	f, err := os.Open(filepath.Join(dir, ResultsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	seen := map[int]bool{}
	for lineNo := 1; ; lineNo++ {
		line, rerr := br.ReadBytes('\n')
		if rerr == io.EOF {
			return recs, good, nil // a line without its newline is torn
		}
		if rerr != nil {
			return nil, 0, rerr
		}
		var r Record
		if err := json.Unmarshal(bytes.TrimSpace(line), &r); err != nil {
			if _, peekErr := br.Peek(1); peekErr == io.EOF {
				return recs, good, nil
			}
			return nil, 0, fmt.Errorf("%s:%d: %v", ResultsFile, lineNo, err)
		}
		good += int64(len(line))
		if !seen[r.Index] {
			seen[r.Index] = true
			recs = append(recs, r)
		}
	}
}

// openJournal opens the log for appending: truncated to good bytes when
// resuming, emptied otherwise.
func openJournal(dir string, resume bool, good int64) (*journal, error) {
	flags := os.O_CREATE | os.O_WRONLY
	if !resume {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), flags, 0o644)
	if err != nil {
		return nil, err
	}
	if resume {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, err
		}
		if _, err := f.Seek(good, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
	}
	return &journal{f: f, w: bufio.NewWriterSize(f, 1<<16), lastSync: time.Now(), syncEvery: 4096, syncAfter: time.Second}, nil
}

// add appends one record, syncing when the batch is full or old.
func (j *journal) add(r *Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	j.w.Write(b)
	if err := j.w.WriteByte('\n'); err != nil {
		return err
	}
	j.pending++
	if j.pending >= j.syncEvery || time.Since(j.lastSync) >= j.syncAfter {
		return j.sync()
	}
	return nil
}

func (j *journal) sync() error {
	if err := j.w.Flush(); err != nil {
		return err
	}
	j.pending, j.lastSync = 0, time.Now()
	return j.f.Sync()
}

func (j *journal) close() error {
	err := j.sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}
