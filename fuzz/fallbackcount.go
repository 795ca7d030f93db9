// fallbackcount.go: how the summaries word a structurizer's fallbacks to
// the dispatch loop. A graph whose module failed the fallback check alone
// (signature structurize:fallback...; the check comes last, so every other
// check passed it) has the outcome invalid, as report.json counts it, but
// its module is valid: report.md and the CLI's summary say how many of the
// invalid graphs are such fallbacks, and that --allow-fallbacks (the
// fallback check off) allows them; with the check off they say the
// fallbacks were allowed.

package fuzz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// FallbackOnly counts the current side's graphs that are invalid only for
// falling back to the dispatch loop: valid modules, failing the fallback
// check alone.
func (rep *Report) FallbackOnly() int {
	n := 0
	for _, f := range rep.Findings {
		if f.Outcome == OutInvalid && strings.HasPrefix(f.Signature, oracle.SigFallback) {
			n += f.Count
		}
	}
	return min(n, rep.Outcomes[OutInvalid])
}

// fallbacksAllowed says whether the campaign's checks left the fallback
// check out (--allow-fallbacks, --checks -fallback): its fallbacks are no
// findings. A report that does not list its checks says nothing of them.
func (rep *Report) fallbacksAllowed() bool {
	return len(rep.Checks) > 0 && !slices.Contains(rep.Checks, "fallback")
}

// FallbackNote is the summary line's word on the current side's fallbacks,
// after their count: " (N of the invalid: ...)" when some graphs are
// invalid only for falling back, " (allowed: ...)" when the fallback check
// was off, "" otherwise.
func FallbackNote(rep *Report) string {
	switch n := rep.FallbackOnly(); {
	case n > 0:
		return fmt.Sprintf(" (%d of the invalid: valid modules that fell back, the fallback check's findings; --allow-fallbacks allows them)", n)
	case rep.Fallbacks > 0 && rep.fallbacksAllowed():
		return " (allowed: the fallback check is off)"
	}
	return ""
}
