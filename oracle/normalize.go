// normalize.go: the one table of rules that turns a failure's free text (a
// panic message, the last line a crashed structurizer wrote to standard
// error, an internal error's reason) into the stable reason part of a
// harness signature, "structurize:<outcome>:<reason>". The campaign engine
// (package fuzz), the minimizer and the regression suite (package corpus)
// and `cfgfuzz check` all call HarnessSignature, so a finding keeps its
// signature while it is minimized: ids, addresses, counts, paths and
// durations of one graph's failure are not those of a smaller graph's. The
// design follows syzkaller's pkg/report: an ordered table of regular
// expressions, each replacing what varies by a placeholder, with golden
// tests (normalize_test.go, testdata/normalize; `go test ./oracle -run
// TestNormalizeGolden -update` rewrites the golden file). SIGNATURES.md
// lists the rules.

package oracle

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NormalizeRule is one row of the table: every match of Pattern is
// replaced by Replace (regexp.ReplaceAllString syntax).
type NormalizeRule struct {
	Name    string
	Pattern string
	Replace string
	Meaning string
	re      *regexp.Regexp
}

// NormalizeRules is the table, applied in order to the first line of the
// text. The placeholders are N (a number of any kind), <path> and <graph>.
var NormalizeRules = []NormalizeRule{
	{Name: "path", Pattern: `(^|[\s'"(\[=,])(?:[A-Za-z]:)?(?:~|\.{1,2})?(?:[/\\][^\s'"():,\[\]]+){1,}`, Replace: "${1}<path>",
		Meaning: "a file path (absolute, ./ or ../ or ~/), with a line suffix left to the number rule"},
	{Name: "uuid", Pattern: `\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`, Replace: "N",
		Meaning: "a UUID"},
	{Name: "address", Pattern: `0[xX][0-9a-fA-F]+`, Replace: "N",
		Meaning: "a hexadecimal address or value"},
	{Name: "hash", Pattern: `\b[0-9a-f]{7,}\b`, Replace: "N",
		Meaning: "a lower-case hexadecimal word of 7 or more digits (a commit, a digest)"},
	{Name: "number", Pattern: `\d+(?:\.\d+)?`, Replace: "N",
		Meaning: "a decimal number, inside a word too (b17, %42, 2.5s, pid 4242)"},
	{Name: "list", Pattern: `([%#]?)N(?:(?:\s*[,;]\s*|,?\s+(?:and|or)\s+|\s+)[%#]?N)+`, Replace: "${1}N",
		Meaning: "a run of numbers or ids (%N, #N) separated by commas, spaces, and, or, as one: a list's length is a count, so a list of one and a list of many read the same"},
	{Name: "graph", Pattern: `\{\s*\{[N,\s{}]*\}\s*\}`, Replace: "<graph>",
		Meaning: "a graph in compact notation, its numbers already N (a request a structurizer echoed before it crashed): a smaller graph's reads the same"},
	{Name: "space", Pattern: `\s+`, Replace: " ",
		Meaning: "a run of white space"},
}

// NormalizeKeep matches the words the table leaves whole because their
// digits name a thing rather than count or number one: a structured rule
// (R6, R12), an encoding (utf8, utf-16), a digest (sha256, md5, crc32), a
// scalar or vector type (u32, int64, f16, vec4, ivec2, mat3x4) and an
// architecture (x86_64, arm64). Without it "R6" and "R12" would both read
// "RN", and two bugs would share one signature. Each match is set aside
// before the rules and put back after them.
var NormalizeKeep = regexp.MustCompile(`\b(?:R\d{1,2}|(?:utf|ucs)-?(?:8|16|32)|(?:sha|md|crc)\d{1,3}|(?:[iuf]|int|uint|float)(?:8|16|32|64)|[iubd]?vec[234]|mat[234](?:x[234])?|x86(?:_64)?|arm64|aarch64|amd64)\b`)

// keptMark stands in for the kept word it numbers while the rules run:
// NUL, the number in the letters q to z (neither digits nor hexadecimal,
// so no rule rewrites it), NUL. The input's own NULs are dropped first.
var keptMark = regexp.MustCompile("\x00([q-z]+)\x00")

func markKept(i int) string {
	d := []byte(strconv.Itoa(i))
	for k := range d {
		d[k] += 'q' - '0'
	}
	return "\x00" + string(d) + "\x00"
}

func unmarkKept(mark string, kept []string) string {
	d := []byte(keptMark.FindStringSubmatch(mark)[1])
	for k := range d {
		d[k] -= 'q' - '0'
	}
	i, err := strconv.Atoi(string(d))
	if err != nil || i >= len(kept) {
		return ""
	}
	return kept[i]
}

// ReasonLimit is the length at which a normalized reason is cut.
const ReasonLimit = 80

func init() {
	for i := range NormalizeRules {
		NormalizeRules[i].re = regexp.MustCompile(NormalizeRules[i].Pattern)
	}
}

// NormalizeReason is text's first line with every rule of the table
// applied in order (the words NormalizeKeep matches left whole), trimmed
// and cut at ReasonLimit bytes.
func NormalizeReason(text string) string { return NormalizeReasonUpTo(text, ReasonLimit) }

// NormalizeReasonUpTo is NormalizeReason cut at n bytes instead: for
// showing more of a reason than a signature keeps.
func NormalizeReasonUpTo(text string, n int) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	text = strings.ReplaceAll(text, "\x00", "")
	var kept []string
	text = NormalizeKeep.ReplaceAllStringFunc(text, func(w string) string {
		kept = append(kept, w)
		return markKept(len(kept) - 1)
	})
	for _, r := range NormalizeRules {
		text = r.re.ReplaceAllString(text, r.Replace)
	}
	text = keptMark.ReplaceAllStringFunc(text, func(m string) string { return unmarkKept(m, kept) })
	return clip(text, n)
}

// ClipReason is s's first line, without the rules, cut at n bytes as a
// normalized reason is: a reason shown as given.
func ClipReason(s string, n int) string {
	line, _, _ := strings.Cut(s, "\n")
	return clip(strings.ReplaceAll(line, "\x00", ""), n)
}

// clip is s as valid UTF-8 (a broken sequence becomes U+FFFD, as JSON
// writes it), trimmed and cut at n bytes without splitting a character:
// a signature reads back from report.json and the state as it was made.
func clip(s string, n int) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:n])
}

// Harness outcomes, the outcome part of "structurize:<outcome>".
const (
	HarnessPanic   = "panic"   // the structurizer panicked
	HarnessTimeout = "timeout" // no answer within the per-graph limit
	HarnessCrash   = "crash"   // the structurizer's process died or broke the protocol
	HarnessError   = "error"   // the structurizer failed on a valid graph
)

// HarnessSignature is the signature of a harness outcome with the given
// reason: "structurize:<outcome>:<NormalizeReason(reason)>", or
// "structurize:<outcome>" when the reason normalizes to nothing. A timeout
// is "structurize:timeout" whatever the reason says (how the minimizer
// keeps one: corpus/timeout.go).
func HarnessSignature(outcome, reason string) string {
	if outcome == HarnessTimeout {
		return "structurize:" + HarnessTimeout
	}
	if s := NormalizeReason(reason); s != "" {
		return "structurize:" + outcome + ":" + s
	}
	return "structurize:" + outcome
}
