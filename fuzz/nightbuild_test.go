package fuzz

import "testing"

// TestNightBuild: the build a night records is a cmd side's files'
// digest, the cfgfuzz build for cfgfuzz's own structurizer, and a
// revision's spec; the report notes a build that differs from the state's
// last night's only on the same current side.
func TestNightBuild(t *testing.T) {
	w := Writer{Format: LogFormat, Build: "v1 rev 0123"}
	for _, c := range []struct{ current, files, want string }{
		{"cmd:/opt/adapter", "sha256:aaaa", "sha256:aaaa"},
		{"cmd:/opt/adapter", "", ""},
		{SpecSelf, "", "cfgfuzz v1 rev 0123"},
		{SpecIsolated, "", "cfgfuzz v1 rev 0123"},
		{"rev:0123456789012345678901234567890123456789", "", "rev:0123456789012345678901234567890123456789"},
	} {
		if got := nightBuild(&Settings{Current: c.current}, c.files, w); got != c.want {
			t.Errorf("nightBuild(%s, %q) = %q, want %q", c.current, c.files, got, c.want)
		}
	}
	st := &State{Night: "2026-03-01", Current: "cmd:/opt/adapter", Build: "sha256:aaaa"}
	for _, c := range []struct {
		current, build string
		noted          bool
	}{
		{"cmd:/opt/adapter", "sha256:bbbb", true},
		{"cmd:/opt/adapter", "sha256:aaaa", false},
		{"cmd:/opt/other", "sha256:bbbb", false}, // another side: its spec says so
		{"cmd:/opt/adapter", "", false},          // tonight's build unknown
	} {
		s := &StateReport{Night: "2026-03-02"}
		s.noteBuild(st, c.current, c.build)
		if noted := s.PreviousBuild == "sha256:aaaa" && s.PreviousNight == "2026-03-01" && s.BuildNote() != ""; noted != c.noted || s.Build != c.build {
			t.Errorf("%s %s: build %q, previous %q of %q, note %q; want noted %v", c.current, c.build, s.Build, s.PreviousBuild, s.PreviousNight, s.BuildNote(), c.noted)
		}
	}
	s := &StateReport{}
	if s.noteBuild(&State{}, "self", "cfgfuzz v1"); s.PreviousBuild != "" {
		t.Errorf("a state without a build noted %q", s.PreviousBuild)
	}
}
