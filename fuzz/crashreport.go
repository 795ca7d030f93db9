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
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// crashFormat is one runtime's report: re finds it in the tail, and
// headline words the bug from re's submatches. panic says whether the
// report is a language-level panic (outcome panic) rather than a crash.
// site, when set, names where the report says the bug is, from the
// submatches and the text after the match (oracle/panicsite.go): the
// headline is led by it, so one message from two places is two findings.
type crashFormat struct {
	name     string
	re       *regexp.Regexp
	panic    bool
	headline func(m []string) string
	site     func(m []string, after string) string
}

// crashFormats are tried in order; the first that matches words the
// death. Go's panic comes first: a Go server that runs a C library may
// print both.
var crashFormats = []crashFormat{
	{name: "go panic", re: regexp.MustCompile(`(?m)^panic: (.*)$`), panic: true,
		headline: func(m []string) string { return m[1] },
		site:     func(_ []string, after string) string { return oracle.PanicSite(after) }},
	{name: "go fatal error", re: regexp.MustCompile(`(?m)^fatal error: (.*)$`),
		headline: func(m []string) string { return "fatal error: " + m[1] }},
	// Rust 1.73 and later: the location ends the first line, the message
	// is the next (newer releases write a thread id after the name).
	{name: "rust panic", re: regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at ([^\n]*):\n(.*)$`), panic: true,
		headline: func(m []string) string { return m[2] },
		site:     func(m []string, _ string) string { return rustSite(m[1]) }},
	// Rust before 1.73: the message quoted on the same line.
	{name: "rust panic (before 1.73)", re: regexp.MustCompile(`(?m)^thread '[^']*'(?: \(\d+\))? panicked at '(.*)', (\S+)$`), panic: true,
		headline: func(m []string) string { return m[1] },
		site:     func(m []string, _ string) string { return rustSite(m[2]) }},
	{name: "c++ exception", re: regexp.MustCompile(`(?m)^terminate called after throwing an instance of '([^']*)'(?:\n\s*what\(\):\s*(.*))?$`), panic: true,
		headline: func(m []string) string {
			if m[2] != "" {
				return "uncaught " + m[1] + ": " + m[2]
			}
			return "uncaught " + m[1]
		}},
	{name: "sanitizer", re: regexp.MustCompile(`(?m)^==\d+==ERROR: (\w+Sanitizer): ([\w-]+)`),
		headline: func(m []string) string { return m[1] + ": " + m[2] }},
	// Rust's runtime aborting (a stack overflow: a thread's "has
	// overflowed its stack" line, then this one), before UBSan's pattern,
	// which the line also holds.
	{name: "rust fatal runtime error", re: regexp.MustCompile(`(?m)^fatal runtime error: (.*)$`),
		headline: func(m []string) string { return "fatal runtime error: " + m[1] }},
	{name: "undefined behaviour", re: regexp.MustCompile(`(?m)runtime error: (.*)$`),
		headline: func(m []string) string { return "runtime error: " + m[1] }},
	// Python: an uncaught exception's traceback, the exception's line
	// after the indented frames.
	{name: "python exception", re: regexp.MustCompile(`(?m)^Traceback \(most recent call last\):\n((?:[ \t][^\n]*\n)*)([^ \t\n][^\n]*)$`), panic: true,
		headline: func(m []string) string { return m[2] },
		site:     func(m []string, _ string) string { return pythonSite(m[1]) }},
	{name: "assertion", re: regexp.MustCompile("(?m)Assertion [`'](.*)' failed\\.?$"),
		headline: func(m []string) string { return "assertion failed: " + m[1] }},
}

// errorLine finds, in what a dead server wrote that holds no report of
// crashFormats, the line that says why it died: a command-line or setup
// error printed before a usage text (Go's flag package, Python's argparse,
// Rust's clap, a C library's strerror) is the first such line, not the
// last. Matched case-insensitively.
var errorLine = regexp.MustCompile(`(?i)error|not defined|unrecognized|unknown (?:option|flag|argument|command)|unexpected argument|no such file|not found|permission denied|cannot|can't`)

