// provenance_test.go: every written report says which build wrote it,
// when, on which host and on which sides (provenance.go).
package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReportsCarryProvenance(t *testing.T) {
	s := Settings{Seed: 3, Current: "cmd:./my-adapter", Baseline: "rev:v1.2"}
	rep := BuildReport(s, nil)
	dir := t.TempDir()
	before := time.Now().UTC().Truncate(time.Second)
	if err := WriteReports(dir, rep, nil); err != nil {
		t.Fatal(err)
	}
	got := readReport(t, dir).Provenance
	if got == nil {
		t.Fatal("report.json has no provenance")
	}
	date, err := time.Parse(time.RFC3339, got.Date)
	if err != nil || date.Before(before) || date.After(time.Now().Add(time.Second)) {
		t.Errorf("provenance date %q (%v), want the time of writing, RFC 3339", got.Date, err)
	}
	want := runtime.GOOS + "/" + runtime.GOARCH
	if got.Host != want || got.Current != s.Current || got.Baseline != s.Baseline {
		t.Errorf("provenance %+v, want host %s, current %s, baseline %s", got, want, s.Current, s.Baseline)
	}
	if got.Tool.Go != runtime.Version() || got.Tool.Module != "github.com/cfgfuzz/cfgfuzz" || got.Tool.Version == "" {
		t.Errorf("provenance tool %+v, want this build's module, version and toolchain", got.Tool)
	}
	line := got.Line()
	for _, name := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		if name == "report.html" {
			text = strings.ReplaceAll(text, "&#34;", `"`)
		}
		if !strings.Contains(text, line) {
			t.Errorf("%s lacks the provenance line %q", name, line)
		}
	}
	var raw map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(b, &raw); err != nil || raw["provenance"] == nil {
		t.Errorf("report.json has no \"provenance\" object (%v)", err)
	}
}

// The line names the campaign's writer: two builds that print the same
// version (no VCS information) are told apart by it, as merge tells them.
func TestProvenanceLineNamesTheWriter(t *testing.T) {
	p := Provenance{Tool: Build{Module: "m", Version: "(devel)", Go: "go1.x"}, Date: "d", Host: "h", Current: "self",
		Writer: Writer{Format: LogFormat, Build: "(devel) rev abc123"}}
	if line, want := p.Line(), p.Writer.String(); !strings.Contains(line, want) {
		t.Errorf("provenance line %q lacks the writer %q", line, want)
	}
}

func TestBuildString(t *testing.T) {
	b := Build{Module: "m", Version: "v1.0.0", Revision: "abc123", Dirty: true, Go: "go1.x"}
	if s := b.String(); !strings.Contains(s, "v1.0.0") || !strings.Contains(s, "revision abc123+dirty") || !strings.Contains(s, Host()) {
		t.Errorf("Build.String() = %q, want the version, revision abc123+dirty and the host", s)
	}
	b.Revision, b.Dirty = "", false
	if s := b.String(); !strings.Contains(s, "revision unknown: no VCS stamp") {
		t.Errorf("Build.String() without a revision = %q, want it to say the revision is unknown and why", s)
	}
}

// A report that cannot name a side's revision, or its own build's, says
// why: for this tree's structurizer (self, isolated) and for cfgfuzz, a
// binary without a VCS stamp (as a test binary is); for an external
// command, that cfgfuzz cannot ask it and where a revision can come from.
// The writer's name (WriterOf), which merge and --resume compare, stays
// as it is: its digest stands in for the revision.
func TestRevisionUnknownSaysWhy(t *testing.T) {
	stamped := ThisBuild().Revision != ""
	for _, tc := range []struct{ current, want string }{
		{"self", NoVCSStamp},
		{"isolated", NoVCSStamp},
		{"cmd:./my-adapter", "hello's name"},
	} {
		rep := BuildReport(Settings{Seed: 1, Current: tc.current}, nil)
		dir := t.TempDir()
		if err := WriteReports(dir, rep, nil); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"report.md", "report.html"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.NewReplacer("&#34;", `"`, "&#39;", "'", rep.Provenance.Writer.Build, "WRITER").Replace(string(b))
			if n, why := strings.Count(text, "revision unknown"), strings.Count(text, "revision unknown: "); n != why {
				t.Errorf("%s, current %s: %d of %d \"revision unknown\" do not say why\n%s", name, tc.current, n-why, n, text)
			}
			if (!stamped || strings.HasPrefix(tc.current, "cmd:")) && !strings.Contains(text, tc.want) {
				t.Errorf("%s, current %s: no %q", name, tc.current, tc.want)
			}
		}
	}
}
