// state_summary_test.go: the night's summary prints the store's text (a
// file anyone can edit) with its control characters escaped.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestStateSummaryEscapesTheStore(t *testing.T) {
	rep := &fuzz.Report{State: &fuzz.StateReport{Night: "2026-12-02", Signatures: []fuzz.SignatureState{
		{Signature: "exec:\x00<script>\nfake line", Class: fuzz.ClassFixed, Reason: "gone\x1b[2J"},
	}}}
	got := stateSummary(rep)
	if strings.Count(got, "\n") != 2 || strings.ContainsAny(got, "\x00\x1b") || !strings.Contains(got, `exec:\x00<script>\nfake line`) {
		t.Errorf("summary %q: want the signature's NUL, newline and escape written as escapes, on its one line", got)
	}
}
