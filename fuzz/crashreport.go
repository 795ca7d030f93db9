// crashreport.go reads how a structurizer process died from the tail of
// its standard error, with a table of report formats in the manner of
// syzkaller's pkg/report: each runtime a server may be written in prints
// its own report (a Go panic, a Rust panic, an uncaught C++ exception, a
// failed assertion, a sanitizer's error), and the table finds the report's
// headline, the line that names the bug, wherever it sits in the tail. A
// backtrace, a "note: run with RUST_BACKTRACE" line or a log line written
// after the report then changes nothing: the headline, not the last line,
// makes the signature (PROTOCOL.md "When a server misbehaves").
package fuzz

import (
	"regexp"
	"strings"
)

// crashFormat is one runtime's report: re finds it in the tail, and
// headline words the bug from re's submatches. panic says whether the
// report is a language-level panic (outcome panic) rather than a crash.
type crashFormat struct {
	name     string
	re       *regexp.Regexp
	panic    bool
	headline func(m []string) string
}

// crashFormats are tried in order; the first that matches words the
// death. Go's panic comes first: a Go server that runs a C library may
// print both.
var crashFormats = []crashFormat{
	{name: "go panic", re: regexp.MustCompile(`(?m)^panic: (.*)$`), panic: true,
		headline: func(m []string) string { return m[1] }},
	{name: "go fatal error", re: regexp.MustCompile(`(?m)^fatal error: (.*)$`),
		headline: func(m []string) string { return "fatal error: " + m[1] }},
	// Rust 1.73 and later: the location ends the first line, the message
	// is the next (newer releases write a thread id after the name).
	{name: "rust panic", re: regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at [^\n]*:\n(.*)$`), panic: true,
		headline: func(m []string) string { return m[1] }},
	// Rust before 1.73: the message quoted on the same line.
	{name: "rust panic (before 1.73)", re: regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at '(.*)', \S+$`), panic: true,
		headline: func(m []string) string { return m[1] }},
	{name: "c++ exception", re: regexp.MustCompile(`(?m)^terminate called after throwing an instance of '([^']*)'(?:\n\s*what\(\):\s*(.*))?$`), panic: true,
		headline: func(m []string) string {
			if m[2] != "" {
				return "uncaught " + m[1] + ": " + m[2]
			}
			return "uncaught " + m[1]
		}},
	{name: "sanitizer", re: regexp.MustCompile(`(?m)^==\d+==ERROR: (\w+Sanitizer): ([\w-]+)`),
		headline: func(m []string) string { return m[1] + ": " + m[2] }},
	{name: "undefined behaviour", re: regexp.MustCompile(`(?m)runtime error: (.*)$`),
		headline: func(m []string) string { return "runtime error: " + m[1] }},
	{name: "assertion", re: regexp.MustCompile("(?m)Assertion [`'](.*)' failed\\.?$"),
		headline: func(m []string) string { return "assertion failed: " + m[1] }},
}

// crashReport finds the report in a dead server's standard error tail:
// the headline of the first format that matches (its last report in the
// tail, the one that ended the server), and whether it is a panic; found
// is false when no format matches.
func crashReport(tail string) (headline string, panic, found bool) {
	for _, f := range crashFormats {
		if ms := f.re.FindAllStringSubmatch(tail, -1); ms != nil {
			return strings.TrimSpace(f.headline(ms[len(ms)-1])), f.panic, true
		}
	}
	return "", false, false
}
