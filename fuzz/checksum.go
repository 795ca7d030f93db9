// checksum.go defines what makes a campaign's state verifiable on
// --resume and merge: campaign.json carries the SHA-256 of its settings,
// and every line of results.jsonl the SHA-256 of its record bound to the
// settings' checksum, so a changed setting, an edited record and a record
// of another campaign are refused, naming the file and line. A record that
// verifies is still checked against the settings (stream index, outcomes,
// class, graph index inside the budget and the shard, a skipped graph's
// earlier twin).

package fuzz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// sumLen is the length of a checksum: 16 hex digits of SHA-256.
const sumLen = 16

func shortSum(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:sumLen]
}

// SettingsSum is the checksum of s: of its JSON form.
func SettingsSum(s Settings) string {
	b, _ := json.Marshal(s)
	return shortSum(b)
}

// settingsFile is campaign.json: the settings, their checksum and the
// cfgfuzz that writes the log (writer.go; nil in a format 1 file).
type settingsFile struct {
	Settings
	Sum    string  `json:"sha256"`
	Writer *Writer `json:"writer,omitempty"`
	// StateDir is the --state directory the campaign read, absolute
	// (absent without one): not a setting (shards of a night may mount
	// one state at different paths), only named when a resume lacks it.
	StateDir string `json:"state_dir,omitempty"`
	// Sides is the digest of the files each cmd side's command names
	// (sidefiles.go): not a setting, whose checksum seals the log's
	// records, but held against a resume's and, by merge, against the
	// other shards' (a mixed merge when they differ).
	Sides *SideFiles `json:"side_files,omitempty"`
}

// recordPrefix opens every line of the results log: {"sum":"<16 hex>",
// followed by the rest of the record's JSON object.
const recordPrefix = `{"sum":"`

// sealRecord is the log line of a record's JSON (an object with at least
// one field) under the settings checksum sum, without the newline.
func sealRecord(body []byte, sum string) []byte {
	line := make([]byte, 0, len(body)+len(recordPrefix)+sumLen+2)
	line = append(line, recordPrefix...)
	line = append(line, shortSum([]byte(sum), body)...)
	line = append(line, `",`...)
	return append(line, body[1:]...)
}

// errNoSum marks a line that does not open with a checksum.
var errNoSum = errors.New(`no checksum (a line must open with {"sum":"...",)`)

// openRecord verifies a log line (without its newline) under the settings
// checksum sum and returns the record's JSON.
func openRecord(line []byte, sum string) ([]byte, error) {
	n := len(recordPrefix) + sumLen + 2
	if len(line) < n || !bytes.HasPrefix(line, []byte(recordPrefix)) || string(line[n-2:n]) != `",` {
		return nil, errNoSum
	}
	body := append([]byte{'{'}, line[n:]...)
	if got := shortSum([]byte(sum), body); got != string(line[len(recordPrefix):n-2]) {
		return nil, errors.New("checksum mismatch: the record was changed after it was written, or belongs to another campaign's settings")
	}
	return body, nil
}

// checkRecord checks a verified record against the campaign's settings.
func checkRecord(s *Settings, r *Record) error {
	switch {
	case r.Index < 0 || s.Graphs > 0 && r.Index >= s.Graphs:
		return fmt.Errorf("graph index %d outside the campaign's 0..%d", r.Index, s.Graphs-1)
	case !s.Shard.has(r.Index):
		return fmt.Errorf("graph index %d is not in shard %s", r.Index, s.Shard)
	case r.Stream < 0 || r.Stream >= len(s.Streams):
		return fmt.Errorf("stream index %d outside the campaign's %d streams", r.Stream, len(s.Streams))
	case r.Stream != placeOf(s, r.Index):
		return fmt.Errorf("graph %d has stream %d, want %d", r.Index, r.Stream, placeOf(s, r.Index))
	case r.Skipped && (r.SameAs < 0 || r.SameAs >= r.Index):
		return fmt.Errorf("skipped graph %d repeats graph %d, not an earlier one", r.Index, r.SameAs)
	case r.Skipped:
		return nil // no outcome
	case r.Seen:
		return nil // checked on an earlier night: no outcome either
	case !slices.Contains(Outcomes, r.Current.Outcome):
		return fmt.Errorf("unknown outcome %q", r.Current.Outcome)
	case (s.Baseline != "") != (r.Baseline != nil):
		return fmt.Errorf("baseline result present %v, campaign baseline %q", r.Baseline != nil, s.Baseline)
	case r.Baseline != nil && !slices.Contains(Outcomes, r.Baseline.Outcome):
		return fmt.Errorf("unknown baseline outcome %q", r.Baseline.Outcome)
	case r.Baseline != nil && !slices.Contains(Classes, r.Class):
		return fmt.Errorf("unknown divergence class %q", r.Class)
	}
	return nil
}

// placeOf is the stream of graph index i.
func placeOf(s *Settings, i int) int {
	st, _ := s.Place(i)
	return st
}
