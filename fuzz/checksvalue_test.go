// checksvalue_test.go: a campaign's checks, resolved to names, are given
// to its regression files in a short form: "-fallback" for
// --allow-fallbacks, not every check by name, so regress judges them
// under its own defaults less those; its replay commands name the checks,
// as a finding's header pins them (corpus.PinChecks), so a later cfgfuzz
// with other defaults judges as the finding was judged.
package fuzz

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
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
	names := corpus.PinChecks("-fallback")
	if want := "cfgfuzz check --checks " + names; CheckCommand(s, "exec:trace-mismatch") != want {
		t.Errorf("the replay of an --allow-fallbacks campaign: %q, want %q", CheckCommand(s, "exec:trace-mismatch"), want)
	}
	if want := "cfgfuzz check --checks " + names + ",gpu"; CheckCommand(s, "gpu:trace-mismatch") != want {
		t.Errorf("the replay of an --allow-fallbacks campaign's gpu finding: %q, want %q", CheckCommand(s, "gpu:trace-mismatch"), want)
	}
	// The defaults are left unsaid, as a header leaves them; a gpu
	// finding adds the gpu check to them.
	s.Checks = oracle.ResolveChecks("")
	if got := CheckCommand(s, "exec:trace-mismatch"); got != "cfgfuzz check" {
		t.Errorf("the replay of a campaign on the default checks: %q, want no --checks", got)
	}
	if got := CheckCommand(s, "gpu:trace-mismatch"); got != "cfgfuzz check --checks +gpu" {
		t.Errorf("the replay of a gpu finding on the default checks: %q, want --checks +gpu", got)
	}
	// Changes as judged (a regress case's, against its own defaults) are
	// kept as they are.
	s.Checks = []string{"+gpu", "-fallback"}
	if got := CheckCommand(s, "exec:trace-mismatch"); got != "cfgfuzz check --checks +gpu,-fallback" {
		t.Errorf("the replay of a case judged under changes: %q, want them as they are", got)
	}
}
