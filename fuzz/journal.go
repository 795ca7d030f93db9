// journal.go defines the results log, the campaign's checkpoint: one JSON
// record a line in DIR/results.jsonl, appended as graphs complete and
// fsynced in batches. A killed campaign loses at most the unsynced batch
// and a torn last line; --resume drops the torn line, replays the rest and
// runs only the indices the log lacks, so nothing is counted twice and the
// report (always computed from the log) equals an uninterrupted run's.
// DIR/campaign.json holds the Settings the log belongs to. Both carry
// checksums (checksum.go) that resume and merge verify.

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
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// File names inside a campaign directory.
const (
	ResultsFile  = "results.jsonl"
	CampaignFile = "campaign.json"
)

// journal appends records and syncs them every syncEvery records or
// syncAfter of time, whichever comes first.
type journal struct {
	sum       string // the settings checksum every line is bound to
	f         *os.File
	path      string // where f was opened: each sync checks it is still there
	w         *bufio.Writer
	pending   int
	lastSync  time.Time
	syncEvery int
	syncAfter time.Duration
}

// SaveSettings writes DIR/campaign.json: the settings, their checksum and
// the writer w, the cfgfuzz that writes the campaign's log.
func SaveSettings(dir string, s Settings, w Writer) error {
	return saveCampaign(dir, s, w, "", SideFiles{})
}

// saveCampaign is SaveSettings recording the --state directory stateDir
// too ("" none), made absolute, and the digests of the sides' files.
func saveCampaign(dir string, s Settings, w Writer, stateDir string, sides SideFiles) error {
	if stateDir != "" {
		if abs, err := filepath.Abs(stateDir); err == nil {
			stateDir = abs
		}
	}
	f := settingsFile{Settings: s, Sum: SettingsSum(s), Writer: &w, StateDir: stateDir}
	if sides != (SideFiles{}) {
		f.Sides = &sides
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, CampaignFile), append(b, '\n'))
}

// recordedStateDir is the --state directory DIR/campaign.json records
// ("" none, or a file that does not say).
func recordedStateDir(dir string) string {
	var f settingsFile
	b, err := readCampaignFile(dir)
	if err != nil || json.Unmarshal(b, &f) != nil {
		return ""
	}
	return f.StateDir
}

// recordedSideFiles is the digests of the sides' files DIR/campaign.json
// records (none recorded, or a file that does not say: the zero value).
func recordedSideFiles(dir string) SideFiles {
	var f settingsFile
	b, err := readCampaignFile(dir)
	if err != nil || json.Unmarshal(b, &f) != nil || f.Sides == nil {
		return SideFiles{}
	}
	return *f.Sides
}

// LoadSettings reads DIR/campaign.json and verifies its checksum: the
// settings of LoadCampaign.
func LoadSettings(dir string) (Settings, error) {
	s, _, err := LoadCampaign(dir)
	return s, err
}

