// checksvalue_test.go: a campaign's checks, resolved to names, are given
// to its replay commands in a short form: "-fallback" for
// --allow-fallbacks, not every check by name (a header pins the names:
// corpus.PinChecks).
package fuzz

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func TestChecksValue(t *testing.T) {
	for _, tc := range []struct {
		given, want string // a --checks value as a campaign resolves it, and its value in a replay
	}{
		{"", ""},
		{"-fallback", "-fallback"},
		{"+gpu,-fallback", "-fallback,+gpu"},
		{"pdom,exec", "pdom,exec"},
		{"exec,pdom,rules,spirv-val,filler,growth,meta", "exec,pdom,rules,spirv-val,filler,growth,meta"}, // the order is kept
		{strings.Join(oracle.DefaultChecks, ","), ""},
	} {
		var checks []string
		if tc.given != "" {
			checks = oracle.ResolveChecks(tc.given)
		}
		got := ChecksValue(checks)
		if got != tc.want {
			t.Errorf("ChecksValue(%q) = %q, want %q", checks, got, tc.want)
		}
		if resolved := oracle.ResolveChecks(got); strings.Join(resolved, ",") != strings.Join(oracle.ResolveChecks(tc.given), ",") {
			t.Errorf("ChecksValue(%q) = %q resolves to %q, want the checks again", checks, got, resolved)
		}
	}
	// A value of changes (minimize's and regress's) is kept as it is.
	if got := ChecksValue([]string{"+gpu", "-fallback"}); got != "+gpu,-fallback" {
		t.Errorf("ChecksValue of changes = %q, want them as they are", got)
	}
}

func TestReplayOfAllowFallbacks(t *testing.T) {
	s := &Settings{Walks: 16, Seed: 1, Checks: oracle.ResolveChecks("-fallback")}
	if got := CheckCommand(s, "exec:trace-mismatch"); got != "cfgfuzz check --checks -fallback" {
		t.Errorf("the replay of an --allow-fallbacks campaign: %q, want cfgfuzz check --checks -fallback", got)
	}
	if got := CheckCommand(s, "gpu:trace-mismatch"); got != "cfgfuzz check --checks -fallback,+gpu" {
		t.Errorf("the replay of an --allow-fallbacks campaign's gpu finding: %q, want cfgfuzz check --checks -fallback,+gpu", got)
	}
}
