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
	"strings"
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
// text. The placeholders are N (a number of any kind) and <path>.
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
	{Name: "space", Pattern: `\s+`, Replace: " ",
		Meaning: "a run of white space"},
}

// ReasonLimit is the length at which a normalized reason is cut.
const ReasonLimit = 80

func init() {
	for i := range NormalizeRules {
		NormalizeRules[i].re = regexp.MustCompile(NormalizeRules[i].Pattern)
	}
}

// NormalizeReason is text's first line with every rule of the table
// applied in order, trimmed and cut at ReasonLimit bytes.
func NormalizeReason(text string) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	for _, r := range NormalizeRules {
		text = r.re.ReplaceAllString(text, r.Replace)
	}
	text = strings.TrimSpace(text)
	if len(text) > ReasonLimit {
		text = strings.TrimSpace(text[:ReasonLimit])
	}
	return text
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
