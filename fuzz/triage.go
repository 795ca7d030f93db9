// triage.go defines the triage file, STATE/triage.txt, which the user
// edits to say what a signature is: one line per signature,
//
//	known   SIGNATURE  REASON...
//	ignored SIGNATURE  REASON...
//
// fields separated by spaces or tabs, the reason the rest of the line and
// required; blank lines and lines starting with # are comments. A known
// signature is not new even on the first night it shows; an ignored one is
// reported as ignored and never fails a night. STATE.md documents it.
package fuzz

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Triage statuses.
const (
	TriageKnown   = "known"
	TriageIgnored = "ignored"
)

// TriageEntry is one line of the triage file.
type TriageEntry struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// ReadTriage reads a triage file by signature; a missing file is empty.
func ReadTriage(path string) (map[string]TriageEntry, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]TriageEntry{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseTriage(path, data)
}

// ParseTriage parses a triage file's text; name is where it came from, for
// the errors.
func ParseTriage(name string, data []byte) (map[string]TriageEntry, error) {
	out := map[string]TriageEntry{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want STATUS SIGNATURE REASON, got %q", name, n, line)
		}
		if f[0] != TriageKnown && f[0] != TriageIgnored {
			return nil, fmt.Errorf("%s:%d: status %q: want known or ignored", name, n, f[0])
		}
		if _, dup := out[f[1]]; dup {
			return nil, fmt.Errorf("%s:%d: signature %s triaged twice", name, n, f[1])
		}
		out[f[1]] = TriageEntry{Status: f[0], Reason: strings.Join(f[2:], " ")}
	}
	return out, sc.Err()
}
