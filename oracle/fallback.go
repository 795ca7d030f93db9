// fallback.go: the `fallback` check (ARCHITECTURE.md, structurizer guarantee 1:
// on the default strategy a fallback to the dispatch loop is a bug). A
// structurizer reports a fallback in its statistics (protocol v1's
// stats.fallbacks, and why in stats.passes_used: fuzz/PROTOCOL.md); the
// caller copies both into ResultInfo. The module itself is still valid and
// every other check still judges it; the check comes last in DefaultChecks,
// so any other failure of the module is the one Failed reports.

package oracle

import (
	"fmt"
	"regexp"
	"strings"
)

// SigFallback is the fallback check's signature; ":PASS:REASON" follows
// when the structurizer says why (FallbackSignature).
const SigFallback = "structurize:fallback"

// fallbackFieldMax bounds each of PASS and REASON in a signature.
const fallbackFieldMax = 80

var (
	reLoneNumber = regexp.MustCompile(`\b(0x[0-9a-fA-F]+|\d+)\b`)
	reBlanks     = regexp.MustCompile(`\s+`)
)

// FallbackSignature is the signature of a structurization that fell back,
// from the structurizer's passes: the first entry "fallback: PASS: REASON"
// (anything after a further ':' is detail) gives
// "structurize:fallback:PASS:REASON", each field's first line with numbers
// standing alone replaced by N (R6 stays R6, "block 12" becomes "block N"),
// blanks collapsed, cut at 80 bytes. An entry without a reason gives
// "structurize:fallback:PASS"; no entry, "structurize:fallback".
func FallbackSignature(passes []string) string {
	for _, p := range passes {
		rest, ok := strings.CutPrefix(p, "fallback:")
		if !ok {
			continue
		}
		sig := SigFallback
		fields := strings.SplitN(firstLineOf(rest), ":", 3)
		for _, f := range fields[:min(len(fields), 2)] {
			f = normalizeFallbackField(f)
			if f == "" {
				break
			}
			sig += ":" + f
		}
		return sig
	}
	return SigFallback
}

func normalizeFallbackField(f string) string {
	return clip(reBlanks.ReplaceAllString(reLoneNumber.ReplaceAllString(f, "N"), " "), fallbackFieldMax)
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// fallbackNote ends a fallback's detail: where the finding comes from.
const fallbackNote = "; the structurizer's own report (stats.fallbacks), which the other checks do not need: --allow-fallbacks counts it instead"

// checkFallback fails when the structurizer reported a fallback.
func (o *Oracle) checkFallback(s *Subject) Verdict {
	if s.Info.Fallbacks <= 0 {
		return Verdict{Status: Pass}
	}
	detail := fmt.Sprintf("%d fallbacks to the dispatch loop", s.Info.Fallbacks)
	for _, p := range s.Info.Passes {
		if strings.HasPrefix(p, "fallback:") {
			detail += ": " + strings.TrimSpace(strings.TrimPrefix(p, "fallback:"))
			break
		}
	}
	detail += fallbackNote
	return Verdict{Status: Fail, Signature: FallbackSignature(s.Info.Passes), Detail: detail}
}