// deathLine is the line that words a death without a report: the first
// line errorLine matches that is not indented (an indented line is a
// usage text's description or a frame of a trace), else the last line.
func deathLine(text string) string {
	for line := range strings.Lines(text) {
		if line != "" && line[0] != ' ' && line[0] != '\t' && errorLine.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return lastLine(text)
}

// crashReport finds the report in a dead server's standard error: the
// headline of the first format that matches (its first report in the text:
// the root cause, where a thread's panic is raised again by the thread
// that joins it), and whether it is a panic; found is false when no format
// matches.
func crashReport(text string) (headline string, panic, found bool) {
	for _, f := range crashFormats {
		at := f.re.FindStringSubmatchIndex(text)
		if at == nil {
			continue
		}
		m := make([]string, len(at)/2)
		for i := range m {
			if at[2*i] >= 0 {
				m[i] = text[at[2*i]:at[2*i+1]]
			}
		}
		headline = strings.TrimSpace(f.headline(m))
		if f.site != nil {
			headline = oracle.WithSite(f.site(m, text[at[1]:]), headline)
		}
		return headline, f.panic, true
	}
	return "", false, false
}

// rustSite is the file of a Rust panic's location ("src/lower.rs:40:5"),
// without its directories and line: "lower.rs".
func rustSite(loc string) string {
	loc = strings.TrimRight(loc, "0123456789:")
	return filepath.Base(filepath.ToSlash(loc))
}

// pythonSite is the function of a Python traceback's last frame
// (`  File "adapter.py", line 12, in lower`): "lower".
func pythonSite(frames string) string {
	site := ""
	for line := range strings.Lines(frames) {
		if m := pythonFrame.FindStringSubmatch(line); m != nil {
			site = m[1]
		}
	}
	return site
}

var pythonFrame = regexp.MustCompile(`^\s+File "[^"]*", line \d+, in (\S+)`)

// stderrLog is what a Process keeps of its server's standard error: the
// last tailSize bytes, and the start of the first report since the last
// request (the first line a crash format begins with, and what follows
// it, reportSize bytes): a deep backtrace would push the report's
// headline out of the tail.
type stderrLog struct {
	mu      sync.Mutex
	tail    []byte
	line    []byte // the line being written, its first lineSize bytes
	report  []byte // from the first report line on; nil before one
	written int64  // bytes written in all
	mark    int64  // written when the last request but the first was sent
	sent    bool   // a request was sent
}

const (
	tailSize   = 8 << 10
	reportSize = 4 << 10
	lineSize   = 1 << 10
)

// reportStarts are the first lines of the crash formats, each with a
// word it must hold (a cheap test on a flood of logs before the pattern).
var reportStarts = []struct {
	word string
	re   *regexp.Regexp
}{
	{"panic: ", regexp.MustCompile(`^panic: `)},
	{"fatal error: ", regexp.MustCompile(`^fatal error: `)},
	{" panicked at ", regexp.MustCompile(`^thread '[^']*'(?: \(\d+\))? panicked at `)},
	{"terminate called", regexp.MustCompile(`^terminate called after throwing`)},
	{"Sanitizer", regexp.MustCompile(`^==\d+==ERROR: \w+Sanitizer`)},
	{"runtime error: ", regexp.MustCompile(`runtime error: `)},
	{"Assertion", regexp.MustCompile("Assertion [`'].*' failed")},
}

func (l *stderrLog) Write(p []byte) (int, error) {
	n := len(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written += int64(n)
	l.tail = append(l.tail, p...)
	if len(l.tail) > tailSize { // keep the last tailSize bytes, in place
		l.tail = l.tail[:copy(l.tail, l.tail[len(l.tail)-tailSize:])]
	}
	if len(l.report) >= reportSize {
		return n, nil
	}
	if l.report != nil {
		l.report = append(l.report, p[:min(len(p), reportSize-len(l.report))]...)
		return n, nil
	}
	for len(p) > 0 && l.report == nil {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		l.line = append(l.line, chunk[:min(len(chunk), max(0, lineSize-len(l.line)))]...)
		p = p[len(chunk):]
		if i < 0 {
			break
		}
		if startsReport(l.line) {
			l.report = append(slices.Clone(l.line), p[:min(len(p), reportSize-len(l.line))]...)
		}
		l.line = l.line[:0]
	}
	return n, nil
}

// startsReport says whether a line begins a crash report.
func startsReport(line []byte) bool {
	for _, s := range reportStarts {
		if bytes.Contains(line, []byte(s.word)) && s.re.Match(line) {
			return true
		}
	}
	return false
}

// newRequest forgets the report caught so far and marks where this
// request's output starts: what a server printed for an earlier graph (a
// panic it caught and answered as an error, say) is not why it dies on
// this one. The tail stays.
func (l *stderrLog) newRequest() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sent { // what a server writes as it starts goes with its first request
		l.report, l.line, l.mark = nil, l.line[:0], l.written
	}
	l.sent = true
}

// SinceRequest is the part of the tail written since the last request.
func (l *stderrLog) SinceRequest() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := int(min(l.written-l.mark, int64(len(l.tail))))
	return string(l.tail[len(l.tail)-k:])
}

// String is the tail.
func (l *stderrLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.tail)
}

// Report is the first report's start, "" when no line began one.
func (l *stderrLog) Report() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.report)
}