// LoadCampaign reads DIR/campaign.json: the settings, checksum verified,
// and the writer it records (format 1 and no build when it records none).
// A log format newer than LogFormat is refused before anything else is
// read: this cfgfuzz would drop what it does not know.
func LoadCampaign(dir string) (Settings, Writer, error) {
	path := filepath.Join(dir, CampaignFile)
	var f settingsFile
	b, err := readCampaignFile(dir)
	if err != nil {
		return f.Settings, Writer{}, err
	}
	w, err := campaignWriter(b)
	if err != nil {
		return f.Settings, w, fmt.Errorf("%s: %v", path, err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f.Settings, w, fmt.Errorf("%s: %v", path, jsonError(b, err))
	}
	switch got := SettingsSum(f.Settings); {
	case f.Sum == "":
		return f.Settings, w, fmt.Errorf("%s: no sha256 checksum of the settings", path)
	case got != f.Sum:
		return f.Settings, w, fmt.Errorf("%s: the settings do not match their sha256 %s (they were changed after the campaign wrote them; restore them or start a new campaign)", path, f.Sum)
	}
	return f.Settings, w, nil
}

// readCampaignFile reads DIR/campaign.json within MaxCampaignFile.
func readCampaignFile(dir string) ([]byte, error) {
	return readFileWithin(filepath.Join(dir, CampaignFile), MaxCampaignFile, "a campaign.json (settings, no graph)")
}

// campaignWriter reads the writer of campaign.json's text b, before its
// settings: a log format this cfgfuzz does not read is refused whatever
// else the file holds.
func campaignWriter(b []byte) (Writer, error) {
	var f struct {
		Writer *Writer `json:"writer"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return Writer{}, jsonError(b, err)
	}
	if f.Writer == nil {
		return Writer{Format: unrecordedFormat}, nil
	}
	switch w := *f.Writer; {
	case w.Format > LogFormat:
		return w, fmt.Errorf("written by %s, a newer log format than this cfgfuzz reads (%d): read it with the cfgfuzz that wrote it, or a newer one", w, LogFormat)
	case w.Format <= unrecordedFormat || w.Build == "":
		return w, fmt.Errorf("writer: format %d and build %q: want a log format from %d and a build (was it edited?)", w.Format, w.Build, unrecordedFormat+1)
	}
	return *f.Writer, nil
}

// ReadRecords replays DIR/results.jsonl against DIR/campaign.json. A torn
// last line (a kill during a write: no newline, or not JSON) is ignored
// and its offset returned as good, the length of the valid prefix. A line
// elsewhere that is damaged, one whose checksum does not verify and a
// record that does not fit the settings are errors naming the file and
// line. An index logged again with the same record counts once; logged
// again with another record, it is an error naming both lines.
func ReadRecords(dir string) (recs []Record, good int64, err error) {
	good, err = EachRecord(dir, func(r Record) { recs = append(recs, r) })
	if err != nil {
		return nil, 0, err
	}
	return recs, good, nil
}

// EachRecord is ReadRecords handing each record to fn as it is read, so
// that a log of any length is read in constant memory; fn sees the records
// of a log that turns out damaged further on before the error.
func EachRecord(dir string, fn func(Record)) (good int64, err error) {
	return eachRecordAt(dir, func(r *Record, _ int) error { fn(*r); return nil })
}

// eachRecordAt is EachRecord handing fn each record with its line, and
// ending the read with fn's error, named with the file and the line.
func eachRecordAt(dir string, fn func(r *Record, line int) error) (good int64, err error) {
	path := filepath.Join(dir, ResultsFile)
	f, err := openRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	s, err := LoadSettings(dir)
	if err != nil {
		return 0, err
	}
	return eachRecordIn(path, f, &s, fn)
}

// eachRecordIn is eachRecordAt on the log's text, read from text under
// the settings s; path names the log in the errors. An index logged again
// is held against its first record once the log is read (checkAgain),
// which reads text a second time.
func eachRecordIn(path string, text io.ReadSeeker, s *Settings, fn func(r *Record, line int) error) (good int64, err error) {
	sum := SettingsSum(*s)
	lr := newLineReader(path, text, recordLineLimit(s), "a results-log line (one graph's record)")
	var seen indexSet
	var again []loggedAt
	for {
		line, rerr := lr.next()
		if rerr == io.EOF {
			break // a line without its newline is torn
		}
		if rerr != nil {
			return 0, rerr
		}
		n := len(line)
		line = bytes.TrimSpace(line)
		r, torn, err := readRecord(line, sum, s)
		if torn {
			if _, peekErr := lr.br.Peek(1); peekErr == io.EOF {
				break
			}
		}
		if err != nil {
			return 0, fmt.Errorf("%s:%d: %v", path, lr.n, err)
		}
		good += int64(n)
		if !seen.add(r.Index) {
			again = append(again, loggedAt{index: r.Index, line: lr.n, sum: lineSum(line)})
		} else if err := fn(&r, lr.n); err != nil {
			return 0, fmt.Errorf("%s:%d: %v", path, lr.n, err)
		}
	}
	if err := checkAgain(path, text, good, s, again); err != nil {
		return 0, err
	}
	return good, nil
}

// loggedAt is a record of the log by its index, its line and its checksum
// (lineSum), which tells two records of an index apart; rec is the record
// itself, where checkAgain keeps it.
type loggedAt struct {
	index, line int
	sum         string
	rec         *Record
}

// lineSum is the checksum a verified log line opens with.
func lineSum(line []byte) string {
	return string(line[len(recordPrefix) : len(recordPrefix)+sumLen])
}

// checkAgain holds each index logged again (again, in line order) against
// the first record of its index in the log's first good bytes, read from
// text's start: the same record again counts once (a log a campaign
// writes never has one), another record is an error naming both lines
// and the first field in which the two differ (recordsDiffer): one index
// has one verdict, and which of the two is the index's the log cannot
// say.
func checkAgain(path string, text io.ReadSeeker, good int64, s *Settings, again []loggedAt) error {
	if len(again) == 0 {
		return nil
	}
	sum := SettingsSum(*s)
	first := map[int]loggedAt{}
	againAt := map[int]loggedAt{}
	for _, a := range again {
		first[a.index] = loggedAt{}
		againAt[a.line] = a
	}
	if _, err := text.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	lr := newLineReader(path, io.LimitReader(text, good), recordLineLimit(s), "a results-log line (one graph's record)")
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		r, _, err := readRecord(line, sum, s)
		if err != nil {
			return fmt.Errorf("%s:%d: changed while it was read", path, lr.n)
		}
		f, ok := first[r.Index]
		switch {
		case !ok:
		case f.line == 0:
			first[r.Index] = loggedAt{index: r.Index, line: lr.n, sum: lineSum(line), rec: &r}
		case againAt[lr.n].sum != f.sum:
			return fmt.Errorf("%s:%d: graph index %d logged again, with another record than line %d's (%s): an index has one verdict, and the log does not say which of the two is its own (two logs joined, or one edited): keep the line of the right one, or delete both and --resume judges the index again", path, lr.n, r.Index, f.line, recordsDiffer(&r, f.rec, f.line))
		}
	}
	return nil
}

// recordsDiffer says how record r differs from the record of line
// first: the first field, in the record's order, whose value is not
// the same, named by its JSON key (cur.outcome, base.signature), with
// both values.
func recordsDiffer(r, other *Record, first int) string {
	key, mine, theirs, ok := fieldDiff("", reflect.ValueOf(*r), reflect.ValueOf(*other))
	if !ok {
		return fmt.Sprintf("the same fields as line %d's, written otherwise", first)
	}
	return fmt.Sprintf("its %s is %s, line %d's is %s", key, mine, first, theirs)
}

// fieldDiff is the first field of a and b (values of one type) that
// differs, by the JSON key path under prefix, and its two values as a
// message writes them; false when none does.
func fieldDiff(prefix string, a, b reflect.Value) (key, va, vb string, ok bool) {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			name, _, _ := strings.Cut(a.Type().Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" || !a.Type().Field(i).IsExported() {
				continue
			}
			if prefix != "" {
				name = prefix + "." + name
			}
			if key, va, vb, ok := fieldDiff(name, a.Field(i), b.Field(i)); ok {
				return key, va, vb, true
			}
		}
		return "", "", "", false
	case reflect.Pointer:
		switch {
		case a.IsNil() && b.IsNil():
			return "", "", "", false
		case a.IsNil() || b.IsNil():
			return prefix, presence(a), presence(b), true
		}
		return fieldDiff(prefix, a.Elem(), b.Elem())
	}
	if reflect.DeepEqual(a.Interface(), b.Interface()) {
		return "", "", "", false
	}
	if x, ok := a.Interface().([]byte); ok && len(x) > 0 && len(x) == b.Len() { // the same count
		y := b.Bytes()
		i := 0
		for i < len(x) && x[i] == y[i] {
			i++
		}
		return prefix, fmt.Sprintf("%s, byte %d 0x%02x", fieldValue(a), i, x[i]), fmt.Sprintf("%s, byte %d 0x%02x", fieldValue(b), i, y[i]), true
	}
	va, vb = differingValues(fieldValue(a), fieldValue(b))
	return prefix, va, vb, true
}

// presence says whether pointer field v is set.
func presence(v reflect.Value) string {
	if v.IsNil() {
		return "absent"
	}
	return "present"
}

// fieldValue is a field's value as a message writes it, whole: a string
// quoted ("none" when empty), bytes counted, a slice or map "absent" when
// nil (absent or null in the line) and "[] (empty)" when empty, anything
// else as fmt writes it.
func fieldValue(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case string:
		return quoted(x)
	case []byte:
		if x == nil {
			return "absent"
		}
		return Plural(len(x), "byte")
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		if v.IsNil() {
			return "absent"
		}
		if v.Len() == 0 {
			return fmt.Sprint(v.Interface()) + " (empty)"
		}
	}
	return fmt.Sprint(v.Interface())
}

// differingValues are two different values of a field (fieldValue) as a
// message writes them: each cut at 80 bytes (clipSetting), and, where the
// cut ones would read the same, each from a little before the first byte
// where they differ, "..." before it.
func differingValues(a, b string) (string, string) {
	ca, cb := clipSetting(a), clipSetting(b)
	if ca != cb {
		return ca, cb
	}
	d := 0
	for d < len(a) && d < len(b) && a[d] == b[d] {
		d++
	}
	from := max(d-20, 0)
	for from > 0 && (!utf8.RuneStart(a[from]) || !utf8.RuneStart(b[from])) {
		from--
	}
	return "..." + clipSetting(a[from:]), "..." + clipSetting(b[from:])
}

// readRecord decodes and verifies one line; torn says it is not JSON at
// all (what a torn write leaves).
func readRecord(line []byte, sum string, s *Settings) (r Record, torn bool, err error) {
	if !json.Valid(line) {
		return r, true, errors.New("not a JSON record")
	}
	body, err := openRecord(line, sum)
	if err != nil {
		return r, false, err
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return r, false, err
	}
	return r, false, checkRecord(s, &r)
}

// openJournal opens the log for appending: truncated to good bytes when
// resuming, emptied otherwise.
func openJournal(dir string, resume bool, good int64, sum string) (*journal, error) {
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
	return &journal{sum: sum, f: f, path: f.Name(), w: bufio.NewWriterSize(f, 1<<16), lastSync: time.Now(), syncEvery: 4096, syncAfter: time.Second}, nil
}

// add appends one record, syncing when the batch is full or old.
func (j *journal) add(r *Record) error {
	if serversStopped() {
		// The process is ending on a second signal (StopServers): the
		// graphs still coming lost their servers to the kill, and a
		// crash it made is no result for --resume to replay.
		return nil
	}
	line := *r
	line.Schema = RecordSchema
	b, err := json.Marshal(&line)
	if err != nil {
		return err
	}
	j.w.Write(sealRecord(b, j.sum))
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
	if err := j.f.Sync(); err != nil {
		return err
	}
	return j.stillThere()
}

// stillThere fails when the log's path no longer names the file being
// written (its directory removed or replaced while the campaign ran):
// records written on would be lost with it.
func (j *journal) stillThere() error {
	at, err := os.Stat(j.path)
	if err == nil {
		var open os.FileInfo
		if open, err = j.f.Stat(); err == nil && !os.SameFile(at, open) {
			err = errors.New("another file took its place")
		}
	}
	if err != nil {
		return fmt.Errorf("%s was removed or replaced while the campaign wrote it: %w", j.path, err)
	}
	return nil
}

func (j *journal) close() error {
	err := j.sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}
