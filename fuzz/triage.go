// triage.go defines the triage file, STATE/triage.txt, which the user
// edits to say what a signature is: one line per signature,
//
//	known   SIGNATURE  REASON...
//	ignored SIGNATURE  REASON...
//
// fields separated by spaces or tabs, the reason the rest of the line and
// required; blank lines and lines starting with # are comments. A
// signature that holds a space (structurize:crash:exit status N) is
// written in double quotes, with Go's escapes. A known signature is not
// new even on the first night it shows, unless the store had it fixed (a
// regression is new); an ignored one is reported as ignored and never
// fails a night. A line naming a signature that neither the store nor
// tonight knows is reported (StateReport.Unmatched), as a typo would be.
// STATE.md documents it.

package fuzz

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/oracle"
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
	// Line is the entry's line in the file, for the notes about it.
	Line int `json:"-"`
}

// ReadTriage reads a triage file by signature; a missing file is empty.
// It is read within MaxTriageFile, and only when it is a regular file.
func ReadTriage(path string) (map[string]TriageEntry, error) {
	data, err := readFileWithin(path, MaxTriageFile, "a triage.txt")
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
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // an editor's byte order mark
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		status, sig, reason, err := triageFields(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if _, dup := out[sig]; dup {
			return nil, fmt.Errorf("%s:%d: signature %s triaged twice (a signature that holds a space goes in double quotes)", name, n, TriageSignature(sig))
		}
		out[sig] = TriageEntry{Status: status, Reason: reason, Line: n}
	}
	return out, nil
}

// triageFields splits a line into its status, signature (unquoted) and
// reason.
func triageFields(line string) (status, sig, reason string, err error) {
	malformed := fmt.Errorf("want STATUS SIGNATURE REASON, got %s", excerpt([]byte(line)))
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return "", "", "", malformed
	}
	status, rest := line[:i], strings.TrimLeft(line[i:], " \t")
	if status != TriageKnown && status != TriageIgnored {
		return "", "", "", fmt.Errorf("status %s: want known or ignored", excerpt([]byte(status)))
	}
	if strings.HasPrefix(rest, `"`) {
		q, qerr := strconv.QuotedPrefix(rest)
		if qerr != nil {
			return "", "", "", fmt.Errorf("the quoted signature does not end: %s", excerpt([]byte(rest)))
		}
		sig, _ = strconv.Unquote(q)
		rest = rest[len(q):]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return "", "", "", fmt.Errorf("want a space after the quoted signature %s", q)
		}
	} else {
		j := strings.IndexAny(rest, " \t")
		if j < 0 {
			return "", "", "", malformed
		}
		sig, rest = rest[:j], rest[j:]
	}
	reason = strings.Join(strings.Fields(rest), " ")
	if sig == "" || reason == "" {
		return "", "", "", malformed
	}
	return status, sig, reason, nil
}

// TriageSignature is sig as a triage line writes it: as it is, or quoted
// when it is empty, starts a comment, or holds a quote, white space (a
// newline too) or what does not print.
func TriageSignature(sig string) string {
	if sig == "" || strings.HasPrefix(sig, "#") || !utf8.ValidString(sig) || strings.ContainsFunc(sig, func(r rune) bool {
		return r == '"' || unicode.IsSpace(r) || !unicode.IsPrint(r)
	}) {
		return strconv.Quote(sig)
	}
	return sig
}

// TriageNote is a triage line whose signature neither the store nor
// tonight holds: a typo, or a signature with a space left unquoted
// (Meant: the signature the line's text begins with, "" none), or one
// written with the numbers a signature reads as N (Normalized: the
// signature it is once normalized, "" none).
type TriageNote struct {
	Line       int    `json:"line"`
	Signature  string `json:"signature"`
	Meant      string `json:"meant,omitempty"`
	Normalized string `json:"normalized,omitempty"`
}

// String is the note as the summary and report.md print it.
func (n TriageNote) String() string {
	s := fmt.Sprintf("%s:%d: %s matches no signature of the store or tonight", StateTriageFile, n.Line, TriageSignature(n.Signature))
	switch {
	case n.Meant != "":
		return s + fmt.Sprintf("; for %q write the signature in double quotes: %s", n.Meant, TriageSignature(n.Meant))
	case n.Normalized != "":
		return s + fmt.Sprintf("; a signature reads its numbers as N (oracle/SIGNATURES.md): write %s, which it matches so read", TriageSignature(n.Normalized))
	}
	return s + " (a typo, or one not seen yet: it applies from the night it shows)"
}

// normalizedSignature is sig with its reason normalized as a harness
// signature's is (oracle.NormalizeReason: numbers read as N, paths as
// <path>), or "" where that changes nothing.
func normalizedSignature(sig string) string {
	var norm string
	if outcome, reason, ok := strings.Cut(strings.TrimPrefix(sig, "structurize:"), ":"); ok && strings.HasPrefix(sig, "structurize:") {
		norm = oracle.HarnessSignature(outcome, reason)
	} else {
		norm = oracle.NormalizeReason(sig)
	}
	if norm == sig {
		return ""
	}
	return norm
}

// unmatchedTriage lists the triage lines whose signature known lacks, in
// line order, each with the known signature the line's text begins with
// or is (the longest), as a signature with a space reads when left
// unquoted, or else the known signature it is once normalized.
func unmatchedTriage(triage map[string]TriageEntry, known map[string]bool) []TriageNote {
	var out []TriageNote
	for sig, e := range triage {
		if known[sig] {
			continue
		}
		note := TriageNote{Line: e.Line, Signature: sig}
		text := sig + " " + e.Reason
		for k := range known {
			if (text == k || strings.HasPrefix(text, k+" ")) && len(k) > len(note.Meant) {
				note.Meant = k
			}
		}
		if norm := normalizedSignature(sig); note.Meant == "" && norm != "" && known[norm] {
			note.Normalized = norm
		}
		out = append(out, note)
	}
	slices.SortFunc(out, func(a, b TriageNote) int { return a.Line - b.Line })
	return out
}
