// checkline_test.go: check's text line clips a long graph and a long
// detail, so a huge graph cannot flood a terminal; --json keeps both.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func TestCheckLineClips(t *testing.T) {
	graph := "{{" + strings.Repeat("1, ", 5000) + "1}}"
	detail := "walk 0: " + strings.Repeat("7 ", 5000)
	for _, r := range []checkRecord{
		{Outcome: outcomeOK, Source: "g.cfg:1:1", Graph: graph},
		{Outcome: outcomeFail, Reason: "exec:trace-mismatch", Source: "g.cfg:1:1", Graph: graph,
			Checks: []oracle.Verdict{{Check: "exec", Status: oracle.Fail, Detail: detail}}},
		{Outcome: outcomeUnsupported, Source: "g.cfg:1:1", Graph: graph, Reason: "unsupported: wide"},
	} {
		line := checkLine(r)
		if len(line) > 4*lineClip || !strings.Contains(line, "--json has it whole") || !strings.HasPrefix(line[strings.Index(line, "{{"):], graph[:lineClip]) {
			t.Errorf("%s: a %d-byte line, want at most %d, the graph's first %d bytes and a note:\n%.400s", r.Outcome, len(line), 4*lineClip, lineClip, line)
		}
	}
	short := checkLine(checkRecord{Outcome: outcomeFail, Reason: "exec:trace-mismatch", Source: "s", Graph: "{{1}, {}}",
		Checks: []oracle.Verdict{{Check: "exec", Status: oracle.Fail, Detail: "walk 0"}}})
	if short != "FAIL exec:trace-mismatch s {{1}, {}}: walk 0" {
		t.Errorf("a short line changed: %q", short)
	}
}
